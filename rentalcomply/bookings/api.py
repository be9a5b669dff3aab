"""Routes of bookings: parse, call the service, shape."""

from __future__ import annotations

from rentalcomply.bookings import service
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.bookings.service import (CHANNELS, CHECKIN_STATUSES, GUEST_COUNT_LIMIT,
                                           GUEST_EMAIL_MAX, GUEST_NAME_MAX, GUEST_PHONE_MAX,
                                           LANGUAGE_PATTERN, MAX_TOTAL_PRICE, PAYMENT_METHODS,
                                           REPORT_STATUSES, SOURCES, STATUSES)
from rentalcomply.checkin import booking_links
from rentalcomply.core.errors import BookingConflict, ChannelOwnsDates, NotFound
from rentalcomply.taxes import service as taxes
from rentalcomply.web import openapi
from rentalcomply.web.openapi import DATE, NULLABLE_TIMESTAMP, TIMESTAMP, VERSION, ref
from rentalcomply.web.idempotency import ShownOnce
from rentalcomply.web.routing import PAGINATION_QUERY, Reply, page_reply
from rentalcomply.web.validation import Field

TAGS = ["bookings"]
MONEY = {"type": "number", "minimum": 0, "description": "Euros, two decimals."}
# The window service.EARLIEST_DATE..LATEST_DATE (2000-01-01 to 2099-12-31) as a pattern beside
# `format: date`, so that clients and fuzzers know it.
DATE_WINDOW_PATTERN = r"^20[0-9]{2}-[0-9]{2}-[0-9]{2}$"
DATE_WINDOW = "Between 2000-01-01 and 2099-12-31."

# Nullable enums name their choices once: `anyOf: [{$ref}, {type: null}]` is one enum class in a
# generated client (an inline `type: [string, null]` enum became three).
openapi.schema("BookingSource", {"type": "string", "enum": list(SOURCES),
                                 "description": "How a manual booking came in."})
openapi.schema("PaymentMethod", {"type": "string", "enum": list(PAYMENT_METHODS)})

openapi.schema("Booking", {
    "type": "object",
    "required": ["id", "property_id", "guest_name", "guest_email", "guest_phone",
                 "guest_language", "arrival_date", "departure_date", "nights", "guest_count",
                 "adults", "children", "infants", "channel", "source", "external_ref", "reference", "status", "checkin_status", "checkin_error",
                 "report_status",
                 "report_error", "total_price", "climate_fee", "currency", "payment_method",
                 "created_at", "updated_at", "cancelled_at", "booked_at", "amount_kept",
                 "version"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string", "pattern": "^book_", "examples": ["book_2Xk9mQ7vLp3RtW8nBz4c"]},
        "property_id": {"type": "string", "pattern": "^prop_"},
        "guest_name": {"type": "string"},
        "guest_email": {"type": ["string", "null"], "format": "email"},
        "guest_phone": {"type": ["string", "null"]},
        "guest_language": {"type": "string", "examples": ["en", "el"]},
        "arrival_date": DATE,
        "departure_date": {**DATE, "description": "The morning the guests leave (not a night "
                                                  "of the stay)."},
        "nights": {"type": "integer", "minimum": 1},
        "guest_count": {"type": "integer", "minimum": 1},
        "adults": {"type": ["integer", "null"], "minimum": 0,
                   "description": "Adults of the party, as the channel's reservations export "
                                  "gives them (rentalcomply sync import); null when not known."},
        "children": {"type": ["integer", "null"], "minimum": 0,
                     "description": "Children of the party, from the channel's export; null when "
                                    "not known."},
        "infants": {"type": ["integer", "null"], "minimum": 0,
                    "description": "Infants of the party (Airbnb's export); null when not known. "
                                   "guest_count is adults + children + infants when these come "
                                   "from an export."},
        "channel": {"type": "string", "enum": list(CHANNELS),
                    "description": "`manual` for bookings made through this API, else the "
                                   "channel whose calendar feed it came from."},
        "source": {"anyOf": [ref("BookingSource"), {"type": "null"}],
                   "description": "How a manual booking came in; null for imported ones."},
        "external_ref": {"type": ["string", "null"],
                         "description": "The channel's reservation code, when the feed has one."},
        "reference": {"type": "string", "pattern": "^[A-Z2-9]{4}-[A-Z2-9]{4}$",
                      "examples": ["K7MP-Q42X"],
                      "description": "The booking's own short reference, for the guest to quote "
                                     "on the property's check-in link (with the arrival date) "
                                     "when there is no channel code; derived from the id, it "
                                     "never changes."},
        "checkin_url": {"type": ["string", "null"], "format": "uri",
                        "description": "The guest's check-in page, working from the booking's "
                                       "creation whatever its channel; the same link every "
                                       "invitation carries. Only for keys with the `write` scope "
                                       "(the link is a credential): absent for read-only keys. "
                                       "null for a cancelled booking (after the stay the page "
                                       "says the link has expired), and in a replay to the same "
                                       "`Idempotency-Key` (`Idempotent-Withheld: checkin_url`): "
                                       "the link is never kept."},
        "status": {"type": "string", "enum": list(STATUSES)},
        "checkin_status": {"type": "string", "enum": list(CHECKIN_STATUSES)},
        "checkin_error": {"type": ["string", "null"],
                          "description": "Why the last e-mail with the check-in link (an "
                                         "invitation or a reminder) was not delivered: the "
                                         "booking turns INVITED only once one is; a transient "
                                         "failure of an automatic one is retried. Null once one "
                                         "is delivered or the check-in completes."},
        "report_status": {"type": "string", "enum": list(REPORT_STATUSES),
                          "description": "Police report: NOT_REQUIRED when the property's "
                                         "police_connector is `none`."},
        "report_error": {"type": ["string", "null"],
                         "description": "Why the authority rejected the report, or why it failed."},
        "total_price": {**MONEY, "type": ["number", "null"],
                        "description": "Gross agreed rent in euros (fee included); null if "
                                       "not known."},
        "climate_fee": {**MONEY, "description": "Greece's climate resilience fee for the stay, "
                                                "in euros: each night at its month's rate; 0 for "
                                                "a property outside Greece (`country` not GR)."},
        "currency": {"type": "string", "enum": ["EUR"],
                     "description": "Of total_price; only prices in euros are stored (an "
                                    "export's price in another currency is left to the host)."},
        "payment_method": {"anyOf": [ref("PaymentMethod"), {"type": "null"}]},
        "created_at": TIMESTAMP,
        "updated_at": TIMESTAMP,
        "cancelled_at": NULLABLE_TIMESTAMP,
        "booked_at": {**NULLABLE_TIMESTAMP,
                      "description": "When the guest booked, as the channel's reservations "
                                     "export says (sync import); null when not known. Spain's "
                                     "reservation communication is due 24 hours from it (else "
                                     "from created_at)."},
        "amount_kept": {**MONEY, "type": ["number", "null"],
                        "description": "What the guest still pays after cancelling, in euros; "
                                       "declared to AADE in the month of the cancellation. Null "
                                       "when nothing is kept."},
        "version": VERSION,
        "tourist_tax": {"anyOf": [ref("TouristTax"), {"type": "null"}],
                        "description": "The stay's tourist tax under its property's `tax_rules` "
                                       "(docs/taxes.md); null when the property names none."},
    },
})


def _guest_fields(creating: bool) -> dict[str, Field]:
    # Shared by POST and PATCH; PATCH ignores `required` and defaults (JSON merge patch).
    def default(value):
        return {"default": value} if creating else {}

    return {
        "guest_name": Field("string", required=creating, min_length=1, max_length=GUEST_NAME_MAX,
                            example="Maria Papadopoulou"),
        "arrival_date": Field("date", required=creating, example="2026-07-10",
                              schema_pattern=DATE_WINDOW_PATTERN, description=DATE_WINDOW),
        "departure_date": Field("date", required=creating, example="2026-07-14",
                                schema_pattern=DATE_WINDOW_PATTERN,
                                description="After arrival_date, at most 365 nights later. "
                                            + DATE_WINDOW),
        "guest_count": Field("integer", required=creating, minimum=1, maximum=GUEST_COUNT_LIMIT,
                             description="Up to the property's max_guests (50 when it sets none).",
                             example=2),
        "guest_email": Field("email", nullable=True, max_length=GUEST_EMAIL_MAX,
                             example="maria@example.com"),
        "guest_phone": Field("string", nullable=True, min_length=1, max_length=GUEST_PHONE_MAX,
                             example="+30 690 000 0000"),
        "guest_language": Field("string", pattern=LANGUAGE_PATTERN, max_length=5,
                                description="Language of the guest's e-mails and check-in page.",
                                **default("en")),
        "total_price": Field("number", nullable=True, minimum=0, maximum=MAX_TOTAL_PRICE,
                             multiple_of=0.01,
                             description="Gross agreed rent in euros, at most two decimals; "
                                         "0 for a free stay (no climate fee).", example=480.0),
        "payment_method": Field("string", nullable=True, choices=PAYMENT_METHODS,
                                enum_name="PaymentMethod"),
    }


def _create_fields() -> dict[str, Field]:
    return {
        "property_id": Field("string", required=True, max_length=64, example="prop_7Hq2mX9bKz3LpT5wRn8c"),
        **_guest_fields(creating=True),
        "source": Field("string", choices=SOURCES, default="direct", enum_name="BookingSource",
                        description="How the booking came in."),
    }


LIST_QUERY = {
    "property_id": Field("string", min_length=1, max_length=64,
                         description="Only this property's bookings."),
    "from": Field("date", description="Stays that depart after this date."),
    "to": Field("date", description="Stays that arrive on or before this date; at most 366 "
                                    "days after `from`."),
    "status": Field("string", choices=STATUSES),
    "checkin_status": Field("string", choices=CHECKIN_STATUSES),
    **PAGINATION_QUERY,
}


def _location(booking) -> dict[str, str]:
    return {"Location": f"/api/v1/bookings/{booking.id}"}


# The guest's link is never kept for a replay of the same Idempotency-Key (README): a replay
# answers it null with `Idempotent-Withheld: checkin_url`; GET /bookings/{id} shows it again.
LINK_KEPT_NOWHERE = ShownOnce(("checkin_url",),
                              lambda account_id, data: service.get_booking(account_id, data["id"]))


def _with_links(ctx, views: list[dict]) -> list[dict]:
    """`checkin_url` in each view for a key that may write: the link is a credential (it opens
    the guest's data), so a read-only key never sees it. And each view's `tourist_tax`."""
    # Each stay's tourist tax, as stored: one query for the whole page (none for a view that
    # carries it already, as a new booking's does).
    untaxed = [view for view in views if "tourist_tax" not in view]
    stored = taxes.tax_views(view["id"] for view in untaxed)
    for view in untaxed:
        view["tourist_tax"] = stored.get(view["id"])
    if "write" not in ctx.scopes:
        return views
    # No look for a missing check-in row here (a query on every answer): every way in makes the
    # row with the booking (BOOKING_CREATED, BOOKINGS_IMPORTED) and start-up backfills older
    # ones (the property link's page, the booking page and the CLI still make a missing one).
    for view in views:
        view["checkin_url"] = booking_links.checkin_url(ctx.public_url, view)
    return views


def register(api) -> None:
    @api.get("/bookings", scope="read", tags=TAGS, summary="List bookings",
             description="Bookings whose stay overlaps [`from`, `to`] (`arrival_date <= to` and "
                         "`departure_date > from`), ordered by arrival date then id. Every "
                         "filter is optional. `to` before `from`, or more than 366 days after "
                         "it, is 400. An unknown `property_id` is 404. Channel blocks (\"Not "
                         "available\") are not bookings and never appear.",
             query=LIST_QUERY, response="Booking", paginated=True, errors=[NotFound], cached=True)
    def list_bookings(ctx):
        page, limit = ctx.query["page"], ctx.query["limit"]
        views, total = service.booking_page(
            ctx.account_id, page=page, limit=limit, property_id=ctx.query.get("property_id"),
            date_from=ctx.query.get("from"), date_to=ctx.query.get("to"),
            status=ctx.query.get("status"), checkin_status=ctx.query.get("checkin_status"))
        return page_reply(_with_links(ctx, views), page, limit, total)

    @api.get("/bookings/<booking_id>", scope="read", tags=TAGS, summary="Get a booking",
             response="Booking", errors=[NotFound], cached=True)
    def get_booking(ctx, booking_id):
        return _with_links(ctx, [service.booking_view(service.get_booking(ctx.account_id,
                                                                          booking_id))])[0]

    @api.post("/bookings", scope="write", tags=TAGS, summary="Create a manual booking",
              description="A walk-in, phone or direct booking (`channel: manual`). Returns 201 "
                          "with the booking and a `Location` header, and emits `booking.created`. "
                          "It starts with `checkin_status` NOT_STARTED (no message is sent) and "
                          "`report_status` NOT_REQUIRED, or PENDING when the property has a "
                          "police connector. `climate_fee` is computed night by night at each "
                          "month's rate. Refused with 409 BOOKING_CONFLICT when the stay overlaps "
                          "a confirmed booking or a channel block of the property (a departure "
                          "day may be the next arrival day); with 404 when the property is not "
                          "the account's; with 400 VALIDATION_ERROR on `property_id` when the "
                          "property is inactive.",
              body=_create_fields(), response="Booking", status=201,
              errors=[NotFound, BookingConflict], shown_once=LINK_KEPT_NOWHERE)
    def create_booking(ctx):
        booking = service.create_booking(ctx.account_id, rates=FeeRates.from_settings(ctx.settings),
                                         **ctx.body)
        return Reply(_with_links(ctx, [dict(booking.created_view)])[0], status=201,
                     headers=_location(booking))

    @api.patch("/bookings/<booking_id>", scope="write", tags=TAGS, summary="Update a booking",
               description="JSON merge patch of the guest's details, dates, guest count, price "
                           "and payment method; `null` clears a nullable field. New dates are "
                           "checked as on creation, overlap included (409 BOOKING_CONFLICT). "
                           "Emits `booking.updated` when something changed. The dates of a "
                           "booking imported from a channel's feed belong to the channel: "
                           "changing them is `409 CHANNEL_OWNS_DATES`, naming the channel.",
               body=_guest_fields(creating=False), response="Booking",
               errors=[NotFound, BookingConflict, ChannelOwnsDates])
    def update_booking(ctx, booking_id):
        booking = service.update_booking(ctx.account_id, booking_id,
                                         rates=FeeRates.from_settings(ctx.settings), **ctx.body)
        return _with_links(ctx, [service.booking_view(booking)])[0]

    @api.post("/bookings/<booking_id>/cancel", scope="write", tags=TAGS, summary="Cancel a booking",
              description="Sets `status` to cancelled and `cancelled_at`, frees the dates and "
                          "emits `booking.cancelled`. Cancelling a cancelled booking returns it "
                          "unchanged. The body is optional: `amount_kept` records what the guest "
                          "still pays (a cancellation that pays is declared to AADE in its "
                          "month); sent again for a cancelled booking it corrects the amount "
                          "and emits `booking.updated`.",
              body={"amount_kept": Field("number", nullable=True, minimum=0,
                                         maximum=MAX_TOTAL_PRICE,
                                         description="Euros the guest still pays, at most two "
                                                     "decimals.", example=120.0)},
              optional_body=True, response="Booking", errors=[NotFound],
              shown_once=LINK_KEPT_NOWHERE)
    def cancel_booking(ctx, booking_id):
        return _with_links(ctx, [service.booking_view(service.cancel_booking(
            ctx.account_id, booking_id, amount_kept=ctx.body.get("amount_kept")))])[0]
