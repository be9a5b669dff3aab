"""`POST /imports`: a channel's reservations export as the request body; and a property's
listing names (`/properties/{id}/listing-aliases`), which the imports match files' listings by.
Parse, call, shape."""

from __future__ import annotations

from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core.errors import ExportTooLarge, NotFound, ValidationError
from rentalcomply.imports import listings
from rentalcomply.imports.channels import CHANNEL_NAMES
from rentalcomply.imports.files import Limits
from rentalcomply.imports.planning import FIELD_WORDS
from rentalcomply.imports.service import ACTIONS, ExportUnreadable, PlanChanged, import_export
from rentalcomply.web import openapi
from rentalcomply.web.openapi import ref
from rentalcomply.web.routing import PAGINATION_QUERY, Reply, paginate
from rentalcomply.web.validation import Field

TAGS = ["imports"]
FILE_TYPES = ("text/csv", "application/vnd.ms-excel",
              "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
              "application/octet-stream")
DATE_OR_NULL = {"type": ["string", "null"], "format": "date"}

openapi.schema("ImportRow", {
    "type": "object",
    "required": ["row", "code", "action", "reason", "booking_id", "property_id", "listing",
                 "guest_name", "arrival_date", "departure_date", "changes"],
    "additionalProperties": False,
    "properties": {
        "row": {"type": "integer", "minimum": 2, "description": "Row in the file (1 is the header)."},
        "code": {"type": "string", "description": "The reservation's confirmation code "
                                                  "(Airbnb) or number (Booking.com)."},
        "action": {"type": "string", "enum": list(ACTIONS)},
        "reason": {"type": "string", "description": "Why, in a host's words: what was filled, "
                                                    "or what stays as it is and why."},
        "booking_id": {"type": ["string", "null"],
                       "description": "The booking matched or created (null in a dry run's "
                                      "created rows)."},
        "property_id": {"type": ["string", "null"],
                        "description": "The property of the row's listing; null while the "
                                       "listing is unknown (see `unknown_listings`)."},
        "listing": {"type": ["string", "null"],
                    "description": "The listing as the file names it: Airbnb's listing title, "
                                   "Booking.com's property or unit name."},
        "guest_name": {"type": ["string", "null"],
                       "description": "Booking.com's booker as written there, last name "
                                      "first (`Schmidt, Anna`), the order the police read; "
                                      "Airbnb's guest name."},
        "arrival_date": DATE_OR_NULL,
        "departure_date": DATE_OR_NULL,
        "changes": {"type": "object",
                    "description": "Each field written, as [before, after]: "
                                   + ", ".join(sorted(FIELD_WORDS)) + ", adults, children, "
                                   "infants, currency.",
                    "additionalProperties": {
                        "type": "array", "minItems": 2, "maxItems": 2,
                        "items": {"type": ["string", "integer", "null"]}}},
    },
})

openapi.schema("ImportReport", {
    "type": "object",
    "required": ["channel", "file_kind", "dry_run", "file_sha256", "plan_digest", "totals",
                 "notes", "unknown_listings", "rows"],
    "additionalProperties": False,
    "properties": {
        "channel": {"type": "string", "enum": ["airbnb", "booking"]},
        "file_kind": {"type": "string", "enum": ["csv", "xls", "xlsx"],
                      "description": "What the content was read as (never the name)."},
        "dry_run": {"type": "boolean"},
        "file_sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "plan_digest": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                        "description": "Send it back as `plan` to apply a dry run exactly: the "
                                       "import is refused (409) if it would now do otherwise."},
        "totals": {"type": "object", "additionalProperties": False, "required": list(ACTIONS),
                   "properties": {action: {"type": "integer", "minimum": 0}
                                  for action in ACTIONS}},
        "notes": {"type": "array", "items": {"type": "string"}},
        "unknown_listings": {
            "type": "array",
            "description": "The file's listings that are no property's name or listing alias: "
                           "their rows are conflicts until `listing_map` says which property "
                           "each is. One entry per listing, in the file's order.",
            "items": {"type": "object", "required": ["listing", "rows", "remembered"],
                      "additionalProperties": False,
                      "properties": {
                          "listing": {"type": "string"},
                          "rows": {"type": "array", "items": {"type": "integer"}},
                          "remembered": {"type": "boolean",
                                         "description": "Whether applying keeps the answer as "
                                                        "the listing's alias: false for "
                                                        "Booking.com's unit type ('Apartment') "
                                                        "and rows without a listing, which name "
                                                        "no one property."}}}},
        "rows": {"type": "array", "items": ref("ImportRow")},
    },
})

openapi.schema("ListingAlias", {
    "type": "object",
    "required": ["id", "property_id", "channel", "title", "created_at"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string"},
        "property_id": {"type": "string"},
        "channel": {"type": "string", "enum": list(CHANNEL_NAMES)},
        "title": {"type": "string", "description": "The listing's name in the channel's "
                                                   "reservation files."},
        "created_at": {"type": "string", "format": "date-time"},
    },
})
LISTING_MAP_HELP = ("A JSON object, each unknown listing's title as the file names it -> the "
                    "property id it is, e.g. `{\"Bright 2BR flat in Oltrarno\": \"prop_…\"}`. "
                    "Applying (not a dry run) remembers each answer as the listing's alias.")


def register(api) -> None:
    @api.post("/imports", scope="write", tags=TAGS,
              summary="Import a channel's reservations export",
              description="The body is the file as downloaded: Airbnb's reservations CSV "
                          "(Reservations > Export) or Booking.com's reservations download (the "
                          "extranet's .xls, or the same saved as CSV or XLSX), told apart by "
                          "content and column headers (English, Spanish, Italian, French, "
                          "Croatian). Rows match the account's bookings by confirmation code, "
                          "else by property and dates; they fill the guest's name, adults, "
                          "children, infants, the price in euros, the code, the guest's phone "
                          "and the booking date, and create the bookings the calendar feeds "
                          "have not brought (in the language of the guest's country where the "
                          "file gives it, else the property's). Each listing's property is the "
                          "one with that name or listing alias; a listing that is neither is "
                          "named in `unknown_listings` and its rows are conflicts until "
                          "`listing_map` answers it. What the host typed "
                          "is never overwritten: such a row is a `conflict`, with the reason. "
                          "`dry_run=true` changes nothing. A file that cannot be read is "
                          "refused (422 EXPORT_UNREADABLE) naming the row and column, with "
                          "nothing changed; one beyond the import limits (rows, columns, "
                          "cells, unpacked size: settings [imports]) is refused (422 "
                          "EXPORT_TOO_LARGE, `details` naming the setting). At most 1 MiB, as "
                          "every request body (413): export fewer months at a time. The file "
                          "is read and planned with no transaction open and applied in short "
                          "batches, so other writes go on meanwhile; a row the bookings refuse "
                          "when applied (changed meanwhile) is a `conflict` saying why.",
              query={"dry_run": Field("boolean", default=False,
                                      description="Only say what the import would do."),
                     "property_id": Field("string", max_length=64,
                                          description="The property of the file's one unknown "
                                                      "listing (refused, 400, for a file of "
                                                      "several: use `listing_map`)."),
                     "listing_map": Field("string", max_length=8000,
                                          description=LISTING_MAP_HELP),
                     "plan": Field("string", pattern=r"^[0-9a-f]{64}$",
                                   description="A dry run's `plan_digest`: apply only if the "
                                               "import still does exactly that.")},
              response="ImportReport", file_types=FILE_TYPES, transaction=False,
              errors=[ExportUnreadable, ExportTooLarge, PlanChanged, NotFound, ValidationError])
    def import_reservations(ctx):
        report = import_export(ctx.account_id, ctx.raw_body,
                               rates=FeeRates.from_settings(ctx.settings),
                               property_id=ctx.query.get("property_id"),
                               dry_run=ctx.query["dry_run"], expected_plan=ctx.query.get("plan"),
                               listing_map=listings.parse_map(ctx.query.get("listing_map")),
                               limits=Limits.from_settings(ctx.settings))
        return Reply(report.view())

    @api.get("/properties/<property_id>/listing-aliases", scope="read", tags=TAGS,
             summary="List a property's listing names",
             description="The names this property has in the channels' reservation files "
                         "(Airbnb's listing title, Booking.com's property name) besides its own, "
                         "as the host answered them in an import or added them.",
             query=dict(PAGINATION_QUERY), paginated=True, response="ListingAlias",
             errors=[NotFound])
    def list_listing_aliases(ctx, property_id):
        return paginate(listings.aliases_of(ctx.account_id, property_id), ctx.query["page"],
                        ctx.query["limit"], listings.alias_view)

    @api.post("/properties/<property_id>/listing-aliases", scope="write", tags=TAGS,
              status=201, summary="Add a listing name to a property",
              description="Rows of the channel's files with this listing name (case, accents "
                          "and spacing aside) go to this property. A name another property had "
                          "in that channel moves here.",
              body={"channel": Field("string", required=True, choices=tuple(CHANNEL_NAMES)),
                    "title": Field("string", required=True, max_length=listings.TITLE_MAX)},
              response="ListingAlias", errors=[NotFound, ValidationError])
    def add_listing_alias(ctx, property_id):
        alias = listings.add_alias(ctx.account_id, property_id, ctx.body["channel"],
                                   ctx.body["title"])
        return Reply(listings.alias_view(alias), status=201)

    @api.delete("/properties/<property_id>/listing-aliases/<alias_id>", scope="write",
                tags=TAGS, summary="Remove a listing name from a property",
                description="Returns 204. The next file with this name asks again.",
                response=None, status=204, errors=[NotFound])
    def remove_listing_alias(ctx, property_id, alias_id):
        listings.remove_alias(ctx.account_id, property_id, alias_id)
        return Reply(None, status=204)
