"""Properties over the API: create, list, get, merge-patch; errors, scopes and tenant isolation."""

import datetime as dt

import pytest

from rentalcomply.core import clock
from rentalcomply.core.models import Property
from rentalcomply.properties import service as properties
from tests.helpers import assert_error

VILLA = {"name": "Villa Anemoi", "address": "Oia, 84702 Santorini", "aade_property_id": "00012345678"}


def test_it_creates_a_property_with_the_decided_defaults(owner):
    response = owner.post_json("/api/v1/properties", VILLA, status=201)
    data = response.json["data"]
    assert data["id"].startswith("prop_")
    assert response.headers["Location"] == f"/api/v1/properties/{data['id']}"
    assert data == {
        "id": data["id"], "name": "Villa Anemoi", "address": "Oia, 84702 Santorini",
        "aade_property_id": "00012345678", "status": "active", "country": "GR",
        "timezone": "Europe/Athens", "max_guests": None, "climate_fee_category": "standard",
        "police_connector": "none", "cin": None, "region": None, "region_source": None,
        "rooms": None, "beds": None, "licence_number": None, "nrua": None, "police_settings": {},
        "police_credentials_set": [], "obligations": [],
        "access_instructions_set": False, "access_instructions_languages": [],
        "access_instructions_hours_before": 24, "checkout_hour": 11,
        "channel_connections": [],
        "ical_export_url": data["ical_export_url"],
        "checkin_url": data["checkin_url"],  # for a key that may write (tests/checkin)
        "created_at": data["created_at"], "updated_at": data["created_at"], "version": 1,
        "tax_rules": [],
    }
    assert data["created_at"].endswith("Z") and len(data["created_at"]) == 20
    assert Property.get_by_id(data["id"]).account_id == owner.account_id


def test_it_creates_a_property_with_every_field_given(owner):
    body = dict(VILLA, country="IT", timezone="Europe/Rome", max_guests=6, status="inactive",
                climate_fee_category="detached_over_80m2", police_connector="alloggiati")
    data = owner.post_json("/api/v1/properties", body, status=201).json["data"]
    for field, value in body.items():
        assert data[field] == value


def test_it_lists_the_accounts_properties_oldest_first_with_pagination(owner, outsider):
    for number in range(3):
        properties.create_property(owner.account_id, name=f"Flat {number}", address="Athens")
        clock.travel(dt.timedelta(seconds=1))  # times are kept to the second
    properties.create_property(outsider.account_id, name="Not yours", address="Chania")
    first = owner.get("/api/v1/properties?limit=2").json
    assert [p["name"] for p in first["data"]] == ["Flat 0", "Flat 1"]
    assert first["pagination"] == {"page": 1, "limit": 2, "total": 3, "has_more": True}
    second = owner.get("/api/v1/properties?limit=2&page=2").json
    assert [p["name"] for p in second["data"]] == ["Flat 2"]
    assert second["pagination"]["has_more"] is False


def test_the_list_shows_each_propertys_channel_connections(owner):
    first = properties.create_property(owner.account_id, name="One", address="Athens")
    clock.travel(dt.timedelta(seconds=1))
    properties.create_property(owner.account_id, name="Two", address="Athens")
    properties.add_channel(owner.account_id, first.id, provider="airbnb",
                           ical_url="https://www.airbnb.com/calendar/ical/1.ics?s=secret")
    listed = owner.get("/api/v1/properties").json["data"]
    assert [len(p["channel_connections"]) for p in listed] == [1, 0]
    assert listed[0]["channel_connections"][0]["ical_url"].endswith("?s=***")


def test_it_refuses_page_and_limit_out_of_range(owner):
    for query in ("page=0", "limit=0", "limit=101", "page=x"):
        assert_error(owner.get(f"/api/v1/properties?{query}", status=400), 400, "VALIDATION_ERROR")


def test_it_gets_a_property_by_id(owner):
    created = owner.post_json("/api/v1/properties", VILLA).json["data"]
    assert owner.get(f"/api/v1/properties/{created['id']}").json["data"] == created


def test_an_unknown_property_is_404(owner):
    assert_error(owner.get("/api/v1/properties/prop_nothing", status=404), 404, "NOT_FOUND")


def test_it_refuses_missing_fields_wrong_types_and_unknown_fields_naming_each(owner):
    response = owner.post_json("/api/v1/properties", {"name": 12, "country": "Greece",
                                                       "max_guests": 0, "colour": "blue"},
                               status=400)
    error = assert_error(response, 400, "VALIDATION_ERROR")
    assert {d["field"] for d in error["details"]} == {"name", "address", "country", "max_guests",
                                                      "colour"}
    assert Property.select().count() == 0


def test_it_refuses_an_unknown_time_zone(owner):
    response = owner.post_json("/api/v1/properties", dict(VILLA, timezone="Mars/Olympus_Mons"),
                               status=400)
    error = assert_error(response, 400, "VALIDATION_ERROR")
    assert error["details"] == [{"field": "timezone",
                                 "message": "must be an IANA time zone name, like Europe/Athens"}]


@pytest.mark.parametrize("zone", ["localtime", "Factory", "posixrules"])
def test_it_refuses_time_zones_that_depend_on_the_host(owner, zone):
    response = owner.post_json("/api/v1/properties", dict(VILLA, timezone=zone), status=400)
    assert assert_error(response, 400, "VALIDATION_ERROR")["details"][0]["field"] == "timezone"


def test_it_refuses_an_unknown_enum_value(owner):
    response = owner.post_json("/api/v1/properties", dict(VILLA, police_connector="interpol"),
                               status=400)
    assert assert_error(response, 400, "VALIDATION_ERROR")["details"][0]["field"] == "police_connector"


def test_it_refuses_malformed_json(owner):
    response = owner.post("/api/v1/properties", '{"name": ', content_type="application/json",
                          status=400)
    assert_error(response, 400, "INVALID_JSON")


def test_it_refuses_a_body_that_is_not_json(owner):
    response = owner.post("/api/v1/properties", "name=Villa", content_type="text/plain", status=415)
    assert_error(response, 415, "UNSUPPORTED_MEDIA_TYPE")


def test_it_refuses_a_body_over_one_mebibyte(owner):
    huge = '{"name": "' + "x" * (1024 * 1024) + '", "address": "Oia"}'
    response = owner.post("/api/v1/properties", huge, content_type="application/json", status=413)
    assert_error(response, 413, "PAYLOAD_TOO_LARGE")


def test_patch_changes_only_the_fields_sent(owner):
    created = owner.post_json("/api/v1/properties", dict(VILLA, max_guests=4)).json["data"]
    patched = owner.patch_json(f"/api/v1/properties/{created['id']}",
                               {"name": "Villa Zephyros"}).json["data"]
    assert patched["name"] == "Villa Zephyros"
    assert {k: v for k, v in patched.items() if k not in ("name", "updated_at", "version")} == \
        {k: v for k, v in created.items() if k not in ("name", "updated_at", "version")}
    assert (created["version"], patched["version"]) == (1, 2)


def test_patch_with_null_clears_a_nullable_field(owner):
    created = owner.post_json("/api/v1/properties", dict(VILLA, max_guests=4)).json["data"]
    patched = owner.patch_json(f"/api/v1/properties/{created['id']}",
                               {"aade_property_id": None, "max_guests": None}).json["data"]
    assert patched["aade_property_id"] is None and patched["max_guests"] is None


def test_patch_takes_merge_patch_json(owner):
    created = owner.post_json("/api/v1/properties", VILLA).json["data"]
    response = owner.patch(f"/api/v1/properties/{created['id']}", '{"status": "inactive"}',
                           content_type="application/merge-patch+json")
    assert response.json["data"]["status"] == "inactive"


def test_patch_refuses_null_for_a_required_field(owner):
    created = owner.post_json("/api/v1/properties", VILLA).json["data"]
    response = owner.patch_json(f"/api/v1/properties/{created['id']}", {"name": None}, status=400)
    error = assert_error(response, 400, "VALIDATION_ERROR")
    assert error["details"] == [{"field": "name", "message": "must not be null"}]


def test_patch_refuses_unknown_fields_and_read_only_ones(owner):
    created = owner.post_json("/api/v1/properties", VILLA).json["data"]
    response = owner.patch_json(f"/api/v1/properties/{created['id']}",
                                {"id": "prop_mine", "created_at": "2020-01-01T00:00:00Z"},
                                status=400)
    error = assert_error(response, 400, "VALIDATION_ERROR")
    assert {d["field"] for d in error["details"]} == {"id", "created_at"}


def test_an_empty_patch_changes_nothing(owner):
    created = owner.post_json("/api/v1/properties", VILLA).json["data"]
    assert owner.patch_json(f"/api/v1/properties/{created['id']}", {}).json["data"] == created


def test_patch_of_an_unknown_property_is_404(owner):
    response = owner.patch_json("/api/v1/properties/prop_nothing", {"name": "X"}, status=404)
    assert_error(response, 404, "NOT_FOUND")


def test_an_idempotent_retry_of_a_create_returns_the_first_property(owner):
    headers = {"Idempotency-Key": "create-villa-1"}
    first = owner.post_json("/api/v1/properties", VILLA, headers=headers, status=201)
    again = owner.post_json("/api/v1/properties", VILLA, headers=headers, status=201)
    assert again.json["data"] == {**first.json["data"], "checkin_url": None}  # never kept
    assert again.headers["Location"] == first.headers["Location"]
    assert Property.select().count() == 1
    other = owner.post_json("/api/v1/properties", dict(VILLA, name="Other"), headers=headers,
                            status=409)
    assert_error(other, 409, "IDEMPOTENCY_CONFLICT")


# --- scopes ---------------------------------------------------------------------------------------

def test_a_read_key_cannot_create_or_change_properties(reader, owner):
    created = owner.post_json("/api/v1/properties", VILLA).json["data"]
    assert_error(reader.post_json("/api/v1/properties", VILLA, status=403), 403, "INSUFFICIENT_SCOPE")
    response = reader.patch_json(f"/api/v1/properties/{created['id']}", {"name": "X"}, status=403)
    assert_error(response, 403, "INSUFFICIENT_SCOPE")
    assert "write" in response.json["error"]["message"]


def test_a_write_only_key_cannot_read_properties(writer):
    created = writer.post_json("/api/v1/properties", VILLA, status=201).json["data"]
    response = writer.get("/api/v1/properties", status=403)
    assert "read" in assert_error(response, 403, "INSUFFICIENT_SCOPE")["message"]
    assert_error(writer.get(f"/api/v1/properties/{created['id']}", status=403), 403,
                 "INSUFFICIENT_SCOPE")


def test_a_webhooks_key_cannot_touch_properties(hooker):
    assert_error(hooker.get("/api/v1/properties", status=403), 403, "INSUFFICIENT_SCOPE")
    assert_error(hooker.post_json("/api/v1/properties", VILLA, status=403), 403, "INSUFFICIENT_SCOPE")


def test_without_a_key_properties_are_unauthenticated(anonymous):
    assert_error(anonymous.get("/api/v1/properties", status=401), 401, "UNAUTHENTICATED")


# --- tenant isolation -----------------------------------------------------------------------------

@pytest.fixture
def their_property(outsider):
    prop = properties.create_property(outsider.account_id, name="Theirs", address="Chania")
    channel = properties.add_channel(outsider.account_id, prop.id, provider="vrbo",
                                     ical_url="https://www.vrbo.com/icalendar/abc.ics")
    return prop, channel


def test_another_accounts_property_is_invisible_and_untouchable(owner, their_property):
    prop, channel = their_property
    assert owner.get("/api/v1/properties").json["data"] == []
    assert_error(owner.get(f"/api/v1/properties/{prop.id}", status=404), 404, "NOT_FOUND")
    assert_error(owner.patch_json(f"/api/v1/properties/{prop.id}", {"name": "Mine"}, status=404),
                 404, "NOT_FOUND")
    response = owner.post_json(f"/api/v1/properties/{prop.id}/channels",
                               {"provider": "airbnb", "ical_url": "https://example.com/a.ics"},
                               status=404)
    assert_error(response, 404, "NOT_FOUND")
    assert_error(owner.delete(f"/api/v1/properties/{prop.id}/channels/{channel.id}", status=404),
                 404, "NOT_FOUND")
    unchanged = Property.get_by_id(prop.id)
    assert unchanged.name == "Theirs" and len(list(unchanged.channel_connections)) == 1


def test_a_property_in_italy_gets_the_italian_time_zone_by_default(owner):
    data = owner.post_json("/api/v1/properties", dict(VILLA, country="IT"), status=201).json["data"]
    assert data["timezone"] == "Europe/Rome"


def test_a_property_in_a_country_of_several_zones_must_name_its_zone(owner):
    response = owner.post_json("/api/v1/properties", dict(VILLA, country="ES"), status=400)
    details = assert_error(response, 400, "VALIDATION_ERROR")["details"]
    assert details == [{"field": "timezone", "message": "is required for country ES, which has "
                        "several time zones (Europe/Madrid, Africa/Ceuta, Atlantic/Canary)"}]
    data = owner.post_json("/api/v1/properties", dict(VILLA, country="ES",
                                                      timezone="Atlantic/Canary"),
                           status=201).json["data"]
    assert data["timezone"] == "Atlantic/Canary"


def test_an_unknown_country_is_refused_in_the_shared_error_shape(owner):
    answer = owner.post_json("/api/v1/properties", dict(VILLA, country="ZZ"), status=400).json
    assert answer["error"]["code"] == "VALIDATION_ERROR"
    assert answer["error"]["details"][0]["field"] == "country"
    assert "not a known country" in answer["error"]["details"][0]["message"]


def test_an_ama_that_is_not_an_ama_is_refused_and_a_real_one_accepted(owner):
    answer = owner.post_json("/api/v1/properties", dict(VILLA, aade_property_id="abc"),
                             status=400).json
    assert answer["error"]["code"] == "VALIDATION_ERROR"
    assert answer["error"]["details"] == [{"field": "aade_property_id", "message": (
        "is not an AMA: the number of the AADE short-term rental registry is digits only, up "
        "to 11, like 00012345678")}]
    made = owner.post_json("/api/v1/properties", VILLA, status=201).json["data"]
    owner.patch_json(f"/api/v1/properties/{made['id']}", {"aade_property_id": "12AB"}, status=400)
    patched = owner.patch_json(f"/api/v1/properties/{made['id']}",
                               {"aade_property_id": "00000954321"}).json["data"]
    assert patched["aade_property_id"] == "00000954321"
