"""Routes of check-in: the resend call, the guests API, and the guest's own page (page.py)."""

from __future__ import annotations

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.api import LINK_KEPT_NOWHERE as BOOKING_LINK_KEPT_NOWHERE
from rentalcomply.bookings.service import get_booking
from rentalcomply.checkin import booking_links, links, page, service
from rentalcomply.checkin.guests import FIELDS, TEXT_MAX
from rentalcomply.core.checks import MULTI_LINE_PATTERN
from rentalcomply.core.errors import (BookingCancelled, CheckinAlreadyCompleted, GuestContactMissing,
                                      GuestEmailRejected, InvalidJson, LinkExpired, MailNotSent,
                                      NotFound, PayloadTooLarge, RateLimited,
                                      UnsupportedMediaType)
from rentalcomply.properties.api import LINK_KEPT_NOWHERE as PROPERTY_LINK_KEPT_NOWHERE
from rentalcomply.properties.api import with_checkin_link
from rentalcomply.views import properties as composed
from rentalcomply.scan import api as scan_api
from rentalcomply.web import openapi
from rentalcomply.web.idempotency import ShownOnce
from rentalcomply.web.openapi import NULLABLE_TIMESTAMP, TIMESTAMP
from rentalcomply.web.validation import Field

TAGS = ["check-in"]
MAX_PARTY = 50
# The link opens the guest's data (and, once check-in is complete, the door code): a replay to
# the same Idempotency-Key answers without it, and 404 once the booking is gone.
LINK_SHOWN_ONCE = ShownOnce(
    ("checkin_url",), lambda account_id, data: get_booking(account_id, data["booking_id"]))

openapi.schema("CheckinInvitation", {
    "type": "object",
    "required": ["booking_id", "checkin_status", "channel", "sent_to", "checkin_url", "expires_at"],
    "additionalProperties": False,
    "properties": {
        "booking_id": {"type": "string", "pattern": "^book_"},
        "checkin_status": {"type": "string",
                           "enum": ["NOT_STARTED", "INVITED", "IN_PROGRESS", "COMPLETED", "EXPIRED"]},
        "channel": {"type": "string", "enum": ["email"]},
        "sent_to": {"type": "string", "description": "The guest's address, masked.",
                    "examples": ["g***@example.com"]},
        "checkin_url": {"type": ["string", "null"], "format": "uri",
                        "description": "The guest's page; the same for every invitation of the "
                                       "booking. null in a replay to the same Idempotency-Key "
                                       "(`Idempotent-Withheld: checkin_url`): the link is never "
                                       "kept in clear."},
        "expires_at": {**TIMESTAMP, "description": "The end of the day after departure."},
    },
})


def _guest_properties(masked: bool) -> dict:
    properties = {}
    for name, field in FIELDS.items():
        schema: dict = {"type": "string"}
        if field.kind == "date":
            schema["format"] = "date"
        elif field.kind == "country":
            schema.update(pattern="^[A-Z]{2}$", description="ISO 3166-1 alpha-2.")
        elif field.choices:
            schema["enum"] = list(field.choices)
        elif field.kind == "signature":
            schema["description"] = "A PNG as a data URL (`data:image/png;base64,...`)."
        else:  # tabs and line breaks are folded into spaces; other control characters refused
            schema.update(maxLength=TEXT_MAX, pattern=MULTI_LINE_PATTERN)
        if name == "residence_comune":
            schema["description"] = (
                "Italian properties, a guest resident in Italy: the comune of residence. Sent as "
                "its name (with the province in `residence_province`, or as \"Castro (LE)\") "
                "or its 9-digit Polizia code; kept and shown as that code, read from the "
                "Alloggiati Web comuni table. A guest resident abroad gives none (one sent is "
                "dropped).")
        if name == "residence_province":
            schema["description"] = ("The comune's province, two letters (RM); kept as the "
                                     "table gives it for the comune.")
        if masked and name in ("document_number", "document_support_number", "tax_id"):
            schema = {"type": "string", "description": "Masked to its last 3 characters."}
        if masked and name == "signature":
            continue
        properties[name] = schema
    return properties


openapi.schema("GuestInput", {
    "type": "object",
    "additionalProperties": False,
    "description": "One guest; which fields are required depends on the property's country and "
                   "the guest's age (see docs/checkin.md). A field the country does not ask is "
                   "refused. Document numbers are checked with their check digits where the "
                   "scheme has them (Spanish DNI/NIE, Portuguese CC; Greek AFM, Italian codice "
                   "fiscale, Spanish NIF and Portuguese NIF in `tax_id`).",
    "properties": {"role": {"type": "string", "enum": ["lead", "member"],
                            "description": "Read-only: the first guest is the lead guest."},
                   **_guest_properties(masked=False)},
})

openapi.schema("GuestParty", {
    "type": "object",
    "required": ["booking_id", "checkin_status", "country", "guest_count", "lead_guest_name",
                 "guests", "consent_at", "completed_at", "purged_at", "version"],
    "additionalProperties": False,
    "properties": {
        "booking_id": {"type": "string", "pattern": "^book_"},
        "checkin_status": {"type": "string",
                           "enum": ["NOT_STARTED", "INVITED", "IN_PROGRESS", "COMPLETED", "EXPIRED"]},
        "country": {"type": "string", "description": "The property's country, which decides the "
                                                     "fields asked."},
        "guest_count": {"type": "integer"},
        "lead_guest_name": {"type": ["string", "null"],
                            "description": "Kept after the guest data is erased."},
        "guests": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "required": ["role"],
            "properties": {"role": {"type": "string", "enum": ["lead", "member"]},
                           "signed": {"type": "boolean",
                                      "description": "A signature was given (never shown)."},
                           **_guest_properties(masked=True)}}},
        "consent_at": {**NULLABLE_TIMESTAMP,
                       "description": "When the guest accepted the privacy notice on the page."},
        "completed_at": NULLABLE_TIMESTAMP,
        "purged_at": {**NULLABLE_TIMESTAMP,
                      "description": "When the guest data was erased after its retention."},
        "version": {"type": "integer", "minimum": 0},
    },
})


class PartyField(Field):
    """`guests`: an array of GuestInput objects, validated by the check-in rules themselves."""

    def json_schema(self) -> dict:
        schema = super().json_schema()
        schema["items"] = openapi.ref("GuestInput")
        return schema


def register(api) -> None:
    @api.post("/checkins/resend", scope="write", tags=TAGS, summary="Send the check-in link",
              description="E-mails the guest the check-in link over SMTP within the request "
                          "(at most `smtp.timeout_seconds`), and answers 202 once the mail server "
                          "has accepted it. The link is the same for every invitation and works "
                          "until the end of the day after departure. Sets `checkin_status` to "
                          "INVITED when it was NOT_STARTED, clears `checkin_error` and emits "
                          "`checkin.invited`. When the e-mail was not sent nothing changes but "
                          "`checkin_error` on the booking: 502 MAIL_NOT_SENT (the mail server "
                          "could not be reached, timed out or refused the message; try again), "
                          "422 GUEST_EMAIL_REJECTED (the server refused the guest's address for "
                          "good: correct `guest_email`); the reason, the server's code without "
                          "its words, is in `message` and `details`. At most 5 invitations sent "
                          "an hour per booking (429 with Retry-After). Sent to `guest_email`, or "
                          "where the booking has none to the e-mail the lead guest typed on the "
                          "check-in page; 422 GUEST_CONTACT_MISSING without either; 409 CHECKIN_ALREADY_COMPLETED or "
                          "BOOKING_CANCELLED; 410 LINK_EXPIRED once the stay is over. A replay "
                          "to the same `Idempotency-Key` answers the same status and invitation "
                          "with `checkin_url` null and the header `Idempotent-Withheld: "
                          "checkin_url` (the link is never kept in clear): no e-mail is sent "
                          "again.",
              body={"booking_id": Field("string", required=True, max_length=64,
                                        example="book_2Xk9mQ7vLp3RtW8nBz4c")},
              response="CheckinInvitation", status=202, transaction=False,
              shown_once=LINK_SHOWN_ONCE,
              errors=[NotFound, CheckinAlreadyCompleted, BookingCancelled, LinkExpired,
                      GuestContactMissing, GuestEmailRejected, RateLimited, MailNotSent])
    def resend(ctx):
        return service.resend(ctx.account_id, ctx.body["booking_id"], ctx.public_url)

    @api.get("/bookings/<booking_id>/guests", scope="read", tags=TAGS,
             summary="The booking's guest party",
             description="What the guests entered (or the agency sent). Document, support and "
                         "tax numbers are masked to their last 3 characters; signatures are "
                         "never shown. After the retention period `guests` is empty and "
                         "`purged_at` set; `lead_guest_name` stays.",
             response="GuestParty", errors=[NotFound])
    def get_guests(ctx, booking_id):
        return service.guests_view(ctx.account_id, booking_id)

    @api.route("PUT", "/bookings/<booking_id>/guests", scope="write", tags=TAGS,
               summary="Replace the booking's guest party",
               description="For agencies whose own app collects the guests' details: the whole "
                           "party at once, one object per guest (the first is the lead guest), "
                           "validated exactly as the guest page validates; every problem comes "
                           "back in `details` with its field as `guests[i].name`. A valid party "
                           "of `guest_count` guests (of the lead guest alone where Italy, Spain "
                           "and Portugal do not apply: Greece declares the lead guest to AADE, "
                           "elsewhere nothing is filed) sets `checkin_status` COMPLETED and emits "
                           "`checkin.completed` (no guest data in it), as the page does; also "
                           "for a stay whose check-in EXPIRED (a late party from the agency). "
                           "Sending it again for a COMPLETED check-in replaces the party. "
                           "An Italian family or group member gives no document (Alloggiati "
                           "Web files members without one): one sent is accepted and dropped, "
                           "neither kept nor filed.",
               body={"guests": PartyField("array", required=True, min_items=1,
                                          max_items=MAX_PARTY)},
               response="GuestParty",
               errors=[NotFound, BookingCancelled, InvalidJson, PayloadTooLarge,
                       UnsupportedMediaType])
    def put_guests(ctx, booking_id):
        return service.put_guests(ctx.account_id, booking_id, ctx.body["guests"])

    @api.post("/bookings/<booking_id>/checkin/shared", scope="write", tags=TAGS,
              summary="Mark the check-in link as shared",
              description="The host sent the guest the booking's `checkin_url` themselves (by "
                          "WhatsApp, SMS or the channel's messages): `checkin_status` turns "
                          "INVITED and `checkin.invited` is emitted, once. Marking it again, or a "
                          "booking whose guest has already started, changes nothing and answers "
                          "the booking as it is. No body. 409 BOOKING_CANCELLED for a cancelled "
                          "booking, 410 LINK_EXPIRED once the stay is over.",
              response="Booking", errors=[NotFound, BookingCancelled, LinkExpired],
              shown_once=BOOKING_LINK_KEPT_NOWHERE)
    def mark_shared(ctx, booking_id):
        booking = service.mark_link_shared(ctx.account_id, booking_id)
        view = bookings.booking_view(booking)
        view["checkin_url"] = booking_links.checkin_url(ctx.public_url, booking)
        return view

    @api.post("/properties/<property_id>/checkin-link/rotate", scope="write",
              tags=["properties"], summary="Rotate the property's check-in link",
              description="Gives the property a new `checkin_url`; the old link answers 404 "
                          "from now on (paste the new one into each channel's scheduled "
                          "message). The bookings' own links do not change. No body.",
              response="Property", errors=[NotFound], shown_once=PROPERTY_LINK_KEPT_NOWHERE)
    def rotate_property_link(ctx, property_id):
        prop = links.rotate_property_link(ctx.account_id, property_id)
        return with_checkin_link(ctx, composed.property_view(prop), prop)

    page.register(api)
    scan_api.register(api)  # the guest page's "Scan the document"
