"""Which property each listing of a channel's export is, asked once and remembered.

A file names its listing on every row: Airbnb's listing title ("Bright 2BR flat in Oltrarno…"),
Booking.com's property or unit name. A listing is the account's property whose alias (an answer
the host gave before: `ListingAlias`) or name it is, case, accents and spacing aside; else the
answer given with this import (`listing_map`, title -> property id), which applying remembers as
the listing's alias so that the next file asks nothing.

A listing still unknown is asked, never guessed: its rows wait as conflicts and the report names
it (`unknown`). Booking.com's unit type ("Apartment", "Double Room"), the listing of a single
property's download, names no one property: its answer holds for the file and is not remembered,
lest another property's file with the same unit type go there unasked. One answer covers one listing: the import's single property (`property_id`, the
old way) is taken only for a file with one unknown listing, and the account's only property only
for a file of one listing, so that no choice puts two places' guests on one property.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field

from rentalcomply.core import clock
from rentalcomply.core.errors import NotFound, ValidationError
from rentalcomply.core.ids import new_id
from rentalcomply.core.models import Property
from rentalcomply.imports.channels import CHANNEL_NAMES, Export
from rentalcomply.imports.models import ListingAlias

TITLE_MAX = 300  # ListingAlias.title
ALIASES_PER_PROPERTY = 50  # a property is on a handful of channels; more is a mistake


@dataclass
class Listings:
    """The file's listings: folded title -> property, and those still unknown."""

    places: dict[str, Property] = field(default_factory=dict)
    # Unknown listings as the file writes them, in the file's order, with their rows.
    unknown: dict[str, list[int]] = field(default_factory=dict)
    units: set[str] = field(default_factory=set)  # folded titles that are unit types
    # The answers of this import to remember on applying: (title, property).
    answered: list[tuple[str, Property]] = field(default_factory=list)

    def property_of(self, listing: str | None) -> Property | None:
        return self.places.get(fold(listing or ""))

    def view(self) -> list[dict]:
        return [{"listing": title, "rows": rows, "remembered": fold(title) not in self.units}
                for title, rows in self.unknown.items()]


def resolve(account_id: str, export: Export, listing_map: dict[str, str] | None = None,
            property_id: str | None = None) -> Listings:
    """Each listing of the file mapped to a property where the names, the aliases or the answers
    say which. Raises NotFound for an answer that is not the account's property, ValidationError
    for a single property given with a file of several unknown listings."""
    properties = list(Property.select().where(Property.account == account_id)
                      .order_by(Property.created_at, Property.id))
    by_id = {prop.id: prop for prop in properties}
    by_name = {fold(prop.name): prop for prop in properties}
    aliases = {alias.folded: by_id[alias.property_id] for alias in ListingAlias.select().where(
        (ListingAlias.account == account_id) & (ListingAlias.channel == export.channel))
        if alias.property_id in by_id}
    answers = {}
    for title, answer in (listing_map or {}).items():
        if answer not in by_id:
            raise NotFound(f"No such property: {answer}.")
        answers[fold(title)] = by_id[answer]
    titles: dict[str, str] = {}  # folded -> as first written
    rows: dict[str, list[int]] = {}
    for reservation in export.reservations:
        folded = fold(reservation.listing or "")
        titles.setdefault(folded, " ".join((reservation.listing or "").split()))
        rows.setdefault(folded, []).append(reservation.row)
    units = {fold(r.listing or "") for r in export.reservations if r.listing_is_unit}
    listings = Listings(units=units | {""})
    for folded, title in titles.items():
        if folded in answers:
            listings.places[folded] = answers[folded]
            if folded not in listings.units and folded not in aliases and folded not in by_name:
                listings.answered.append((title[:TITLE_MAX], answers[folded]))
        elif folded and (folded in aliases or folded in by_name):
            listings.places[folded] = aliases.get(folded) or by_name[folded]
        else:
            listings.unknown[title] = rows[folded]
    if property_id is not None:
        if property_id not in by_id:
            raise NotFound("No such property.")
        if len(listings.unknown) > 1:
            raise ValidationError("property_id", (
                "the file has {count} listings that are no property's: say which property each "
                "one is (listing_map), one answer per listing").format(count=len(listings.unknown)))
        for title in list(listings.unknown):
            listings.places[fold(title)] = by_id[property_id]
            if fold(title) not in listings.units:
                listings.answered.append((title[:TITLE_MAX], by_id[property_id]))
            del listings.unknown[title]
    elif len(properties) == 1 and len(titles) == 1 and listings.unknown:
        # One place, one listing: there is nothing to ask (the answer is not remembered, as
        # the host gave none).
        title = next(iter(listings.unknown))
        listings.places[fold(title)] = properties[0]
        del listings.unknown[title]
    return listings


def remember(account_id: str, channel: str, listings: Listings) -> None:
    """Keep this import's answers as the listings' aliases (in the import's transaction)."""
    for title, prop in listings.answered:
        _save_alias(account_id, prop, channel, title)


# --- a property's aliases (the property page, the API) ------------------------------------------

def aliases_of(account_id: str, property_id: str):
    """The property's listing names, by channel and title (a query, to paginate)."""
    _property(account_id, property_id)
    return (ListingAlias.select().where((ListingAlias.account == account_id)
                                        & (ListingAlias.property == property_id))
            .order_by(ListingAlias.channel, ListingAlias.title, ListingAlias.id))


def add_alias(account_id: str, property_id: str, channel: str, title: str) -> ListingAlias:
    """Name `title` in `channel`'s files as this property's (moved here if it named another)."""
    prop = _property(account_id, property_id)
    if channel not in CHANNEL_NAMES:
        raise ValidationError("channel", "must be one of: " + ", ".join(CHANNEL_NAMES))
    title = " ".join((title or "").split()) if isinstance(title, str) else ""
    if not title or len(title) > TITLE_MAX or not fold(title):
        raise ValidationError("title", f"must be 1 to {TITLE_MAX} characters")
    if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in title):
        raise ValidationError("title", "must not contain control characters")
    count = ListingAlias.select().where(ListingAlias.property == prop.id).count()
    if count >= ALIASES_PER_PROPERTY:
        raise ValidationError("title", f"a property has at most {ALIASES_PER_PROPERTY} listing "
                                       "names: remove one first")
    return _save_alias(account_id, prop, channel, title)


def remove_alias(account_id: str, property_id: str, alias_id: str) -> None:
    _property(account_id, property_id)
    removed = ListingAlias.delete().where((ListingAlias.id == alias_id)
                                          & (ListingAlias.account == account_id)
                                          & (ListingAlias.property == property_id)).execute()
    if not removed:
        raise NotFound("No such listing name.")


def alias_view(alias: ListingAlias) -> dict:
    return {"id": alias.id, "property_id": alias.property_id, "channel": alias.channel,
            "title": alias.title, "created_at": alias.created_at.isoformat() + "Z"}


def _save_alias(account_id: str, prop: Property, channel: str, title: str) -> ListingAlias:
    folded = fold(title)
    existing = ListingAlias.get_or_none((ListingAlias.account == account_id)
                                        & (ListingAlias.channel == channel)
                                        & (ListingAlias.folded == folded))
    if existing is not None:  # the host's latest answer is the one that holds
        existing.property, existing.title = prop.id, title
        existing.save()
        return existing
    return ListingAlias.create(id=new_id("lal"), account=account_id, property=prop.id,
                               channel=channel, title=title, folded=folded,
                               created_at=clock.utcnow())


def _property(account_id: str, property_id: str) -> Property:
    prop = Property.get_or_none((Property.id == property_id) & (Property.account == account_id))
    if prop is None:
        raise NotFound("No such property.")
    return prop


def fold(text: str) -> str:
    """Case, accents and spacing do not tell names apart; an ellipsis a channel cut a long
    title with is no part of it."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().rstrip("…").rstrip("."))
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())[
        :TITLE_MAX]


def parse_map(text: str | None) -> dict[str, str] | None:
    """`listing_map` as the API's query gives it: a JSON object of titles and property ids."""
    if not text:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        raise ValidationError("listing_map", "must be a JSON object of listing titles and "
                                             "property ids") from None
    if not isinstance(value, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise ValidationError("listing_map", "must be a JSON object of listing titles and "
                                             "property ids")
    return value
