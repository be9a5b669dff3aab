"""The account's data controller: kept as typed (spaces folded), checked as a guest would need it
(an address and a way to reach it with a legal name)."""

import pytest

from rentalcomply.accounts import controller
from rentalcomply.core.errors import ValidationError


def test_the_controller_is_saved_and_read_back(account_a):
    assert controller.controller_of(account_a) == {"legal_name": "", "address": "", "email": "",
                                                   "phone": ""}
    controller.save_controller(account_a, legal_name="  Eleni   Markou ", address="Oia, Santorini",
                               email="eleni@example.com", phone="")
    assert controller.controller_of(account_a)["legal_name"] == "Eleni Markou"
    assert controller.is_named(account_a)
    controller.save_controller(account_a, legal_name="", address="", email="", phone="")
    assert not controller.is_named(account_a)


@pytest.mark.parametrize("fields, field", [
    ({"legal_name": "Eleni", "address": "", "email": "e@example.com", "phone": ""}, "address"),
    ({"legal_name": "Eleni", "address": "Oia", "email": "", "phone": ""}, "email"),
    ({"legal_name": "Eleni", "address": "Oia", "email": "not-an-address", "phone": ""}, "email"),
    ({"legal_name": "Eleni", "address": "Oia", "email": "", "phone": "call me"}, "phone"),
    ({"legal_name": "E\x07leni", "address": "Oia", "email": "e@example.com", "phone": ""},
     "legal_name"),
    ({"legal_name": "x" * 201, "address": "Oia", "email": "e@example.com", "phone": ""},
     "legal_name"),
])
def test_what_a_guest_could_not_use_is_refused_naming_the_field(account_a, fields, field):
    with pytest.raises(ValidationError) as refused:
        controller.save_controller(account_a, **fields)
    assert field in {detail["field"] for detail in refused.value.details}
    assert not controller.is_named(account_a)
