"""Tourist taxes: the rule sets an account sees, the sets a property names, what each stay owes.

The shipped rule sets (taxes/shipped/*.json) are every account's, read-only; an account's own
sets are rows. A stay's tax is computed and stored (`booking_tax`) when the booking is created or
its dates, guest count or price change, when its party changes at check-in, when a guest's
exemption is declared and when its property's rule sets (or a set's rates) change; once the host
has marked it collected it is frozen: a later change of rates never reaches it. Before the
check-in, the booking's guest count is taken as that many adults, and the tax says so.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Iterable

from rentalcomply.core import clock, signals
from rentalcomply.core.db import atomic, db
from rentalcomply.core.errors import (NotFound, TaxNotCollectable, TaxRulesInUse,
                                      ValidationError)
from rentalcomply.core.ids import new_id
from rentalcomply.core.models import Booking, Property
from rentalcomply.taxes import compute, rules
from rentalcomply.taxes.models import BookingTax, PropertyTaxRules, TaxRuleSet

COLLECTION_METHODS = ("cash", "card", "transfer", "platform")
MAX_SETS_PER_PROPERTY = 10
OWN_ID_PREFIX = "trs"
# booking_tax.status of a stay whose property names no rule set (its party kept): not shown.
NO_RULES = "none"


# --- rule sets ------------------------------------------------------------------------------------

def rule_set_view(set_id: str, version: int, body: dict, *, shipped: bool,
                  created_at=None, updated_at=None) -> dict:
    return {"id": set_id, "version": version, "shipped": shipped,
            **{name: body.get(name) for name in (
                "name", "authority", "country", "currency", "basis", "rates", "max_nights",
                "max_nights_per", "age_rates", "exemption_reasons", "rounding_cents", "rounding_mode",
                "platform_channels", "stacks_on", "free_stays_exempt", "source", "returns")},
            "created_at": clock.iso(created_at), "updated_at": clock.iso(updated_at)}


def _shipped_view(set_id: str) -> dict:
    content = rules.shipped_bodies()[set_id]
    return rule_set_view(set_id, content["version"], rules.checked_body(content), shipped=True)


def list_rule_sets(account_id: str) -> list[dict]:
    """The shipped sets, then the account's own by creation."""
    own = (TaxRuleSet.select().where(TaxRuleSet.account == account_id)
           .order_by(TaxRuleSet.created_at, TaxRuleSet.id))
    return ([_shipped_view(set_id) for set_id in sorted(rules.shipped_bodies())]
            + [_own_view(row) for row in own])


def _own_view(row: TaxRuleSet) -> dict:
    return rule_set_view(row.id, row.version, row.body, shipped=False,
                         created_at=row.created_at, updated_at=row.updated_at)


def _own_row(account_id: str, set_id: str, *, for_change: bool = False) -> TaxRuleSet:
    row = TaxRuleSet.get_or_none((TaxRuleSet.id == set_id) & (TaxRuleSet.account == account_id))
    if row is None:
        if for_change and set_id in rules.shipped_bodies():
            raise ValidationError("id", "is a shipped rule set, which is read-only: create your "
                                        "own set instead")
        raise NotFound("No such tax rule set.")
    return row


def get_rule_set(account_id: str, set_id: str) -> dict:
    if set_id in rules.shipped_bodies():
        return _shipped_view(set_id)
    return _own_view(_own_row(account_id, set_id))


def create_rule_set(account_id: str, body: Any) -> dict:
    checked = rules.checked_body(body)
    _check_stacks_on(account_id, checked.get("stacks_on"))
    now = clock.utcnow()
    with atomic():
        row = TaxRuleSet.create(id=new_id(OWN_ID_PREFIX), account=account_id, body=checked,
                                version=1, created_at=now, updated_at=now)
    return _own_view(row)


def replace_rule_set(account_id: str, set_id: str, body: Any) -> dict:
    """PUT: the whole body again. The stays of the properties naming the set that are not
    collected yet are charged again (a change of rates applies from its date, by the rates' own
    `from`); collected ones keep their amount."""
    checked = rules.checked_body(body)
    if checked.get("stacks_on") == set_id:
        raise ValidationError("stacks_on", "must name another rule set")
    _check_stacks_on(account_id, checked.get("stacks_on"))
    with atomic():
        row = _own_row(account_id, set_id, for_change=True)
        row.body = checked
        row.version += 1
        row.updated_at = clock.utcnow()
        row.save()
        for prop_id in _properties_naming(account_id, set_id):
            refresh_property(account_id, prop_id)
    return _own_view(row)


def delete_rule_set(account_id: str, set_id: str) -> None:
    with atomic():
        row = _own_row(account_id, set_id, for_change=True)
        if _properties_naming(account_id, set_id):
            raise TaxRulesInUse()
        row.delete_instance()


def _check_stacks_on(account_id: str, stacks_on: str | None) -> None:
    if stacks_on is not None and not _visible(account_id, [stacks_on]):
        raise ValidationError("stacks_on", "is not a rule set of this account or a shipped one")


def _visible(account_id: str, set_ids: Iterable[str]) -> dict[str, rules.RuleSet]:
    """{id: engine rule set} of those of `set_ids` the account sees."""
    found = {}
    own_ids = []
    for set_id in set_ids:
        shipped = rules.shipped_rule_set(set_id)
        if shipped is not None:
            found[set_id] = shipped
        else:
            own_ids.append(set_id)
    if own_ids:
        for row in TaxRuleSet.select().where((TaxRuleSet.account == account_id)
                                             & (TaxRuleSet.id.in_(own_ids))):
            found[row.id] = rules.rule_set(row.id, row.version, row.body)
    return found


def _properties_naming(account_id: str, set_id: str) -> list[str]:
    return [row.property_id for row in PropertyTaxRules.select().where(
        PropertyTaxRules.account == account_id) if set_id in row.rule_set_ids]


# --- a property's rule sets -----------------------------------------------------------------------

def property_rule_ids(property_ids: Iterable[str]) -> dict[str, list[str]]:
    """{property id: the rule set ids it names} in one query; a property naming none is absent."""
    ids = list(property_ids)
    if not ids:
        return {}
    return {row.property_id: row.rule_set_ids
            for row in PropertyTaxRules.select().where(PropertyTaxRules.property.in_(ids))}


def checked_property_rules(account_id: str, value: Any) -> list[str]:
    """`tax_rules` of a property PATCH: a list of distinct rule set ids the account sees, each
    surcharge with the set it stacks on, in one currency; ValidationError otherwise."""
    if (not isinstance(value, list) or len(value) > MAX_SETS_PER_PROPERTY
            or any(not isinstance(item, str) for item in value)):
        raise ValidationError("tax_rules", f"must be a list of at most {MAX_SETS_PER_PROPERTY} "
                                           "tax rule set ids")
    if len(set(value)) != len(value):
        raise ValidationError("tax_rules", "names a rule set twice")
    seen = _visible(account_id, value)
    unknown = [set_id for set_id in value if set_id not in seen]
    if unknown:
        raise ValidationError("tax_rules", "unknown tax rule set: " + ", ".join(unknown))
    for rule_set in seen.values():
        if rule_set.stacks_on and rule_set.stacks_on not in seen:
            raise ValidationError("tax_rules", f"{rule_set.id} is a surcharge on "
                                               f"{rule_set.stacks_on}: name that one too")
    if len({rule_set.currency for rule_set in seen.values()}) > 1:
        raise ValidationError("tax_rules", "the rule sets must all be in one currency")
    return list(value)


def set_property_rules(account_id: str, prop: Property, set_ids: list[str]) -> None:
    """Store the property's rule sets (checked by `checked_property_rules`) and charge its stays
    that are not collected yet again, inside the caller's transaction."""
    if property_rule_ids([prop.id]).get(prop.id, []) == set_ids:
        return
    if set_ids:
        (PropertyTaxRules.insert(property=prop.id, account=account_id, rule_set_ids=set_ids)
         .on_conflict(conflict_target=[PropertyTaxRules.property],
                      update={PropertyTaxRules.rule_set_ids: set_ids}).execute())
    else:
        PropertyTaxRules.delete().where(PropertyTaxRules.property == prop.id).execute()
    refresh_property(account_id, prop.id)


def refresh_property(account_id: str, property_id: str) -> None:
    bookings = Booking.select().where((Booking.account == account_id)
                                      & (Booking.property == property_id)
                                      & (Booking.is_block == False))  # noqa: E712 (SQL)
    for booking in bookings:
        refresh(booking)


# --- a stay's tax ---------------------------------------------------------------------------------

def _age_on(birth: dt.date, day: dt.date) -> int:
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def record_party(booking: Booking, guests: list[dict]) -> None:
    """The check-in's party changed: keep each guest's age on the arrival date (nothing else of
    theirs) and charge the stay again, unless collected. A guest without a birth date yet is
    counted as an adult."""
    ages = []
    for guest in guests:
        birth = guest.get("birth_date")
        try:
            birth = dt.date.fromisoformat(birth) if isinstance(birth, str) else birth
        except ValueError:
            birth = None
        ages.append({"age": _age_on(birth, booking.arrival_date)
                     if isinstance(birth, dt.date) else None})
    row = BookingTax.get_or_none(BookingTax.booking == booking.id)
    if row is not None and row.party == ages:
        return
    refresh(booking, party=ages)


def declare_exemption(account_id: str, booking: Booking, guest: int, reason: str | None) -> dict:
    """Guest number `guest` (from 1, as in the check-in's party) declares `reason` (a code one of
    the property's rule sets offers), or withdraws it (None)."""
    row = BookingTax.get_or_none(BookingTax.booking == booking.id)
    if row is None or row.status == NO_RULES:
        raise ValidationError("reason", "the property names no tourist tax rule set")
    if row.collected_at is not None:
        raise TaxNotCollectable("The tourist tax is already collected; its exemptions are kept "
                                "as they were.")
    party_size = len(row.party) if row.party else booking.guest_count
    if not 1 <= guest <= party_size:
        raise ValidationError("guest", f"must be a guest of the party, from 1 to {party_size}")
    if reason is not None:
        offered = {code for rule_set in _rule_sets_of(account_id, booking.property_id)
                   for code in rule_set.exemption_reasons}
        if reason not in offered:
            raise ValidationError("reason", "is not a reason the property's rule sets offer"
                                  + (": " + ", ".join(sorted(offered)) if offered else ""))
    exemptions = dict(row.exemptions or {})
    if reason is None:
        exemptions.pop(str(guest), None)
    else:
        exemptions[str(guest)] = reason
    return refresh(booking, exemptions=exemptions)


def _rule_ids_of(property_id: str) -> list[str]:
    """The rule set ids one property names: one prepared statement, not a query built each time
    (it runs for every booking a bulk import or a feed creates, which mostly name none)."""
    table = PropertyTaxRules._meta
    column = table.fields["rule_set_ids"]
    row = db.execute_sql(f'SELECT "{column.column_name}" FROM "{table.table_name}" '
                         f'WHERE "{table.fields["property"].column_name}" = {db.param}',
                         (property_id,)).fetchone()
    return column.python_value(row[0]) if row else []


def _rule_sets_of(account_id: str, property_id: str) -> list[rules.RuleSet]:
    ids = _rule_ids_of(property_id)
    found = _visible(account_id, ids)
    return [found[set_id] for set_id in ids if set_id in found]


def refresh(booking: Booking, *, party: list[dict] | None = None,
            exemptions: dict | None = None, prop: Property | None = None,
            new: bool = False) -> dict | None:
    """Charge the stay again and store it (the caller's transaction), unless collected; the new
    `party` or `exemptions` replace the stored ones. Returns the stored view (None: the property
    names no rule set). `new`: the booking was just inserted, it has no stored tax yet."""
    rule_sets = _rule_sets_of(booking.account_id, booking.property_id)
    if not rule_sets and new:
        return None  # one primary-key read for a new stay without tourist tax (bulk imports)
    if not rule_sets:
        # Nothing owed; the party is kept for when the property names a rule set. One query
        # for a property without tourist tax, the common case.
        values = {"status": NO_RULES, "amount_cents": None, "view": {},
                  "updated_at": clock.utcnow()}
        if party is None:
            (BookingTax.update(**values).where((BookingTax.booking == booking.id)
                                              & BookingTax.collected_at.is_null()).execute())
        else:
            (BookingTax.insert(booking=booking.id, account=booking.account_id, party=party,
                               exemptions={}, **values)
             .on_conflict(conflict_target=[BookingTax.booking],
                          update={**values, "party": party}).execute())
        return None
    row = BookingTax.get_or_none(BookingTax.booking == booking.id)
    if row is not None and row.collected_at is not None:
        return row.view
    if party is None:
        party = row.party if row is not None else None
    if exemptions is None:
        exemptions = row.exemptions if row is not None else {}
    prop = prop if prop is not None else booking.property
    # The check-in's party, and as many adults of unknown age as the booking counts more guests
    # (a country that asks the lead guest alone; before the check-in, all of them).
    people = list(party or []) + [{"age": None}] * max(0, booking.guest_count - len(party or []))
    stay = compute.Stay(
        arrival=booking.arrival_date, departure=booking.departure_date,
        category=prop.climate_fee_category, channel=booking.channel,
        total_price_cents=booking.total_price_cents, cancelled=booking.status == "cancelled",
        guests=tuple(compute.Guest(age=person.get("age"),
                                   exemption=(exemptions or {}).get(str(index)))
                     for index, person in enumerate(people, start=1)),
        party_known=all(person.get("age") is not None for person in people))
    view = tax_view(compute.charge(rule_sets, stay), exemptions or {})
    values = {"account": booking.account_id, "status": view["status"],
              "amount_cents": None if view["amount"] is None else round(view["amount"] * 100),
              "view": view, "party": party, "exemptions": exemptions or {},
              "updated_at": clock.utcnow()}
    (BookingTax.insert(booking=booking.id, **values)
     .on_conflict(conflict_target=[BookingTax.booking], update=values).execute())
    return view


def tax_view(result: compute.Result, exemptions: dict) -> dict:
    lines, applied, sets, notes = [], [], [], list(result.notes)
    for charged in result.sets:
        lines += charged.lines
        applied += [{"rule_set": charged.rule_set.id, **exemption}
                    for exemption in charged.exemptions]
        sets.append({"id": charged.rule_set.id, "version": charged.rule_set.version,
                     "name": charged.rule_set.name, "status": charged.status,
                     "amount": None if charged.cents is None else charged.cents / 100})
        notes += [f"{charged.rule_set.name}: {note}" for note in charged.notes
                  if not note.startswith("Cancelled")]
    currency = result.sets[0].rule_set.currency if result.sets else "EUR"
    return {"amount": None if result.cents is None else result.cents / 100,
            "currency": currency, "status": result.status,
            "platform_amount": result.platform_cents / 100, "lines": lines,
            "exemptions": applied,
            "declared_exemptions": [{"guest": int(guest), "reason": reason}
                                    for guest, reason in sorted(exemptions.items(),
                                                                key=lambda item: int(item[0]))],
            "rule_sets": sets, "notes": notes, "collected": None}


def tax_views(booking_ids: Iterable[str]) -> dict[str, dict]:
    """{booking id: its stored `tourist_tax`} in one query, for a page of bookings; a stay whose
    property names no rule set is absent."""
    ids = list(booking_ids)
    if not ids:
        return {}
    # Written out, not built by peewee on each call: building it took as long as a POST
    # /bookings' INSERT of the booking, and every answer and event of a booking reads it.
    sql = _TAX_VIEWS_SQL.format(param=db.param, ids=", ".join([db.param] * len(ids)))
    view_of = BookingTax.view.python_value
    return {booking_id: view_of(view) for booking_id, view in db.execute_sql(sql,
                                                                             [NO_RULES, *ids])}


_TAX_VIEWS_SQL = (f'SELECT "{BookingTax.booking.column_name}", "{BookingTax.view.column_name}" '
                  f'FROM "{BookingTax._meta.table_name}" '
                  f'WHERE "{BookingTax.status.column_name}" != {{param}} '
                  f'AND "{BookingTax.booking.column_name}" IN ({{ids}})')


def to_collect(stays: list[Booking]) -> list[tuple[Booking, dict]]:
    """(booking, its `tourist_tax`) of `stays` whose tax is due and not collected yet, in their
    order (Today's arrivals, the morning e-mail): one query."""
    due = {row.booking_id: row.view for row in BookingTax.select(
        BookingTax.booking, BookingTax.view).where(
        BookingTax.booking.in_([booking.id for booking in stays])
        & (BookingTax.status == "due"))} if stays else {}
    return [(booking, due[booking.id]) for booking in stays if booking.id in due]


def mark_collected(account_id: str, booking: Booking, method: str) -> dict:
    """The host collected the stay's tax (`method`: cash, card, transfer, platform): its amount
    is frozen from now on. TaxNotCollectable when already collected or nothing is due."""
    if method not in COLLECTION_METHODS:
        raise ValidationError("method", "must be one of: " + ", ".join(COLLECTION_METHODS))
    with atomic():
        # The row locked where the database can (PostgreSQL), so two marks cannot both pass;
        # SQLite's write transaction already takes the database one writer at a time.
        query = BookingTax.select().where(BookingTax.booking == booking.id)
        row = (query.for_update() if db.obj.for_update else query).get_or_none()
        if row is None or row.status == NO_RULES:
            raise TaxNotCollectable("The property names no tourist tax rule set: nothing is owed.")
        if row.collected_at is not None:
            raise TaxNotCollectable("The tourist tax of this stay is already collected.")
        if row.status != "due":
            raise TaxNotCollectable(_not_due_message(row.status))
        now = clock.utcnow()
        view = dict(row.view)
        view["status"] = "collected"
        view["collected"] = {"at": clock.iso(now), "method": method}
        row.view, row.status = view, "collected"
        row.collected_at, row.collected_method, row.updated_at = now, method, now
        row.save()
    return view


def _not_due_message(status: str) -> str:
    return {"exempt": "The stay owes no tourist tax.",
            "platform": "The channel collects this stay's tourist tax itself.",
            "unknown": "The tax cannot be computed yet (a rule set has no rate for some nights): "
                       "nothing can be marked collected."}.get(status, "Nothing is due.")


# --- what the bookings and the channels' feeds announce ---------------------------------------------
# One booking made on its own is charged by bookings.service.create_booking itself, which answers
# with the view `refresh` returns; a batch and a feed's bookings arrive here.

def _bookings_created(account_id: str, created: list[tuple[Booking, Property]]) -> None:
    """An import's batch: the rule sets of each property looked up once, not per stay."""
    names_rules: dict[str, bool] = {}
    for booking, prop in created:
        if prop.id not in names_rules:
            names_rules[prop.id] = bool(_rule_ids_of(prop.id))
        if names_rules[prop.id]:
            refresh(booking, prop=prop, new=True)


def _bookings_imported(account_id: str, booking_ids: list[str]) -> None:
    """A channel's feed inserted these (one property's): nothing to do unless it names rules."""
    if not booking_ids:
        return
    # Every booking of one feed is of the same property: its rule sets are looked up from the
    # first one's property id alone, and the bookings loaded only when it names some (a feed's
    # thousands of stays read as whole rows for nothing was most of this hook's time).
    property_id = (Booking.select(Booking.property).where(Booking.id == booking_ids[0])
                   .scalar())
    if property_id is None or not _rule_sets_of(account_id, property_id):
        return
    for booking in Booking.select().where(Booking.id.in_(booking_ids)):
        refresh(booking, new=True)


signals.subscribe(signals.BOOKINGS_CREATED, _bookings_created)
signals.subscribe(signals.BOOKINGS_IMPORTED, _bookings_imported)
