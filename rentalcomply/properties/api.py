"""Routes of properties and their channel connections: parse, call the service, shape."""

from __future__ import annotations

import datetime as dt

from rentalcomply.core.errors import BookingConflict, NotFound
from rentalcomply.filings import settings as authority_settings
from rentalcomply.checkin import links
from rentalcomply.properties import access, closed_days, regions, service
from rentalcomply.taxes import service as taxes
from rentalcomply.views import properties as composed
from rentalcomply.properties.service import (ACCESS_HOURS_MAX, ACCESS_MAX, ADDRESS_MAX,
                                             AADE_ID_MAX, CAPACITY_MAX, CHANNEL_STATUSES, CIN_MAX,
                                             LICENCE_MAX, NRUA_MAX,
                                             CLIMATE_FEE_CATEGORIES, COUNTRY_PATTERN, FEED_URL_MAX,
                                             MAX_GUESTS_LIMIT, NAME_MAX, POLICE_CONNECTORS,
                                             PROPERTY_STATUSES, PROVIDERS, TIMEZONE_MAX)
from rentalcomply.web import openapi
from rentalcomply.web.openapi import NULLABLE_TIMESTAMP, TIMESTAMP, VERSION, ref
from rentalcomply.web.routing import PAGINATION_QUERY, Reply, page_reply
from rentalcomply.web.idempotency import ShownOnce
from rentalcomply.web.validation import Field

TAGS = ["properties"]

openapi.schema("ChannelConnection", {
    "type": "object",
    "description": "A channel's calendar feed (iCal) connected to a property.",
    "required": ["id", "provider", "ical_url", "status", "last_sync_success", "last_sync_attempt",
                 "last_error", "version"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string", "pattern": "^ch_", "examples": ["ch_4Vb8Qm2LzXk9TnR7pWd3"]},
        "provider": {"type": "string", "enum": list(PROVIDERS)},
        "ical_url": {"type": "string", "description": "The feed URL with its secret masked (`***`): "
                     "every query value (Airbnb, Booking.com) and any token-like path segment "
                     "(Vrbo's `/icalendar/<token>.ics`).",
                     "examples": ["https://www.airbnb.com/calendar/ical/123.ics?s=***"]},
        "status": {"type": "string", "enum": list(CHANNEL_STATUSES),
                   "description": "`pending` until the first sync, then `ok` or `error`; "
                                  "`disabled` when switched off."},
        "last_sync_success": NULLABLE_TIMESTAMP,
        "last_sync_attempt": NULLABLE_TIMESTAMP,
        "last_error": {"type": ["string", "null"]},
        "version": VERSION,
    },
})

REGION_CODES = [code for country in regions.REGIONS.values() for code in country]
REGION_WORDS = ("Italian and Spanish properties: the ISO 3166-2 code of the region whose rules "
                "apply (which statistics system and police authority the property owes): "
                "Italy's regions, with the autonomous provinces IT-TN (Trento) and IT-BZ "
                "(Bolzano) instead of IT-32; Spain's autonomous communities and cities (ES-AN "
                "... ES-ML). Read from the address when that is certain (an Italian province's "
                "abbreviation such as \"(MI)\" or \"50125 Firenze FI\", a town after its "
                "postcode whose name no other region's municipality has; a Spanish postcode, "
                "whose first two digits are the province); else null until the host chooses "
                "it, and the property is in the dashboard's \"Needs a person\". Always null "
                "for other countries.")
openapi.schema("Region", {"type": "string", "enum": REGION_CODES,
                          "description": "An ISO 3166-2 region of Italy or Spain."})
openapi.schema("RegionSource", {"type": "string", "enum": [regions.FROM_ADDRESS, regions.FROM_HOST]})
ROOMS_WORDS = ("The rooms the property lets, reported as available by the monthly tourism "
               "statistics (Italy: ISTAT through the region's system). null: not given (an "
               "Italian property without them is in \"Needs a person\").")
BEDS_WORDS = ("The beds the property lets, reported as available by the monthly tourism "
              "statistics. null: not given.")

openapi.schema("Property", {
    "type": "object",
    "required": ["id", "name", "address", "aade_property_id", "status", "country", "timezone",
                 "max_guests", "climate_fee_category", "police_connector", "cin",
                 "region", "region_source", "rooms", "beds", "licence_number", "nrua",
                 "police_settings", "obligations",
                 "police_credentials_set", "access_instructions_set",
                 "access_instructions_languages",
                 "access_instructions_hours_before", "checkout_hour", "channel_connections",
                 "ical_export_url", "created_at", "updated_at", "version"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string", "pattern": "^prop_", "examples": ["prop_7Hq2mX9bKz3LpT5wRn8c"]},
        "name": {"type": "string"},
        "address": {"type": "string"},
        "aade_property_id": {"type": ["string", "null"],
                             "description": "The property's registry number at AADE (AMA)."},
        "status": {"type": "string", "enum": list(PROPERTY_STATUSES),
                   "description": "An inactive property takes no new bookings."},
        "country": {"type": "string", "pattern": COUNTRY_PATTERN,
                    "description": "ISO 3166-1 alpha-2."},
        "timezone": {"type": "string", "examples": ["Europe/Athens"]},
        "max_guests": {"type": ["integer", "null"], "minimum": 1, "maximum": MAX_GUESTS_LIMIT,
                       "description": "Most guests a booking may have; null: up to 50."},
        "climate_fee_category": {"type": "string", "enum": list(CLIMATE_FEE_CATEGORIES)},
        "police_connector": {"type": "string", "enum": list(POLICE_CONNECTORS),
                             "description": "`none` (Greece): bookings' report_status is "
                                            "NOT_REQUIRED."},
        "cin": {"type": ["string", "null"], "maxLength": CIN_MAX,
                "description": "Italian properties: the CIN (codice identificativo nazionale) "
                               "as the host gave it; shown on the guest page, in the exported "
                               "calendar, in the check-in e-mails. null: none (an Italian "
                               "property without one is in the dashboard's \"Needs a "
                               "person\").", "examples": ["IT053037C2ABCDEFGH"]},
        "region": {"anyOf": [ref("Region"), {"type": "null"}],
                   "description": REGION_WORDS, "examples": ["IT-25", "ES-CT"]},
        "region_source": {"anyOf": [ref("RegionSource"), {"type": "null"}],
                          "description": "Where `region` came from: `address` (read from the "
                                         "address, and read again when the address or the "
                                         "country changes) or `host` (chosen, never "
                                         "overwritten by the address); null while unknown."},
        "rooms": {"type": ["integer", "null"], "minimum": 0, "maximum": CAPACITY_MAX,
                  "description": ROOMS_WORDS},
        "beds": {"type": ["integer", "null"], "minimum": 0, "maximum": CAPACITY_MAX,
                 "description": BEDS_WORDS},
        "licence_number": {"type": ["string", "null"], "maxLength": LICENCE_MAX,
                           "description": "Spanish properties: the regional tourism licence as "
                                          "the region issued it (no format guessed); shown on "
                                          "the guest page, in the exported calendar, in the "
                                          "check-in e-mails and on the dashboard. null: none (a "
                                          "Spanish property without one is in the dashboard's "
                                          "\"Needs a person\").",
                           "examples": ["HUTB-012345", "VUT/MA/12345"]},
        "nrua": {"type": ["string", "null"], "maxLength": NRUA_MAX,
                 "description": "Spanish properties: an NRUA (RD 1312/2024) the host already "
                                "holds, kept as given (its register was annulled by STS "
                                "620/2026: optional, legacy). null: none."},
        "police_settings": {"type": "object",
                            "additionalProperties": {"type": "string"},
                            "description": "The connector's non-secret settings (Alloggiati "
                                           "`apartment_id`; SES `codigo_establecimiento`, "
                                           "`codigo_arrendador`; SIBA `unidade_hoteleira`, "
                                           "`estabelecimento`)."},
        "obligations": {"type": "array", "items": ref("Obligation"),
                        "description": "What the property owes, each to its own authority: its "
                                       "police registration (`police_connector`), then what its "
                                       "country and region owe (ISTAT statistics through "
                                       "`ross1000`...), each set with `PUT /properties/{id}/"
                                       "obligations/{authority}`."},
        "police_credentials_set": {"type": "array", "items": {"type": "string"},
                                   "description": "Names of the connector's credentials that "
                                                  "are set. Their values are sealed and never "
                                                  "shown."},
        "access_instructions_set": {"type": "boolean",
                                    "description": "Whether access instructions are set. They "
                                                   "are sealed and never shown through the API."},
        "access_instructions_languages": {
            "type": "array", "items": {"type": "string", "enum": list(access.LANGUAGES)},
            "description": "The guest languages that have access instructions (the names "
                           "only, never the texts). A guest reads their own language's, else "
                           "the property's language's (its country's), else any."},
        "access_instructions_hours_before": {
            "type": "integer", "minimum": 0, "maximum": ACCESS_HOURS_MAX,
            "description": "How many hours before arrival (the arrival date at "
                           "`police.arrival_hour`, the property's time) a guest who has "
                           "completed check-in sees the access instructions and is e-mailed "
                           "them."},
        "checkout_hour": {
            "type": "integer", "minimum": 0, "maximum": 23,
            "description": "The check-out time on the departure day (hour, the property's "
                           "time): the access instructions are shown until then, never after "
                           "the stay."},
        "channel_connections": {"type": "array", "items": ref("ChannelConnection")},
        "ical_export_url": {"type": "string", "description": "This property's own calendar feed "
                            "(confirmed bookings of every channel and the channels' blocks, no "
                            "guest data) to paste into each channel's calendar import. No key is "
                            "needed: the URL is the credential; rotate it with "
                            "`POST /properties/{id}/ical-token`.",
                            "examples": ["https://rc.example.org/ical/prop_7Hq2mX9bKz3LpT5wRn8c-"
                                         "3f9a0c1e5b7d2a4f6e8c0b1d3f5a7c9e.ics"]},
        "checkin_url": {"type": ["string", "null"], "format": "uri",
                        "description": "The property's check-in link, for the message each "
                                       "channel sends its guests before arrival: the guest "
                                       "enters the booking's reference (the channel's "
                                       "confirmation code or the booking's `reference`) and "
                                       "the arrival date, and lands on the booking's own "
                                       "check-in page. Only for keys with the `write` scope; "
                                       "rotate it with `POST /properties/{id}/checkin-link/"
                                       "rotate` (see docs/checkin.md). null in a replay to the "
                                       "same `Idempotency-Key` (`Idempotent-Withheld: "
                                       "checkin_url`): the link is never kept.",
                        "examples": ["https://rc.example.org/checkin/p/prop_7Hq2mX9bKz3LpT5wRn8c-"
                                     "5b7d2a4f6e8c0b1d3f5a7c9e3f9a0c1e"]},
        "created_at": TIMESTAMP,
        "updated_at": TIMESTAMP,
        "version": VERSION,
        "tax_rules": {"type": "array", "items": {"type": "string"},
                      "description": "The tourist tax rule sets (GET /tax-rules) charged on its "
                                     "stays, stacked; empty: none."},
    },
})


openapi.schema("ClosedDays", {
    "type": "object",
    "description": "A property's closed days between `from` and `to` (both included), joined "
                   "into ranges: the monthly tourism statistics report them as closed "
                   "(ROSS 1000 `apertura=NO`).",
    "required": ["from", "to", "data"],
    "additionalProperties": False,
    "properties": {
        "from": {"type": "string", "format": "date"},
        "to": {"type": "string", "format": "date"},
        "data": {"type": "array", "items": {
            "type": "object", "required": ["first_day", "last_day", "days"],
            "additionalProperties": False,
            "properties": {"first_day": {"type": "string", "format": "date"},
                           "last_day": {"type": "string", "format": "date",
                                        "description": "Included."},
                           "days": {"type": "integer", "minimum": 1}}}},
    },
})

RANGE_FIELD = Field("string", max_length=21, pattern=closed_days.RANGE_PATTERN,
                    description="A day `YYYY-MM-DD` or a range `YYYY-MM-DD/YYYY-MM-DD` (ISO "
                                "8601's interval; both days included), at most "
                                f"{closed_days.MAX_DAYS} days.")


# The property's check-in link is never kept for a replay of the same Idempotency-Key (README):
# a replay answers it null with `Idempotent-Withheld: checkin_url`.
LINK_KEPT_NOWHERE = ShownOnce(("checkin_url",),
                              lambda account_id, data: service.get_property(account_id, data["id"]))


def with_checkin_link(ctx, view: dict, prop=None) -> dict:
    """`checkin_url` in a property's view for a key that may write (the link opens bookings)."""
    if "write" in ctx.scopes:
        prop = prop or service.get_property(ctx.account_id, view["id"])
        view["checkin_url"] = links.property_link(ctx.public_url, prop)
    return view


def _property_fields(creating: bool) -> dict[str, Field]:
    # The same fields for POST and PATCH; PATCH ignores `required` and takes null only where the
    # field is nullable (JSON merge patch: null clears).
    return {
        "name": Field("string", required=creating, min_length=1, max_length=NAME_MAX,
                      example="Villa Anemoi"),
        "address": Field("string", required=creating, min_length=1, max_length=ADDRESS_MAX,
                         example="Oia, 84702 Santorini"),
        "aade_property_id": Field("string", nullable=True, min_length=1, max_length=AADE_ID_MAX,
                                  description="Registry number at AADE (AMA), Greek properties: "
                                              "digits only, up to 11. Anything else is 400 "
                                              "VALIDATION_ERROR.", example="00012345678"),
        "status": Field("string", choices=PROPERTY_STATUSES,
                        **({"default": "active"} if creating else {})),
        "country": Field("string", pattern=COUNTRY_PATTERN, max_length=2,
                         description="ISO 3166-1 alpha-2 code in capitals; a code that names "
                                     "no country (ZZ) is 400 VALIDATION_ERROR.",
                         **({"default": "GR"} if creating else {})),
        "timezone": Field("string", min_length=1, max_length=TIMEZONE_MAX,
                          description="IANA time zone name." + (
                              " Default: the country's time zone where it has only one (GR: "
                              "Europe/Athens, IT: Europe/Rome); a country with several (ES, PT, "
                              "US...) must name one." if creating else ""),
                          example="Europe/Athens"),
        "max_guests": Field("integer", nullable=True, minimum=1, maximum=MAX_GUESTS_LIMIT,
                            description="Most guests a booking may have; null: up to 50."),
        "climate_fee_category": Field("string", choices=CLIMATE_FEE_CATEGORIES,
                                      **({"default": "standard"} if creating else {})),
        "police_connector": Field("string", choices=POLICE_CONNECTORS,
                                  **({"default": "none"} if creating else {})),
        "cin": Field("string", nullable=True, max_length=CIN_MAX,
                     description="Italian properties (country IT) only: the CIN (codice "
                                 "identificativo nazionale) the Ministero del Turismo issued, "
                                 "kept as text (its format is not checked: the domain sources "
                                 "do not confirm one), trimmed; null or \"\" clears it. A CIN "
                                 "on a property of another country, or a country change away "
                                 "from IT while one is set, is 400 VALIDATION_ERROR on `cin`.",
                     example="IT053037C2ABCDEFGH"),
        "region": Field("string", nullable=True, max_length=8, choices=REGION_CODES,
                        enum_name="Region",
                        description="Italian and Spanish properties only (any other country's "
                                    "property: 400 VALIDATION_ERROR): the region the host "
                                    "chooses, kept when the address changes; a code of "
                                    "another country is 400 VALIDATION_ERROR. " + (
                                        "Not given: read from the address when certain, else "
                                        "null." if creating else
                                        "null goes back to what the address says (null when "
                                        "it says nothing certain); not given: a region read "
                                        "from the address is read again when the address or "
                                        "the country changes."),
                        example="IT-25"),
        "rooms": Field("integer", nullable=True, minimum=0, maximum=CAPACITY_MAX,
                       description=ROOMS_WORDS + " null clears it."),
        "beds": Field("integer", nullable=True, minimum=0, maximum=CAPACITY_MAX,
                      description=BEDS_WORDS + " null clears it."),
        "licence_number": Field("string", nullable=True, max_length=LICENCE_MAX,
                                description="Spanish properties (country ES) only: the regional "
                                            "tourism licence (HUTB-012345, VUT/MA/12345...), "
                                            "kept as text, trimmed (each region has its own "
                                            "format: none is checked); null or \"\" clears it. "
                                            "On a property of another country: 400 "
                                            "VALIDATION_ERROR on `licence_number`.",
                                example="HUTB-012345"),
        "nrua": Field("string", nullable=True, max_length=NRUA_MAX,
                      description="Spanish properties (country ES) only, optional: an NRUA "
                                  "already held, kept opaque (no length or format check); null "
                                  "or \"\" clears it."),
    }


POLICE_FIELDS = {
    "police_settings": Field("string_map", max_items=20, max_length=200,
                             description="Merged into the connector's settings; a null value "
                                         "removes a name. Unknown names for the connector are "
                                         "400, and so is a code the authority would refuse "
                                         "(SES `codigo_arrendador`: 10 digits; SIBA "
                                         "`unidade_hoteleira`: 9 digits...). A filing that "
                                         "cannot be sent for lack of a required setting or "
                                         "credential is `held`, nothing sent, and goes out "
                                         "once they are set.", example={"apartment_id": "000123"}),
    "police_credentials": Field("string_map", max_items=20, max_length=200,
                                description="Merged into the connector's credentials (Alloggiati "
                                            "`user`, `password`, `wskey`...), sealed at rest and "
                                            "never shown back; a null value removes one.",
                                example={"user": "RM012345", "password": "secret",
                                         "wskey": "AbCd..."}),
}


ACCESS_FIELDS = {
    "access_instructions": Field("string", nullable=True, max_length=ACCESS_MAX, multiline=True,
                                 description="Door code, Wi-Fi, how to get in: shown on the guest "
                                             "page, and e-mailed once, to the guest of a "
                                             "confirmed booking who has completed check-in, "
                                             "from `access_instructions_hours_before` hours "
                                             "before arrival until `checkout_hour` on the "
                                             "departure day; every showing is recorded in the "
                                             "activity log. Note that a key with the `write` "
                                             "scope can create a booking for today, complete "
                                             "its check-in and read them on the guest page. "
                                             "Sealed at rest and never shown back (see "
                                             "`access_instructions_set`). One text for every "
                                             "guest: it replaces the texts of every language "
                                             "(kept as the property's language's, which every "
                                             "guest falls back to); null or \"\" removes them "
                                             "all. Not with `access_instructions_by_language`.",
                                 example="Key box left of the door, code 4812. Wi-Fi: Anemoi / "
                                         "sunset2027"),
    "access_instructions_by_language": Field(
        "string_map", max_items=len(access.LANGUAGES), max_length=ACCESS_MAX, multiline=True,
        names=access.LANGUAGES,
        description="The access instructions per guest language, merged into those set: a "
                    "language's text replaces that language's, null or \"\" removes it, the "
                    "languages not sent stay. A guest reads the text of their booking's "
                    "`guest_language` (the guest page: the language it is read in), else the "
                    "property's language's (its country's: el, it, es, pt, de, fr; else en), "
                    "else English, else any. Sealed at rest and never shown back: "
                    "`access_instructions_languages` names the languages set. Not with "
                    "`access_instructions`.",
        example={"en": "Key box left of the door, code 4812.",
                 "it": "Cassetta delle chiavi a sinistra della porta, codice 4812."}),
    "access_instructions_hours_before": Field("integer", minimum=0, maximum=ACCESS_HOURS_MAX,
                                              description="Default 24."),
    "checkout_hour": Field("integer", minimum=0, maximum=23,
                           description="The departure day's check-out hour, the property's "
                                       "time, until which the access instructions are shown. "
                                       "Default 11."),
}


TAX_FIELDS = {
    "tax_rules": Field("array", max_items=taxes.MAX_SETS_PER_PROPERTY,
                       items=Field("string", min_length=1, max_length=64),
                       description="The tourist tax rule sets (ids from GET /tax-rules) charged "
                                   "on the property's stays, stacked: a surcharge needs the set "
                                   "it stacks on. The stays not yet collected are charged again; "
                                   "[] names none. Unknown ids are 400.",
                       example=["pt-lisboa"]),
}


def register(api) -> None:
    @api.get("/properties", scope="read", tags=TAGS, summary="List properties",
             description="The account's properties, oldest first, each with its channel "
                         "connections.",
             query=dict(PAGINATION_QUERY), response="Property", paginated=True, cached=True)
    def list_properties(ctx):
        query = service.property_query(ctx.account_id)
        page, limit = ctx.query["page"], ctx.query["limit"]
        props = list(query.paginate(page, limit))
        views = [with_checkin_link(ctx, view, prop)
                 for view, prop in zip(composed.property_views(props), props)]
        return page_reply(views, page, limit, query.count())

    @api.post("/properties", scope="write", tags=TAGS, summary="Create a property",
              description="Returns 201 with the property and a `Location` header.",
              body=_property_fields(creating=True), response="Property", status=201,
              shown_once=LINK_KEPT_NOWHERE)
    def create_property(ctx):
        prop = service.create_property(ctx.account_id, **ctx.body)
        return Reply(with_checkin_link(ctx, composed.property_view(prop, []), prop), status=201,
                     headers={"Location": f"/api/v1/properties/{prop.id}"})

    @api.get("/properties/<property_id>", scope="read", tags=TAGS, summary="Get a property",
             response="Property", errors=[NotFound], cached=True)
    def get_property(ctx, property_id):
        prop = service.get_property(ctx.account_id, property_id)
        return with_checkin_link(ctx, composed.property_view(prop), prop)

    @api.patch("/properties/<property_id>", scope="write", tags=TAGS, summary="Update a property",
               description="JSON merge patch: only the fields sent change; `null` clears "
                           "`aade_property_id` or `max_guests`. Setting `status` to `inactive` "
                           "stops new bookings; existing ones stay. A changed `police_connector` "
                           "or `climate_fee_category` applies to bookings created afterwards. "
                           "`police_settings` and `police_credentials` configure the police "
                           "connector (see docs/police.md); credentials are sealed and only "
                           "their names come back, in `police_credentials_set`. "
                           "`access_instructions` and `access_instructions_by_language` are "
                           "sealed too: only `access_instructions_set` and "
                           "`access_instructions_languages` come back (see docs/checkin.md). "
                           "`null` or \"\" clears `cin`, `licence_number`, `nrua`.",
               body={**_property_fields(creating=False), **POLICE_FIELDS, **ACCESS_FIELDS,
                     **TAX_FIELDS},
               response="Property",
               errors=[NotFound])
    def update_property(ctx, property_id):
        body = dict(ctx.body)
        police_settings = body.pop("police_settings", None)
        police_credentials = body.pop("police_credentials", None)
        tax_rules = body.pop("tax_rules", None)
        prop = service.update_property(ctx.account_id, property_id, **body)
        if tax_rules is not None:
            taxes.set_property_rules(ctx.account_id, prop,
                                     taxes.checked_property_rules(ctx.account_id, tax_rules))
        if police_settings is not None or police_credentials is not None:
            prop = authority_settings.configure_property(ctx.account_id, property_id,
                                             settings=police_settings,
                                             credentials=police_credentials)
        return with_checkin_link(ctx, composed.property_view(prop), prop)

    @api.get("/properties/<property_id>/closed-days", scope="read", tags=TAGS,
             summary="List a property's closed days",
             description="The days the host marked the property closed, from `from` to `to` "
                         "(both included; default: the current month's first day and a year "
                         f"after it; at most {closed_days.MAX_DAYS} days), joined into ranges.",
             query={"from": Field("date", description="First day read."),
                    "to": Field("date", description="Last day read (included).")},
             response="ClosedDays", errors=[NotFound])
    def list_closed_days(ctx, property_id):
        prop = service.get_property(ctx.account_id, property_id)
        first = ctx.query.get("from") or closed_days.default_window()[0]
        last = ctx.query.get("to") or first + dt.timedelta(days=365)
        ranges = closed_days.closed_ranges(prop, first, last)
        return {"from": first.isoformat(), "to": last.isoformat(),
                "data": [span.view() for span in ranges]}

    @api.put("/properties/<property_id>/closed-days", scope="write", tags=TAGS,
             summary="Close or reopen days of a property",
             description="Closes the days of `close` and reopens those of `open`, in one change "
                         "(each a day or a range, both days included; a day already so is left "
                         "as it is; a day in both lists is 400). A day on which a confirmed "
                         "booking has a night (arrival <= day < departure) cannot be closed: "
                         "409 BOOKING_CONFLICT, nothing changed, one `details` entry per booking "
                         "with its `booking_id`, dates and the nights in the way. A channel's "
                         "block does not stop a day from closing. Answers the closed days of "
                         "the window that covers the change, as the GET does.",
             body={"close": Field("array", items=RANGE_FIELD, max_items=closed_days.MAX_RANGES,
                                  description="Days or ranges to close.",
                                  example=["2027-01-07/2027-01-31"]),
                   "open": Field("array", items=RANGE_FIELD, max_items=closed_days.MAX_RANGES,
                                 description="Days or ranges to reopen.",
                                 example=["2027-01-20"])},
             response="ClosedDays", errors=[NotFound, BookingConflict])
    def change_closed_days(ctx, property_id):
        prop = service.get_property(ctx.account_id, property_id)
        changed = closed_days.change(prop, ctx.body.get("close") or [], ctx.body.get("open") or [])
        first = min(span.first for span in changed)
        last = max(max(span.last for span in changed), first)
        ranges = closed_days.ranges_of(closed_days.closed_days(prop.id, first, last))
        return {"from": first.isoformat(), "to": last.isoformat(),
                "data": [span.view() for span in ranges]}

    @api.post("/properties/<property_id>/channels", scope="write", tags=TAGS,
              summary="Connect a channel's calendar feed",
              description="Adds an iCal feed (`http` or `https`) of Airbnb, Booking.com, Vrbo or "
                          "another channel; it is `pending` until its first sync. A URL with a "
                          "user name or password is refused, and so is the same URL twice. "
                          "Loopback and private addresses are refused unless "
                          "`sync.allow_private_addresses` is true: literal addresses here, host "
                          "names after DNS resolution when the feed is fetched. Returns 201.",
              body={"provider": Field("string", required=True, choices=PROVIDERS),
                    "ical_url": Field("url", required=True, max_length=FEED_URL_MAX,
                                      example="https://www.airbnb.com/calendar/ical/123.ics?s=abc")},
              response="ChannelConnection", status=201, errors=[NotFound])
    def add_channel(ctx, property_id):
        connection = service.add_channel(
            ctx.account_id, property_id, provider=ctx.body["provider"],
            ical_url=ctx.body["ical_url"],
            allow_private_addresses=ctx.settings.sync.allow_private_addresses)
        return Reply(service.channel_view(connection), status=201)

    @api.delete("/properties/<property_id>/channels/<channel_id>", scope="write", tags=TAGS,
                summary="Disconnect a channel's calendar feed",
                description="Returns 204. Bookings imported from the feed stay.",
                response=None, status=204, errors=[NotFound])
    def remove_channel(ctx, property_id, channel_id):
        service.remove_channel(ctx.account_id, property_id, channel_id)
        return Reply(None, status=204)
