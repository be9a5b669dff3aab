"""SES.Hospedajes (Spain, Real Decreto 933/2021): the XML of a communication, checked and packed.

Three documents, each validated against the XSD shipped beside this module before it is sent or
stored (`validate`):
- the traveller report (parte de viajeros, `tipoComunicacion` PV), built from a completed check-in;
- the reservation (reserva de hospedaje, RH), with the contract holder (rol TI);
- the cancellation (`tipoOperacion` B), the codes of the communications it cancels.
The service takes the XML zipped and base64-encoded (`pack`).

Mapping from the check-in party (field names of `rentalcomply.checkin.guests`):
- names as typed (accents kept), cut to the schema's 50 characters; dates ISO; countries ISO
  alpha-3; sex M/F -> H/M and the relationship of a minor through the catalogue
  (`codes/es`);
- document type: a Spanish identity card is `NIF`, a Spanish residence card `NIE`, a passport
  `PAS`, anything else `OTRO`; a minor without a document sends none;
- every adult is filed with their own address and phone or e-mail, which the check-in form asks
  of each (RD 933/2021, annex I, asks each traveller's residence and contact; the schema wants a
  `direccion` in every person). A minor (under 18) is not asked them on the form and is filed
  with the lead guest's: the decree names no residence or contact of a minor's own, and a minor
  travels with the adult responsible for them, whose relationship (`parentesco`) is filed too.
  An adult without their own is refused before sending, never filed at another's address;
- a Spanish address names its municipality by its 5-digit INE code (`codigoMunicipio`), an address
  abroad by name (`nombreMunicipio`).
What the schema cannot say (second surname of a NIF holder, support number of a NIF or NIE, a
document for every adult, a relationship for every minor, an INE code for a Spanish address) is
checked here; `SesDataError` lists each problem with the guest it belongs to.
"""
from __future__ import annotations

import base64
import datetime as dt
import io
import zipfile

from lxml import etree

from rentalcomply.core import xmlschemas
from rentalcomply.codes import es as es_codes
from rentalcomply.filings.records import Problem, SchemaError, _date, _value, alpha3

NS_PARTE = "http://www.neg.hospedajes.mir.es/altaParteHospedaje"
NS_RESERVA = "http://www.neg.hospedajes.mir.es/altaReservaHospedaje"
NS_ANULACION = "http://www.neg.hospedajes.mir.es/anularComunicacion"
SCHEMAS = {NS_PARTE: "ses_parte.xsd", NS_RESERVA: "ses_reserva.xsd", NS_ANULACION: "ses_anulacion.xsd"}
# The property settings the SES documents read (strings, as the property's police settings keep them).
SETTING_FIELDS = ("codigo_arrendador", "codigo_establecimiento", "num_habitaciones", "internet",
                  "tipo_pago", "aplicacion")
ADULT_AGE = 18
MAX_PERSONS = 100  # one communication per booking; far above any party


class SesDataError(ValueError):
    """The party cannot make a valid communication: `problems` says what to fix, per guest."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(
            (f"guest {p.index + 1}: " if p.index is not None else "") + f"{p.field}: {p.message}"
            for p in problems))


# --- the shared pieces ---------------------------------------------------------------------------

def _age(birth: dt.date, day: dt.date) -> int:
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def _sub(parent, tag: str, text=None):
    element = etree.SubElement(parent, tag)
    if text is not None:
        element.text = str(text)
    return element


def _serialise(root) -> bytes:
    return (b'<?xml version="1.0" encoding="UTF-8"?>\n'
            + etree.tostring(root, encoding="UTF-8", xml_declaration=False, pretty_print=True))


def document_code(document_type: str | None, document_country: str | None, catalogue: dict) -> str | None:
    if not document_type:
        return None
    if document_type in catalogue["tipo_documento"]:
        return document_type
    country = (document_country or "").upper()
    if country in ("ES", "ESP"):
        if document_type == "id_card":
            return "NIF"
        if document_type == "residence_permit":
            return "NIE"
    if document_type == "passport":
        return "PAS"
    return "OTRO"


def _mapped(catalogue: dict, section: str, value: str | None) -> str | None:
    """The code of a check-in value (the form's own words first: its sex "M" is the service's "H"),
    or the value itself when it is already a code of the catalogue."""
    if not value:
        return None
    mapped = catalogue.get("from_checkin", {}).get(section, {}).get(value)
    if mapped:
        return mapped
    return value if value in catalogue[section] else None


# --- the contract and the persons ----------------------------------------------------------------

def _setting_problems(settings: dict, catalogue: dict) -> list[Problem]:
    problems = []
    rooms = settings.get("num_habitaciones")
    if rooms not in (None, "") and not (str(rooms).strip().isdigit() and int(rooms) >= 1):
        problems.append(Problem(None, "num_habitaciones", "a whole number of rooms, 1 or more"))
    internet = settings.get("internet")
    if internet not in (None, "", True, False) and str(internet).strip().lower() not in TRUTH:
        problems.append(Problem(None, "internet", "true or false"))
    payment = settings.get("tipo_pago")
    if payment not in (None, "") and not _mapped(catalogue, "tipo_pago", str(payment).strip()):
        problems.append(Problem(None, "tipo_pago", "a payment type of the catalogue: "
                                + ", ".join(catalogue["tipo_pago"])))
    return problems


TRUTH = {"true": True, "1": True, "yes": True, "si": True, "sí": True,
         "false": False, "0": False, "no": False}


def _contract(parent, stay, persons: int, settings: dict, catalogue: dict) -> None:
    contrato = _sub(parent, "contrato")
    _sub(contrato, "referencia", str(stay.reference)[:50])
    # Dates of the stay may come as datetimes (a booking's creation time): the day is what counts.
    _sub(contrato, "fechaContrato", _date(stay.booked_on).isoformat())
    _sub(contrato, "fechaEntrada", f"{_date(stay.arrival).isoformat()}T00:00:00")
    _sub(contrato, "fechaSalida", f"{_date(stay.departure).isoformat()}T00:00:00")
    _sub(contrato, "numPersonas", persons)
    rooms = str(settings.get("num_habitaciones") or "").strip()
    if rooms.isdigit() and int(rooms) >= 1:
        _sub(contrato, "numHabitaciones", int(rooms))
    internet = settings.get("internet")
    internet = internet if isinstance(internet, bool) else TRUTH.get(str(internet or "").strip().lower(), False)
    _sub(contrato, "internet", "true" if internet else "false")
    pago = _sub(contrato, "pago")
    _sub(pago, "tipoPago", _mapped(catalogue, "tipo_pago", str(settings.get("tipo_pago") or "").strip())
         or _mapped(catalogue, "tipo_pago", stay.payment_method) or "OTRO")


def _address(parent, data: dict, lead: dict, index: int, problems: list[Problem], catalogue: dict,
             required: bool = True, borrow: bool = False) -> None:
    """The person's address; `borrow`: a minor without one of their own takes the lead guest's
    (see the module's notes), anyone else must have their own."""
    own = _value(data, "address_street", "address")
    source = data if own or not borrow else lead
    street = _value(source, "address_street", "address")
    city = _value(source, "address_city", "city")
    postcode = _value(source, "address_postcode", "postcode")
    country = alpha3(_value(source, "address_country", "residence_country"))
    if not street and not required:
        return
    field_prefix = "" if source is data else "lead guest's "
    if not street:
        problems.append(Problem(index, "address_street", f"the {field_prefix}address is missing"))
    if not postcode:
        problems.append(Problem(index, "address_postcode", f"the {field_prefix}postcode is missing"))
    if not country:
        problems.append(Problem(index, "address_country", f"the {field_prefix}country is missing"))
    code = None
    if country == "ESP":
        code = es_codes.municipality_code(city, postcode)
        if not code and source is data:  # a borrowed town is the lead guest's problem, named once
            problems.append(Problem(index, "address_city",
                                    es_codes.municipality_problem(city, postcode)))
    elif not city:
        problems.append(Problem(index, "address_city", f"the {field_prefix}town is missing"))
    direccion = _sub(parent, "direccion")
    _sub(direccion, "direccion", (street or "")[:100])
    if country == "ESP":
        _sub(direccion, "codigoMunicipio", code or "")
    else:
        _sub(direccion, "nombreMunicipio", (city or "")[:100])
    _sub(direccion, "codigoPostal", (postcode or "")[:20])
    _sub(direccion, "pais", country or "")


def _person(parent, guest, lead: dict, arrival: dt.date, problems: list[Problem],
            catalogue: dict) -> None:
    data, index = guest.data, guest.index
    persona = _sub(parent, "persona")
    _sub(persona, "rol", "VI")
    first, last = _value(data, "first_name"), _value(data, "last_name")
    second = _value(data, "second_last_name")
    for name, value in (("first_name", first), ("last_name", last)):
        if not value:
            problems.append(Problem(index, name, "missing"))
    _sub(persona, "nombre", (first or "")[:50])
    _sub(persona, "apellido1", (last or "")[:50])
    birth = _date(data.get("birth_date"))
    adult = birth is None or _age(birth, arrival) >= ADULT_AGE
    kind = document_code(_value(data, "document_type"), _value(data, "document_country"), catalogue)
    number = _value(data, "document_number")
    support = _value(data, "document_support_number")
    if kind == "NIF" and not second:
        problems.append(Problem(index, "second_last_name", "a Spanish DNI holder gives both surnames"))
    if second:
        _sub(persona, "apellido2", second[:50])
    if number:
        _sub(persona, "tipoDocumento", kind or "OTRO")
        _sub(persona, "numeroDocumento", number.replace(" ", "")[:15])
        if kind in ("NIF", "NIE"):
            if not support:
                problems.append(Problem(index, "document_support_number",
                                        f"a {kind} is filed with its support number"))
            else:
                _sub(persona, "soporteDocumento", support.replace(" ", "")[:9])
    elif adult:
        problems.append(Problem(index, "document_number", "every adult is filed with a document"))
    if birth is None:
        problems.append(Problem(index, "birth_date", "missing"))
    _sub(persona, "fechaNacimiento", birth.isoformat() if birth else "")
    nationality = alpha3(_value(data, "nationality"))
    if nationality:
        _sub(persona, "nacionalidad", nationality)
    else:
        problems.append(Problem(index, "nationality", "missing"))
    sex = _mapped(catalogue, "sexo", _value(data, "sex"))
    if sex:
        _sub(persona, "sexo", sex)
    minor = not adult and index > 0
    _address(persona, data, lead, index, problems, catalogue, borrow=minor)
    phone, email = _value(data, "phone"), _value(data, "email")
    if minor and not phone and not email:  # a minor is reached through the lead guest
        phone, email = _value(lead, "phone"), _value(lead, "email")
    if not phone and not email:
        problems.append(Problem(index, "email", "a phone number or an e-mail address is needed"))
    if phone:
        _sub(persona, "telefono", phone[:20])
    if email:
        _sub(persona, "correo", email[:250])
    if not adult and index > 0:
        raw = _value(data, "minor_relationship")
        if raw is None and _value(data, "relationship") in catalogue.get("from_checkin", {}).get(
                "parentesco", {}):
            raw = _value(data, "relationship")
        relation = _mapped(catalogue, "parentesco", raw)
        if relation:
            _sub(persona, "parentesco", relation)
        else:
            problems.append(Problem(index, "minor_relationship",
                                    "a minor is filed with their relationship to the lead guest"))


def _establishment(settings: dict, problems: list[Problem], catalogue: dict | None = None) -> str:
    code = str(settings.get("codigo_establecimiento") or "").strip()
    if not code or len(code) > 10:
        problems.append(Problem(None, "codigo_establecimiento",
                                "the property's SES establishment code (at most 10 characters) is not set"))
    problems.extend(_setting_problems(settings, catalogue or es_codes.catalogue()))
    return code


# --- the documents -------------------------------------------------------------------------------

def build_traveller_report(settings: dict, stay, guests: list, *, catalogue: dict | None = None) -> bytes:
    """The traveller report (PV) of one stay: one communication, its contract and every guest."""
    catalogue = catalogue or es_codes.catalogue()
    problems: list[Problem] = []
    guests = sorted(guests, key=lambda g: g.index)
    if not guests:
        raise SesDataError([Problem(None, "guests", "no guest to file")])
    if len(guests) > MAX_PERSONS:
        raise SesDataError([Problem(None, "guests", f"at most {MAX_PERSONS} persons a communication")])
    root = etree.Element(f"{{{NS_PARTE}}}peticion", nsmap={"alt": NS_PARTE})
    solicitud = _sub(root, "solicitud")
    _sub(solicitud, "codigoEstablecimiento", _establishment(settings, problems, catalogue))
    comunicacion = _sub(solicitud, "comunicacion")
    _contract(comunicacion, stay, len(guests), settings, catalogue)
    lead = guests[0].data
    for guest in guests:
        _person(comunicacion, guest, lead, _date(stay.arrival), problems, catalogue)
    if problems:
        raise SesDataError(problems)
    xml = _serialise(root)
    validate(xml)
    return xml


def build_reservation(settings: dict, stay, guests: list, *, catalogue: dict | None = None) -> bytes:
    """The reservation (RH): the contract and its holder (the lead guest, rol TI)."""
    catalogue = catalogue or es_codes.catalogue()
    problems: list[Problem] = []
    guests = sorted(guests, key=lambda g: g.index)
    if not guests:
        raise SesDataError([Problem(None, "guests", "the reservation needs its holder")])
    root = etree.Element(f"{{{NS_RESERVA}}}peticion", nsmap={"alt": NS_RESERVA})
    comunicacion = _sub(_sub(root, "solicitud"), "comunicacion")
    _sub(_sub(comunicacion, "establecimiento"), "codigo", _establishment(settings, problems, catalogue))
    # numPersonas counts the persons of this communication: the holder alone (rol TI), not the
    # booking's guest count, whom the traveller report (PV) files once they are known.
    _contract(comunicacion, stay, 1, settings, catalogue)
    holder = guests[0]
    data = holder.data
    persona = _sub(comunicacion, "persona")
    _sub(persona, "rol", "TI")
    first, last = _value(data, "first_name"), _value(data, "last_name")
    for name, value in (("first_name", first), ("last_name", last)):
        if not value:
            problems.append(Problem(holder.index, name, "missing"))
    _sub(persona, "nombre", (first or "")[:50])
    _sub(persona, "apellido1", (last or "")[:50])
    if _value(data, "second_last_name"):
        _sub(persona, "apellido2", _value(data, "second_last_name")[:50])
    number = _value(data, "document_number")
    if number:
        _sub(persona, "tipoDocumento", document_code(_value(data, "document_type"),
                                                     _value(data, "document_country"), catalogue) or "OTRO")
        _sub(persona, "numeroDocumento", number.replace(" ", "")[:15])
    birth = _date(data.get("birth_date"))
    if birth:
        _sub(persona, "fechaNacimiento", birth.isoformat())
    if alpha3(_value(data, "nationality")):
        _sub(persona, "nacionalidad", alpha3(_value(data, "nationality")))
    if _mapped(catalogue, "sexo", _value(data, "sex")):
        _sub(persona, "sexo", _mapped(catalogue, "sexo", _value(data, "sex")))
    _address(persona, data, data, holder.index, problems, catalogue, required=False)
    phone, email = _value(data, "phone"), _value(data, "email")
    if not phone and not email:
        problems.append(Problem(holder.index, "email", "a phone number or an e-mail address is needed"))
    if phone:
        _sub(persona, "telefono", phone[:20])
    if email:
        _sub(persona, "correo", email[:250])
    if problems:
        raise SesDataError(problems)
    xml = _serialise(root)
    validate(xml)
    return xml


def build_cancellation(codes: list[str]) -> bytes:
    """The cancellation (tipoOperacion B) of the communications with these codes."""
    codes = [str(code).strip() for code in codes if code and str(code).strip()]
    if not codes:
        raise SesDataError([Problem(None, "remote_id",
                                    "no communication code to cancel (the filing was never accepted)")])
    root = etree.Element(f"{{{NS_ANULACION}}}comunicaciones", nsmap={"anul": NS_ANULACION})
    for code in codes:
        _sub(root, f"{{{NS_ANULACION}}}codigoComunicacion", code)
    xml = _serialise(root)
    validate(xml)
    return xml


# --- checking and packing ------------------------------------------------------------------------

def _schema(namespace: str) -> etree.XMLSchema:
    return xmlschemas.schema("rentalcomply.authorities.ses", "xsd", SCHEMAS[namespace])


def validate(xml: bytes) -> None:
    """Raise SchemaError unless `xml` is a PV, RH or cancellation valid against the shipped XSD."""
    try:
        root = etree.fromstring(xml, parser=etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError as exc:
        raise SchemaError(f"not well-formed: {exc}") from None
    namespace = etree.QName(root).namespace
    if namespace not in SCHEMAS:
        raise SchemaError(f"not an SES document (root {root.tag})")
    schema = _schema(namespace)
    if not schema.validate(root):
        raise SchemaError("; ".join(f"line {e.line}: {e.message}" for e in schema.error_log))


ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # fixed, so the same XML always packs to the same bytes


def pack(xml: bytes, name: str = "comunicacion.xml") -> str:
    """The XML as the service takes it: in a zip archive, base64-encoded."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
        info.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(info, xml)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def unpack(body: str) -> bytes:
    """The XML inside a packed body (the first member of the archive)."""
    with zipfile.ZipFile(io.BytesIO(base64.b64decode(body, validate=True))) as archive:
        return archive.read(archive.namelist()[0])


def build_file(settings_for_property: dict, stay, guests: list, filing) -> tuple[str, str, bytes]:
    """(filename, content_type, bytes) of a filing, for hosts who upload it by hand (the `file`
    connector): the traveller report for an arrival, the reservation for a "reservation", the
    cancellation for a "cancellation" (whose `filing.remote_id` is the code of the communication
    it cancels). Data that cannot make a valid file raises PermanentError naming each guest."""
    from rentalcomply.filings.connector import PermanentError

    try:
        if filing.kind in ("cancellation", "rh_cancellation"):
            xml, name = build_cancellation((filing.remote_id or "").split(",")), "anulacion"
        elif filing.kind == "reservation":
            xml, name = build_reservation(settings_for_property, stay, guests), "reserva-hospedaje"
        else:
            xml, name = build_traveller_report(settings_for_property, stay, guests), "parte-viajeros"
    except SesDataError as exc:
        raise PermanentError(str(exc)) from None
    return f"{name}-{stay.reference}.xml", "application/xml", xml
