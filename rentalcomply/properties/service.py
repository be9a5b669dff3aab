"""Properties and their channel connections: the domain functions, which know nothing of Bottle.

The web layer validates the syntax of a request before it gets here; these functions check the
rules again themselves, because the command line, the demo seeder and the sync call them too, and
the database must never hold a value the API would have refused.

Every function takes the caller's account id and never touches another account's rows: an id that
belongs to another account is `NotFound`, exactly like an id that does not exist.
"""

from __future__ import annotations

import functools
import logging
import re
import zoneinfo
from typing import Any, Iterable
from urllib.parse import urlsplit, urlunsplit

from rentalcomply.core import clock, netguard, signals
from rentalcomply.core.checks import nullable_text, refuse_control_characters
from rentalcomply.core.db import atomic, column_list, db, model_from_row
from rentalcomply.core.errors import NotFound, ValidationError
from rentalcomply.core.ids import new_id
from rentalcomply.core.models import ChannelConnection, Property
from rentalcomply.properties import access, regions
from rentalcomply.properties.timezones import default_timezone, is_known_country, zones_of

log = logging.getLogger(__name__)

PROPERTY_STATUSES = ("active", "inactive")
CLIMATE_FEE_CATEGORIES = ("standard", "detached_over_80m2")
POLICE_CONNECTORS = ("none", "file", "alloggiati", "ses_hospedajes", "siba", "mossos",
                     "ertzaintza")
PROVIDERS = ("airbnb", "booking", "vrbo", "other")
CHANNEL_STATUSES = ("pending", "ok", "error", "disabled")

NAME_MAX = 200
ADDRESS_MAX = 500
AADE_ID_MAX = 50
TIMEZONE_MAX = 64
MAX_GUESTS_LIMIT = 100
FEED_URL_MAX = 2000
COUNTRY_PATTERN = r"^[A-Z]{2}$"
# The AMA (Αριθμός Μητρώου Ακινήτου) AADE's short-term rental registry gives: a number, 11 digits
# as AADE prints it (leading zeros kept; shorter ones are accepted as typed).
AMA_PATTERN = r"\d{1,11}"
AMA_RULE = ("is not an AMA: the number of the AADE short-term rental registry is digits only, up "
            "to 11, like 00012345678")
# Italy's CIN: the domain note confirms who issues it and that it must be shown, not its format
# ("unconfirmed: the CIN's format; store it as text"), so it is checked only as one line of text,
# trimmed, with a bound far above the codes seen (about 19 characters) that keeps a pasted
# paragraph out of the guest page and the feed. Only an Italian property has one: a CIN on a
# property of another country would be shown to its guests as if it meant something.
CIN_MAX = 40
CIN_COUNTRY = "IT"
CIN_ONLY_ITALY = ("is for Italian properties only (country IT); clear it (null) to move the "
                  "property to another country")

# The rooms and beds the monthly tourism statistics report as available (ROSS 1000 takes three
# digits).
CAPACITY_MAX = 999
CAPACITY_FIELDS = ("rooms", "beds")

# Spain's registration numbers (shared domain note, updates-2026-11.md §4): the regional tourism
# licence every listing must show (Catalonia's HUTB-012345, Andalusia's VUT/MA/12345...), kept as
# typed, trimmed, with no format guessed (each region has its own); and an NRUA the host already
# holds, a legacy of the register the Supreme Court annulled (STS 620/2026 of 19 May 2026), kept
# opaque: no length is checked (the samples seen are 50 to 56 characters), only a bound that keeps
# a pasted paragraph out. Only a Spanish property has them.
LICENCE_MAX = 60
NRUA_MAX = 1000
SPAIN = "ES"
SPAIN_ONLY = ("is for Spanish properties only (country ES); clear it (null) to move the property "
              "to another country")
# How the guest page, the feed and the e-mails name the licence: the words of the country that
# issued it, the same in every language (as "CIN" is for Italy).
LICENCE_LABEL = "Licencia turística"

DEFAULTS = {"aade_property_id": None, "status": "active", "country": "GR",
            "timezone": "Europe/Athens", "max_guests": None, "climate_fee_category": "standard",
            "police_connector": "none", "cin": None, "region": None, "rooms": None, "beds": None,
            "licence_number": None, "nrua": None}
EDITABLE = ("name", "address", *DEFAULTS)
NULLABLE = ("aade_property_id", "max_guests", "cin", "region", "rooms", "beds", "licence_number",
            "nrua")
# Set through an update only; the instructions are sealed (properties/access.py), never shown
# back through the API.
ACCESS_FIELDS = (access.FIELD, access.BY_LANGUAGE, "access_instructions_hours_before",
                 "checkout_hour")
ACCESS_MAX = access.ACCESS_MAX
ACCESS_HOURS_MAX = 168


# --- properties ---------------------------------------------------------------------------------

def create_property(account_id: str, *, name: str, address: str, aade_property_id: str | None = None,
                    country: str = "GR", timezone: str | None = None,
                    max_guests: int | None = None, climate_fee_category: str = "standard",
                    police_connector: str = "none", status: str = "active",
                    cin: str | None = None, region: str | None = None, rooms: int | None = None,
                    beds: int | None = None, licence_number: str | None = None,
                    nrua: str | None = None) -> Property:
    """Create a property. Without `timezone`, the country's only zone is taken (IT: Europe/Rome);
    a country with several zones (ES, PT, US...) must name one (ValidationError). Without
    `region`, an Italian or Spanish property's region is read from its address where that is
    certain (properties/regions.py), else left unknown."""
    if timezone is None and isinstance(country, str):
        timezone = default_timezone(country)
        if timezone is None and re.fullmatch(COUNTRY_PATTERN, country):
            if not is_known_country(country):
                raise ValidationError("country", unknown_country(country))
            raise ValidationError("timezone", (
                f"is required for country {country}, which has several time zones "
                f"({', '.join(zones_of(country))})"))
    values = _checked_property_values({
        "name": name, "address": address, "aade_property_id": aade_property_id,
        "country": country, "timezone": timezone, "max_guests": max_guests,
        "climate_fee_category": climate_fee_category, "police_connector": police_connector,
        "status": status, "cin": cin, "rooms": rooms, "beds": beds,
        "licence_number": licence_number, "nrua": nrua})
    refuse_cin_outside_italy(values["country"], values["cin"])
    refuse_spanish_numbers_elsewhere(values["country"], values)
    values.update(region_after(values["country"], values["address"], None, None,
                               {"region": region} if region is not None else {}, changed=True))
    # The filing engine refuses a connector with no format for the country (ValidationError).
    signals.send(signals.PROPERTY_CONNECTOR_CHOSEN, connector=values["police_connector"],
                 country=values["country"], region=values.get("region"))
    now = clock.utcnow()
    with atomic():
        return Property.create(id=new_id("prop"), account=account_id, created_at=now,
                               updated_at=now, **values)


def get_property(account_id: str, property_id: str, *, for_update: bool = False) -> Property:
    """The account's property, or NotFound.

    `for_update` locks the row until the transaction ends, so that two requests booking the same
    property check for overlaps one after the other. SQLite has no row locks and needs none: its
    write transactions (BEGIN IMMEDIATE) already run one at a time. PostgreSQL and MySQL get
    `SELECT ... FOR UPDATE`.
    """
    # Written-out SQL: every booking written reads its property, and peewee's building of this
    # query took a third of POST /bookings (bench/api_throughput.py).
    locking = " FOR UPDATE" if for_update and db.obj.for_update else ""  # the database's own flag
    row = db.execute_sql(
        f'SELECT {_PROPERTY_COLUMNS} FROM "{Property._meta.table_name}" '
        f'WHERE "{Property.id.column_name}" = {db.param} '
        f'AND "{Property.account.column_name}" = {db.param}{locking}',
        (property_id, account_id)).fetchone()
    if row is None:
        raise NotFound("No such property.")
    return model_from_row(Property, row)


_PROPERTY_COLUMNS = column_list(Property)


def property_exists(account_id: str, property_id: str) -> bool:
    """Whether the account has this property: one indexed lookup, no model built (hot path)."""
    table = Property._meta.table_name
    return db.execute_sql(
        f"SELECT 1 FROM {table} WHERE {Property.id.column_name} = {db.param} "
        f"AND {Property.account.column_name} = {db.param}", (property_id, account_id)
    ).fetchone() is not None


def property_query(account_id: str):
    """The account's properties, oldest first: a query, so the caller can count and paginate."""
    return (Property.select().where(Property.account == account_id)
            .order_by(Property.created_at, Property.id))


def list_properties(account_id: str) -> list[Property]:
    return list(property_query(account_id))


def update_property(account_id: str, property_id: str, **changes: Any) -> Property:
    """Apply a merge patch: only the given fields change; None clears a nullable field.
    `access_instructions` (None or "" clears them) are sealed for this property alone."""
    unknown = sorted(set(changes) - set(EDITABLE) - set(ACCESS_FIELDS))
    if unknown:
        raise ValidationError([{"field": name, "message": "is not a known field"} for name in unknown])
    access_given = {name: changes.pop(name) for name in ACCESS_FIELDS if name in changes}
    try:
        values = _checked_property_values(changes)
        details = []
    except ValidationError as error:
        values, details = {}, list(error.details)
    access_values = _checked_access(access_given, details)
    if details:
        raise ValidationError(details)
    with atomic():
        prop = get_property(account_id, property_id)
        if "cin" in values or "country" in values:
            refuse_cin_outside_italy(values.get("country", prop.country),
                                     values.get("cin", prop.cin))
        if {"licence_number", "nrua", "country"} & set(values):
            refuse_spanish_numbers_elsewhere(
                values.get("country", prop.country),
                {name: values.get(name, getattr(prop, name)) for name in ("licence_number", "nrua")})
        region_given = {"region": values.pop("region")} if "region" in values else {}
        values.update(region_after(
            values.get("country", prop.country), values.get("address", prop.address),
            prop.region, prop.region_source, region_given,
            changed=any(name in values and values[name] != getattr(prop, name)
                        for name in ("address", "country"))))
        changed = {name: value for name, value in values.items() if getattr(prop, name) != value}
        for name in ("access_instructions_hours_before", "checkout_hour"):
            if name in access_values and access_values[name] != getattr(prop, name):
                changed[name] = access_values[name]
        changed.update(access.changes(prop, access_values))
        if "police_connector" in changed or "country" in changed:
            # Checked against the property as it would be: a country changed under a connector
            # too (a property left as it was before this check is not refused other edits).
            signals.send(signals.PROPERTY_CONNECTOR_CHOSEN,
                         connector=changed.get("police_connector", prop.police_connector),
                         country=changed.get("country", prop.country),
                         region=changed.get("region", prop.region))
        if changed:
            for name, value in changed.items():
                setattr(prop, name, value)
            prop.updated_at = clock.utcnow()
            prop.save()
    return prop


def refuse_cin_outside_italy(country: str, cin: str | None) -> None:
    """ValidationError when a property that is not Italian would keep a CIN (CIN_ONLY_ITALY)."""
    if cin is not None and country != CIN_COUNTRY:
        raise ValidationError("cin", CIN_ONLY_ITALY)


def cin_shown(prop: Property) -> str | None:
    """The CIN to show for the property (guest page, feed, e-mails, dashboard), or None. The
    country is checked again so that a row written before the rule, or by hand, never shows one
    outside Italy."""
    return prop.cin if prop.country == CIN_COUNTRY and prop.cin else None


def cin_line(prop: Property) -> str | None:
    """"CIN IT058091C2ABCDEFGH" for an Italian property with one, else None: the words the feed
    and the e-mails show. The label is the code's Italian acronym, the same in every language
    (as the listing portals print it), so no language needs its own word."""
    cin = cin_shown(prop)
    return f"CIN {cin}" if cin else None


def refuse_spanish_numbers_elsewhere(country: str, values: dict) -> None:
    """ValidationError when a property that is not Spanish would keep a licence number or NRUA."""
    if country != SPAIN:
        details = [{"field": name, "message": SPAIN_ONLY} for name in ("licence_number", "nrua")
                   if values.get(name) is not None]
        if details:
            raise ValidationError(details)


def licence_shown(prop: Property) -> str | None:
    """The Spanish licence number to show (guest page, feed, e-mails, dashboard), or None."""
    return prop.licence_number if prop.country == SPAIN and prop.licence_number else None


def licence_line(prop: Property) -> str | None:
    """"Licencia turística HUTB-012345" for a Spanish property with one, else None."""
    licence = licence_shown(prop)
    return f"{LICENCE_LABEL} {licence}" if licence else None


def registration_line(prop: Property) -> str | None:
    """The registration number a listing must show, in the feed's and e-mails' words: Italy's CIN,
    Spain's licence; None where there is none."""
    return cin_line(prop) or licence_line(prop)


def spanish_without_licence(account_id: str) -> list[Property]:
    """The account's active Spanish properties without a licence number, by name: every listing
    must show it, so the dashboard asks a person to enter it."""
    return list(Property.select().where(
        (Property.account == account_id) & (Property.country == SPAIN)
        & (Property.status == "active") & Property.licence_number.is_null())
        .order_by(Property.name, Property.id))


def italian_without_cin(account_id: str) -> list[Property]:
    """The account's active Italian properties that have no CIN, by name: each may be fined
    (€800-8,000) for letting without one, so the dashboard asks a person to enter it. An
    inactive property takes no bookings and is left out."""
    return list(Property.select().where(
        (Property.account == account_id) & (Property.country == CIN_COUNTRY)
        & (Property.status == "active") & Property.cin.is_null())
        .order_by(Property.name, Property.id))


def region_after(country: str, address: str, region: str | None, source: str | None,
                 given: dict, *, changed: bool) -> dict:
    """The `region` and `region_source` of a property after a change (ValidationError for a
    region that is not the country's). A region given is the host's; null given goes back to what
    the address says. A region the host chose stays while it is of the property's country; one
    read from the address is read again when the address or the country changed."""
    if given.get("region") is not None:
        trouble = regions.problem(country, given["region"])
        if trouble:
            raise ValidationError("region", trouble)
        return {"region": given["region"], "region_source": regions.FROM_HOST}
    if not given and not changed:
        return {}
    if not given and source == regions.FROM_HOST and region is not None \
            and regions.problem(country, region) is None:
        return {}
    derived = regions.derive(country, address)
    return {"region": derived, "region_source": regions.FROM_ADDRESS if derived else None}


def region_unknown(account_id: str) -> list[Property]:
    """The account's active properties of a country with regions (Italy, Spain) whose region is
    unknown: which region's rules apply (statistics, police) cannot be known, so a person is
    asked to choose it."""
    return list(Property.select().where(
        (Property.account == account_id) & Property.country.in_(list(regions.REGIONS))
        & (Property.status == "active") & Property.region.is_null())
        .order_by(Property.name, Property.id))


def capacity_missing(account_id: str) -> list[Property]:
    """The account's active Italian properties without their rooms or beds: every Italian
    property reports the month's tourism statistics (ISTAT, through its region's system), which
    give the rooms and beds available."""
    return list(Property.select().where(
        (Property.account == account_id) & (Property.country == "IT")
        & (Property.status == "active") & (Property.rooms.is_null() | Property.beds.is_null()))
        .order_by(Property.name, Property.id))


def unknown_country(country: str) -> str:
    return f"{country} is not a known country (an ISO 3166-1 alpha-2 code, like GR, IT or ES)"


def _checked_property_values(values: dict[str, Any]) -> dict[str, Any]:
    """Clean the given property fields; one ValidationError naming every bad field."""
    refuse_control_characters({name: values[name]
                               for name in ("name", "address", "aade_property_id", "cin",
                                            "licence_number", "nrua")
                               if name in values})
    cleaned: dict[str, Any] = {}
    details: list[dict] = []

    def refuse(field: str, message: str) -> None:
        details.append({"field": field, "message": message})

    for field in ("name", "address"):
        if field in values:
            limit = NAME_MAX if field == "name" else ADDRESS_MAX
            text = values[field].strip() if isinstance(values[field], str) else None
            if not text:
                refuse(field, "must be a non-empty string")
            elif len(text) > limit:
                refuse(field, f"must be at most {limit} characters")
            else:
                cleaned[field] = text
    if "aade_property_id" in values:
        value, acceptable = nullable_text(values["aade_property_id"], AADE_ID_MAX)
        if not acceptable:
            refuse("aade_property_id", f"must be 1 to {AADE_ID_MAX} characters, or null")
        elif value is not None and not re.fullmatch(AMA_PATTERN, value):
            refuse("aade_property_id", AMA_RULE)
        cleaned["aade_property_id"] = value
    if "cin" in values:
        # An empty text clears it, as the dashboard's form sends a field left blank.
        value = values["cin"]
        if isinstance(value, str) and not value.strip():
            value = None
        value, acceptable = nullable_text(value, CIN_MAX)
        if not acceptable:
            refuse("cin", f"must be text of 1 to {CIN_MAX} characters, or null")
        cleaned["cin"] = value
    for field, limit in (("licence_number", LICENCE_MAX), ("nrua", NRUA_MAX)):
        if field in values:  # as the CIN: one line of text, trimmed; blank clears it
            value = values[field]
            if isinstance(value, str) and not value.strip():
                value = None
            value, acceptable = nullable_text(value, limit)
            if not acceptable:
                refuse(field, f"must be text of 1 to {limit} characters, or null")
            cleaned[field] = value
    if "country" in values:
        value = values["country"]
        if not isinstance(value, str) or not re.fullmatch(COUNTRY_PATTERN, value):
            refuse("country", "must be an ISO 3166-1 alpha-2 code in capitals, like GR")
        elif not is_known_country(value):
            refuse("country", unknown_country(value))
        cleaned["country"] = value
    if "timezone" in values:
        if not is_timezone(values["timezone"]):
            refuse("timezone", "must be an IANA time zone name, like Europe/Athens")
        cleaned["timezone"] = values["timezone"]
    for field in CAPACITY_FIELDS:
        if field in values:
            value = values[field]
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not 0 <= value <= CAPACITY_MAX):
                refuse(field, f"must be a whole number from 0 to {CAPACITY_MAX}, or null")
            cleaned[field] = value
    if "region" in values:
        value = values["region"]
        if value is not None and (not isinstance(value, str)
                                  or not re.fullmatch(r"[A-Z]{2}-[A-Z0-9]{1,3}", value)):
            refuse("region", "must be an ISO 3166-2 code in capitals, like IT-25 or ES-CT, or null")
        cleaned["region"] = value
    if "max_guests" in values:
        value = values["max_guests"]
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 1 <= value <= MAX_GUESTS_LIMIT):
            refuse("max_guests", f"must be a whole number from 1 to {MAX_GUESTS_LIMIT}, or null")
        cleaned["max_guests"] = value
    for field, choices in (("status", PROPERTY_STATUSES),
                           ("climate_fee_category", CLIMATE_FEE_CATEGORIES),
                           ("police_connector", POLICE_CONNECTORS)):
        if field in values:
            if values[field] not in choices:
                refuse(field, "must be one of: " + ", ".join(choices))
            cleaned[field] = values[field]
    if details:
        raise ValidationError(details)
    return cleaned


def _checked_access(values: dict[str, Any], details: list[dict]) -> dict[str, Any]:
    """The access fields cleaned; problems appended to `details`. The instructions' text is
    never part of a message."""
    cleaned: dict[str, Any] = access.check(values, details)
    if "access_instructions_hours_before" in values:
        hours = values["access_instructions_hours_before"]
        if isinstance(hours, bool) or not isinstance(hours, int) \
                or not 0 <= hours <= ACCESS_HOURS_MAX:
            details.append({"field": "access_instructions_hours_before",
                            "message": f"must be a whole number from 0 to {ACCESS_HOURS_MAX}"})
        else:
            cleaned["access_instructions_hours_before"] = hours
    if "checkout_hour" in values:
        hour = values["checkout_hour"]
        if isinstance(hour, bool) or not isinstance(hour, int) or not 0 <= hour <= 23:
            details.append({"field": "checkout_hour", "message": "must be a whole number from 0 to 23"})
        else:
            cleaned["checkout_hour"] = hour
    return cleaned


def open_access_instructions(prop: Property, lang: str | None = None) -> str | None:
    """The access instructions in clear for a guest reading `lang` (access.text_for's fallback),
    or None when none are set."""
    return access.text_for(prop, lang)


def is_timezone(name: Any) -> bool:
    """An IANA zone of a place (`Europe/Athens`) or `UTC`; not `localtime` and its kind, which
    mean whatever the host is set to."""
    if not isinstance(name, str) or not 0 < len(name) <= TIMEZONE_MAX:
        return False
    return name in _place_time_zones()


@functools.lru_cache(maxsize=1)
def _place_time_zones() -> frozenset[str]:
    return frozenset(zone for zone in zoneinfo.available_timezones()
                     if "/" in zone and not zone.startswith(("posix/", "right/"))) | {"UTC"}


# --- channel connections ------------------------------------------------------------------------

def add_channel(account_id: str, property_id: str, *, provider: str, ical_url: str,
                allow_private_addresses: bool = False) -> ChannelConnection:
    """Connect a channel's calendar feed to a property; it stays `pending` until its first sync."""
    details = []
    if provider not in PROVIDERS:
        details.append({"field": "provider", "message": "must be one of: " + ", ".join(PROVIDERS)})
    problem = feed_url_problem(ical_url, allow_private_addresses)
    if problem:
        details.append({"field": "ical_url", "message": problem})
    if details:
        raise ValidationError(details)
    ical_url = ical_url.strip()
    with atomic():
        prop = get_property(account_id, property_id)
        already = ChannelConnection.select().where(
            (ChannelConnection.property == prop.id) & (ChannelConnection.ical_url == ical_url)).exists()
        if already:
            raise ValidationError("ical_url", "is already connected to this property")
        return ChannelConnection.create(id=new_id("ch"), account=account_id, property=prop.id,
                                        provider=provider, ical_url=ical_url, status="pending",
                                        created_at=clock.utcnow())


def remove_channel(account_id: str, property_id: str, channel_id: str) -> None:
    """Disconnect a feed. Bookings it imported stay: they are the host's records now."""
    with atomic():
        prop = get_property(account_id, property_id)
        connection = ChannelConnection.get_or_none(
            (ChannelConnection.id == channel_id) & (ChannelConnection.property == prop.id)
            & (ChannelConnection.account == account_id))
        if connection is None:
            raise NotFound("No such channel connection.")
        connection.delete_instance()


def channels_of(property_ids: Iterable[str]) -> dict[str, list[ChannelConnection]]:
    """Channel connections of several properties in one query, oldest first."""
    by_property: dict[str, list[ChannelConnection]] = {pid: [] for pid in property_ids}
    if by_property:
        query = (ChannelConnection.select()
                 .where(ChannelConnection.property.in_(list(by_property)))
                 .order_by(ChannelConnection.created_at, ChannelConnection.id))
        for connection in query:
            by_property[connection.property_id].append(connection)
    return by_property


def feed_url_problem(url: Any, allow_private_addresses: bool = False) -> str | None:
    """Why `url` cannot be a calendar feed, or None.

    The rules are netguard's, the same check as for webhook URLs (`registration_problem`: the
    numeric forms of an address such as 2130706433 or 127.1 judged as the address they mean, the
    name resolved for at most 2 s), except that plain http is allowed (feeds are published
    calendars). Every fetch checks the resolved addresses again.
    """
    if not isinstance(url, str) or not url.strip():
        return "must be a URL"
    url = url.strip()
    if len(url) > FEED_URL_MAX:
        return f"must be at most {FEED_URL_MAX} characters"
    scheme, separator, _ = url.partition(":")
    if not separator or scheme.lower() not in ("http", "https"):
        return "must start with http:// or https://"
    refused = netguard.registration_problem(url, allow_http=True,
                                            allow_private=allow_private_addresses,
                                            private_setting="sync.allow_private_addresses")
    return None if refused is None else str(refused)


# A path segment this long and random-looking is a token, not a name (Vrbo puts the calendar's
# secret in the path: /icalendar/<32 hex>.ics).
_TOKEN_SEGMENT = re.compile(r"^[A-Za-z0-9_-]{20,}(\.[A-Za-z0-9]{1,8})?$")


def mask_feed_url(url: str) -> str:
    """The feed URL with its secret replaced by `***`: every query value (Airbnb, Booking.com)
    and any token-like path segment (Vrbo) is what lets anyone read the calendar."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "***"
    path = "/".join(_mask_segment(segment) for segment in parts.path.split("/"))
    masked = "&".join(item.split("=", 1)[0] + "=***" if "=" in item else "***"
                      for item in parts.query.split("&") if item)
    return urlunsplit(parts._replace(path=path, query=masked, fragment=""))


def _mask_segment(segment: str) -> str:
    match = _TOKEN_SEGMENT.match(segment)
    return "***" + (match.group(1) or "") if match else segment


# --- what the API shows -------------------------------------------------------------------------

def channel_view(connection: ChannelConnection) -> dict:
    return {
        "id": connection.id,
        "provider": connection.provider,
        "ical_url": mask_feed_url(connection.ical_url),
        "status": connection.status,
        "last_sync_success": clock.iso(connection.last_sync_success),
        "last_sync_attempt": clock.iso(connection.last_sync_attempt),
        "last_error": connection.last_error,
        "version": connection.version,
    }
