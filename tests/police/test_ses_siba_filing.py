"""Spain and Portugal through the filing state machine (rentalcomply.filings.engine), against the
loopback doubles."""
import datetime as dt

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.core.models import Booking, Property
from rentalcomply.filings import party, sweep
from rentalcomply.authorities.ses import format as ses_format
from rentalcomply.properties import service as properties
from tests.conftest import bootstrapped_settings
from tests.police.soap_doubles_es_pt import SesDouble, SibaDouble

SIGNATURE = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
             "+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
SPANISH_FAMILY = [
    {"first_name": "José", "last_name": "Núñez", "second_last_name": "Peña", "sex": "M",
     "birth_date": "1980-03-14", "nationality": "ES", "document_type": "id_card",
     "document_number": "12345678Z", "document_country": "ES", "document_support_number": "BAA000589",
     "address_street": "Calle Mayor 5", "address_city": "Madrid", "address_postcode": "28013",
     "address_country": "ES", "email": "jose@example.es", "signature": SIGNATURE},
    {"first_name": "Lucía", "last_name": "Núñez", "second_last_name": "Gil", "sex": "F",
     "birth_date": "2016-09-02", "nationality": "ES", "minor_relationship": "parent"},
]
GERMAN = [{"first_name": "Jürgen", "last_name": "Müller", "sex": "M", "birth_date": "1975-02-03",
           "nationality": "DE", "document_type": "passport", "document_number": "C01X00T47",
           "document_country": "DE", "residence_country": "DE", "residence_place": "München",
           "email": "j@example.de"}]


@pytest.fixture
def ses():
    with SesDouble() as double:
        yield double


@pytest.fixture
def siba():
    with SibaDouble() as double:
        yield double


@pytest.fixture
def settings(tmp_path, ses, siba):
    with bootstrapped_settings(tmp_path, RENTALCOMPLY_POLICE_SES_URL=ses.url,
                               RENTALCOMPLY_POLICE_SIBA_URL=siba.url,
                               RENTALCOMPLY_POLICE_TIMEOUT_SECONDS=2,
                               RENTALCOMPLY_SERVER_PUBLIC_URL="https://stay.example.org") as settings:
        yield settings


def booking_in(owner, account_a, settings, country, connector, police_settings, credentials, guests):
    prop = properties.create_property(owner.account_id, name="Casa", address="Calle 1", country=country,
                                      timezone={"ES": "Europe/Madrid", "PT": "Europe/Lisbon"}[country],
                                      max_guests=4)
    owner.patch_json(f"/api/v1/properties/{prop.id}", {
        "police_connector": connector, "police_settings": police_settings, "police_credentials": credentials})
    booking = bookings.create_booking(
        account_a, rates=FeeRates.from_settings(settings), property_id=prop.id, guest_name="Lead Guest",
        guest_email="lead@example.org", arrival_date=clock.today(),
        departure_date=clock.today() + dt.timedelta(days=3), guest_count=len(guests))
    owner.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": guests})
    return booking


def spanish_booking(owner, account_a, settings):
    return booking_in(owner, account_a, settings, "ES", "ses_hospedajes",
                      {"codigo_arrendador": "0000000042", "codigo_establecimiento": "0000012345"},
                      {"user": "ses-user", "password": "ses-pass"}, SPANISH_FAMILY)


def sent(ses) -> list[str]:
    """What SES received, in order: PV, RH, or B (a cancellation)."""
    return [h.get("tipoComunicacion") or h["tipoOperacion"] for h in ses.headers_seen]


def poll_later():
    clock.travel(dt.timedelta(minutes=5))
    sweep.run_due()


def test_a_spanish_check_in_is_queued_with_ses_then_submitted_once_its_batch_is_processed(
        owner, account_a, settings, ses):
    booking = spanish_booking(owner, account_a, settings)
    police = owner.get(f"/api/v1/bookings/{booking.id}/police").json["data"]
    kinds = {f["kind"]: f for f in police["filings"]}
    # The check-in names the reservation's holder too: both go, each its own communication.
    assert kinds["arrival"]["status"] == "polling" and sorted(sent(ses)) == ["PV", "RH"]
    poll_later()
    police = owner.get(f"/api/v1/bookings/{booking.id}/police").json["data"]
    kinds = {f["kind"]: f for f in police["filings"]}
    assert police["report_status"] == "SUBMITTED"
    assert [g["accepted"] for g in kinds["arrival"]["guests"]] == [True, True]
    assert kinds["reservation"]["status"] == "submitted"
    assert sorted(sent(ses)) == ["PV", "RH"]


def test_a_person_refused_by_ses_shows_the_reason_on_the_booking(owner, account_a, settings, ses):
    ses.refuse_person = 2
    booking = spanish_booking(owner, account_a, settings)
    poll_later()
    shown = owner.get(f"/api/v1/bookings/{booking.id}").json["data"]
    assert shown["report_status"] == "REJECTED"
    assert "guest 2: DATOS Error en la persona 2" in shown["report_error"]


def test_a_portuguese_stay_files_the_foreign_guest_and_queues_the_departure(owner, account_a, settings, siba):
    booking = booking_in(owner, account_a, settings, "PT", "siba",
                         {"unidade_hoteleira": "121212121", "estabelecimento": "0"},
                         {"chave_acesso": "999999999"}, GERMAN)
    police = owner.get(f"/api/v1/bookings/{booking.id}/police").json["data"]
    assert police["report_status"] == "SUBMITTED" and len(siba.received) == 1
    assert [(f["kind"], f["status"]) for f in police["filings"]] == [("arrival", "submitted"),
                                                                      ("departure", "queued")]


def test_the_stay_counts_the_booking_day_as_a_date_and_its_ses_xml_meets_the_schema(
        owner, account_a, settings, ses):
    booking = Booking.get_by_id(spanish_booking(owner, account_a, settings).id)
    prop = Property.get_by_id(booking.property_id)
    stay = party.stay_of(booking, prop)
    assert type(stay.booked_on) is dt.date and stay.booked_on == booking.created_at.date()
    assert type(stay.arrival) is dt.date and type(stay.departure) is dt.date
    xml = ses_format.build_traveller_report(
        {"codigo_arrendador": "0000000042", "codigo_establecimiento": "0000012345"}, stay,
        party.guests_of(booking, "ES"))
    ses_format.validate(xml)
    assert f"<fechaContrato>{stay.booked_on.isoformat()}</fechaContrato>" in xml.decode("utf-8")


@pytest.mark.parametrize("country, police_settings", [
    ("ES", {"codigo_arrendador": "0000000042", "codigo_establecimiento": "0000012345",
            "num_habitaciones": "2", "internet": "true"}),
    ("PT", {"unidade_hoteleira": "121212121", "estabelecimento": "0", "morada": "Rua Augusta 1",
            "localidade": "Lisboa"}),
    ("IT", {"apartment_id": "000777"}),
])
def test_the_file_connector_takes_every_setting_of_the_countrys_file(owner, settings, country,
                                                                       police_settings):
    prop = properties.create_property(owner.account_id, name="Casa", address="Calle 1",
                                      country=country, max_guests=4,
                                      timezone={"ES": "Europe/Madrid", "PT": "Europe/Lisbon",
                                                "IT": "Europe/Rome"}[country])
    view = owner.patch_json(f"/api/v1/properties/{prop.id}", {
        "police_connector": "file", "police_settings": police_settings}).json["data"]
    assert view["police_settings"] == police_settings
    refused = owner.patch_json(f"/api/v1/properties/{prop.id}",
                               {"police_settings": {"color": "blue"}}, status=400).json
    assert "police_settings.color" in str(refused)


def test_a_cancelled_booking_accepted_by_ses_files_a_cancellation_of_the_accepted_communication(
        owner, account_a, settings, ses):
    from rentalcomply.filings.models import Filing
    booking = spanish_booking(owner, account_a, settings)
    poll_later()
    arrival = Filing.get((Filing.booking == booking.id) & (Filing.kind == "arrival"))
    reservation = Filing.get((Filing.booking == booking.id)
                                   & (Filing.kind == "reservation"))
    assert arrival.status == "submitted" and arrival.reference and reservation.reference
    owner.post_json(f"/api/v1/bookings/{booking.id}/cancel", {})
    # booking.cancelled wakes the worker: the cancellation is sent at once, as its own
    # communication (operation B) naming the codes SES gave the arrival and the reservation.
    assert len(ses.received) == 3 and sent(ses)[-1] == "B"
    for code in (arrival.reference, reservation.reference):
        assert f"<anul:codigoComunicacion>{code}</anul:codigoComunicacion>".encode() \
            in ses.received[-1]
    cancellation = Filing.get((Filing.booking == booking.id)
                                    & (Filing.kind == "cancellation"))
    assert cancellation.status == "polling" and cancellation.remote_id != arrival.reference
    poll_later()
    police = owner.get(f"/api/v1/bookings/{booking.id}/police").json["data"]
    kinds = {f["kind"]: f for f in police["filings"]}
    assert kinds["cancellation"]["status"] == "submitted" and kinds["cancellation"]["reference"]
    assert kinds["arrival"]["reference"] == arrival.reference
    poll_later()
    assert len(ses.received) == 3  # filed once, never again


def test_a_booking_cancelled_while_its_batch_awaits_ses_is_still_asked_about_then_cancelled(
        owner, account_a, settings, ses):
    from rentalcomply.filings.models import Filing
    booking = spanish_booking(owner, account_a, settings)  # sent, its batch not yet processed
    owner.post_json(f"/api/v1/bookings/{booking.id}/cancel", {})
    assert len(ses.received) == 2
    poll_later()  # SES took both: the cancellation follows in the same run
    rows = {f.kind: f for f in Filing.select().where(Filing.booking == booking.id)}
    assert rows["arrival"].status == "submitted" and rows["reservation"].status == "submitted"
    assert rows["cancellation"].status == "polling" and len(ses.received) == 3
    assert rows["arrival"].reference.encode() in ses.received[-1]
    assert rows["reservation"].reference.encode() in ses.received[-1]


def test_a_booking_cancelled_before_anything_reached_ses_files_no_cancellation(
        owner, account_a, settings, ses):
    from rentalcomply.filings.models import Filing
    ses.down = 10  # the service is down: the arrival waits for a retry
    booking = spanish_booking(owner, account_a, settings)
    owner.post_json(f"/api/v1/bookings/{booking.id}/cancel", {})
    ses.down = 0
    poll_later()
    poll_later()
    rows = {f.kind: f for f in Filing.select().where(Filing.booking == booking.id)}
    assert sorted(rows) == ["arrival", "reservation"]
    assert {row.status for row in rows.values()} == {"failed"}
    assert ses.received == []


PORTUGUESE = [{"first_name": "João", "last_name": "Silva", "sex": "M", "birth_date": "1975-02-03",
               "nationality": "PT", "document_type": "passport", "document_number": "CB123456",
               "document_country": "PT", "residence_country": "PT", "residence_place": "Porto",
               "email": "joao@example.pt"}]


@pytest.mark.parametrize("connector", ["siba", "file"])
def test_a_party_of_portuguese_citizens_is_not_required_and_announces_nothing(
        owner, account_a, settings, siba, connector):
    from rentalcomply.core.models import Event
    from rentalcomply.filings.models import Filing
    booking = booking_in(owner, account_a, settings, "PT", connector,
                         {"unidade_hoteleira": "121212121", "estabelecimento": "0"},
                         {"chave_acesso": "999999999"} if connector == "siba" else {}, PORTUGUESE)
    poll_later()
    police = owner.get(f"/api/v1/bookings/{booking.id}/police").json["data"]
    assert police["report_status"] == "NOT_REQUIRED" and police["report_error"] is None
    assert police["filings"] == [] and not Filing.select().where(
        Filing.booking == booking.id).exists()
    assert siba.received == []
    assert not [e for e in Event.select() if e.type.startswith("police.")]


def test_a_fresh_install_files_a_guest_resident_in_dos_hermanas_seville_with_no_table_loaded(
        owner, account_a, settings, ses):
    from rentalcomply import codes
    assert all(t.shipped for t in codes.status("ES"))  # nothing loaded by hand
    party = [dict(SPANISH_FAMILY[0], address_city="Dos Hermanas", address_postcode="41701"),
             SPANISH_FAMILY[1]]
    booking = booking_in(owner, account_a, settings, "ES", "ses_hospedajes",
                         {"codigo_arrendador": "0000000042", "codigo_establecimiento": "0000012345"},
                         {"user": "ses-user", "password": "ses-pass"}, party)
    assert Booking.get_by_id(booking.id).report_error is None
    assert b"<codigoMunicipio>41038</codigoMunicipio>" in ses.received[-1]
    poll_later()
    assert Booking.get_by_id(booking.id).report_status == "SUBMITTED"


def test_a_town_the_shipped_ine_list_lacks_is_held_naming_it_until_ines_list_is_loaded(
        owner, account_a, settings, ses, tmp_path):
    from rentalcomply.codes import es
    # Melilla is one of the 20 municipalities of INE's 2023 list the shipped copy lacks.
    party = [dict(SPANISH_FAMILY[0], address_city="Melilla", address_postcode="52001"),
             SPANISH_FAMILY[1]]
    booking = booking_in(owner, account_a, settings, "ES", "ses_hospedajes",
                         {"codigo_arrendador": "0000000042", "codigo_establecimiento": "0000012345"},
                         {"user": "ses-user", "password": "ses-pass"}, party)
    held = Booking.get_by_id(booking.id)
    assert held.report_status == "QUEUED"
    # The minor is filed with the lead guest's address: one town to code, named with its postcode.
    assert held.report_error.startswith(
        "held: guest 1 address_city: \u201cMelilla\u201d is not a municipality of INE's list "
        "(postcode 52001 is in a municipality the list in use lacks (52001)); the table in use is "
        "not the authority's whole list: load the authority's current tables")
    assert ses.received == []
    ine = tmp_path / "diccionario26.csv"
    ine.write_bytes("CODAUTO;CPRO;CMUN;DC;NOMBRE\n19;52;001;5;Melilla\n13;28;79;6;Madrid\n"
                    .encode("latin-1"))
    assert es.refresh_es_catalogue(ine) == {"municipios": 2}
    from rentalcomply.checkin.guests import validate_party
    _, problems = validate_party("ES", [dict(SPANISH_FAMILY[0], address_city="Atlantis")],
                                 guest_count=1, arrival=clock.today(), complete=True)
    assert [p.path for p in problems] == ["guests[0].address_city"]  # INE's whole list now
    sweep.run_due()
    assert b"<codigoMunicipio>52001</codigoMunicipio>" in ses.received[-1]
    poll_later()
    assert Booking.get_by_id(booking.id).report_status == "SUBMITTED"


def test_a_name_several_municipalities_share_is_decided_by_the_postcode_never_guessed():
    from rentalcomply.codes import es
    assert es.municipality_code("Sancti-Spíritus", "06655") == "06118"   # Badajoz
    assert es.municipality_code("Sancti-Spíritus", "37470") == "37279"   # Salamanca
    assert es.municipality_code("Sancti-Spíritus") is None
    assert es.municipality_problem("Sancti-Spíritus") == (
        "\u201cSancti-Spíritus\u201d names several municipalities of INE's list "
        "(Sancti-Spíritus (06118), Sancti-Spíritus (37279)) and no postcode decides")
    assert es.municipality_code("Triana", "41010") is None                # a district: no guess
    assert "postcode 41010 is in Sevilla (41091)" in es.municipality_problem("Triana", "41010")


def test_a_configured_spanish_property_loads_the_catalogues_through_catalogo(
        owner, account_a, settings, ses):
    from rentalcomply import codes
    from rentalcomply.codes import es
    from rentalcomply.filings import code_refresh as remote
    ses.catalogues.update({
        "TIPO_DOCUMENTO": {"NIF": "NIF", "NIE": "NIE", "PAS": "Pasaporte", "OTRO": "Otro"},
        "SEXO": {"H": "Hombre", "M": "Mujer", "O": "Otro"},
        "PARENTESCO": {"PM": "Padre o madre", "TU": "Tutor/a", "AB": "Abuelo/a", "HR": "Hermano/a",
                       "OT": "Otro", "CY": "Cónyuge"},
        "TIPO_PAGO": {"EFECT": "Efectivo", "TARJT": "Tarjeta", "PLATF": "Plataforma",
                      "TRANS": "Transferencia", "OTRO": "Otros"}})
    assert remote.refresh_due() == {}               # no Spanish property configured yet
    spanish_booking(owner, account_a, settings)
    assert remote.refresh_due() == {"ES": "tipo_documento 4, sexo 3, parentesco 6, tipo_pago 5"}
    assert es.catalogue()["tipo_pago"]["TARJT"] == "Tarjeta"
    assert codes.table_info("ES", "parentesco").source == "SES.Hospedajes, operation catalogo"
    assert not codes.table_info("ES", "sexo").shipped
    assert remote.refresh_due() == {}               # loaded: due again in a week


def test_a_filing_an_earlier_version_held_for_its_starter_tables_is_tried_once_more(
        owner, account_a, settings, ses):
    from rentalcomply.filings import engine
    from rentalcomply.filings.models import Filing
    party = [dict(SPANISH_FAMILY[0], address_city="Melilla", address_postcode="52001"),
             SPANISH_FAMILY[1]]
    booking = booking_in(owner, account_a, settings, "ES", "ses_hospedajes",
                         {"codigo_arrendador": "0000000042", "codigo_establecimiento": "0000012345"},
                         {"user": "ses-user", "password": "ses-pass"}, party)
    old = ("held: guest 1 address_city has no code in the starter code tables; load the "
           "authority's tables: `rentalcomply police refresh-codes`")
    Filing.update(held_reason=old).where(Filing.booking == booking.id,
                                         Filing.status == "held").execute()
    released = engine.release_starter_holds()
    assert released and Filing.get_by_id(released[0]).status == "queued"
    sweep.run_due()
    row = Filing.get_by_id(released[0])
    assert row.status == "held" and "\u201cMelilla\u201d" in row.held_reason  # named this time
    assert engine.release_starter_holds() == []  # once: the new reason is never released so
