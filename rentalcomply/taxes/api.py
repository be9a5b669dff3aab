"""Routes of tourist taxes: the rule sets (`/tax-rules`) and a stay's tax (`/bookings/{id}/
tourist-tax/...`): parse, call the service, shape."""

from __future__ import annotations

from rentalcomply.bookings import service as bookings
from rentalcomply.core.errors import NotFound, TaxNotCollectable, TaxRulesInUse
from rentalcomply.taxes import rules, service
from rentalcomply.taxes.service import COLLECTION_METHODS
from rentalcomply.web import openapi
from rentalcomply.web.openapi import NULLABLE_TIMESTAMP, ref
from rentalcomply.web.routing import Reply
from rentalcomply.web.validation import Field

TAGS = ["tourist taxes"]
EUROS = {"type": "number", "description": "In the rule set's currency."}

RATE = {
    "type": "object", "required": ["from", "amount"], "additionalProperties": False,
    "properties": {
        "from": {"type": "string", "format": "date",
                 "description": "The first night the rate applies to."},
        "to": {"type": ["string", "null"], "format": "date",
               "description": "The last night it applies to, when known; a night after every "
                              "known rate is not guessed (the stay's tax is `unknown`)."},
        "amount": {"type": "number", "minimum": 0, "maximum": 1000,
                   "description": "Per person-night or unit-night (`basis`), two decimals."},
        "months": {"type": ["array", "null"], "items": {"type": "integer", "minimum": 1,
                                                         "maximum": 12},
                   "description": "Only nights of these months (a season); null: all year."},
        "category": {"type": ["string", "null"],
                     "description": "Only properties of this category (`climate_fee_category`: "
                                    "standard, detached_over_80m2); null: every property."},
        "source": {"type": "string", "description": "Where the rate is published."},
    },
}
AGE_RATE = {"type": "object", "required": ["below", "percent"], "additionalProperties": False,
            "properties": {"below": {"type": "integer", "minimum": 1, "maximum": 120},
                           "percent": {"type": "integer", "minimum": 0, "maximum": 100}}}
REASON = {"type": "object", "required": ["code", "label"], "additionalProperties": False,
          "properties": {"code": {"type": "string", "pattern": rules.CODE_PATTERN.pattern},
                         "label": {"type": "string", "minLength": 1,
                                   "maxLength": rules.TEXT_MAX}}}
openapi.schema("TaxReturns", {
    "type": "object", "additionalProperties": False, "required": ["every", "due_day"],
    "properties": {
        "every": {"type": "string", "enum": list(rules.RETURN_PERIODS)},
        "due_day": {"type": "integer", "minimum": 1, "maximum": 28},
        "due_months_after": {"type": "integer", "minimum": 0, "maximum": 12, "default": 1}},
    "description": "The authority's periodic return, a period filing of the authority "
                   "`tourist_tax_<country>` (it, es, pt): every month, quarter, half-year or "
                   "year, due on `due_day` of the `due_months_after`-th month after the period; "
                   "null: no return is filed here. No authority publishes an upload format or "
                   "API for it: the filing hands the host the figures, the host marks it filed.",
})
RETURNS = {"anyOf": [ref("TaxReturns"), {"type": "null"}],
           "description": "The authority's periodic return (TaxReturns); null: none filed here."}


openapi.schema("TaxRuleSet", {
    "type": "object",
    "required": ["id", "version", "shipped", "name", "authority", "country", "currency", "basis",
                 "rates", "max_nights", "max_nights_per", "age_rates", "exemption_reasons",
                 "rounding_cents", "rounding_mode", "platform_channels", "stacks_on",
                 "free_stays_exempt", "source", "returns", "created_at", "updated_at"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string", "examples": ["pt-lisboa", "trs_4Vb8Qm2LzXk9TnR7pWd3"],
               "description": "A shipped set's id names its place (pt-lisboa); an account's own "
                              "starts with trs_."},
        "version": {"type": "integer", "minimum": 1,
                    "description": "Grows with each change; a stay's tax names the versions it "
                                   "was computed with."},
        "shipped": {"type": "boolean",
                    "description": "Shipped with the product (read-only, every account sees "
                                   "it) or the account's own."},
        "name": {"type": "string"},
        "authority": {"type": "string", "description": "The comune, region or city."},
        "country": {"type": "string", "pattern": "^[A-Z]{2}$"},
        "currency": {"type": "string", "enum": list(rules.CURRENCIES)},
        "basis": {"type": "string", "enum": list(rules.BASES),
                  "description": "Each guest each night, or the flat each night."},
        "rates": {"type": "array", "items": RATE},
        "max_nights": {"type": ["integer", "null"], "minimum": 1,
                       "description": "The most nights charged; null: no cap."},
        "max_nights_per": {"type": "string", "enum": list(rules.MAX_NIGHTS_PER)},
        "age_rates": {"type": "array", "items": AGE_RATE,
            "description": "A guest younger than `below` on the arrival date pays `percent` of "
                           "the rate (the lowest matching `below` wins); 0 exempts."},
        "exemption_reasons": {"type": "array", "items": REASON,
            "description": "Reasons a guest may declare (POST /bookings/{id}/tourist-tax/"
                           "exemptions) that exempt them."},
        "rounding_cents": {"type": "integer", "enum": list(rules.ROUNDING_STEPS)},
        "rounding_mode": {"type": "string", "enum": list(rules.ROUNDING_MODES)},
        "platform_channels": {"type": "array", "items": {"type": "string",
                                                         "enum": list(rules.CHANNELS)},
                              "description": "Channels that collect this tax themselves."},
        "stacks_on": {"type": ["string", "null"],
                      "description": "The set this one is a surcharge of."},
        "free_stays_exempt": {"type": "boolean"},
        "source": {"type": "string"},
        "returns": RETURNS,
        "created_at": NULLABLE_TIMESTAMP,
        "updated_at": NULLABLE_TIMESTAMP,
    },
})

openapi.schema("TouristTax", {
    "type": "object",
    "description": "What the stay owes under its property's tax rule sets, stored when the stay, "
                   "its party or the rules change and frozen once collected.",
    "required": ["amount", "currency", "status", "platform_amount", "lines", "exemptions",
                 "declared_exemptions", "rule_sets", "notes", "collected"],
    "additionalProperties": False,
    "properties": {
        "amount": {**EUROS, "type": ["number", "null"],
                   "description": "What the host collects from the guests; null when `unknown`."},
        "currency": {"type": "string", "enum": list(rules.CURRENCIES)},
        "status": {"type": "string", "enum": ["due", "collected", "exempt", "platform", "unknown"],
                   "description": "`platform`: the channel collects it; `exempt`: nothing owed "
                                  "(a cancelled stay, every guest exempt); `unknown`: a night "
                                  "has no rate in force, nothing is guessed (see `notes`)."},
        "platform_amount": {**EUROS, "description": "What the channel collects itself."},
        "lines": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "required": ["rule_set", "persons", "nights", "rate", "percent", "rate_from",
                         "amount"],
            "properties": {"rule_set": {"type": "string"},
                           "persons": {"type": "integer"}, "nights": {"type": "integer"},
                           "rate": EUROS, "percent": {"type": "integer"},
                           "rate_from": {"type": "string", "format": "date"},
                           "amount": EUROS}},
            "description": "persons × nights × rate (× percent), one line per rate and share."},
        "exemptions": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "required": ["rule_set", "guest", "reason"],
            "properties": {"rule_set": {"type": "string"}, "guest": {"type": "integer"},
                           "reason": {"type": "string"}, "age": {"type": ["integer", "null"]}}},
            "description": "Guests (their number in the party, from 1) who pay nothing: by "
                           "`age` on the arrival date, or by a declared reason."},
        "declared_exemptions": {"type": "array", "items": ref("TaxExemption")},
        "rule_sets": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "required": ["id", "version", "name", "status", "amount"],
            "properties": {"id": {"type": "string"}, "version": {"type": "integer"},
                           "name": {"type": "string"},
                           "status": {"type": "string",
                                      "enum": ["due", "exempt", "platform", "unknown"]},
                           "amount": {**EUROS, "type": ["number", "null"]}}}},
        "notes": {"type": "array", "items": {"type": "string"},
                  "description": "Why, in words: the night cap, guests counted as adults before "
                                 "check-in, a channel that collects, a night without a rate."},
        "collected": {"anyOf": [ref("TaxCollection"), {"type": "null"}],
                      "description": "When and how the host collected it; null until then."},
    },
})
openapi.schema("TaxCollection", {
    "type": "object", "additionalProperties": False, "required": ["at", "method"],
    "properties": {"at": {"type": "string", "format": "date-time"},
                   "method": {"type": "string", "enum": list(COLLECTION_METHODS)}},
})
openapi.schema("TaxExemption", {
    "type": "object", "additionalProperties": False, "required": ["guest", "reason"],
    "properties": {"guest": {"type": "integer", "minimum": 1}, "reason": {"type": "string"}},
})


class _Shaped(Field):
    """An array's item stated in the document by its own schema and passed through as sent:
    rules.checked_body checks it whole and names each bad field (`rates[0].amount`)."""

    def __init__(self, schema: dict):
        super().__init__("string")
        self.schema = schema

    def parse(self, value, from_query: bool = False):
        return value

    def json_schema(self) -> dict:
        return dict(self.schema)


def _rule_set_fields(creating: bool = True) -> dict[str, Field]:
    return {
        "name": Field("string", required=True, min_length=1, max_length=200,
                      example="Imposta di soggiorno, Bologna"),
        "authority": Field("string", required=True, min_length=1, max_length=200,
                           example="Comune di Bologna"),
        "country": Field("string", required=True, pattern=r"^[A-Z]{2}$", max_length=2,
                         example="IT"),
        "currency": Field("string", choices=rules.CURRENCIES, default="EUR"),
        "basis": Field("string", required=True, choices=rules.BASES,
                       description="person_night: each guest each night; unit_night: the flat."),
        "rates": Field("array", required=True, min_items=1, max_items=rules.MAX_RATES,
                       items=_Shaped(RATE),
                       description="Each {from, to, amount, months, category, source}: see the "
                                   "TaxRuleSet schema.",
                       example=[{"from": "2026-01-01", "amount": 5.0,
                                 "source": "https://www.comune.example.it/delibera"}]),
        "max_nights": Field("integer", nullable=True, minimum=1, maximum=366),
        "max_nights_per": Field("string", choices=rules.MAX_NIGHTS_PER, default="stay"),
        "age_rates": Field("array", max_items=20, default=[], items=_Shaped(AGE_RATE),
                           description="Each {below, percent}.",
                           example=[{"below": 14, "percent": 0}]),
        "exemption_reasons": Field("array", max_items=rules.MAX_REASONS, default=[],
                                   items=_Shaped(REASON),
                                   description="Each {code, label}.",
                                   example=[{"code": "patient_companion",
                                             "label": "Companion of a patient"}]),
        "rounding_cents": Field("integer", choices=rules.ROUNDING_STEPS, default=1),
        "rounding_mode": Field("string", choices=tuple(rules.ROUNDING_MODES), default="half_up"),
        "platform_channels": Field("array", max_items=len(rules.CHANNELS), default=[],
                                   items=Field("string", choices=rules.CHANNELS)),
        "stacks_on": Field("string", nullable=True, max_length=64),
        "free_stays_exempt": Field("boolean", default=False),
        "source": Field("string", required=True, min_length=1, max_length=rules.SOURCE_MAX,
                        example="https://www.comune.example.it/imposta-di-soggiorno"),
        "returns": _Shaped(RETURNS),
    }


def register(api) -> None:
    @api.get("/tax-rules", scope="read", tags=TAGS, summary="List tax rule sets",
             description="The shipped rule sets (read-only, each rate with its source), then "
                         "the account's own.",
             response={"type": "array", "items": ref("TaxRuleSet")})
    def list_rule_sets(ctx):
        return service.list_rule_sets(ctx.account_id)

    @api.post("/tax-rules", scope="write", tags=TAGS, summary="Create a tax rule set",
              description="An authority's tourist tax as data. Returns 201. Name it on a "
                          "property (`tax_rules`) to charge its stays.",
              body=_rule_set_fields(), response="TaxRuleSet", status=201)
    def create_rule_set(ctx):
        view = service.create_rule_set(ctx.account_id, ctx.body)
        return Reply(view, status=201, headers={"Location": f"/api/v1/tax-rules/{view['id']}"})

    @api.get("/tax-rules/<set_id>", scope="read", tags=TAGS, summary="Get a tax rule set",
             response="TaxRuleSet", errors=[NotFound])
    def get_rule_set(ctx, set_id):
        return service.get_rule_set(ctx.account_id, set_id)

    @api.route("PUT", "/tax-rules/<set_id>", scope="write", tags=TAGS,
               summary="Replace a tax rule set",
               description="The whole set again; its version grows by one. The stays of the "
                           "properties naming it that are not collected are charged again (each "
                           "night at the rate in force on it); collected ones keep their "
                           "amount. A shipped set is read-only (400).",
               body=_rule_set_fields(), response="TaxRuleSet", errors=[NotFound])
    def replace_rule_set(ctx, set_id):
        return service.replace_rule_set(ctx.account_id, set_id, ctx.body)

    @api.delete("/tax-rules/<set_id>", scope="write", tags=TAGS, summary="Delete a tax rule set",
                description="Returns 204; 409 TAX_RULES_IN_USE while a property names it.",
                response=None, status=204, errors=[NotFound, TaxRulesInUse])
    def delete_rule_set(ctx, set_id):
        service.delete_rule_set(ctx.account_id, set_id)
        return Reply(None, status=204)

    @api.post("/bookings/<booking_id>/tourist-tax/collected", scope="write", tags=TAGS,
              summary="Mark a stay's tourist tax collected",
              description="The host collected the tax: its amount is frozen (a later change of "
                          "rates, dates or party no longer touches it). 409 TAX_NOT_COLLECTABLE "
                          "when already collected or nothing is due (exempt, collected by the "
                          "channel, or unknown).",
              body={"method": Field("string", required=True, choices=COLLECTION_METHODS,
                                    example="cash")},
              response="TouristTax", errors=[NotFound, TaxNotCollectable])
    def mark_collected(ctx, booking_id):
        booking = bookings.get_booking(ctx.account_id, booking_id)
        return service.mark_collected(ctx.account_id, booking, ctx.body["method"])

    @api.post("/bookings/<booking_id>/tourist-tax/exemptions", scope="write", tags=TAGS,
              summary="Declare a guest's exemption",
              description="Guest `guest` of the party (from 1, in the check-in's order; before "
                          "check-in, of the booking's guest count) declares `reason`, a code "
                          "one of the property's rule sets offers (`exemption_reasons`); `null` "
                          "withdraws it. The stay is charged again. 409 TAX_NOT_COLLECTABLE once "
                          "collected.",
              body={"guest": Field("integer", required=True, minimum=1, maximum=50, example=2),
                    "reason": Field("string", required=True, nullable=True, max_length=40,
                                    example="patient_companion")},
              response="TouristTax", errors=[NotFound, TaxNotCollectable])
    def declare_exemption(ctx, booking_id):
        booking = bookings.get_booking(ctx.account_id, booking_id)
        return service.declare_exemption(ctx.account_id, booking, ctx.body["guest"],
                                         ctx.body["reason"])
