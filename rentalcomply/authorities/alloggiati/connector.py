"""Alloggiati Web (Polizia di Stato, Italy): the SOAP service, through zeep and the WSDL shipped
in the package.

One submission: a token (`GenerateToken(Utente, Password, WsKey)`, kept until its `expires` and
renewed when the service calls it expired), `Test` of every line, `Send` of the lines `Test`
found valid, then `Ricevuta` (the receipt PDF of the day so far) kept with the filing. The whole
day's receipt is fetched once the day has ended (`fetch_receipt`, filings/receipts.py). The answer of
`Test` and `Send` is one outcome per line, in the order sent: a line refused by `Test` is never
sent, and the guest's outcome carries the service's error code and text.

The service has no idempotency key: a `Send` whose answer is lost (a timeout after the request
left) raises UncertainError, which is never retried automatically; the window is the duration of
that one `Send` call. Every failure before `Send` (token, `Test`, connection refused) is a
TransientError and safe to retry.

`fetch_tables` asks `Tabella` for the authority's code tables (`Luoghi`: municipalities and
states; `Tipi_Documento`; `Tipi_Alloggiato`), CSV text in the answer, read by codes/.
"""

from __future__ import annotations

import datetime as dt
import threading

from rentalcomply.core import clock
from rentalcomply.filings import soap
from rentalcomply.filings.connector import (AuthError, Connector, Guest, GuestOutcome,
                                                 Outcome, PermanentError, Stay, TransientError,
                                                 UncertainError)
from rentalcomply.authorities.alloggiati import format as records

WSDL = (__package__, "alloggiati.wsdl")
BINDING = "{AlloggiatiService}ServiceSoap"
# Tabella's `tipo` and the tables each answer holds.
TABELLA = {"Luoghi": ("comuni", "stati"), "Tipi_Documento": ("documenti",),
           "Tipi_Alloggiato": ("tipo_alloggiato",)}
# How early a token is renewed before the expiry the service gave.
TOKEN_MARGIN = dt.timedelta(seconds=60)


def _token_expired(result) -> bool:
    text = f"{getattr(result, 'ErroreCod', '') or ''} {getattr(result, 'ErroreDes', '') or ''}"
    return "token" in text.lower()


class AlloggiatiConnector(Connector):
    name = "alloggiati"
    credential_fields = ("user", "password", "wskey")
    setting_fields = ("apartment_id",)

    def __init__(self):
        self._tokens: dict[tuple[str, str], tuple[str, dt.datetime]] = {}
        self._lock = threading.Lock()

    # --- the file (also what the `file` connector builds for Italy) ----------------------------

    def lines(self, settings: dict, stay: Stay, guests: list[Guest]) -> list[str]:
        return records.records(stay, guests, settings.get("apartment_id") or None)

    def build_file(self, settings_for_property, stay, guests, filing):
        data = records.files(self.lines(settings_for_property, stay, guests))
        # More than 1,000 guests in one stay cannot happen (50 at most); the first file is it.
        return (f"alloggiati-{stay.reference}-{filing.kind}.txt", "text/plain; charset=utf-8",
                data[0])

    # --- the service ----------------------------------------------------------------------------

    def _client(self, settings: dict, timeout: float):
        # The transport the SES and SIBA clients use: out through core/netguard.py, one deadline
        # for the whole exchange, no envelope ever logged.
        _, service = soap.service(WSDL, BINDING, settings.get("endpoint_url"), timeout)
        return service

    def _call(self, operation, **kwargs):
        from zeep.exceptions import Fault, TransportError, XMLSyntaxError
        try:
            return operation(**kwargs)
        except soap.Timeout:
            raise TransientError("the service did not answer in time") from None
        except TransientError as exc:
            prefix = "the service is unreachable: "
            if not str(exc).startswith(prefix):
                raise
            raise TransientError(f"the service cannot be reached ({str(exc)[len(prefix):]})") from None
        except TransportError as exc:
            if exc.status_code in (401, 403):
                raise AuthError(f"the service refused the credentials (HTTP {exc.status_code})") from None
            raise TransientError(f"the service answered HTTP {exc.status_code}") from None
        except Fault as exc:
            raise TransientError(f"the service answered a SOAP fault: {exc.message}") from None
        except XMLSyntaxError:
            raise TransientError("the service answered something that is not SOAP") from None

    def _token(self, service, credentials: dict, renew: bool = False) -> str:
        key = (service._binding_options["address"], credentials.get("user", ""))
        with self._lock:
            cached = self._tokens.get(key)
            if cached and not renew and clock.utcnow() < cached[1] - TOKEN_MARGIN:
                return cached[0]
        answer = self._call(service.GenerateToken, Utente=credentials.get("user"),
                            Password=credentials.get("password"), WsKey=credentials.get("wskey"))
        result, info = answer["result"], answer["GenerateTokenResult"]
        if result is None or not result.esito or info is None or not info.token:
            reason = (result.ErroreDes if result is not None else None) or "no token given"
            raise AuthError(f"Alloggiati Web refused the credentials: {reason}")
        # The lifetime the service gave (expires - issued), counted on our clock: the two
        # machines' clocks need not agree.
        lifetime = info.expires - info.issued if info.issued and info.expires else dt.timedelta(0)
        expires = clock.utcnow() + max(lifetime, dt.timedelta(0))
        with self._lock:
            self._tokens[key] = (info.token, expires)
        return info.token

    def _with_token(self, service, credentials: dict, operation: str, **kwargs):
        """Call `operation` with a token; an answer calling the token expired renews it once."""
        for renew in (False, True):
            token = self._token(service, credentials, renew=renew)
            answer = self._call(getattr(service, operation), Utente=credentials.get("user"),
                                token=token, **kwargs)
            result = answer[f"{operation}Result"]
            if result is not None and not result.esito and _token_expired(result) and not renew:
                continue
            return answer
        return answer

    def check_credentials(self, credentials, settings_for_property, timeout):
        # GenerateToken is the service's own check: it answers a token only for a valid user,
        # password and web-service key, and files nothing.
        if not all(credentials.get(name) for name in self.credential_fields):
            raise AuthError("the Alloggiati Web user, password and wskey are not all set")
        self._token(self._client(settings_for_property, timeout), credentials, renew=True)
        return "Alloggiati Web gave a token (GenerateToken)"

    def submit(self, credentials, settings_for_property, stay, guests, filing, timeout):
        missing = [name for name in self.credential_fields if not credentials.get(name)]
        if missing:
            raise AuthError("missing credentials: " + ", ".join(missing))
        ordered = records.ordered(guests)
        lines = self.lines(settings_for_property, stay, guests)
        service = self._client(settings_for_property, timeout)

        tested = self._with_token(service, credentials, "Test",
                                  ElencoSchedine={"string": lines})
        self._check_whole(tested["TestResult"])
        outcomes = self._per_line(tested["result"], ordered)
        valid = [(guest, line) for guest, line, outcome in zip(ordered, lines, outcomes)
                 if outcome.accepted]
        if valid:
            try:
                sent = self._with_token(service, credentials, "Send",
                                        ElencoSchedine={"string": [line for _, line in valid]})
            except TransientError as exc:
                if "in time" in str(exc):
                    raise UncertainError(
                        "Alloggiati Web did not answer the Send in time: the records may have "
                        "been accepted. Check the day's receipt on Alloggiati Web before filing "
                        "again.") from None
                raise
            self._check_whole(sent["SendResult"])
            for (guest, _), outcome in zip(valid, self._per_line(sent["result"],
                                                                 [g for g, _ in valid])):
                if not outcome.accepted:
                    index = next(i for i, o in enumerate(outcomes) if o.index == guest.index)
                    outcomes[index] = outcome
        accepted = [o for o in outcomes if o.accepted]
        receipt = None
        if accepted:
            receipt = self._receipt(service, credentials, stay)
        return Outcome(state="submitted" if len(accepted) == len(outcomes) else "rejected",
                       reference=f"alloggiati:{clock.today().isoformat()}", guests=outcomes,
                       receipt=receipt, receipt_type="application/pdf" if receipt else None)

    def _check_whole(self, result) -> None:
        if result is not None and not result.esito:
            reason = " ".join(part for part in (result.ErroreCod, result.ErroreDes,
                                                result.ErroreDettaglio) if part)
            if _token_expired(result):
                raise AuthError(f"Alloggiati Web refused the token: {reason}")
            raise PermanentError(f"Alloggiati Web refused the submission: {reason}")

    @staticmethod
    def _per_line(result, guests: list[Guest]) -> list[GuestOutcome]:
        details = []
        if result is not None and result.Dettaglio is not None:
            details = list(result.Dettaglio.EsitoOperazioneServizio or [])
        if len(details) != len(guests):
            raise TransientError(f"Alloggiati Web answered {len(details)} outcomes for "
                                 f"{len(guests)} lines")
        return [GuestOutcome(index=guest.index, accepted=bool(item.esito),
                             code=None if item.esito else (item.ErroreCod or None),
                             message=None if item.esito else
                             " ".join(p for p in (item.ErroreDes, item.ErroreDettaglio) if p) or None)
                for guest, item in zip(guests, details)]

    def _receipt(self, service, credentials: dict, stay: Stay) -> bytes | None:
        """The day's receipt PDF; a failure here does not undo an accepted filing."""
        try:
            answer = self._with_token(service, credentials, "Ricevuta",
                                      Data=dt.datetime.combine(clock.today(), dt.time()))
        except (TransientError, AuthError):
            return None
        result = answer["RicevutaResult"]
        if result is None or not result.esito:
            return None
        return answer["PDF"] or None

    def fetch_receipt(self, credentials: dict, settings_for_property: dict, day: dt.date,
                      timeout: float) -> bytes:
        """The receipt PDF of `day` (filings/receipts.py asks once the day has ended, when it
        lists every line the day accepted). AuthError when the credentials are refused;
        TransientError otherwise, the service giving no PDF included: the day's receipt may not
        be ready yet, and asking again later costs nothing."""
        missing = [name for name in self.credential_fields if not credentials.get(name)]
        if missing:
            raise AuthError("missing credentials: " + ", ".join(missing))
        service = self._client(settings_for_property, timeout)
        answer = self._with_token(service, credentials, "Ricevuta",
                                  Data=dt.datetime.combine(day, dt.time()))
        result = answer["RicevutaResult"]
        if result is not None and not result.esito:
            if _token_expired(result):
                raise AuthError("Alloggiati Web refused the token for Ricevuta")
            reason = " ".join(p for p in (result.ErroreCod, result.ErroreDes) if p)
            raise TransientError(f"Alloggiati Web gave no receipt: {reason or 'no reason given'}")
        if not answer["PDF"]:
            raise TransientError("Alloggiati Web answered Ricevuta without a PDF")
        return bytes(answer["PDF"])

    def fetch_tables(self, credentials: dict, settings_for_property: dict,
                     timeout: float) -> dict[str, list]:
        """The authority's code tables, {table: places} (codes/), through `Tabella`.
        PermanentError when an answer is refused or is not a whole table."""
        from rentalcomply import codes
        missing = [name for name in self.credential_fields if not credentials.get(name)]
        if missing:
            raise AuthError("missing credentials: " + ", ".join(missing))
        service = self._client(settings_for_property, timeout)
        found: dict[str, list] = {}
        for tipo, names in TABELLA.items():
            answer = self._with_token(service, credentials, "Tabella", tipo=tipo)
            result = answer["TabellaResult"]
            if result is None or not result.esito:
                self._check_whole(result)
                raise PermanentError(f"Alloggiati Web gave no table {tipo}")
            try:
                tables = codes.read_it_file(answer["CSV"] or "", f"Tabella {tipo}")
            except codes.CodeFileError as exc:
                raise PermanentError(f"Alloggiati Web answered a table that cannot be read: "
                                     f"{exc}") from None
            lacking = [name for name in names if name not in tables]
            if lacking or set(tables) - set(names):
                raise PermanentError(f"Alloggiati Web's table {tipo} holds "
                                     f"{', '.join(sorted(tables))}, not {', '.join(names)}")
            found.update(tables)
        return found

    def forget_tokens(self) -> None:
        with self._lock:
            self._tokens.clear()


CONNECTOR = AlloggiatiConnector()
