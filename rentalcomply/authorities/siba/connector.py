"""SIBA (Portugal): the accommodation bulletins sent through `EntregaBoletinsAlojamento`.

SOAP 1.2 with the unit's tax number (`UnidadeHoteleira`), its establishment number and access key
(`ChaveAcesso`), and the bulletins' XML (formats/siba.py) in base64. The answer is `0`, or a list
of (line, return code, description): line N is the N-th bulletin sent, so the guest it names
carries the reason and the others are accepted. Portuguese citizens are not filed: they are
reported accepted with the code NOT_FILED, and a party of Portuguese citizens only sends nothing.
A line 0 or an error about the access key refuses the credentials.

FilingRef kinds: "arrival" and "departure", each its own delivery (the departure's movement date is
the departure day).
"""
from __future__ import annotations

from lxml import etree

from rentalcomply.filings import soap
from rentalcomply.filings.connector import (AuthError, Connector, GuestOutcome, Outcome,
                                                 PermanentError)
from rentalcomply.authorities.siba import format as fmt
from rentalcomply.filings.records import SchemaError

BINDING = "{http://sef.pt/}BoletinsAlojamentoSoap12"
WSDL = (__package__, "siba_boletins.wsdl")
AUTH_WORDS = ("chave", "acesso", "unidade hoteleira", "estabelecimento", "autentica")


class SibaConnector(Connector):
    name = "siba"
    credential_fields = ("chave_acesso",)
    setting_fields = fmt.SETTING_FIELDS

    def _xml(self, settings, stay, guests, filing) -> bytes:
        movement = stay.departure if filing.kind == "departure" else stay.arrival
        number = fmt.file_number(settings, filing)
        return fmt.build_bulletins(settings, stay, guests, file_number=number, movement=movement)

    def build_file(self, settings_for_property, stay, guests, filing):
        return fmt.build_file(settings_for_property, stay, guests, filing)

    def submit(self, credentials, settings_for_property, stay, guests, filing, timeout):
        settings = settings_for_property
        filed = fmt.filed_guests(guests)
        not_filed = [GuestOutcome(g.index, True, "NOT_FILED", "Portuguese citizens are not filed")
                     for g in guests if g not in filed]
        if not filed:
            return Outcome(state="submitted", guests=sorted(not_filed, key=lambda g: g.index))
        try:
            xml = self._xml(settings, stay, guests, filing)
        except fmt.SibaDataError as exc:
            general = [p for p in exc.problems if p.index is None]
            if general:
                raise PermanentError(str(fmt.SibaDataError(general))) from None
            refused = {}
            for problem in exc.problems:
                outcome = refused.setdefault(problem.index, GuestOutcome(problem.index, False, problem.field, ""))
                outcome.message = "; ".join(filter(None, [outcome.message, f"{problem.field}: {problem.message}"]))
            return Outcome(state="rejected", guests=[refused[i] for i in sorted(refused)])
        except SchemaError as exc:  # a bug of ours: never sent, and no retry will mend it
            raise PermanentError(f"the SIBA bulletins do not match their schema: {exc}") from None
        key = str(credentials.get("chave_acesso") or "").strip()
        if not key:
            raise AuthError("the SIBA access key is not set")
        _, service = soap.service(WSDL, BINDING, settings.get("endpoint_url"), timeout)
        with soap.calling("SIBA", files=True):
            answer = service.EntregaBoletinsAlojamento(
                UnidadeHoteleira=str(settings["unidade_hoteleira"]),
                Estabelecimento=int(settings["estabelecimento"]), ChaveAcesso=key, Boletins=fmt.pack(xml))
        errors = parse_answer(answer)
        if not errors:
            outcomes = [GuestOutcome(g.index, True) for g in filed] + not_filed
            return Outcome(state="submitted", guests=sorted(outcomes, key=lambda g: g.index))
        by_line: dict[int, GuestOutcome] = {}
        for line, code, text in errors:
            if line < 1 or line > len(filed):
                if any(word in text.lower() for word in AUTH_WORDS):
                    raise AuthError(f"SIBA refused the credentials: {code} {text}")
                raise PermanentError(f"SIBA refused the delivery: {code} {text}")
            guest = filed[line - 1]
            outcome = by_line.setdefault(guest.index, GuestOutcome(guest.index, False, code, ""))
            outcome.message = "; ".join(filter(None, [outcome.message, text]))
        outcomes = list(by_line.values()) + [GuestOutcome(g.index, True) for g in filed
                                             if g.index not in by_line] + not_filed
        return Outcome(state="rejected", guests=sorted(outcomes, key=lambda g: g.index))


def parse_answer(answer) -> list[tuple[int, str, str]]:
    """[] for "0"; else each error as (line, return code, description)."""
    text = (answer or "").strip() if isinstance(answer, str) else str(answer or "").strip()
    if text == "0":
        return []
    try:
        root = etree.fromstring(text.encode("utf-8"),
                                parser=etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError:
        raise PermanentError(f"SIBA answered: {text[:200]}") from None
    errors = []
    for item in root.iter("{*}RetornoBA", "RetornoBA"):
        line = (item.findtext("{*}Linha") or item.findtext("Linha") or "0").strip()
        code = (item.findtext("{*}Codigo_Retorno") or item.findtext("Codigo_Retorno") or "").strip()
        description = (item.findtext("{*}Descricao") or item.findtext("Descricao") or "").strip()
        errors.append((int(line) if line.isdigit() else 0, code, description))
    if not errors:
        raise PermanentError(f"SIBA answered: {text[:200]}")
    return errors


CONNECTOR = SibaConnector()
