"""The rule sets through the API: shipped ones read-only, an account's own kept apart, validation
in the shared error shape, scopes."""

import pytest

from rentalcomply.properties import service as properties
from tests.helpers import assert_error
from tests.taxes.conftest import own_rule_set


def test_the_shipped_sets_come_first_each_rate_with_its_source(reader):
    sets = reader.get("/api/v1/tax-rules").json["data"]
    shipped = [s for s in sets if s["shipped"]]
    assert {"pt-lisboa", "pt-porto", "it-roma", "it-firenze", "it-milano",
            "es-ct-ieet-barcelona", "es-barcelona-surcharge", "gr-climate-fee"} <= {
        s["id"] for s in shipped}
    for rule_set in shipped:
        assert rule_set["source"].strip()
        assert all(rate["source"].strip() and rate["from"] for rate in rule_set["rates"])
    lisbon = reader.get("/api/v1/tax-rules/pt-lisboa").json["data"]
    assert (lisbon["max_nights"], lisbon["age_rates"], lisbon["rates"][-1]["amount"]) == (
        7, [{"below": 13, "percent": 0}], 4.0)


def test_an_own_set_is_created_read_replaced_and_deleted(owner):
    created = owner.post_json("/api/v1/tax-rules", own_rule_set(), status=201)
    rule = created.json["data"]
    assert created.headers["Location"] == f"/api/v1/tax-rules/{rule['id']}"
    assert (rule["shipped"], rule["version"], rule["rounding_cents"]) == (False, 1, 1)
    assert rule["id"].startswith("trs_")
    assert owner.get(f"/api/v1/tax-rules/{rule['id']}").json["data"] == rule
    replaced = owner.put_json(f"/api/v1/tax-rules/{rule['id']}",
                              own_rule_set(name="Paese 2027")).json["data"]
    assert (replaced["name"], replaced["version"]) == ("Paese 2027", 2)
    assert [s["id"] for s in owner.get("/api/v1/tax-rules").json["data"] if not s["shipped"]] == [
        rule["id"]]
    owner.delete(f"/api/v1/tax-rules/{rule['id']}", status=204)
    assert_error(owner.get(f"/api/v1/tax-rules/{rule['id']}", expect_errors=True), 404,
                 "NOT_FOUND")


@pytest.mark.parametrize("change, field", [
    ({"basis": "per_guest"}, "basis"),
    ({"rates": []}, "rates"),
    ({"rates": [{"from": "2026-13-01", "amount": 2}]}, "rates[0].from"),
    ({"rates": [{"from": "2026-01-01", "amount": 2.345}]}, "rates[0].amount"),
    ({"rates": [{"from": "2026-01-01", "to": "2025-01-01", "amount": 2}]}, "rates[0].to"),
    ({"rates": [{"from": "2026-01-01", "amount": 2, "months": [0]}]}, "rates[0].months"),
    ({"rates": [{"from": "2026-01-01", "amount": 2, "months": [{}]}]}, "rates[0].months"),
    ({"platform_channels": [{}]}, "platform_channels"),
    ({"age_rates": [{}]}, "age_rates[0]"),
    ({"exemption_reasons": [{}]}, "exemption_reasons[0]"),
    ({"stacks_on": {}}, "stacks_on"),
    ({"age_rates": [{"below": 14, "percent": 150}]}, "age_rates[0]"),
    ({"exemption_reasons": [{"code": "Driver!", "label": "x"}]}, "exemption_reasons[0]"),
    ({"rounding_cents": 3}, "rounding_cents"),
    ({"max_nights": 0}, "max_nights"),
    ({"stacks_on": "nowhere"}, "stacks_on"),
    ({"country": "Italy"}, "country"),
    ({"platform_channels": ["expedia"]}, "platform_channels"),
])
def test_a_bad_set_is_refused_naming_the_field(owner, change, field):
    error = assert_error(owner.post_json("/api/v1/tax-rules", own_rule_set(**change),
                                         expect_errors=True), 400, "VALIDATION_ERROR")
    assert field in [detail["field"] for detail in error["details"]], error


def test_a_shipped_set_is_read_only(owner):
    assert_error(owner.put_json("/api/v1/tax-rules/pt-lisboa", own_rule_set(),
                                expect_errors=True), 400, "VALIDATION_ERROR")
    assert_error(owner.delete("/api/v1/tax-rules/pt-lisboa", expect_errors=True), 400,
                 "VALIDATION_ERROR")


def test_another_accounts_set_is_not_found(owner, outsider):
    rule = owner.post_json("/api/v1/tax-rules", own_rule_set(), status=201).json["data"]
    url = f"/api/v1/tax-rules/{rule['id']}"
    assert_error(outsider.get(url, expect_errors=True), 404, "NOT_FOUND")
    assert_error(outsider.put_json(url, own_rule_set(), expect_errors=True), 404, "NOT_FOUND")
    assert_error(outsider.delete(url, expect_errors=True), 404, "NOT_FOUND")
    assert rule["id"] not in [s["id"] for s in outsider.get("/api/v1/tax-rules").json["data"]]
    prop = properties.create_property(outsider.account_id, name="Casa", address="Paese",
                                      country="IT")
    error = assert_error(outsider.patch_json(f"/api/v1/properties/{prop.id}",
                                             {"tax_rules": [rule["id"]]}, expect_errors=True),
                         400, "VALIDATION_ERROR")
    assert error["details"][0]["field"] == "tax_rules"


def test_scopes(reader, writer):
    assert_error(reader.post_json("/api/v1/tax-rules", own_rule_set(), expect_errors=True), 403,
                 "INSUFFICIENT_SCOPE")
    rule = writer.post_json("/api/v1/tax-rules", own_rule_set(), status=201).json["data"]
    assert_error(writer.get("/api/v1/tax-rules", expect_errors=True), 403, "INSUFFICIENT_SCOPE")
    assert_error(reader.delete(f"/api/v1/tax-rules/{rule['id']}", expect_errors=True), 403,
                 "INSUFFICIENT_SCOPE")


def test_a_property_names_its_sets_surcharges_with_their_base(owner):
    prop = properties.create_property(owner.account_id, name="Pis", address="Barcelona",
                                      country="ES", timezone="Europe/Madrid")
    url = f"/api/v1/properties/{prop.id}"
    error = assert_error(owner.patch_json(url, {"tax_rules": ["es-barcelona-surcharge"]},
                                          expect_errors=True), 400, "VALIDATION_ERROR")
    assert "es-ct-ieet-barcelona" in error["details"][0]["message"]
    for bad in (["nowhere"], ["pt-lisboa", "pt-lisboa"], "pt-lisboa"):
        assert_error(owner.patch_json(url, {"tax_rules": bad}, expect_errors=True), 400,
                     "VALIDATION_ERROR")
    both = ["es-ct-ieet-barcelona", "es-barcelona-surcharge"]
    assert owner.patch_json(url, {"tax_rules": both}).json["data"]["tax_rules"] == both
    # A stay in Barcelona in June 2026: 2 guests × 3 nights × (€4.50 + €5) = €57, stacked.
    tax = owner.post_json("/api/v1/bookings", {
        "property_id": prop.id, "guest_name": "Joan", "arrival_date": "2026-06-01",
        "departure_date": "2026-06-04", "guest_count": 2}, status=201).json["data"]["tourist_tax"]
    assert tax["amount"] == 57.0
    assert [(s["id"], s["amount"]) for s in tax["rule_sets"]] == [
        ("es-ct-ieet-barcelona", 27.0), ("es-barcelona-surcharge", 30.0)]


def test_a_set_in_use_cannot_be_deleted(owner):
    rule = owner.post_json("/api/v1/tax-rules", own_rule_set(), status=201).json["data"]
    prop = properties.create_property(owner.account_id, name="Casa", address="Paese",
                                      country="IT")
    owner.patch_json(f"/api/v1/properties/{prop.id}", {"tax_rules": [rule["id"]]})
    assert_error(owner.delete(f"/api/v1/tax-rules/{rule['id']}", expect_errors=True), 409,
                 "TAX_RULES_IN_USE")
    owner.patch_json(f"/api/v1/properties/{prop.id}", {"tax_rules": []})
    owner.delete(f"/api/v1/tax-rules/{rule['id']}", status=204)
