"""SES.Hospedajes (Spain): the traveller report sent through the Ministry's SOAP service.

`submit` packs the XML of the filing (formats/ses.py: zipped, base64) into a `comunicacion`
(header: codigoArrendador, aplicacion, tipoOperacion A to create or B to cancel, tipoComunicacion
PV for the traveller report or RH for the reservation; HTTP Basic authentication). The service
only queues it: `codigo` 0 and a batch id (`lote`), so `submit` answers `pending` with the lote;
`poll` asks `consultaLote` until the batch is processed and answers the final outcome.

One booking is one communication, and SES records a communication whole or refuses it whole:
when it refuses, the error names the person at fault where it can ("persona 2", counted from 1
in the order sent), and that guest carries the reason; the others are reported not recorded, and
the whole party is filed again once the data is fixed. An error that names no person fails the
filing with the authority's text. The filing's `remote_id` is the batch id followed by the guests
sent (`<lote>;0-3`), so the poll knows who "persona N" is and whom an acceptance covers.

FilingRef kinds: "arrival" (PV), "reservation" (RH), "cancellation" and "rh_cancellation"
(tipoOperacion B, whose `filing.remote_id` is, at submit, the codes of the communications it
cancels, comma-separated: the `reference` of each one's final outcome).
"""
from __future__ import annotations

import re

from rentalcomply.filings import soap
from rentalcomply.filings.connector import (AuthError, Connector, FilingRef, GuestOutcome, Outcome,
                                                 PermanentError, TransientError)
from rentalcomply.authorities.ses import format as fmt

NS = "http://www.soap.servicios.hospedajes.mir.es/comunicacion"
BINDING = f"{{{NS}}}ComunicacionPortSoap11"
WSDL = (__package__, "ses_comunicacion.wsdl")
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
    setting_fields = fmt.SETTING_FIELDS

    # --- the file ---------------------------------------------------------------------------------

    def document(self, settings: dict, stay, guests: list, filing: FilingRef) -> tuple[bytes, str, str]:
        """(xml, tipoOperacion, tipoComunicacion or "") of a filing; SesDataError when the party
        cannot make a valid one."""
        if filing.kind in ("cancellation", "rh_cancellation"):
            # The codes of the communications it cancels, comma-separated (service.attempt).
            return fmt.build_cancellation((filing.remote_id or "").split(",")), "B", ""
        if filing.kind == "reservation":
            return fmt.build_reservation(settings, stay, guests), "A", "RH"
        return fmt.build_traveller_report(settings, stay, guests), "A", "PV"

    def build_file(self, settings_for_property, stay, guests, filing):
        return fmt.build_file(settings_for_property, stay, guests, filing)

    # --- the service ------------------------------------------------------------------------------

    def submit(self, credentials, settings_for_property, stay, guests, filing, timeout):
        settings = settings_for_property
        try:
            xml, operation, kind = self.document(settings, stay, guests, filing)
        except fmt.SesDataError as exc:
            return _refused_before_sending(exc)
        except fmt.SchemaError as exc:  # a bug of ours: never sent, and no retry will mend it
            raise PermanentError(f"the SES document does not match its schema: {exc}") from None
        header = {"codigoArrendador": _required(settings, "codigo_arrendador"),
                  "aplicacion": settings.get("aplicacion") or APPLICATION,
                  "tipoOperacion": operation}
        if kind:
            header["tipoComunicacion"] = kind
        _, service = self._service(credentials, settings, timeout)
        with soap.calling("SES.Hospedajes", files=True):
            answer = service.comunicacion(peticion={"cabecera": header, "solicitud": fmt.pack(xml)})
        code, text = int(answer.respuesta.codigo), answer.respuesta.descripcion or ""
        _raise_for(code, text)
        lote = answer.respuesta.lote
        if not lote:
            raise TransientError("SES.Hospedajes accepted the communication without a batch id")
        sent = [g.index for g in sorted(guests, key=lambda g: g.index)] if kind == "PV" else []
        return Outcome(state="pending", reference=lote, remote_id=_remote_id(lote, sent),
                       poll_after_seconds=POLL_AFTER_SECONDS)

    def poll(self, credentials, settings_for_property, filing, timeout):
        if not filing.remote_id:
            raise PermanentError("no SES batch to ask about")
        lote, sent = _parse_remote_id(filing.remote_id)
        _, service = self._service(credentials, settings_for_property, timeout)
        with soap.calling("SES.Hospedajes"):
            answer = service.consultaLote(codigosLote={"lote": [lote]})
        _raise_for(int(answer.respuesta.codigo), answer.respuesta.descripcion or "")
        batch = next((r for r in (answer.resultado or []) if r.lote == lote), None)
        results = (batch.resultadoComunicaciones.resultadoComunicacion
                   if batch is not None and batch.resultadoComunicaciones is not None else [])
        if not results:  # queued or being processed: ask again later
            return Outcome(state="pending", reference=lote, remote_id=filing.remote_id,
                           poll_after_seconds=POLL_AFTER_SECONDS)
        result = sorted(results, key=lambda r: r.orden)[0]
        if result.codigoComunicacion:
            return Outcome(state="submitted", reference=result.codigoComunicacion,
                           remote_id=filing.remote_id,
                           guests=[GuestOutcome(index, True) for index in sent])
        message = result.error or batch.descEstado or "refused"
        match = PERSON_RE.search(message)
        position = int(match.group(1)) if match else 0
        if not 1 <= position <= len(sent):
            raise PermanentError(f"SES.Hospedajes refused the communication: "
                                 f"{result.tipoError or ''} {message}".strip())
        at_fault = sent[position - 1]
        others = "not recorded: SES refused the communication for another guest's data"
        return Outcome(state="rejected", reference=lote, remote_id=filing.remote_id,
                       guests=[GuestOutcome(index, False, result.tipoError, message) if index == at_fault
                               else GuestOutcome(index, False, None, others) for index in sent])

    def fetch_catalogue(self, credentials, settings_for_property, name: str, timeout: float) -> dict[str, str]:
        """{code: description} of the code list the service's `catalogo` operation answers for
        `name` (the list's name as the service's manual gives it); feed it to
        `rentalcomply.codes.es.with_section` to refresh a catalogue."""
        _, service = self._service(credentials, settings_for_property, timeout)
        with soap.calling("SES.Hospedajes"):
            answer = service.catalogo(peticion={"catalogo": name})
        _raise_for(int(answer.resultado.codigo), answer.resultado.descripcion or "")
        rows = answer.respuesta.resultado.tupla if answer.respuesta and answer.respuesta.resultado else []
        return {row.codigo.strip(): (row.descripcion or "").strip() for row in rows or [] if row.codigo}

    def check_credentials(self, credentials, settings_for_property, timeout):
        # SES offers no token: a `catalogo` call is authenticated like a communication (HTTP
        # Basic; 401 or codes 10107/10119/10120 for a refused landlord) and files nothing.
        try:
            self.fetch_catalogue(credentials, settings_for_property, "TIPO_DOCUMENTO", timeout)
        except PermanentError:  # an answer about the catalogue: the login itself was accepted
            pass
        return "SES.Hospedajes accepted the user and password (catalogo)"

    def _service(self, credentials, settings, timeout):
        user, password = credentials.get("user"), credentials.get("password")
        if not user or not password:
            raise AuthError("the SES.Hospedajes user and password are not set")
        return soap.service(WSDL, BINDING, settings.get("endpoint_url"), timeout,
                            basic_auth=(user, password))


def _remote_id(lote: str, sent: list[int]) -> str:
    """The batch id, and which guests went into the communication in which order, so that the
    poll can tell which guest "persona N" is (a re-filing may send only part of the party)."""
    if not sent:
        return lote
    runs: list[list[int]] = []
    for index in sent:  # "0-3,5": runs keep it short (the filing keeps 100 characters)
        if runs and index == runs[-1][1] + 1:
            runs[-1][1] = index
        else:
            runs.append([index, index])
    return lote + ";" + ",".join(f"{a}-{b}" if b > a else str(a) for a, b in runs)


def _parse_remote_id(remote_id: str) -> tuple[str, list[int]]:
    lote, _, runs = remote_id.partition(";")
    sent: list[int] = []
    for run in filter(None, runs.split(",")):
        first, _, last = run.partition("-")
        if first.isdigit() and (not last or last.isdigit()):
            sent.extend(range(int(first), int(last or first) + 1))
    return lote, sent


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
