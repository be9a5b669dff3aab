"""ROSS 1000's web service: `inviaMovimentazione`, one month's file sent, one answer per record.

The protocol (shared/domain/updates-2026-11.md §1.2, from an unchanged copy of the published
WSDL, `checkinV2?wsdl`, and two independent clients that agree with it):
- SOAP 1.1, document/literal, POSTed to the endpoint without `?wsdl`, `SOAPAction: ""`;
- HTTP Basic with the "transmission" credentials the regional tourism office gives;
- the body element `inviaMovimentazione` in namespace `http://checkin.ws.service.turismo5.gies.it/`,
  holding the month's `xmlImportDati` (xmlfile.py) renamed `movimentazione`, its children
  unqualified (the schema's elementFormDefault is "unqualified");
- the answer `inviaMovimentazioneResponse/return/risultatiGiorno*`, each day's records under
  `arrivi/arrivo`, `partenze/partenza`, `prenotazioni/prenotazione` and `retifiche/eliminazione`
  (the response schema spells it with one "t"), each a `risultato{idswh, successo, errore?}`.

The envelope is written with lxml rather than zeep (filings/soap.py): the service's WSDL is not
shipped, only its request types (xsd/checkin.xsd), and the month's file is already built and
validated, so the request is that file wrapped in three elements. The HTTP goes out through
core/netguard.py as every other authority's does, with one deadline for the whole exchange.

Resending a month is safe: the service keys each record by its idswh and a record sent again
replaces the one it had (note §1.3, how a correction is made). So a timeout, whose request may
have arrived, is a plain TransientError to retry, not an UncertainError as for Alloggiati.
Nothing here logs a body: the file holds guests' names and birth dates.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

from lxml import etree

from rentalcomply.authorities.ross1000 import xmlfile
from rentalcomply.core import netguard
from rentalcomply.filings.connector import AuthError, PermanentError, TransientError

SOAP_ENV = "http://schemas.xmlsoap.org/soap/envelope/"
NAMESPACE = "http://checkin.ws.service.turismo5.gies.it/"
OPERATION = "inviaMovimentazione"
BODY_ELEMENT = "movimentazione"
# The answer's groups and the record kind each holds; `retifiche` is the response schema's
# spelling (the request says `rettifiche`).
RESULT_GROUPS = {"arrivi": "arrivo", "partenze": "partenza", "prenotazioni": "prenotazione",
                 "retifiche": "eliminazione"}
# A month of a busy structure answers a few hundred records; far more is no answer of this
# service.
MAX_ANSWER_BYTES = 5_000_000
SERVICE = "ROSS 1000"


@dataclass(frozen=True)
class GuestResult:
    """The service's verdict on one record of the file."""
    idswh: str
    kind: str  # arrivo | partenza | prenotazione | eliminazione
    accepted: bool
    error: str = ""  # the service's words when refused


def envelope(xml: bytes) -> bytes:
    """The SOAP request carrying the month's file (xmlfile.build's bytes) as `movimentazione`."""
    try:
        month = etree.fromstring(xml, parser=_parser())
    except etree.XMLSyntaxError as exc:
        raise PermanentError(f"the month's file is not XML: {exc}") from None
    if month.tag != xmlfile.ROOT:
        raise PermanentError(f"the month's file starts with <{month.tag}>, not <{xmlfile.ROOT}>")
    root = etree.Element(f"{{{SOAP_ENV}}}Envelope", nsmap={"S": SOAP_ENV})
    body = etree.SubElement(root, f"{{{SOAP_ENV}}}Body")
    call = etree.SubElement(body, f"{{{NAMESPACE}}}{OPERATION}", nsmap={"ns2": NAMESPACE})
    month.tag = BODY_ELEMENT
    call.append(month)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def send_month(endpoint: str, username: str, password: str, xml: bytes,
               timeout: float) -> list[GuestResult]:
    """Send the month's file; the service's answer for each record, in its order.

    AuthError: the credentials are missing or refused (HTTP 401/403). TransientError: no answer
    in time, no connection, a server error (5xx, a SOAP fault of the server). PermanentError: the
    address is wrong or refused, the service refused the request (a client SOAP fault), or its
    answer cannot be read. A record the service refused is no error here: its GuestResult says
    so, with the service's words."""
    if not endpoint:
        raise PermanentError(f"the {SERVICE} address is not set for this region")
    if not username or not password:
        raise AuthError(f"the {SERVICE} transmission user and password are not both set")
    endpoint = endpoint.split("?", 1)[0]  # the WSDL's address is the endpoint plus ?wsdl
    token = base64.b64encode(f"{username}:{password}".encode("utf-8")).decode("ascii")
    headers = {"Content-Type": "text/xml; charset=utf-8", "SOAPAction": '""',
               "Authorization": f"Basic {token}", "Accept": "text/xml"}
    try:
        # The endpoint is a server setting (regions.py's published default or the administrator's
        # own), never API input: a service on the LAN or a test double on loopback is allowed.
        answer = netguard.fetch(endpoint, method="POST", body=envelope(xml), headers=headers,
                                timeout=timeout, allow_private=True, max_bytes=MAX_ANSWER_BYTES)
    except netguard.FetchTimeout:
        raise TransientError(f"{SERVICE} did not answer in time") from None
    except netguard.ResponseTooLarge:
        raise PermanentError(f"{SERVICE} answered more than {MAX_ANSWER_BYTES:,} bytes, which is "
                             "no answer of this operation") from None
    except netguard.FetchError as exc:
        if exc.permanent:
            raise PermanentError(f"the {SERVICE} address is refused: {exc}") from None
        raise TransientError(f"{SERVICE} cannot be reached: {exc}") from None
    if answer.status in (401, 403):
        raise AuthError(f"{SERVICE} refused the transmission credentials (HTTP {answer.status})")
    return read_answer(answer.status, answer.body)


def read_answer(status: int, body: bytes) -> list[GuestResult]:
    """The records of an `inviaMovimentazioneResponse`, or the error its status or fault means."""
    root = _xml(body)
    fault = root.find(f"{{{SOAP_ENV}}}Body/{{{SOAP_ENV}}}Fault") if root is not None else None
    if fault is not None:
        code = (fault.findtext("faultcode") or "").strip()
        text = (fault.findtext("faultstring") or "").strip() or "no reason given"
        if code.split(":")[-1].lower() in ("server", "receiver") or status >= 500 and not code:
            raise TransientError(f"{SERVICE} failed: {text}")
        raise PermanentError(f"{SERVICE} refused the month: {text}")
    if status >= 500 or status in (408, 429):
        raise TransientError(f"{SERVICE} answered HTTP {status}")
    if status != 200:
        raise PermanentError(f"{SERVICE} answered HTTP {status}")
    if root is None:
        raise PermanentError(f"{SERVICE} answered something that is not XML")
    response = root.find(f"{{{SOAP_ENV}}}Body/{{{NAMESPACE}}}{OPERATION}Response")
    if response is None:
        raise PermanentError(f"{SERVICE} answered without an {OPERATION}Response")
    results = []
    returned = response.find("return")
    for day in (returned if returned is not None else []):
        if day.tag != "risultatiGiorno":
            continue
        for group, kind in RESULT_GROUPS.items():
            for record in day.findall(f"{group}/{kind}"):
                results.append(_result(record, kind))
    return results


def refused(results: list[GuestResult]) -> list[GuestResult]:
    return [result for result in results if not result.accepted]


def by_guest(results: list[GuestResult]) -> list[GuestResult]:
    """One verdict per idswh, in the order first answered: a guest is answered once for the
    arrival and once for the departure; a refusal of either is the guest's (its error kept)."""
    verdicts: dict[str, GuestResult] = {}
    for result in results:
        kept = verdicts.get(result.idswh)
        if kept is None or (kept.accepted and not result.accepted):
            verdicts[result.idswh] = result
    return list(verdicts.values())


def _result(record: etree._Element, kind: str) -> GuestResult:
    idswh = (record.findtext("idswh") or "").strip()
    success = (record.findtext("successo") or "").strip().lower()
    if not idswh or success not in ("true", "false", "1", "0"):
        raise PermanentError(f"{SERVICE} answered a {kind} result without its idswh or outcome")
    accepted = success in ("true", "1")
    error = " ".join((record.findtext("errore") or "").split())
    if not accepted and not error:
        error = f"{SERVICE} refused it without giving a reason"
    return GuestResult(idswh=idswh, kind=kind, accepted=accepted, error="" if accepted else error)


def _parser() -> etree.XMLParser:
    # An answer (or a file) never needs a DTD or an entity: refusing them keeps a hostile or
    # broken server from expanding one.
    return etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False,
                           load_dtd=False)


def _xml(body: bytes) -> etree._Element | None:
    try:
        return etree.fromstring(body, parser=_parser()) if body else None
    except etree.XMLSyntaxError:
        return None
