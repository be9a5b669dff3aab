"""Routes of an account's filings as one list (`/filings`), booking and period alike, and the
host's actions on one by its id. Kept apart from filings/api.py (a booking's police routes) so
that each stays small; thin: filings/listing.py does the work."""

from __future__ import annotations

import rentalcomply.authorities  # noqa: F401  (registers the authorities: the `authority` choices)
from rentalcomply.core.errors import NotFound, PoliceNotReady
from rentalcomply.filings import listing, registry
from rentalcomply.filings.engine import FILING_STATUSES, KINDS, REFERENCE_MAX
from rentalcomply.web import openapi
from rentalcomply.web.routing import PAGINATION_QUERY, page_reply
from rentalcomply.web.validation import Field

TAGS = ["police"]

_LINK = {"type": ["object", "null"], "required": ["download_url", "expires_at", "filename"],
         "additionalProperties": False,
         "properties": {"download_url": {"type": "string", "format": "uri"},
                        "expires_at": {"type": "string", "format": "date-time"},
                        "filename": {"type": "string"}}}

# Months ("2026-11"), quarters ("2026-Q1") and years ("2026"): the periods filings will be owed.
PERIOD_PATTERN = r"^[0-9]{4}(-(0[1-9]|1[0-2]|Q[1-4]))?$"

LIST_QUERY = {
    "property_id": Field("string", min_length=1, max_length=64,
                         description="Only this property's filings (a booking filing's property "
                                     "is its booking's)."),
    "booking_id": Field("string", min_length=1, max_length=64,
                        description="Only this booking's filings."),
    "authority": Field("string", choices=registry.names(),
                       description="Only the filings with this authority (connector)."),
    "kind": Field("string", choices=KINDS),
    "period": Field("string", pattern=PERIOD_PATTERN, max_length=7,
                    description="Only the period filings of this period (\"2026-11\", "
                                "\"2026-Q1\", \"2026\")."),
    "status": Field("string", choices=FILING_STATUSES),
    **PAGINATION_QUERY,
}


def _schemas() -> None:
    # The booking's `Filing` fields (filings/api.py registers it first), then those of the list:
    # spelled out rather than `allOf`, which cannot be closed with additionalProperties.
    base = openapi.SCHEMAS["Filing"]
    openapi.schema("ListedFiling", {
        "type": "object",
        "required": [*base["required"], "authority", "booking_id", "property_id", "period",
                     "status_text", "file", "receipt"],
        "additionalProperties": False,
        "properties": {
            **base["properties"],
            "authority": {"type": "string", "description": "The connector it is filed with."},
            "booking_id": {"type": ["string", "null"],
                           "description": "The booking filed; null for a period filing."},
            "property_id": {"type": ["string", "null"]},
            "period": {"type": ["string", "null"],
                       "description": "A period filing's period (\"2026-11\", a month; "
                                      "\"2026-Q1\"; \"2026\"); null for a booking filing."},
            "status_text": {"type": "string", "description": "The status in words."},
            "file": {**_LINK, "description": "A one-hour signed link to the built file (served "
                                             "without an API key); null until built."},
            "receipt": {**_LINK, "description": "A one-hour signed link to the authority's "
                                                "receipt acknowledging it; null unless kept."},
        },
    })


def register(api) -> None:
    _schemas()

    @api.get("/filings", scope="read", tags=TAGS, summary="List the account's filings",
             description="Every filing of the account, booking and period alike, the nearest "
                         "deadline first; each filter is optional. Each filing comes with its "
                         "status in words and one-hour signed links to its file and receipt. "
                         "`period` is null for a booking filing. An unknown filter value is "
                         "400 VALIDATION_ERROR; an unknown or another account's property or "
                         "booking lists nothing.",
             query=LIST_QUERY, response="ListedFiling", paginated=True)
    def list_filings(ctx):
        page, limit = ctx.query["page"], ctx.query["limit"]
        filters = {name: ctx.query.get(name) for name in
                   ("property_id", "booking_id", "authority", "kind", "period", "status")}
        views, total = listing.filing_page(ctx.settings, ctx.account_id, page=page, limit=limit,
                                           **filters)
        return page_reply(views, page, limit, total)

    @api.post("/filings/<filing_id>/refile", scope="write", tags=TAGS, summary="File again",
              description="As `POST /bookings/{id}/police/refile`: after a rejection (fix the "
                          "guest data first) or a failure, the booking's filings are queued "
                          "again and filed at once. 409 POLICE_NOT_READY when this filing has "
                          "nothing to file again.",
              response="ListedFiling", errors=[NotFound, PoliceNotReady])
    def filing_refile(ctx, filing_id):
        return listing.refile(ctx.settings, ctx.account_id, filing_id)

    @api.post("/filings/<filing_id>/filed", scope="write", tags=TAGS,
              summary="Record a file uploaded by hand",
              description="The host uploaded this filing's file to the authority: it is marked "
                          "submitted, with the authority's reference if any. 409 "
                          "POLICE_NOT_READY when it is already submitted or no file awaits.",
              body={"reference": Field("string", max_length=REFERENCE_MAX, nullable=True,
                                       example="RICEVUTA 2026-11-22")},
              response="ListedFiling", errors=[NotFound, PoliceNotReady], optional_body=True)
    def filing_filed(ctx, filing_id):
        return listing.mark_filed(ctx.settings, ctx.account_id, filing_id,
                                  (ctx.body or {}).get("reference"))
