"""Tourist taxes' tables (migration 0049).

- `tax_rule_set`: an account's own rule sets (the shipped ones are files in the package, never
  rows); `body` is the checked JSON of taxes/rules.py, `version` grows with each change.
- `property_tax_rules`: the rule set ids a property names, in order.
- `booking_tax`: what a stay owes, stored when the stay, its party or its property's rules
  change and frozen once collected: `view` is the `tourist_tax` answer as computed, `party` the
  guests' ages on arrival (from the check-in; null before it) and `exemptions` the reasons
  declared per guest (their position in the party, from 1). No guest data beyond ages.
"""

from __future__ import annotations

import peewee as pw

from rentalcomply.core import clock
from rentalcomply.core.models import Account, BaseModel, Booking, JSONField, Property


class TaxRuleSet(BaseModel):
    id = pw.CharField(primary_key=True, max_length=32)
    account = pw.ForeignKeyField(Account, on_delete="CASCADE", index=True)
    body = JSONField()
    version = pw.IntegerField(default=1)
    created_at = pw.DateTimeField(default=clock.utcnow)
    updated_at = pw.DateTimeField(default=clock.utcnow)


class PropertyTaxRules(BaseModel):
    property = pw.ForeignKeyField(Property, primary_key=True, on_delete="CASCADE")
    account = pw.ForeignKeyField(Account, on_delete="CASCADE", index=True)
    rule_set_ids = JSONField()


class BookingTax(BaseModel):
    booking = pw.ForeignKeyField(Booking, primary_key=True, on_delete="CASCADE")
    account = pw.ForeignKeyField(Account, on_delete="CASCADE", index=True)
    status = pw.CharField(max_length=16)
    amount_cents = pw.IntegerField(null=True)
    view = JSONField()
    party = JSONField(null=True)
    exemptions = JSONField(default=dict)
    collected_at = pw.DateTimeField(null=True)
    collected_method = pw.CharField(max_length=16, null=True)
    updated_at = pw.DateTimeField(default=clock.utcnow)
