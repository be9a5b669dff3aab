"""The data controller of an account's guests' details: the legal name, postal address and
contact a guest's privacy notice names (checkin/privacy.py), as the owner sets them on the
dashboard's Account page. Until a legal name is set, the notice names the host by the property
and the Account page warns the owner.
"""

from __future__ import annotations

import re

import peewee as pw

from rentalcomply.core import clock
from rentalcomply.core.checks import control_character_problem
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import ValidationError
from rentalcomply.core.models import Account, BaseModel

EMAIL_RE = re.compile(r"^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$")
PHONE_RE = re.compile(r"^\+?[0-9 ().-]{5,}$")
# The longest value of each field (the columns' sizes).
LIMITS = {"legal_name": 200, "address": 500, "email": 254, "phone": 50}


class AccountController(BaseModel):
    account = pw.ForeignKeyField(Account, primary_key=True, on_delete="CASCADE")
    legal_name = pw.CharField(max_length=200, null=True)
    address = pw.CharField(max_length=500, null=True)
    email = pw.CharField(max_length=254, null=True)
    phone = pw.CharField(max_length=50, null=True)
    updated_at = pw.DateTimeField(default=clock.utcnow)

    class Meta:
        table_name = "account_controller"


def controller_of(account_id: str) -> dict[str, str]:
    """The four fields, each "" when not set."""
    row = AccountController.get_or_none(AccountController.account == account_id)
    return {name: (getattr(row, name) if row else None) or "" for name in LIMITS}


def is_named(account_id: str) -> bool:
    return bool(controller_of(account_id)["legal_name"])


def save_controller(account_id: str, *, legal_name: str, address: str, email: str,
                    phone: str) -> None:
    """The controller as typed; a legal name needs an address and a way to reach it (a guest
    exercising a right must be able to write or call)."""
    values = {"legal_name": legal_name, "address": address, "email": email, "phone": phone}
    values = {name: " ".join(value.split()) for name, value in values.items()}
    problems = []
    for name, value in values.items():
        problem = control_character_problem(value)
        if problem or len(value) > LIMITS[name]:
            problems.append({"field": name,
                             "message": problem or f"at most {LIMITS[name]} characters"})
    if values["email"] and not EMAIL_RE.match(values["email"]):
        problems.append({"field": "email", "message": "must be an e-mail address"})
    if values["phone"] and not PHONE_RE.match(values["phone"]):
        problems.append({"field": "phone", "message": "must be a phone number, like +30 210 123 4567"})
    if values["legal_name"] and not values["address"]:
        problems.append({"field": "address", "message": "is needed with a legal name: the "
                                                        "controller's postal address"})
    if values["legal_name"] and not (values["email"] or values["phone"]):
        problems.append({"field": "email", "message": "give an e-mail address or a phone "
                                                      "number guests can reach the controller at"})
    if problems:
        raise ValidationError(problems)
    changes = {getattr(AccountController, name): value or None for name, value in values.items()}
    changes[AccountController.updated_at] = clock.utcnow()
    with atomic():
        (AccountController.insert(account=account_id, **{f.name: v for f, v in changes.items()})
         .on_conflict(conflict_target=[AccountController.account], update=changes).execute())
