"""SES.Hospedajes (Spain): the traveller report sent through the Ministry's SOAP service.

`submit` packs the XML of the filing (formats/ses.py: zipped, base64) into a `comunicacion`
(header: codigoArrendador, aplicacion, tipoOperacion A to create or B to cancel, tipoComunicacion
PV for the traveller report or RH for the reservation; HTTP Basic authentication). The service
only queues it: `codigo` 0 and a batch id (`lote`), so `submit` answers `pending` with the lote;
`poll` asks `consultaLote` until the batch is processed and answers the final outcome.

One booking is one communication, and SES records a communication whole or refuses it whole:
when it refuses, the error names the person at fault where it can ("persona 2", counted from 1),
and that guest carries the reason; none of the party is recorded until it is filed again.

Filing kinds: "arrival" (PV), "reservation" (RH) and "cancellation" (tipoOperacion B, whose
`filing.remote_id` is, at submit, the code of the communication it cancels: the `reference` of
that filing's final outcome).
"""
from __future__ import annotations

import re

from rentalcomply.police.connectors import _soap_es_pt as soap
from rentalcomply.police.connectors.base import (AuthError, Connector, Filing, GuestOutcome, Outcome,
                                                 PermanentError, TransientError)
from rentalcomply.police.formats import ses as fmt

NS = "http://www.soap.servicios.hospedajes.mir.es/comunicacion"
BINDING = f"{{{NS}}}ComunicacionPortSoap11"
WSDL = "ses_comunicacion.wsdl"
APPLICATION = "RentalComply"
POLL_AFTER_SECONDS = 120
# Return codes of the service (its manual, section 5) that no retry can mend.
AUTH_CODES = {10107: "user or password refused", 10119: "the landlord may not make this communication",
              10120: "the landlord is not enabled for the web service"}
RETRY_CODES = {10999}
PERSON_RE = re.compile(r"persona\D{0,12}?(\d{1,3})", re.IGNORECASE)


class SesConnector(Connector):
    name = "ses_hospedajes"
    credential_fields = ("user", "password")
    setting_fields = ("codigo_arrendador", "codigo_establecimiento")

    # --- the file ---------------------------------------------------------------------------------

    def document(self, settings: dict, stay, guests: list, filing: Filing) -> tuple[bytes, str, str]:
        """(xml, tipoOperacion, tipoComunicacion or "") of a filing; SesDataError when the party
        cannot make a valid one."""
        if filing.kind == "cancellation":
            return fmt.build_cancellation([filing.remote_id] if filing.remote_id else []), "B", ""
        if filing.kind == "reservation":
            return fmt.build_reservation(settings, stay, guests), "A", "RH"
        return fmt.build_traveller_report(settings, stay, guests), "A", "PV"

    def build_file(self, settings_for_property, stay, guests, filing):
        try:
            xml, _, kind = self.document(settings_for_property, stay, guests, filing)
        except fmt.SesDataError as exc:
            raise PermanentError(str(exc)) from None
        name = {"PV": "parte-viajeros", "RH": "reserva-hospedaje"}.get(kind, "anulacion")
        return f"{name}-{stay.reference}.xml", "application/xml", xml

    # --- the service ------------------------------------------------------------------------------

    def submit(self, credentials, settings_for_property, stay, guests, filing, timeout):
        settings = settings_for_property
        try:
            xml, operation, kind = self.document(settings, stay, guests, filing)
        except fmt.SesDataError as exc:
            return _refused_before_sending(exc)
        header = {"codigoArrendador": _required(settings, "codigo_arrendador"),
                  "aplicacion": settings.get("aplicacion") or APPLICATION,
                  "tipoOperacion": operation}
        if kind:
            header["tipoComunicacion"] = kind
        _, service = self._service(credentials, settings, timeout)
        with soap.calling("SES.Hospedajes"):
            answer = service.comunicacion(peticion={"cabecera": header, "solicitud": fmt.pack(xml)})
        code, text = int(answer.respuesta.codigo), answer.respuesta.descripcion or ""
        _raise_for(code, text)
        lote = answer.respuesta.lote
        if not lote:
            raise TransientError("SES.Hospedajes accepted the communication without a batch id")
        return Outcome(state="pending", reference=lote, remote_id=lote,
                       poll_after_seconds=POLL_AFTER_SECONDS)

    def poll(self, credentials, settings_for_property, filing, timeout):
        if not filing.remote_id:
            raise PermanentError("no SES batch to ask about")
        _, service = self._service(credentials, settings_for_property, timeout)
        with soap.calling("SES.Hospedajes"):
            answer = service.consultaLote(codigosLote={"lote": [filing.remote_id]})
        _raise_for(int(answer.respuesta.codigo), answer.respuesta.descripcion or "")
        batch = next((r for r in (answer.resultado or []) if r.lote == filing.remote_id), None)
        results = (batch.resultadoComunicaciones.resultadoComunicacion
                   if batch is not None and batch.resultadoComunicaciones is not None else [])
        if not results:  # queued or being processed: ask again later
            return Outcome(state="pending", reference=filing.remote_id, remote_id=filing.remote_id,
                           poll_after_seconds=POLL_AFTER_SECONDS)
        result = sorted(results, key=lambda r: r.orden)[0]
        if result.codigoComunicacion:
            return Outcome(state="submitted", reference=result.codigoComunicacion,
                           remote_id=filing.remote_id)
        message = result.error or batch.descEstado or "refused"
        match = PERSON_RE.search(message)
        if not match:
            raise PermanentError(f"SES.Hospedajes refused the communication: "
                                 f"{result.tipoError or ''} {message}".strip())
        return Outcome(state="rejected", reference=filing.remote_id, remote_id=filing.remote_id,
                       guests=[GuestOutcome(index=int(match.group(1)) - 1, accepted=False,
                                            code=result.tipoError, message=message)])

    def fetch_catalogue(self, credentials, settings_for_property, name: str, timeout: float) -> dict[str, str]:
        """{code: description} of the code list the service's `catalogo` operation answers for
        `name` (the list's name as the service's manual gives it); feed it to
        `rentalcomply.police.codes.es.with_section` to refresh a catalogue."""
        _, service = self._service(credentials, settings_for_property, timeout)
        with soap.calling("SES.Hospedajes"):
            answer = service.catalogo(peticion={"catalogo": name})
        _raise_for(int(answer.resultado.codigo), answer.resultado.descripcion or "")
        rows = answer.respuesta.resultado.tupla if answer.respuesta and answer.respuesta.resultado else []
        return {row.codigo.strip(): (row.descripcion or "").strip() for row in rows or [] if row.codigo}

    def _service(self, credentials, settings, timeout):
        user, password = credentials.get("user"), credentials.get("password")
        if not user or not password:
            raise AuthError("the SES.Hospedajes user and password are not set")
        return soap.service(WSDL, BINDING, settings.get("endpoint_url"), timeout,
                            basic_auth=(user, password))


def _required(settings: dict, name: str) -> str:
    value = str(settings.get(name) or "").strip()
    if not value:
        raise PermanentError(f"the property's SES setting {name} is not set")
    return value


def _raise_for(code: int, text: str) -> None:
    if code == 0:
        return
    if code in AUTH_CODES:
        raise AuthError(f"SES.Hospedajes {code}: {text or AUTH_CODES[code]}")
    if code in RETRY_CODES:
        raise TransientError(f"SES.Hospedajes {code}: {text}")
    raise PermanentError(f"SES.Hospedajes {code}: {text}")


def _refused_before_sending(error: fmt.SesDataError) -> Outcome:
    """Guest data that cannot make a valid communication is refused here, per guest, as the
    authority would; a problem of the property's settings refuses the whole filing."""
    general = [p for p in error.problems if p.index is None]
    if general:
        raise PermanentError(str(fmt.SesDataError(general)))
    guests: dict[int, GuestOutcome] = {}
    for problem in error.problems:
        outcome = guests.setdefault(problem.index, GuestOutcome(problem.index, False, problem.field, ""))
        outcome.message = "; ".join(filter(None, [outcome.message, f"{problem.field}: {problem.message}"]))
    return Outcome(state="rejected", guests=[guests[i] for i in sorted(guests)])


CONNECTOR = SesConnector()
