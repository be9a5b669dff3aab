"""Bookings: the domain functions, which know nothing of Bottle.

Creating, changing and cancelling a booking each happen in one transaction with the event that
announces it (`booking.created`, `booking.updated`, `booking.cancelled`), so a change that rolls
back announces nothing. The overlap check and the insert run while the property is locked (see
`properties.service.get_property(for_update=True)`), so two requests for the same nights cannot
both pass the check.

Channel blocks (`is_block`) are not bookings: they are never listed or shown, but a new booking
may not overlap one.
"""

from __future__ import annotations

import datetime as dt
import functools
import operator
import re
from decimal import Decimal, InvalidOperation
from typing import Any


from rentalcomply.bookings.fees import FeeRates, euros_to_cents, property_fee_cents
from rentalcomply.bookings.reference import short_reference
from rentalcomply.core import clock, events, signals
from rentalcomply.core.checks import EMAIL_RE, nullable_text, refuse_control_characters
from rentalcomply.core.db import (atomic, atomic_or_joined, column_list, db, insert_rows,
                                  model_from_row)
from rentalcomply.core.errors import BookingConflict, ChannelOwnsDates, NotFound, ValidationError
from rentalcomply.core.ids import new_id
from rentalcomply.core.models import Booking, Property
from rentalcomply.properties import service as properties
from rentalcomply.taxes import service as taxes
# The e-mail syntax the API checks, reused so that every way in agrees on what an address is.

SOURCES = ("direct", "walk_in", "phone", "email", "other")
CHANNELS = ("manual", "airbnb", "booking", "vrbo", "other")
PAYMENT_METHODS = ("platform", "bank_transfer", "cash", "card")
STATUSES = ("confirmed", "cancelled")
CHECKIN_STATUSES = ("NOT_STARTED", "INVITED", "IN_PROGRESS", "COMPLETED", "EXPIRED")
REPORT_STATUSES = ("NOT_REQUIRED", "PENDING", "QUEUED", "SUBMITTED", "REJECTED", "FAILED")

MAX_NIGHTS = 365
MAX_LIST_RANGE_DAYS = 366
# What the tourist tax of a stay depends on (rentalcomply/taxes).
TAXED_FIELDS = {"arrival_date", "departure_date", "guest_count", "total_price_cents"}
# Without a max_guests on the property, a booking may have up to this many guests.
DEFAULT_MAX_GUESTS = 50
GUEST_COUNT_LIMIT = properties.MAX_GUESTS_LIMIT
# Dates outside this window are typing mistakes, not stays.
EARLIEST_DATE = dt.date(2000, 1, 1)
LATEST_DATE = dt.date(2099, 12, 31)
GUEST_NAME_MAX = 200
GUEST_EMAIL_MAX = 254
GUEST_PHONE_MAX = 40
LANGUAGE_PATTERN = r"^[a-z]{2}(-[A-Z]{2})?$"
MAX_TOTAL_PRICE = 10_000_000  # euros

EDITABLE = ("guest_name", "guest_email", "guest_phone", "guest_language", "arrival_date",
            "departure_date", "guest_count", "total_price", "payment_method")
# What a channel's export also fills (rentalcomply/imports); the host's edits are EDITABLE only.
CHANNEL_DETAILS = ("adults", "children", "infants", "currency", "external_ref", "booked_at")
# Channels whose capacity leaves infants out (Airbnb lets a full listing take an infant more):
# a party from them is within the property's max_guests when its adults and children are.
INFANTS_OUTSIDE_CAPACITY = ("airbnb",)
EXTERNAL_REF_MAX = 100


# --- reading ------------------------------------------------------------------------------------

def get_booking(account_id: str, booking_id: str) -> Booking:
    """The account's booking, or NotFound (also for a channel block, which is not a booking)."""
    # Written-out SQL: GET /bookings/{id} renders from here, and peewee's building of the query
    # took longer than the database's work.
    row = db.execute_sql(_ONE_BOOKING_SQL.replace("?", db.param),
                         (booking_id, account_id, False)).fetchone()
    if row is None:
        raise NotFound("No such booking.")
    return model_from_row(Booking, row)


def list_bookings(account_id: str, *, property_id: str | None = None,
                  date_from: dt.date | None = None, date_to: dt.date | None = None,
                  status: str | None = None, checkin_status: str | None = None):
    """The account's bookings whose stay overlaps [date_from, date_to], by arrival then id.

    A query, so the caller can count and paginate. A stay overlaps when it arrives on or before
    `date_to` and departs after `date_from` (the departure day is free for the next guest).
    """
    conditions = _list_conditions(account_id, property_id, date_from, date_to, status,
                                  checkin_status)
    condition = functools.reduce(operator.and_, (OPERATORS[op](field, value)
                                                 for field, op, value in conditions))
    return Booking.select().where(condition).order_by(Booking.arrival_date, Booking.id)


def booking_page(account_id: str, *, page: int, limit: int, property_id: str | None = None,
                 date_from: dt.date | None = None, date_to: dt.date | None = None,
                 status: str | None = None, checkin_status: str | None = None
                 ) -> tuple[list[dict], int]:
    """One page of `list_bookings` as API views, and the total: the API's hottest read.

    The same conditions as `list_bookings`, run as two plain SQL statements over tuples instead
    of a peewee query over model objects: building the SQL and the model instances took three
    quarters of the time of `GET /bookings` (see bench/api_throughput.py and its figures in the
    README).
    """
    conditions = _list_conditions(account_id, property_id, date_from, date_to, status,
                                  checkin_status)
    where = " AND ".join(f"{field.column_name} {op} {db.param}" for field, op, _ in conditions)
    params = [field.db_value(value) for field, _, value in conditions]
    table = Booking._meta.table_name
    total = db.execute_sql(f"SELECT COUNT(*) FROM {table} WHERE {where}", params).fetchone()[0]
    rows = db.execute_sql(
        f"SELECT {_ROW_COLUMNS} FROM {table} WHERE {where} "
        f"ORDER BY {Booking.arrival_date.column_name}, {Booking.id.column_name} "
        f"LIMIT {db.param} OFFSET {db.param}", params + [limit, (page - 1) * limit]).fetchall()
    names = _ROW_FIELD_NAMES
    return [booking_view(dict(zip(names, row))) for row in rows], total


OPERATORS = {"=": operator.eq, "<=": operator.le, ">": operator.gt}


def _list_conditions(account_id, property_id, date_from, date_to, status, checkin_status):
    """Validate the list filters; return them as (field, operator, value) triples."""
    details = []
    if date_from is not None and date_to is not None:
        if date_to < date_from:
            details.append({"field": "to", "message": "must not be before from"})
        elif (date_to - date_from).days > MAX_LIST_RANGE_DAYS:
            details.append({"field": "to", "message": f"must be at most {MAX_LIST_RANGE_DAYS} "
                                                      "days after from"})
    if status is not None and status not in STATUSES:
        details.append({"field": "status", "message": "must be one of: " + ", ".join(STATUSES)})
    if checkin_status is not None and checkin_status not in CHECKIN_STATUSES:
        details.append({"field": "checkin_status",
                        "message": "must be one of: " + ", ".join(CHECKIN_STATUSES)})
    if details:
        raise ValidationError(details)
    conditions = [(Booking.account, "=", account_id), (Booking.is_block, "=", False)]
    if property_id is not None:
        if not properties.property_exists(account_id, property_id):
            raise NotFound("No such property.")  # also another account's id
        conditions.append((Booking.property, "=", property_id))
    if date_to is not None:
        conditions.append((Booking.arrival_date, "<=", date_to))
    if date_from is not None:
        conditions.append((Booking.departure_date, ">", date_from))
    if status is not None:
        conditions.append((Booking.status, "=", status))
    if checkin_status is not None:
        conditions.append((Booking.checkin_status, "=", checkin_status))
    return conditions


_ROW_FIELDS = Booking._meta.sorted_fields
_ROW_COLUMNS = ", ".join(field.column_name for field in _ROW_FIELDS)
_ROW_FIELD_NAMES = [field.name for field in _ROW_FIELDS]
_ONE_BOOKING_SQL = (f'SELECT {column_list(Booking)} FROM "{Booking._meta.table_name}" '
                    f'WHERE "{Booking.id.column_name}" = ? AND "{Booking.account.column_name}" = ? '
                    f'AND "{Booking.is_block.column_name}" = ?')


# --- writing ------------------------------------------------------------------------------------

def create_booking(account_id: str, *, rates: FeeRates, property_id: str, guest_name: str,
                   arrival_date: dt.date | str, departure_date: dt.date | str, guest_count: int,
                   source: str = "direct", guest_email: str | None = None,
                   guest_phone: str | None = None, guest_language: str = "en",
                   total_price: float | int | Decimal | None = None,
                   payment_method: str | None = None, channel: str = "manual",
                   **channel_details: Any) -> Booking:
    """Create a booking and emit `booking.created` (whose data is also `booking.created_view`):
    a manual one (channel `manual`, every field typed by the host), or one read from a channel's
    export (`channel` and CHANNEL_DETAILS given, `source` None, no field counted as the host's).

    `rates`: the climate fee rates, `FeeRates.from_settings(settings)`. Raises ValidationError
    (all bad fields at once), NotFound (property not in this account) or BookingConflict.
    """
    values = _checked_fields({
        "guest_name": guest_name, "arrival_date": arrival_date, "departure_date": departure_date,
        "guest_count": guest_count, "guest_email": guest_email, "guest_phone": guest_phone,
        "guest_language": guest_language, "total_price": total_price,
        "payment_method": payment_method, **_only(channel_details, CHANNEL_DETAILS)})
    if channel not in CHANNELS:
        raise ValidationError("channel", "must be one of: " + ", ".join(CHANNELS))
    if channel == "manual" and source not in SOURCES:
        raise ValidationError("source", "must be one of: " + ", ".join(SOURCES))
    typed = [] if channel != "manual" else sorted(
        name for name, value in values.items() if value is not None or name == "guest_name")
    # The caller's transaction when it has one: every refusal below comes before the first write,
    # and a caller that goes on after one takes its own savepoint (dashboard/pages/bookings.py).
    with atomic_or_joined():
        prop = properties.get_property(account_id, property_id, for_update=True)
        if prop.status != "active":
            raise ValidationError("property_id", "property is inactive; it takes no new bookings")
        _check_guest_count(prop, _counted(channel, values["guest_count"], values.get("infants")))
        _refuse_overlap(prop, values["arrival_date"], values["departure_date"])
        now = clock.utcnow()
        booking = Booking(
            id=new_id("book"), account=account_id, property=prop.id, channel=channel,
            source=source if channel == "manual" else None, status="confirmed", host_fields=typed, checkin_status="NOT_STARTED",
            report_status="NOT_REQUIRED" if prop.police_connector == "none" else "PENDING",
            climate_fee_cents=property_fee_cents(prop.country, values["arrival_date"],
                                                 values["departure_date"],
                                                 prop.climate_fee_category, rates,
                                                 values["total_price_cents"]),
            created_at=now, updated_at=now, **values)
        # One prepared INSERT of the row the model holds (defaults included): peewee's SQL
        # building for `create` was a fifth of a booking's time (bench/api_throughput.py).
        insert_rows(Booking, [dict(booking.__data__)])
        booking._dirty.clear()
        # Its tourist tax, charged here rather than on the signal: the view it returns is the
        # event's and the answer's, not read back.
        tax = taxes.refresh(booking, prop=prop, new=True)
        # What the booking owes an authority from its creation (Spain: the reservation), its
        # check-in link.
        signals.send(signals.BOOKING_CREATED, booking=booking, prop=prop)
        # Kept for the caller's answer, which is this view.
        booking.created_view = {**booking_view(booking), "tourist_tax": tax}
        events.emit(account_id, "booking.created", booking.created_view)
    return booking


def update_booking(account_id: str, booking_id: str, *, rates: FeeRates, by_host: bool = True,
                   **changes: Any) -> Booking:
    """Apply a merge patch to a booking; None clears a nullable field. Emits `booking.updated`
    when something changed. New dates and guest counts are checked as on creation, overlap
    included (for a confirmed booking). The fields the host changed are recorded in
    `host_fields`; `by_host=False` (a channel's export) records none and may fill
    CHANNEL_DETAILS too."""
    unknown = sorted(set(changes) - set(EDITABLE + (() if by_host else CHANNEL_DETAILS)))
    if unknown:
        raise ValidationError([{"field": name, "message": "is not a known field"} for name in unknown])
    values = _checked_fields(changes)
    with atomic():
        booking = get_booking(account_id, booking_id)
        moves = any(name in values for name in ("arrival_date", "departure_date", "guest_count"))
        if moves:
            prop = properties.get_property(account_id, booking.property_id, for_update=True)
            booking = get_booking(account_id, booking_id)  # as it is now that the property is locked
        else:
            prop = booking.property
        changed = {name: value for name, value in values.items() if getattr(booking, name) != value}
        if not changed:
            return booking
        if booking.connection_id is not None and changed.keys() & {"arrival_date", "departure_date"}:
            raise ChannelOwnsDates(_channel_owns_dates(booking))
        for name, value in changed.items():
            setattr(booking, name, value)
        if by_host:
            booking.host_fields = sorted(set(booking.host_fields or ()) | changed.keys())
        if moves:
            field = "departure_date" if "departure_date" in values else "arrival_date"
            problem = _stay_problem(booking.arrival_date, booking.departure_date, field)
            if problem:
                raise ValidationError(field, problem)
            if "guest_count" in changed:
                _check_guest_count(prop, _counted(booking.channel, booking.guest_count,
                                                  booking.infants))
            if booking.status == "confirmed":
                _refuse_overlap(prop, booking.arrival_date, booking.departure_date,
                                exclude_id=booking.id)
        if changed.keys() & {"arrival_date", "departure_date", "total_price_cents"}:
            booking.climate_fee_cents = property_fee_cents(
                prop.country, booking.arrival_date, booking.departure_date,
                prop.climate_fee_category, rates, booking.total_price_cents)
        booking.updated_at = clock.utcnow()
        booking.save()
        if changed.keys() & TAXED_FIELDS:  # the tourist tax follows, unless collected
            taxes.refresh(booking, prop=prop)
        if changed.keys() & {"arrival_date", "departure_date"}:  # Spain: the reservation follows
            signals.send(signals.BOOKING_DATES_CHANGED, booking=booking, prop=prop)
        events.emit(account_id, "booking.updated", event_view(booking))
    return booking


def cancel_booking(account_id: str, booking_id: str, amount_kept: Any = None) -> Booking:
    """Cancel a booking and emit `booking.cancelled`; cancelling it again changes nothing.

    `amount_kept` (euros): what the guest still pays, declared to AADE in the month of the
    cancellation. Given again for a cancelled booking, it corrects the amount (`booking.updated`).
    """
    kept_cents = None
    if amount_kept is not None:
        kept_cents, problem = _price_cents(amount_kept)
        if problem:
            raise ValidationError("amount_kept", problem)
    with atomic():
        booking = get_booking(account_id, booking_id)
        now = clock.utcnow()
        if booking.status == "cancelled":
            if kept_cents is None or kept_cents == booking.amount_kept_cents:
                return booking
            booking.amount_kept_cents = kept_cents
            booking.updated_at = now
            booking.save()
            events.emit(account_id, "booking.updated", event_view(booking))
            return booking
        booking.status = "cancelled"
        booking.cancelled_at = now
        booking.updated_at = now
        booking.amount_kept_cents = kept_cents
        booking.save()
        taxes.refresh(booking)  # a cancelled stay owes no tourist tax (unless collected)
        events.emit(account_id, "booking.cancelled", event_view(booking))
    return booking


CHANNEL_NAMES = {"airbnb": "Airbnb", "booking": "Booking.com", "vrbo": "Vrbo",
                 "other": "the channel"}


def _channel_owns_dates(booking: Booking) -> str:
    """A sync keeps an imported booking's dates equal to its channel's: say where to change them."""
    name = CHANNEL_NAMES.get(booking.channel, "the channel")
    return (f"The dates of this booking come from the {name} calendar feed (channel connection "
            f"{booking.connection_id}): change them in {name}, and the next sync brings them "
            "here. The guest's details, count, price and payment method stay yours to edit.")


def _refuse_overlap(prop: Property, arrival: dt.date, departure: dt.date,
                    exclude_id: str | None = None) -> None:
    # Plain SQL over a tuple: run on every booking written, where peewee's query building cost
    # more than the database's indexed look-up.
    # No ORDER BY: so the database reads the (property, departure_date) index from the new
    # arrival on (a new stay is usually the property's latest, so few rows) rather than every
    # earlier stay through (property, arrival_date); the earliest clash is picked here.
    mark = db.param
    sql = (f"SELECT arrival_date, id, is_block, departure_date, guest_name FROM booking "
           f"WHERE property_id = "
           f"{mark} AND status = 'confirmed' AND departure_date > {mark} AND arrival_date < {mark}")
    params = [prop.id, Booking.departure_date.db_value(arrival),
              Booking.arrival_date.db_value(departure)]
    if exclude_id is not None:
        sql += f" AND id <> {mark}"
        params.append(exclude_id)
    clashes = db.execute_sql(sql, params).fetchall()
    if not clashes:
        return
    clash_arrival, clash_id, is_block, clash_departure, clash_guest = min(clashes)
    clash_arrival, clash_departure = str(clash_arrival)[:10], str(clash_departure)[:10]
    if is_block:  # a block's id is not shown anywhere, so it is not named here either
        raise BookingConflict(f"The dates overlap a period blocked in a channel calendar "
                              f"({clash_arrival} to {clash_departure}).",
                              details=[{"field": "arrival_date", "message": "overlaps a period "
                                        "blocked in a channel calendar", "booking_id": None,
                                        "guest_name": None, "arrival_date": clash_arrival,
                                        "departure_date": clash_departure}])
    # Named as a person knows it, by its guest; the id is in the details for API clients.
    guest = clash_guest or "another guest"
    raise BookingConflict(f"The dates overlap the stay of {guest} ({clash_arrival} to "
                          f"{clash_departure}).",
                          details=[{"field": "arrival_date",
                                    "message": "overlaps another confirmed booking",
                                    "booking_id": clash_id, "guest_name": clash_guest,
                                    "arrival_date": clash_arrival,
                                    "departure_date": clash_departure}])


def _counted(channel: str, guest_count: int, infants: int | None) -> int:
    """The guests that count against the property's capacity."""
    if channel in INFANTS_OUTSIDE_CAPACITY and infants:
        return max(guest_count - infants, 1)
    return guest_count


def _check_guest_count(prop: Property, guest_count: int) -> None:
    limit = prop.max_guests or DEFAULT_MAX_GUESTS
    if guest_count > limit:
        reason = "the property's max_guests" if prop.max_guests else "the limit without max_guests"
        raise ValidationError("guest_count", f"must be at most {limit} ({reason})")


def checked_fields(values: dict[str, Any]) -> dict[str, Any]:
    """The check create_booking and update_booking make of their fields, for a caller that plans
    writes before making them (an import's dry run): the same ValidationError, from one place."""
    return _checked_fields(values)


def _checked_fields(values: dict[str, Any]) -> dict[str, Any]:
    """Clean the given booking fields; one ValidationError naming every bad field.

    `total_price` (euros) comes back as `total_price_cents`."""
    refuse_control_characters({name: values[name] for name in ("guest_name", "guest_email", "guest_phone")
                               if name in values})
    cleaned: dict[str, Any] = {}
    details: list[dict] = []

    def refuse(field: str, message: str) -> None:
        details.append({"field": field, "message": message})

    if "guest_name" in values:
        name = values["guest_name"].strip() if isinstance(values["guest_name"], str) else ""
        if not name or len(name) > GUEST_NAME_MAX:
            refuse("guest_name", f"must be 1 to {GUEST_NAME_MAX} characters")
        cleaned["guest_name"] = name
    for field in ("arrival_date", "departure_date"):
        if field in values:
            day = _as_date(values[field])
            if day is None:
                refuse(field, "must be a real date in the form YYYY-MM-DD")
            elif not EARLIEST_DATE <= day <= LATEST_DATE:
                refuse(field, f"must be between {EARLIEST_DATE} and {LATEST_DATE}")
            else:
                cleaned[field] = day
    arrival, departure = cleaned.get("arrival_date"), cleaned.get("departure_date")
    problem = _stay_problem(arrival, departure) if arrival and departure else None
    if problem:
        refuse("departure_date", problem)
    if "guest_count" in values:
        count = values["guest_count"]
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= GUEST_COUNT_LIMIT:
            refuse("guest_count", f"must be a whole number from 1 to {GUEST_COUNT_LIMIT}")
        cleaned["guest_count"] = count
    if "guest_email" in values:
        email, acceptable = nullable_text(values["guest_email"], GUEST_EMAIL_MAX)
        if not acceptable or (email is not None and not EMAIL_RE.match(email)):
            refuse("guest_email", "must be an e-mail address like name@example.com, or null")
        cleaned["guest_email"] = email
    if "guest_phone" in values:
        phone, acceptable = nullable_text(values["guest_phone"], GUEST_PHONE_MAX)
        if not acceptable:
            refuse("guest_phone", f"must be 1 to {GUEST_PHONE_MAX} characters, or null")
        cleaned["guest_phone"] = phone
    if "guest_language" in values:
        language = values["guest_language"]
        if not isinstance(language, str) or not re.fullmatch(LANGUAGE_PATTERN, language):
            refuse("guest_language", "must be a language code like en, el or pt-BR")
        cleaned["guest_language"] = language
    if "total_price" in values:
        cents, problem = _price_cents(values["total_price"])
        if problem:
            refuse("total_price", problem)
        cleaned["total_price_cents"] = cents
    for name in ("adults", "children", "infants"):
        if name in values:
            count = values[name]
            if count is not None and (isinstance(count, bool) or not isinstance(count, int)
                                      or not 0 <= count <= GUEST_COUNT_LIMIT):
                refuse(name, f"must be a whole number from 0 to {GUEST_COUNT_LIMIT}, or null")
            cleaned[name] = count
    if "currency" in values:
        if values["currency"] is not None and not re.fullmatch(r"[A-Z]{3}", str(values["currency"])):
            refuse("currency", "must be an ISO 4217 code like EUR, or null")
        cleaned["currency"] = values["currency"]
    if "external_ref" in values:
        ref, acceptable = nullable_text(values["external_ref"], EXTERNAL_REF_MAX)
        if not acceptable:
            refuse("external_ref", f"must be 1 to {EXTERNAL_REF_MAX} characters, or null")
        cleaned["external_ref"] = ref
    if "booked_at" in values:
        if values["booked_at"] is not None and not isinstance(values["booked_at"], dt.datetime):
            refuse("booked_at", "must be a date and time, or null")
        cleaned["booked_at"] = values["booked_at"]
    if "payment_method" in values:
        method = values["payment_method"]
        if method is not None and method not in PAYMENT_METHODS:
            refuse("payment_method", "must be one of: " + ", ".join(PAYMENT_METHODS) + ", or null")
        cleaned["payment_method"] = method
    if details:
        raise ValidationError(details)
    return cleaned


def _only(values: dict[str, Any], allowed: tuple[str, ...]) -> dict[str, Any]:
    unknown = sorted(set(values) - set(allowed))
    if unknown:
        raise ValidationError([{"field": name, "message": "is not a known field"} for name in unknown])
    return values


def _stay_problem(arrival: dt.date, departure: dt.date, field: str = "departure_date") -> str | None:
    """What is wrong with the stay, said of `field` (the date the client sent)."""
    other = "arrival_date" if field == "departure_date" else "departure_date"
    if departure <= arrival:
        return f"must be {'after' if field == 'departure_date' else 'before'} {other}"
    if (departure - arrival).days > MAX_NIGHTS:
        return f"must be at most {MAX_NIGHTS} nights {'after' if field == 'departure_date' else 'before'} {other}"
    return None


def _as_date(value: Any) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return None
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            return None
    return None


def _price_cents(price: Any) -> tuple[int | None, str | None]:
    if price is None:
        return None, None
    if isinstance(price, bool) or not isinstance(price, (int, float, Decimal)):
        return None, "must be a number of euros, or null"
    try:
        amount = Decimal(str(price))
    except InvalidOperation:
        return None, "must be a number of euros, or null"
    if not amount.is_finite() or not 0 <= amount <= MAX_TOTAL_PRICE:
        return None, f"must be from 0 to {MAX_TOTAL_PRICE} euros"
    if amount != amount.quantize(Decimal("0.01")):
        return None, "must have at most two decimals (cents)"
    return euros_to_cents(amount), None


# --- what the API shows -------------------------------------------------------------------------

def booking_view(booking: Booking | dict) -> dict:
    """The API's shape of a booking, from a model or from its field values by field name
    (what `booking_page` reads straight from the database)."""
    values = booking if isinstance(booking, dict) else booking.__data__
    get = values.get
    # Plain rows from SQLite carry dates and times as text; clock's formatters take both.
    arrival = _stored_date(values["arrival_date"])
    departure = _stored_date(values["departure_date"])
    return {
        "id": values["id"],
        "property_id": get("property"),
        "guest_name": get("guest_name"),
        "guest_email": get("guest_email"),
        "guest_phone": get("guest_phone"),
        "guest_language": get("guest_language"),
        "arrival_date": clock.iso_date(arrival),
        "departure_date": clock.iso_date(departure),
        "nights": (departure - arrival).days,
        "guest_count": get("guest_count"),
        "adults": get("adults"),
        "children": get("children"),
        "infants": get("infants"),
        "channel": get("channel"),
        "source": get("source"),
        "external_ref": get("external_ref"),
        "reference": short_reference(values["id"]),
        "status": get("status"),
        "checkin_status": get("checkin_status"),
        "checkin_error": get("checkin_error"),
        "report_status": get("report_status"),
        "report_error": get("report_error"),
        "total_price": cents_to_euros(get("total_price_cents")),
        "climate_fee": cents_to_euros(get("climate_fee_cents")),
        "currency": get("currency") or "EUR",
        "payment_method": get("payment_method"),
        "created_at": clock.iso(get("created_at")),
        "updated_at": clock.iso(get("updated_at")),
        "cancelled_at": clock.iso(get("cancelled_at")),
        "booked_at": clock.iso(get("booked_at")),
        "amount_kept": cents_to_euros(get("amount_kept_cents")),
        "version": get("version"),
    }


def event_views(bookings: list[Booking | dict]) -> list[dict]:
    """The bookings (models or field values, as booking_view takes) as their events carry them:
    the API's answer, `tourist_tax` included (one query for them all; null where the property
    names no tax rule set)."""
    return with_tourist_tax([booking_view(booking) for booking in bookings])


def with_tourist_tax(views: list[dict]) -> list[dict]:
    """Booking views (booking_view) completed with their `tourist_tax`, read in one query: what
    their events carry. A sync makes the views before it takes its write turn, and this inside."""
    stored = taxes.tax_views(view["id"] for view in views)
    return [{**view, "tourist_tax": stored.get(view["id"])} for view in views]


def event_view(booking: Booking | dict) -> dict:
    return event_views([booking])[0]


def _stored_date(value: dt.date | str) -> dt.date:
    return dt.date.fromisoformat(value) if isinstance(value, str) else value


def cents_to_euros(cents: int | None) -> float | None:
    return None if cents is None else round(cents / 100, 2)
