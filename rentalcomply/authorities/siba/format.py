"""SIBA (Portugal): the accommodation bulletins (Boletins de Alojamento) of a stay.

One `Boletim_Alojamento` per foreign guest (EU citizens included; Portuguese citizens are not
filed), after the establishment (`Unidade_Hoteleira`) and before the delivery (`Envio`), in the
namespace `http://sef.pt/BAws`; validated against the XSD shipped beside this module. Dates are
written `YYYY-MM-DDT00:00:00`; countries by their ICAO 9303 code, which is ISO alpha-3 except
Germany's `D`; document types `P` passport, `B` identity card, `O` other. The service takes the
XML base64-encoded (`pack`).

The establishment's details come from the property's settings (`unidade_hoteleira`, its 9-digit
tax number; `estabelecimento`; optionally `abreviatura`, `morada`, `localidade`, `codigo_postal`,
`zona_postal`, `telefone`, `fax`, `nome_contacto`, `email_contacto`).
"""
from __future__ import annotations

import base64
import datetime as dt

from lxml import etree

from rentalcomply.core import xmlschemas
from rentalcomply.filings.records import Problem, SchemaError, _date, _value, alpha3

NS = "http://sef.pt/BAws"
ICAO = {"DEU": "D"}
DOCUMENT_TYPES = {"passport": "P", "id_card": "B"}
# The property settings the bulletins read (strings, as the property's police settings keep them).
SETTING_FIELDS = ("unidade_hoteleira", "estabelecimento", "nome", "abreviatura", "morada", "localidade",
                  "codigo_postal", "zona_postal", "telefone", "fax", "nome_contacto", "email_contacto",
                  "numero_ficheiro")
UNIT_FIELDS = (("Abreviatura", "abreviatura", 15), ("Morada", "morada", 40),
               ("Localidade", "localidade", 30), ("Codigo_Postal", "codigo_postal", 4),
               ("Zona_Postal", "zona_postal", 3), ("Telefone", "telefone", 10), ("Fax", "fax", 10),
               ("Nome_Contacto", "nome_contacto", 40), ("Email_Contacto", "email_contacto", 140))


class SibaDataError(ValueError):
    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(
            (f"guest {p.index + 1}: " if p.index is not None else "") + f"{p.field}: {p.message}"
            for p in problems))


def country(code: str | None) -> str | None:
    three = alpha3(code)
    return ICAO.get(three, three) if three else None


def filed_guests(guests: list) -> list:
    """The guests SIBA takes, in party order: everyone who is not a Portuguese citizen."""
    return [g for g in sorted(guests, key=lambda g: g.index)
            if (_value(g.data, "nationality") or "").upper() not in ("PT", "PRT")]


def file_number(settings: dict, filing) -> int:
    """The delivery's number: the property's `numero_ficheiro` when set, else the attempt."""
    value = str(settings.get("numero_ficheiro") or "").strip()
    return int(value) if value.isdigit() and int(value) >= 1 else max(int(filing.attempt or 1), 1)


def _sub(parent, tag, text=None):
    element = etree.SubElement(parent, f"{{{NS}}}{tag}")
    if text is not None:
        element.text = str(text)
    return element


def _day(day: dt.date) -> str:
    return f"{_date(day).isoformat()}T00:00:00"  # a datetime counts by its day


def build_bulletins(settings: dict, stay, guests: list, *, file_number: int = 1,
                    movement: dt.date | None = None) -> bytes:
    """The BAL XML of the stay's foreign guests; SibaDataError names what is missing."""
    problems: list[Problem] = []
    unit = str(settings.get("unidade_hoteleira") or "").strip()
    establishment = str(settings.get("estabelecimento") or "").strip()
    if not (unit.isdigit() and len(unit) == 9):
        problems.append(Problem(None, "unidade_hoteleira", "the 9-digit tax number of the unit is not set"))
    if not (establishment.isdigit() and len(establishment) <= 4):
        problems.append(Problem(None, "estabelecimento", "the SIBA establishment number is not set"))
    filed = filed_guests(guests)
    if not filed:
        raise SibaDataError(problems + [Problem(None, "guests", "no foreign guest to file")])
    root = etree.Element(f"{{{NS}}}MovimentoBAL", nsmap={None: NS})
    hotel = _sub(root, "Unidade_Hoteleira")
    _sub(hotel, "Codigo_Unidade_Hoteleira", unit)
    _sub(hotel, "Estabelecimento", establishment)
    _sub(hotel, "Nome", (settings.get("nome") or stay.property_name)[:40])
    for tag, name, width in UNIT_FIELDS:
        _sub(hotel, tag, str(settings.get(name) or "")[:width])
    for guest in filed:
        data, index = guest.data, guest.index
        boletim = _sub(root, "Boletim_Alojamento")
        values = {
            "Apelido": " ".join(filter(None, [_value(data, "last_name"), _value(data, "second_last_name")])),
            "Nome": _value(data, "first_name"),
            "Nacionalidade": country(_value(data, "nationality")),
        }
        for tag, field in (("Apelido", "last_name"), ("Nome", "first_name"), ("Nacionalidade", "nationality")):
            if not values[tag]:
                problems.append(Problem(index, field, "missing"))
            _sub(boletim, tag, (values[tag] or "")[:40])
        birth = _date(data.get("birth_date"))
        if birth is None:
            problems.append(Problem(index, "birth_date", "missing"))
        _sub(boletim, "Data_Nascimento", _day(birth) if birth else "")
        place = _value(data, "birth_place", "birth_municipality")
        if place:
            _sub(boletim, "Local_Nascimento", place[:30])
        number = (_value(data, "document_number") or "").replace(" ", "")
        issuer = country(_value(data, "document_country"))
        if not number:
            problems.append(Problem(index, "document_number", "every foreign guest is filed with a document"))
        if not issuer:
            problems.append(Problem(index, "document_country", "missing"))
        _sub(boletim, "Documento_Identificacao", number[:16])
        _sub(boletim, "Pais_Emissor_Documento", issuer or "")
        _sub(boletim, "Tipo_Documento", DOCUMENT_TYPES.get(_value(data, "document_type") or "", "O"))
        _sub(boletim, "Data_Entrada", _day(stay.arrival))
        _sub(boletim, "Data_Saida", _day(stay.departure))
        residence = country(_value(data, "residence_country", "address_country"))
        residence_place = _value(data, "residence_place", "address_city", "city")
        if not residence:
            problems.append(Problem(index, "residence_country", "missing"))
        if not residence_place:
            problems.append(Problem(index, "residence_place", "missing"))
        _sub(boletim, "Pais_Residencia_Origem", residence or "")
        _sub(boletim, "Local_Residencia_Origem", (residence_place or "")[:30])
    envio = _sub(root, "Envio")
    _sub(envio, "Numero_Ficheiro", max(int(file_number), 1))
    _sub(envio, "Data_Movimento", _day(movement or stay.arrival))
    if problems:
        raise SibaDataError(problems)
    xml = (b'<?xml version="1.0" encoding="UTF-8"?>\n'
           + etree.tostring(root, encoding="UTF-8", xml_declaration=False, pretty_print=True))
    validate(xml)
    return xml


def _schema() -> etree.XMLSchema:
    return xmlschemas.schema("rentalcomply.authorities.siba", "xsd", "siba_bal.xsd")


def validate(xml: bytes) -> None:
    try:
        root = etree.fromstring(xml, parser=etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError as exc:
        raise SchemaError(f"not well-formed: {exc}") from None
    schema = _schema()
    if not schema.validate(root):
        raise SchemaError("; ".join(f"line {e.line}: {e.message}" for e in schema.error_log))


def pack(xml: bytes) -> str:
    return base64.b64encode(xml).decode("ascii")


def build_file(settings_for_property: dict, stay, guests: list, filing) -> tuple[str, str, bytes]:
    """(filename, content_type, bytes) of an arrival or departure filing, for hosts who upload
    it by hand (the `file` connector); PermanentError names what is missing."""
    from rentalcomply.filings.connector import PermanentError

    movement = stay.departure if filing.kind == "departure" else stay.arrival
    number = file_number(settings_for_property, filing)
    try:
        xml = build_bulletins(settings_for_property, stay, guests, file_number=number, movement=movement)
    except SibaDataError as exc:
        raise PermanentError(str(exc)) from None
    return f"boletins-{filing.kind}-{stay.reference}.xml", "application/xml", xml
