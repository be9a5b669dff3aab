"""What a stay owes, worked by hand: the booking's `tourist_tax` through the API."""

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core.db import atomic
from rentalcomply.properties import service as properties
from rentalcomply.taxes import service as taxes
from tests.helpers import assert_error
from tests.taxes.conftest import own_rule_set


def test_a_family_of_two_adults_and_a_twelve_year_old_nine_nights_in_lisbon(owner, lisbon, book):
    booking = book(lisbon, "2026-07-01", "2026-07-10", guests=3)
    tax = booking["tourist_tax"]
    # Before check-in the booking's 3 guests are all adults: 3 × 7 (of 9) nights × €4 = €84.
    assert (tax["status"], tax["amount"], tax["currency"]) == ("due", 84.0, "EUR")
    assert tax["lines"] == [{"rule_set": "pt-lisboa", "persons": 3, "nights": 7, "rate": 4.0,
                             "percent": 100, "rate_from": "2024-09-01", "amount": 84.0}]
    assert any("counted as adults" in note for note in tax["notes"])
    assert any("7 of 9 nights" in note for note in tax["notes"])
    assert tax["rule_sets"] == [{"id": "pt-lisboa", "version": 1, "name": tax["rule_sets"][0]["name"],
                                 "status": "due", "amount": 84.0}]

    # The check-in gives the ages on arrival: the 12-year-old pays nothing (from 13):
    # 2 × 7 × €4 = €56.
    taxes.record_party(bookings.get_booking(owner.account_id, booking["id"]),
                       [{"birth_date": "1980-02-01"}, {"birth_date": "1982-11-30"},
                        {"birth_date": "2013-09-15"}])
    tax = owner.get(f"/api/v1/bookings/{booking['id']}").json["data"]["tourist_tax"]
    assert (tax["status"], tax["amount"]) == ("due", 56.0)
    assert tax["lines"][0]["persons"] == 2 and tax["lines"][0]["nights"] == 7
    assert tax["exemptions"] == [{"rule_set": "pt-lisboa", "guest": 3, "reason": "age",
                                  "age": 12}]
    assert not any("counted as adults" in note for note in tax["notes"])


def test_a_thirteen_year_old_pays_from_the_birthday_before_arrival(owner, lisbon, book):
    booking = book(lisbon, "2026-07-01", "2026-07-03", guests=1)
    taxes.record_party(bookings.get_booking(owner.account_id, booking["id"]),
                       [{"birth_date": "2013-07-01"}])  # 13 on the arrival date
    assert owner.get(f"/api/v1/bookings/{booking['id']}").json["data"]["tourist_tax"]["amount"] == 8.0


def test_a_stay_across_a_rate_change_is_charged_night_by_night(owner, book):
    prop = properties.create_property(owner.account_id, name="Casa", address="Paese",
                                      country="IT")
    rule = owner.post_json("/api/v1/tax-rules", own_rule_set(max_nights=None, rates=[
        {"from": "2020-01-01", "amount": 2.0, "source": "delibera 1"},
        {"from": "2026-08-01", "amount": 3.5, "source": "delibera 2"}]), status=201).json["data"]
    owner.patch_json(f"/api/v1/properties/{prop.id}", {"tax_rules": [rule["id"]]})
    tax = book(prop, "2026-07-29", "2026-08-02", guests=2)["tourist_tax"]
    # 2 persons × 3 nights (29, 30, 31 July) × €2 + 2 × 1 night (1 August) × €3.50 = €19.
    assert tax["amount"] == 19.0
    assert [(l["persons"], l["nights"], l["rate"], l["rate_from"]) for l in tax["lines"]] == [
        (2, 3, 2.0, "2020-01-01"), (2, 1, 3.5, "2026-08-01")]


def test_a_rule_changed_after_collection_leaves_the_collected_stay_as_it_was(owner, book):
    prop = properties.create_property(owner.account_id, name="Casa", address="Paese",
                                      country="IT")
    rule = owner.post_json("/api/v1/tax-rules", own_rule_set(), status=201).json["data"]
    owner.patch_json(f"/api/v1/properties/{prop.id}", {"tax_rules": [rule["id"]]})
    collected = book(prop, "2026-06-01", "2026-06-04", guests=2)
    pending = book(prop, "2026-06-10", "2026-06-12", guests=1)
    answer = owner.post_json(f"/api/v1/bookings/{collected['id']}/tourist-tax/collected",
                             {"method": "cash"}).json["data"]
    assert (answer["status"], answer["amount"], answer["collected"]["method"]) == (
        "collected", 12.0, "cash")
    assert_error(owner.post_json(f"/api/v1/bookings/{collected['id']}/tourist-tax/collected",
                                 {"method": "card"}, expect_errors=True), 409,
                 "TAX_NOT_COLLECTABLE")

    changed = own_rule_set(rates=[{"from": "2020-01-01", "amount": 5.0, "source": "delibera 3"}])
    assert owner.put_json(f"/api/v1/tax-rules/{rule['id']}", changed).json["data"]["version"] == 2
    kept = owner.get(f"/api/v1/bookings/{collected['id']}").json["data"]["tourist_tax"]
    assert (kept["status"], kept["amount"], kept["rule_sets"][0]["version"]) == (
        "collected", 12.0, 1)
    again = owner.get(f"/api/v1/bookings/{pending['id']}").json["data"]["tourist_tax"]
    assert (again["status"], again["amount"], again["rule_sets"][0]["version"]) == ("due", 10.0, 2)


def test_a_town_where_the_channel_collects_owes_the_host_nothing(owner, lisbon):
    with atomic():
        booking = bookings.create_booking(
            owner.account_id, rates=FeeRates(800, 200, 1500, 400, frozenset(range(4, 11))),
            property_id=lisbon.id, guest_name="Airbnb guest", arrival_date="2026-05-01",
            departure_date="2026-05-03", guest_count=2, channel="airbnb", source=None)
    tax = owner.get(f"/api/v1/bookings/{booking.id}").json["data"]["tourist_tax"]
    assert (tax["status"], tax["amount"], tax["platform_amount"]) == ("platform", 0, 16.0)
    assert any("collects this tax itself" in note for note in tax["notes"])
    assert_error(owner.post_json(f"/api/v1/bookings/{booking.id}/tourist-tax/collected",
                                 {"method": "cash"}, expect_errors=True), 409,
                 "TAX_NOT_COLLECTABLE")
    assert taxes.tax_views([booking.id])[booking.id]["status"] == "platform"


def test_a_cancelled_stay_owes_nothing(owner, lisbon, book):
    booking = book(lisbon, "2026-07-01", "2026-07-04", guests=2)
    assert booking["tourist_tax"]["amount"] == 24.0
    tax = owner.post_json(f"/api/v1/bookings/{booking['id']}/cancel", {}).json["data"]["tourist_tax"]
    assert (tax["status"], tax["amount"], tax["lines"]) == ("exempt", 0, [])
    assert any("Cancelled" in note for note in tax["notes"])
    assert_error(owner.post_json(f"/api/v1/bookings/{booking['id']}/tourist-tax/collected",
                                 {"method": "cash"}, expect_errors=True), 409,
                 "TAX_NOT_COLLECTABLE")


def test_a_declared_exemption_frees_that_guest(owner, book):
    prop = properties.create_property(owner.account_id, name="Casa", address="Paese",
                                      country="IT")
    rule = owner.post_json("/api/v1/tax-rules", own_rule_set(), status=201).json["data"]
    owner.patch_json(f"/api/v1/properties/{prop.id}", {"tax_rules": [rule["id"]]})
    booking = book(prop, "2026-06-01", "2026-06-03", guests=2)
    assert booking["tourist_tax"]["amount"] == 8.0
    url = f"/api/v1/bookings/{booking['id']}/tourist-tax/exemptions"
    tax = owner.post_json(url, {"guest": 2, "reason": "patient_companion"}).json["data"]
    assert tax["amount"] == 4.0
    assert tax["declared_exemptions"] == [{"guest": 2, "reason": "patient_companion"}]
    assert {"rule_set": rule["id"], "guest": 2, "reason": "patient_companion"} in tax["exemptions"]
    assert_error(owner.post_json(url, {"guest": 2, "reason": "astronaut"}, expect_errors=True),
                 400, "VALIDATION_ERROR")
    assert_error(owner.post_json(url, {"guest": 3, "reason": "driver"}, expect_errors=True),
                 400, "VALIDATION_ERROR")
    assert owner.post_json(url, {"guest": 2, "reason": None}).json["data"]["amount"] == 8.0


def test_a_change_of_dates_or_party_charges_again(owner, lisbon, book):
    booking = book(lisbon, "2026-07-01", "2026-07-03", guests=2)
    changed = owner.patch_json(f"/api/v1/bookings/{booking['id']}",
                               {"departure_date": "2026-07-04", "guest_count": 3}).json["data"]
    assert changed["tourist_tax"]["amount"] == 36.0  # 3 × 3 × €4


def test_a_property_without_rule_sets_shows_no_tax_and_the_list_carries_each(owner, lisbon, book):
    plain = properties.create_property(owner.account_id, name="Villa", address="Oia")
    book(plain, "2026-07-01", "2026-07-03")
    book(lisbon, "2026-07-05", "2026-07-06")
    rows = owner.get("/api/v1/bookings").json["data"]
    assert [row["tourist_tax"] and row["tourist_tax"]["amount"] for row in rows] == [None, 8.0]
    # Naming the rules later charges the stays already booked.
    owner.patch_json(f"/api/v1/properties/{plain.id}", {"tax_rules": ["pt-porto"]})
    rows = owner.get("/api/v1/bookings").json["data"]
    assert rows[0]["tourist_tax"]["amount"] == 12.0  # Porto: 2 × 2 × €3


def test_nights_without_a_known_rate_are_held_not_guessed(owner, book):
    prop = properties.create_property(owner.account_id, name="Casa", address="Milano",
                                      country="IT")
    owner.patch_json(f"/api/v1/properties/{prop.id}", {"tax_rules": ["it-milano"]})
    tax = book(prop, "2026-12-30", "2027-01-02", guests=1)["tourist_tax"]
    assert (tax["status"], tax["amount"]) == ("unknown", None)
    assert any("No rate in force on 2027-01-01" in note for note in tax["notes"])


def lisbon_family() -> list[dict]:
    """Two adults and a child of 12 on 1 July 2026, as the check-in takes them."""
    adult = {"nationality": "DE", "document_type": "passport", "document_number": "C01X00T47",
             "document_country": "DE", "residence_country": "DE", "residence_place": "Köln"}
    return [
        {"first_name": "Anna", "last_name": "Weber", "sex": "F", "birth_date": "1980-02-01",
         "email": "anna@example.org", **adult},
        {"first_name": "Jonas", "last_name": "Weber", "sex": "M", "birth_date": "1982-11-30",
         **adult},
        {"first_name": "Lena", "last_name": "Weber", "sex": "F", "birth_date": "2013-09-15",
         "nationality": "DE", "residence_country": "DE", "residence_place": "Köln",
         "minor_relationship": "parent"},
    ]


def test_the_party_from_the_check_in_gives_the_ages(owner, lisbon, book):
    booking = book(lisbon, "2026-07-01", "2026-07-10", guests=3)
    answer = owner.put_json(f"/api/v1/bookings/{booking['id']}/guests",
                            {"guests": lisbon_family()}, expect_errors=True)
    assert answer.status_int == 200, answer.body
    tax = owner.get(f"/api/v1/bookings/{booking['id']}").json["data"]["tourist_tax"]
    assert (tax["amount"], tax["exemptions"]) == (56.0, [
        {"rule_set": "pt-lisboa", "guest": 3, "reason": "age", "age": 12}])


def test_a_party_checked_in_before_the_property_names_its_rules_still_counts(owner, book):
    prop = properties.create_property(owner.account_id, name="Casa Azul", address="Lisboa",
                                      country="PT", timezone="Europe/Lisbon", max_guests=6)
    booking = book(prop, "2026-07-01", "2026-07-10", guests=3)
    assert booking["tourist_tax"] is None
    owner.put_json(f"/api/v1/bookings/{booking['id']}/guests", {"guests": lisbon_family()})
    assert owner.get(f"/api/v1/bookings/{booking['id']}").json["data"]["tourist_tax"] is None
    owner.patch_json(f"/api/v1/properties/{prop.id}", {"tax_rules": ["pt-lisboa"]})
    tax = owner.get(f"/api/v1/bookings/{booking['id']}").json["data"]["tourist_tax"]
    assert (tax["amount"], tax["exemptions"][0]["age"]) == (56.0, 12)


def test_guests_the_check_in_does_not_name_are_counted_as_adults(owner, lisbon, book):
    booking = book(lisbon, "2026-07-01", "2026-07-03", guests=3)
    taxes.record_party(bookings.get_booking(owner.account_id, booking["id"]),
                       [{"birth_date": "1980-02-01"}, {"birth_date": "2016-01-01"}])
    tax = owner.get(f"/api/v1/bookings/{booking['id']}").json["data"]["tourist_tax"]
    assert tax["amount"] == 16.0  # the adult and the third guest, unknown: 2 × 2 × €4
    assert any("1 of the 3 guests have no birth date" in note for note in tax["notes"])
