"""The SES.Hospedajes XML, byte for byte, against cases worked out by hand from the Ministry's
published schema (element order of contratoHospedajeType and personaHospedajeType)."""
import datetime as dt
import textwrap

import pytest

from rentalcomply.filings.connector import Guest, Stay
from rentalcomply.authorities.ses import format as ses

SETTINGS = {"codigo_establecimiento": "0000012345"}


def stay(**changes):
    values = dict(booking_id="bk_1", reference="BK-2026-0001", arrival=dt.date(2026, 7, 1),
                  departure=dt.date(2026, 7, 4), booked_on=dt.date(2026, 5, 20), guest_count=1,
                  payment_method="card", property_country="ES", property_name="Casa Azul")
    values.update(changes)
    return Stay(**values)


def dni_holder(**changes):
    data = {"first_name": "José", "last_name": "Núñez", "second_last_name": "Peña", "sex": "M",
            "birth_date": dt.date(1980, 3, 14), "nationality": "ES", "document_type": "id_card",
            "document_number": "12345678Z", "document_country": "ES",
            "document_support_number": "BAA000589", "address_street": "Calle Mayor 5, 2º B",
            "address_city": "Madrid", "address_postcode": "28013", "address_country": "ES",
            "email": "jose@example.es", "phone": "+34 600 111 222"}
    data.update(changes)
    return Guest(0, "holder", data)


def xml(text):
    return textwrap.dedent(text).lstrip("\n").encode("utf-8")


def test_a_spanish_holder_is_filed_with_his_dni_its_support_number_and_both_surnames():
    expected = xml("""
        <?xml version="1.0" encoding="UTF-8"?>
        <alt:peticion xmlns:alt="http://www.neg.hospedajes.mir.es/altaParteHospedaje">
          <solicitud>
            <codigoEstablecimiento>0000012345</codigoEstablecimiento>
            <comunicacion>
              <contrato>
                <referencia>BK-2026-0001</referencia>
                <fechaContrato>2026-05-20</fechaContrato>
                <fechaEntrada>2026-07-01T00:00:00</fechaEntrada>
                <fechaSalida>2026-07-04T00:00:00</fechaSalida>
                <numPersonas>1</numPersonas>
                <internet>false</internet>
                <pago>
                  <tipoPago>TARJT</tipoPago>
                </pago>
              </contrato>
              <persona>
                <rol>VI</rol>
                <nombre>José</nombre>
                <apellido1>Núñez</apellido1>
                <apellido2>Peña</apellido2>
                <tipoDocumento>NIF</tipoDocumento>
                <numeroDocumento>12345678Z</numeroDocumento>
                <soporteDocumento>BAA000589</soporteDocumento>
                <fechaNacimiento>1980-03-14</fechaNacimiento>
                <nacionalidad>ESP</nacionalidad>
                <sexo>H</sexo>
                <direccion>
                  <direccion>Calle Mayor 5, 2º B</direccion>
                  <codigoMunicipio>28079</codigoMunicipio>
                  <codigoPostal>28013</codigoPostal>
                  <pais>ESP</pais>
                </direccion>
                <telefono>+34 600 111 222</telefono>
                <correo>jose@example.es</correo>
              </persona>
            </comunicacion>
          </solicitud>
        </alt:peticion>
    """)
    assert ses.build_traveller_report(SETTINGS, stay(), [dni_holder()]) == expected


def test_a_family_from_abroad_files_each_adults_own_address_and_the_minors_at_the_lead_guests():
    parent = Guest(0, "holder", {
        "first_name": "Zoë", "last_name": "D'Artagnan", "sex": "F", "birth_date": "1985-11-30",
        "nationality": "FR", "document_type": "passport", "document_number": "18AB12345",
        "document_country": "FR", "address_street": "12 rue de l'Église",
        "address_city": "Besançon", "address_postcode": "25000", "address_country": "FR",
        "phone": "+33 6 12 34 56 78"})
    spouse = Guest(1, "traveller", {
        "first_name": "Hervé", "last_name": "Lefèvre", "sex": "M", "birth_date": "1983-01-02",
        "nationality": "BE", "document_type": "id_card", "document_number": "592123456789",
        "document_country": "BE", "address_street": "Rue Haute 3", "address_city": "Liège",
        "address_postcode": "4000", "address_country": "BE", "email": "herve@example.be"})
    teenager = Guest(2, "traveller", {
        "first_name": "Maëlle", "last_name": "Lefèvre", "sex": "F", "birth_date": "2010-07-02",
        "nationality": "FR", "document_type": "id_card", "document_number": "X4RTBPFW4",
        "document_country": "FR", "minor_relationship": "parent"})
    child = Guest(3, "traveller", {
        "first_name": "Noé", "last_name": "Lefèvre", "sex": "M", "birth_date": "2019-12-24",
        "nationality": "FR", "minor_relationship": "legal_guardian"})
    expected = xml("""
        <?xml version="1.0" encoding="UTF-8"?>
        <alt:peticion xmlns:alt="http://www.neg.hospedajes.mir.es/altaParteHospedaje">
          <solicitud>
            <codigoEstablecimiento>0000012345</codigoEstablecimiento>
            <comunicacion>
              <contrato>
                <referencia>BK-2026-0001</referencia>
                <fechaContrato>2026-05-20</fechaContrato>
                <fechaEntrada>2026-07-01T00:00:00</fechaEntrada>
                <fechaSalida>2026-07-04T00:00:00</fechaSalida>
                <numPersonas>4</numPersonas>
                <numHabitaciones>2</numHabitaciones>
                <internet>true</internet>
                <pago>
                  <tipoPago>PLATF</tipoPago>
                </pago>
              </contrato>
              <persona>
                <rol>VI</rol>
                <nombre>Zoë</nombre>
                <apellido1>D'Artagnan</apellido1>
                <tipoDocumento>PAS</tipoDocumento>
                <numeroDocumento>18AB12345</numeroDocumento>
                <fechaNacimiento>1985-11-30</fechaNacimiento>
                <nacionalidad>FRA</nacionalidad>
                <sexo>M</sexo>
                <direccion>
                  <direccion>12 rue de l'Église</direccion>
                  <nombreMunicipio>Besançon</nombreMunicipio>
                  <codigoPostal>25000</codigoPostal>
                  <pais>FRA</pais>
                </direccion>
                <telefono>+33 6 12 34 56 78</telefono>
              </persona>
              <persona>
                <rol>VI</rol>
                <nombre>Hervé</nombre>
                <apellido1>Lefèvre</apellido1>
                <tipoDocumento>OTRO</tipoDocumento>
                <numeroDocumento>592123456789</numeroDocumento>
                <fechaNacimiento>1983-01-02</fechaNacimiento>
                <nacionalidad>BEL</nacionalidad>
                <sexo>H</sexo>
                <direccion>
                  <direccion>Rue Haute 3</direccion>
                  <nombreMunicipio>Liège</nombreMunicipio>
                  <codigoPostal>4000</codigoPostal>
                  <pais>BEL</pais>
                </direccion>
                <correo>herve@example.be</correo>
              </persona>
              <persona>
                <rol>VI</rol>
                <nombre>Maëlle</nombre>
                <apellido1>Lefèvre</apellido1>
                <tipoDocumento>OTRO</tipoDocumento>
                <numeroDocumento>X4RTBPFW4</numeroDocumento>
                <fechaNacimiento>2010-07-02</fechaNacimiento>
                <nacionalidad>FRA</nacionalidad>
                <sexo>M</sexo>
                <direccion>
                  <direccion>12 rue de l'Église</direccion>
                  <nombreMunicipio>Besançon</nombreMunicipio>
                  <codigoPostal>25000</codigoPostal>
                  <pais>FRA</pais>
                </direccion>
                <telefono>+33 6 12 34 56 78</telefono>
                <parentesco>PM</parentesco>
              </persona>
              <persona>
                <rol>VI</rol>
                <nombre>Noé</nombre>
                <apellido1>Lefèvre</apellido1>
                <fechaNacimiento>2019-12-24</fechaNacimiento>
                <nacionalidad>FRA</nacionalidad>
                <sexo>H</sexo>
                <direccion>
                  <direccion>12 rue de l'Église</direccion>
                  <nombreMunicipio>Besançon</nombreMunicipio>
                  <codigoPostal>25000</codigoPostal>
                  <pais>FRA</pais>
                </direccion>
                <telefono>+33 6 12 34 56 78</telefono>
                <parentesco>TU</parentesco>
              </persona>
            </comunicacion>
          </solicitud>
        </alt:peticion>
    """)
    settings = dict(SETTINGS, num_habitaciones=2, internet=True)
    built = ses.build_traveller_report(settings, stay(guest_count=4, payment_method="platform"),
                                       [child, parent, teenager, spouse])  # party order restored
    assert built == expected


def test_the_reservation_names_the_establishment_and_the_holder_as_ti():
    expected = xml("""
        <?xml version="1.0" encoding="UTF-8"?>
        <alt:peticion xmlns:alt="http://www.neg.hospedajes.mir.es/altaReservaHospedaje">
          <solicitud>
            <comunicacion>
              <establecimiento>
                <codigo>0000012345</codigo>
              </establecimiento>
              <contrato>
                <referencia>BK-2026-0001</referencia>
                <fechaContrato>2026-05-20</fechaContrato>
                <fechaEntrada>2026-07-01T00:00:00</fechaEntrada>
                <fechaSalida>2026-07-04T00:00:00</fechaSalida>
                <numPersonas>1</numPersonas>
                <internet>false</internet>
                <pago>
                  <tipoPago>EFECT</tipoPago>
                </pago>
              </contrato>
              <persona>
                <rol>TI</rol>
                <nombre>Ana</nombre>
                <apellido1>Ortega</apellido1>
                <correo>ana@example.org</correo>
              </persona>
            </comunicacion>
          </solicitud>
        </alt:peticion>
    """)
    holder = Guest(0, "holder", {"first_name": "Ana", "last_name": "Ortega", "email": "ana@example.org"})
    assert ses.build_reservation(SETTINGS, stay(guest_count=3, payment_method="cash"), [holder]) == expected


def test_the_cancellation_lists_the_codes_of_the_communications_it_cancels():
    assert ses.build_cancellation(["4b0e4b8a-7c1f-4f5e-9f0e-1f0c2d3e4a5b"]) == xml("""
        <?xml version="1.0" encoding="UTF-8"?>
        <anul:comunicaciones xmlns:anul="http://www.neg.hospedajes.mir.es/anularComunicacion">
          <anul:codigoComunicacion>4b0e4b8a-7c1f-4f5e-9f0e-1f0c2d3e4a5b</anul:codigoComunicacion>
        </anul:comunicaciones>
    """)
    with pytest.raises(ses.SesDataError):
        ses.build_cancellation([])


def test_a_municipality_is_found_by_its_ine_code_or_its_name_without_accents():
    by_code = ses.build_traveller_report(SETTINGS, stay(), [dni_holder(address_city="29067")])
    by_name = ses.build_traveller_report(SETTINGS, stay(), [dni_holder(address_city="malaga")])
    assert b"<codigoMunicipio>29067</codigoMunicipio>" in by_code
    assert by_code == by_name
    las_palmas = ses.build_traveller_report(SETTINGS, stay(), [dni_holder(address_city="Las Palmas de Gran Canaria")])
    assert b"<codigoMunicipio>35016</codigoMunicipio>" in las_palmas


def test_a_nie_holder_needs_the_support_number_and_not_a_second_surname():
    guest = dni_holder(nationality="MA", document_type="residence_permit", document_number="X1234567L",
                       second_last_name=None, document_support_number="E01234567")
    built = ses.build_traveller_report(SETTINGS, stay(), [guest])
    assert b"<tipoDocumento>NIE</tipoDocumento>" in built and b"apellido2" not in built
    with pytest.raises(ses.SesDataError) as caught:
        ses.build_traveller_report(SETTINGS, stay(), [dni_holder(document_type="residence_permit",
                                                                 document_support_number=None)])
    assert [(p.index, p.field) for p in caught.value.problems] == [(0, "document_support_number")]


@pytest.mark.parametrize("changes, field", [
    ({"document_support_number": None}, "document_support_number"),
    ({"second_last_name": None}, "second_last_name"),
    ({"document_number": None}, "document_number"),
    ({"address_city": "Springfield"}, "address_city"),
    ({"email": None, "phone": None}, "email"),
    ({"nationality": None}, "nationality"),
])
def test_what_the_schema_cannot_say_is_refused_per_guest_before_anything_is_built(changes, field):
    with pytest.raises(ses.SesDataError) as caught:
        ses.build_traveller_report(SETTINGS, stay(), [dni_holder(**changes)])
    assert [(p.index, p.field) for p in caught.value.problems] == [(0, field)]


def test_a_minor_without_a_relationship_and_a_missing_establishment_code_are_named():
    minor = Guest(1, "traveller", {"first_name": "Lucía", "last_name": "Núñez", "second_last_name": "Gil",
                                   "birth_date": "2015-09-02", "nationality": "ES"})
    with pytest.raises(ses.SesDataError) as caught:
        ses.build_traveller_report({}, stay(), [dni_holder(), minor])
    assert [(p.index, p.field) for p in caught.value.problems] == [
        (None, "codigo_establecimiento"), (1, "minor_relationship")]
    assert "guest 2: minor_relationship" in str(caught.value)


def test_long_names_are_cut_to_the_schemas_fifty_characters():
    built = ses.build_traveller_report(SETTINGS, stay(), [dni_holder(first_name="María " + "x" * 60)])
    assert f"<nombre>María {'x' * 44}</nombre>".encode() in built


# --- the XSD -------------------------------------------------------------------------------------

def good():
    return ses.build_traveller_report(SETTINGS, stay(), [dni_holder()])


def test_every_built_document_validates_against_the_shipped_xsd():
    ses.validate(good())
    ses.validate(ses.build_cancellation(["abc"]))


@pytest.mark.parametrize("old, new", [
    (b"<nacionalidad>ESP</nacionalidad>", b"<nacionalidad>ES</nacionalidad>"),           # alpha-2
    (b"<numPersonas>1</numPersonas>", b"<numPersonas>0</numPersonas>"),
    (b"<rol>VI</rol>", b"<rol>XX</rol>"),
    (b"<codigoMunicipio>28079</codigoMunicipio>", b"<codigoMunicipio>2807</codigoMunicipio>"),
    (b"<correo>jose@example.es</correo>", b"<correo>jose</correo>"),
    (b"<fechaEntrada>2026-07-01T00:00:00</fechaEntrada>", b"<fechaEntrada>01/07/2026</fechaEntrada>"),
    (b"<soporteDocumento>BAA000589</soporteDocumento>", b"<soporteDocumento>BAA0005891</soporteDocumento>"),
    # order matters: the surname before the first name
    (b"<nombre>Jos\xc3\xa9</nombre>\n        <apellido1>N\xc3\xba\xc3\xb1ez</apellido1>",
     b"<apellido1>N\xc3\xba\xc3\xb1ez</apellido1>\n        <nombre>Jos\xc3\xa9</nombre>"),
    (b"        <fechaNacimiento>1980-03-14</fechaNacimiento>\n", b""),                     # required
])
def test_the_xsd_refuses_a_broken_document(old, new):
    document = good()
    assert old in document
    with pytest.raises(ses.SchemaError):
        ses.validate(document.replace(old, new))


def test_the_xsd_refuses_what_is_not_an_ses_document():
    with pytest.raises(ses.SchemaError, match="not an SES document"):
        ses.validate(b"<peticion/>")
    with pytest.raises(ses.SchemaError, match="well-formed"):
        ses.validate(b"<alt:peticion")


# --- packing -------------------------------------------------------------------------------------

def test_the_body_is_the_xml_zipped_then_base64_and_always_the_same_bytes():
    document = good()
    body = ses.pack(document)
    assert body == ses.pack(document)
    assert body.startswith("UEsDB")  # "PK\x03\x04": a zip archive
    assert ses.unpack(body) == document


def test_the_file_for_hosts_who_upload_by_hand_is_built_by_the_module():
    from rentalcomply.filings.connector import FilingRef, PermanentError

    arrival = FilingRef(id="pf_1", kind="arrival", attempt=1, remote_id=None)
    name, content_type, body = ses.build_file(SETTINGS, stay(), [dni_holder()], arrival)
    assert (name, content_type) == ("parte-viajeros-BK-2026-0001.xml", "application/xml")
    assert body == ses.build_traveller_report(SETTINGS, stay(), [dni_holder()])
    cancel = FilingRef(id="pf_2", kind="cancellation", attempt=1, remote_id="abc")
    assert ses.build_file(SETTINGS, stay(), [], cancel)[0] == "anulacion-BK-2026-0001.xml"
    with pytest.raises(PermanentError, match="guest 1: document_support_number"):
        ses.build_file(SETTINGS, stay(), [dni_holder(document_support_number=None)], arrival)


def test_stay_dates_given_as_datetimes_count_by_their_day():
    as_datetimes = stay(booked_on=dt.datetime(2026, 5, 20, 18, 30, 5), arrival=dt.datetime(2026, 7, 1, 0, 0))
    assert ses.build_traveller_report(SETTINGS, as_datetimes, [dni_holder()]) == \
        ses.build_traveller_report(SETTINGS, stay(), [dni_holder()])


def test_the_property_settings_arrive_as_strings_and_bad_ones_are_named():
    as_strings = dict(SETTINGS, num_habitaciones="2", internet="true", tipo_pago="TRANS")
    built = ses.build_traveller_report(as_strings, stay(), [dni_holder()])
    assert b"<numHabitaciones>2</numHabitaciones>" in built and b"<internet>true</internet>" in built
    assert b"<tipoPago>TRANS</tipoPago>" in built
    with pytest.raises(ses.SesDataError) as caught:
        ses.build_traveller_report(dict(SETTINGS, num_habitaciones="two", internet="maybe", tipo_pago="BITCOIN"),
                                   stay(), [dni_holder()])
    assert [p.field for p in caught.value.problems] == ["num_habitaciones", "internet", "tipo_pago"]


def test_an_adult_without_an_address_of_their_own_is_refused_never_filed_at_the_lead_guests():
    partner = Guest(1, "traveller", {
        "first_name": "Inés", "last_name": "Gil", "sex": "F", "birth_date": dt.date(1982, 6, 1),
        "nationality": "FR", "document_type": "passport", "document_number": "18CD12345",
        "document_country": "FR"})
    with pytest.raises(ses.SesDataError) as refused:
        ses.build_traveller_report(SETTINGS, stay(guest_count=2), [dni_holder(), partner])
    assert {(p.index, p.field) for p in refused.value.problems} == {
        (1, "address_street"), (1, "address_postcode"), (1, "address_country"),
        (1, "address_city"), (1, "email")}
