"""The property functions the command line and the demo call, without HTTP."""

import pytest

from rentalcomply.core.errors import NotFound, ValidationError
from rentalcomply.properties import service as properties
from rentalcomply.views import properties as composed


def test_create_property_takes_the_decided_defaults(settings, account_a):
    prop = properties.create_property(account_a, name=" Villa ", address="Oia",
                                      aade_property_id="00012345678")
    view = composed.property_view(prop)
    assert view["name"] == "Villa" and view["country"] == "GR"
    assert view["timezone"] == "Europe/Athens" and view["police_connector"] == "none"
    assert view["status"] == "active" and view["channel_connections"] == []


def test_create_property_refuses_what_the_api_would_refuse(settings, account_a):
    with pytest.raises(ValidationError) as caught:
        properties.create_property(account_a, name="", address="Oia", country="gr",
                                   timezone="Nowhere/Land", max_guests=0,
                                   climate_fee_category="huge")
    assert {d["field"] for d in caught.value.details} == {
        "name", "country", "timezone", "max_guests", "climate_fee_category"}


def test_get_property_of_another_account_is_not_found(settings, account_a, account_b):
    prop = properties.create_property(account_a, name="Villa", address="Oia")
    assert properties.get_property(account_a, prop.id).id == prop.id
    with pytest.raises(NotFound):
        properties.get_property(account_b, prop.id)


def test_list_properties_holds_only_the_accounts_own(settings, account_a, account_b):
    mine = properties.create_property(account_a, name="Mine", address="Oia")
    properties.create_property(account_b, name="Theirs", address="Chania")
    assert [p.id for p in properties.list_properties(account_a)] == [mine.id]


def test_update_property_refuses_unknown_fields(settings, account_a):
    prop = properties.create_property(account_a, name="Villa", address="Oia")
    with pytest.raises(ValidationError):
        properties.update_property(account_a, prop.id, account="acc_other")


@pytest.mark.parametrize("name", ["Europe/Athens", "UTC", "America/Argentina/Buenos_Aires"])
def test_real_time_zones_are_accepted(name):
    assert properties.is_timezone(name)


@pytest.mark.parametrize("name", ["", "Athens", "../../etc/passwd", "Europe/Athens\x00", "x" * 300, None])
def test_made_up_time_zones_are_refused(name):
    assert not properties.is_timezone(name)
