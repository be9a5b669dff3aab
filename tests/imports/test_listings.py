"""A new agency's twelve listings mapped once (imports/listings.py): the channels' titles asked per
listing, remembered as the properties' listing names, and what else the files carry (phones, the
booker last name first, the booking date, the guest's language, infants outside capacity)."""

from __future__ import annotations

import datetime as dt
import json
from urllib.parse import quote

import pytest

from rentalcomply.core.errors import ValidationError
from rentalcomply.core.models import Booking
from rentalcomply.imports import listings
from rentalcomply.imports.service import import_export
from tests.imports.conftest import agency_file
from tests.imports.make_listing_files import AIRBNB_LISTINGS, BOOKING_PROPERTIES

XLS = "application/vnd.ms-excel"
OCT, JAN, BOOKING = "agency_airbnb_oct.csv", "agency_airbnb_jan.csv", "agency_booking.xls"


def airbnb_answers(agency) -> dict[str, str]:
    return {title: agency[name] for title, (name, _, _) in AIRBNB_LISTINGS.items()}


def booking_answers(agency) -> dict[str, str]:
    return {title: agency[name] for title, name in BOOKING_PROPERTIES.items()}


def by_code(account_id) -> dict[str, Booking]:
    return {b.external_ref: b for b in Booking.select().where(Booking.account == account_id)}


def test_twelve_unknown_listings_are_asked_one_by_one_and_no_row_goes_to_any_property(
        account_a, agency, rates):
    report = import_export(account_a, agency_file(OCT), rates=rates, dry_run=True)
    assert [unknown["listing"] for unknown in report.unknown_listings] == list(AIRBNB_LISTINGS)
    assert report.unknown_listings[5]["rows"] == [7, 15, 16]  # the Passeig listing's three rows
    assert all(row.property_id is None for row in report.rows)
    assert report.totals["conflict"] == 14 and report.totals["created"] == 0
    assert "is not known yet: say which property it is" in report.rows[0].reason


def test_the_answers_put_every_row_on_its_own_property_and_the_next_file_asks_nothing(
        account_a, agency, rates):
    answers = airbnb_answers(agency)
    preview = import_export(account_a, agency_file(OCT), rates=rates, dry_run=True,
                            listing_map=answers)
    assert preview.unknown_listings == []
    for row in preview.rows:
        assert row.property_id == answers[row.listing], row.row
    done = import_export(account_a, agency_file(OCT), rates=rates, listing_map=answers,
                         expected_plan=preview.plan_digest)
    assert done.totals == {"created": 14, "updated": 0, "unchanged": 1, "conflict": 0}
    assert len({row.property_id for row in done.rows if row.action == "created"}) == 12

    following = import_export(account_a, agency_file(JAN), rates=rates)
    assert following.unknown_listings == []
    assert following.totals == {"created": 12, "updated": 0, "unchanged": 0, "conflict": 0}
    for row in following.rows:
        assert row.property_id == answers[row.listing]


def test_one_property_for_a_file_of_several_unknown_listings_is_refused(account_a, agency, rates):
    with pytest.raises(ValidationError) as refused:
        import_export(account_a, agency_file(OCT), rates=rates, dry_run=True,
                      property_id=agency["FLR Oltrarno 2BR"])
    assert "12 listings" in str(refused.value)
    assert Booking.select().count() == 0


def test_a_dry_run_remembers_no_answer(account_a, agency, rates):
    import_export(account_a, agency_file(OCT), rates=rates, dry_run=True,
                  listing_map=airbnb_answers(agency))
    assert import_export(account_a, agency_file(OCT), rates=rates,
                         dry_run=True).totals["conflict"] == 14


def test_airbnb_rows_keep_the_phone_the_booking_date_and_an_infant_outside_capacity(
        account_a, agency, rates):
    import_export(account_a, agency_file(OCT), rates=rates, listing_map=airbnb_answers(agency))
    booked = by_code(account_a)
    emma = booked["HMA00K7QZW"]
    assert (emma.guest_name, emma.guest_phone) == ("Emma Schneider", "+49 151 23456789")
    # Booked 24 Aug 2026 in Florence: midnight local time, 22:00 UTC the day before.
    assert emma.booked_at == dt.datetime(2026, 8, 23, 22, 0)
    # Florence, no country in Airbnb's file: the property's language.
    assert emma.guest_language == "it" and booked["HMA04K7QZW"].guest_language == "es"
    loft = booked["HMA01K7QZW"]  # a two-guest loft, two adults and a baby
    assert (loft.adults, loft.children, loft.infants, loft.guest_count) == (2, 0, 1, 3)
    assert loft.property_id == agency["FLR Duomo Loft"]


def test_booking_com_keeps_the_booker_last_name_first_phone_booking_date_and_language(
        account_a, agency, rates):
    preview = import_export(account_a, agency_file(BOOKING), rates=rates, dry_run=True)
    assert [unknown["listing"] for unknown in preview.unknown_listings] == list(
        BOOKING_PROPERTIES)
    import_export(account_a, agency_file(BOOKING), rates=rates,
                  listing_map=booking_answers(agency))
    booked = by_code(account_a)
    anna = booked["5012345601"]
    assert (anna.guest_name, anna.guest_phone) == ("Schmidt, Anna", "+49 30 901820")
    assert anna.property_id == agency["FLR Oltrarno 2BR"]
    assert anna.booked_at == dt.datetime(2026, 11, 20, 8, 41, 7)  # 09:41:07 in Florence
    assert anna.guest_language == "de"
    javier = booked["5012345602"]
    assert (javier.guest_name, javier.guest_language) == ("García López, Javier", "es")
    assert (javier.adults, javier.children) == (2, 1)
    assert booked["5012345605"].guest_language == "en"  # gb
    assert booked["5012345604"].property_id == agency["MAD Retiro 3BR"]
    again = import_export(account_a, agency_file(BOOKING), rates=rates, dry_run=True)
    assert again.unknown_listings == [] and again.totals["unchanged"] == 6


def test_a_spanish_reservation_is_due_24_hours_after_the_booking_not_the_import(
        account_a, agency, rates):
    from rentalcomply.core.models import Property
    from rentalcomply.filings.models import Filing
    Property.update(police_connector="ses_hospedajes").where(
        Property.id == agency["MAD Retiro 3BR"]).execute()
    import_export(account_a, agency_file(BOOKING), rates=rates,
                  listing_map=booking_answers(agency))
    claire = by_code(account_a)["5012345604"]
    filing = Filing.get((Filing.booking == claire.id) & (Filing.kind == "reservation"))
    assert filing.deadline == dt.datetime(2026, 11, 19, 21, 30, 12) + dt.timedelta(hours=24)
    # The booker is the holder SES reads, last name first, reachable by the file's phone.
    from rentalcomply.authorities.ses.reservations import reservation_holder
    holder, waiting = reservation_holder(claire)
    assert waiting is None
    assert (holder.data["last_name"], holder.data["first_name"], holder.data["phone"]) == (
        "Dubois", "Claire", "+33 6 45 67 89 01")


def test_a_propertys_listing_names_are_listed_added_moved_and_removed(account_a, agency):
    oltrarno, duomo = agency["FLR Oltrarno 2BR"], agency["FLR Duomo Loft"]
    alias = listings.add_alias(account_a, oltrarno, "airbnb", "  Bright  2BR flat in Oltrarno ")
    assert [a.title for a in listings.aliases_of(account_a, oltrarno)] == [
        "Bright 2BR flat in Oltrarno"]
    listings.add_alias(account_a, duomo, "airbnb", "bright 2br flat in oltrarno…")
    assert list(listings.aliases_of(account_a, oltrarno)) == []  # the latest answer holds
    with pytest.raises(ValidationError):
        listings.add_alias(account_a, oltrarno, "vrbo", "Oltrarno")
    listings.remove_alias(account_a, duomo, alias.id)
    assert list(listings.aliases_of(account_a, duomo)) == []


# --- the API -------------------------------------------------------------------------------------

def test_the_api_answers_the_unknown_listings_and_takes_a_listing_map(owner, agency):
    preview = owner.post("/api/v1/imports?dry_run=true", agency_file(OCT),
                         content_type="text/csv", status=200).json["data"]
    assert len(preview["unknown_listings"]) == 12
    assert preview["rows"][0]["listing"] == "Bright 2BR flat in Oltrarno with balcony"
    mapping = quote(json.dumps(airbnb_answers(agency)))
    done = owner.post(f"/api/v1/imports?listing_map={mapping}", agency_file(OCT),
                      content_type="text/csv", status=200).json["data"]
    assert done["totals"]["created"] == 14 and done["unknown_listings"] == []
    emma = next(row for row in done["rows"] if row["code"] == "HMA00K7QZW")
    booking = owner.get(f"/api/v1/bookings/{emma['booking_id']}", status=200).json["data"]
    assert (booking["guest_phone"], booking["booked_at"], booking["guest_language"]) == (
        "+49 151 23456789", "2026-08-23T22:00:00Z", "it")
    aliases = owner.get(f"/api/v1/properties/{agency['FLR Duomo Loft']}/listing-aliases",
                        status=200).json["data"]
    assert [(a["channel"], a["title"]) for a in aliases] == [
        ("airbnb", "Duomo view loft · 5 min walk to the Uffizi")]
    nothing_asked = owner.post("/api/v1/imports?dry_run=true", agency_file(JAN),
                               content_type="text/csv", status=200).json["data"]
    assert nothing_asked["unknown_listings"] == [] and nothing_asked["totals"]["created"] == 12
    owner.post("/api/v1/imports?listing_map=%7B", agency_file(OCT), content_type="text/csv",
               status=400)


def test_listing_aliases_through_the_api(owner, agency):
    base = f"/api/v1/properties/{agency['BCN Gràcia Terrace']}/listing-aliases"
    made = owner.post_json(base, {"channel": "booking", "title": "Casa Gràcia with Terrace"},
                           status=201).json["data"]
    assert made["property_id"] == agency["BCN Gràcia Terrace"]
    owner.post_json(base, {"channel": "expedia", "title": "x"}, status=400)
    preview = owner.post("/api/v1/imports?dry_run=true", agency_file(BOOKING), content_type=XLS,
                         status=200).json["data"]
    assert [u["listing"] for u in preview["unknown_listings"]] == [
        "Oltrarno Bright Flat", "Retiro Elegant Suites"]
    owner.delete(f"{base}/{made['id']}", status=204)
    owner.delete(f"{base}/{made['id']}", status=404)
    assert owner.get(base, status=200).json["data"] == []
    document = owner.get("/api/v1/openapi.json").json
    assert {"get", "post"} <= set(document["paths"]["/api/v1/properties/{property_id}/"
                                                   "listing-aliases"])


def test_another_accounts_property_is_no_answer(outsider, owner, agency):
    mapping = quote(json.dumps({"Bright 2BR flat in Oltrarno with balcony":
                                agency["FLR Oltrarno 2BR"]}))
    outsider.post(f"/api/v1/imports?dry_run=true&listing_map={mapping}", agency_file(OCT),
                  content_type="text/csv", status=404)
    outsider.get(f"/api/v1/properties/{agency['FLR Oltrarno 2BR']}/listing-aliases",
                 status=404)


def test_a_file_fills_a_feed_bookings_phone_date_and_language_but_not_a_hosts_choice(
        account_a, agency, rates):
    from rentalcomply.bookings import service as bookings
    oltrarno = agency["FLR Oltrarno 2BR"]
    feed = bookings.create_booking(account_a, rates=rates, property_id=oltrarno,
                                   guest_name="Booking.com guest", arrival_date="2026-12-04",
                                   departure_date="2026-12-07", guest_count=1,
                                   channel="booking")
    typed = bookings.create_booking(account_a, rates=rates, property_id=oltrarno,
                                    guest_name="Kowalski, Piotr", arrival_date="2026-12-15",
                                    departure_date="2026-12-17", guest_count=2,
                                    guest_language="en")
    report = import_export(account_a, agency_file(BOOKING), rates=rates,
                           listing_map=booking_answers(agency))
    anna = Booking.get_by_id(feed.id)
    assert (anna.guest_name, anna.guest_phone, anna.guest_language) == (
        "Schmidt, Anna", "+49 30 901820", "de")
    assert anna.booked_at == dt.datetime(2026, 11, 20, 8, 41, 7)
    piotr = next(row for row in report.rows if row.code == "5012345606")
    assert piotr.booking_id == typed.id
    assert "language" not in piotr.reason  # the host's English stays, unremarked
    assert Booking.get_by_id(typed.id).guest_language == "en"


def test_a_booking_com_unit_type_is_asked_for_each_file_never_remembered(account_a, places,
                                                                         rates):
    from tests.imports.conftest import booking_rows_of_xls, csv_bytes
    header, rows = booking_rows_of_xls()
    unit = header.index("Unit type")
    for row in rows:
        row[unit] = "Apartment"  # a single property's download: the unit, not the property
    content = csv_bytes(header, rows, delimiter="\t", encoding="utf-16")
    asked = import_export(account_a, content, rates=rates, dry_run=True)
    assert asked.unknown_listings == [{"listing": "Apartment", "rows": [2, 3, 4],
                                       "remembered": False}]
    done = import_export(account_a, content, rates=rates,
                         listing_map={"Apartment": places["studio"]})
    assert done.totals["created"] == 2
    assert list(listings.aliases_of(account_a, places["studio"])) == []
    again = import_export(account_a, content, rates=rates, dry_run=True)
    assert [u["listing"] for u in again.unknown_listings] == ["Apartment"]
    # One listing and one answer: the old single property still answers it.
    assert import_export(account_a, content, rates=rates, dry_run=True,
                         property_id=places["studio"]).totals["unchanged"] == 3
