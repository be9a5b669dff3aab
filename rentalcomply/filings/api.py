"""Routes of police filing: a booking's filings, re-filing, the file for hand upload, the receipt;
the account's filings as one list (`/filings`) and the same actions on one by its id."""

from __future__ import annotations

from rentalcomply.core.errors import InvalidSignature, LinkExpired, NotFound, PoliceNotReady
import rentalcomply.authorities  # noqa: F401  (registers the authorities with the engine)
from rentalcomply.filings import host, listing, receipts, registry
from rentalcomply.bookings.service import REPORT_STATUSES
from rentalcomply.filings.engine import FILING_STATUSES, KINDS, REFERENCE_MAX
from rentalcomply.web import openapi
from rentalcomply.web.openapi import NULLABLE_TIMESTAMP, VERSION, ref
from rentalcomply.web.routing import PAGINATION_QUERY, Reply, page_reply
from rentalcomply.web.validation import Field

TAGS = ["police"]

openapi.schema("PoliceGuestOutcome", {
    "type": "object", "required": ["index", "accepted", "code", "message"],
    "additionalProperties": False,
    "properties": {
        "index": {"type": "integer", "minimum": 0,
                  "description": "The guest's place in the party (0: the lead guest)."},
        "accepted": {"type": "boolean"},
        "code": {"type": ["string", "null"], "description": "The authority's error code "
                                                             "(`LOCAL`: refused before sending)."},
        "message": {"type": ["string", "null"], "description": "The authority's reason."},
    },
})

openapi.schema("Filing", {
    "type": "object",
    "required": ["id", "kind", "connector", "status", "deadline", "attempts", "next_attempt_at",
                 "reference", "guests", "error", "file_ready", "receipt_kept", "at_risk_at",
                 "submitted_at", "version"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string", "pattern": "^pf_"},
        "kind": {"type": "string", "enum": list(KINDS),
                 "description": "`arrival`; `departure` (Portugal); `cancellation`, `reservation` "
                                "and `rh_cancellation` (Spain: the reservation, and the "
                                "cancellation of one whose dates changed)."},
        "connector": {"type": "string"},
        "status": {"type": "string", "enum": list(FILING_STATUSES),
                   "description": "waiting (check-in not completed) → queued → sending → "
                                  "submitted | rejected | failed; polling while an asynchronous "
                                  "outcome is awaited; ready: a file awaits upload by hand; "
                                  "held: nothing was sent, and it is filed by itself once "
                                  "what it waits for is there (see `error`): the authority's "
                                  "code tables (a guest's town not in INE's shipped list), or "
                                  "the property's set-up (`set-up needed: ` and the missing "
                                  "settings or credentials); `ertzaintza`: held for the host "
                                  "to file in the authority's portal and mark filed."},
        "deadline": {"type": "string", "format": "date-time"},
        "attempts": {"type": "integer", "minimum": 0},
        "next_attempt_at": NULLABLE_TIMESTAMP,
        "reference": {"type": ["string", "null"], "description": "The authority's reference."},
        "guests": {"type": "array", "items": ref("PoliceGuestOutcome")},
        "error": {"type": ["string", "null"]},
        "file_ready": {"type": "boolean"},
        "receipt_kept": {"type": "boolean"},
        "at_risk_at": NULLABLE_TIMESTAMP,
        "submitted_at": NULLABLE_TIMESTAMP,
        "version": VERSION,
    },
})

openapi.schema("PoliceStatus", {
    "type": "object",
    "required": ["booking_id", "connector", "report_status", "report_error", "deadline",
                 "filings"],
    "additionalProperties": False,
    "properties": {
        "booking_id": {"type": "string", "pattern": "^book_"},
        "connector": {"type": "string"},
        "report_status": {"type": "string", "enum": list(REPORT_STATUSES)},
        "report_error": {"type": ["string", "null"]},
        "deadline": {**NULLABLE_TIMESTAMP, "description": "When the arrival filing is due; "
                                                          "null when nothing is filed."},
        "filings": {"type": "array", "items": ref("Filing")},
    },
})

openapi.schema("PoliceFileLink", {
    "type": "object", "required": ["download_url", "expires_at", "filename"],
    "additionalProperties": False,
    "properties": {"download_url": {"type": "string", "format": "uri"},
                   "expires_at": {"type": "string", "format": "date-time"},
                   "filename": {"type": "string"}},
})

openapi.schema("PoliceReceipt", {
    "type": "object",
    "required": ["id", "date", "authority", "status", "fetched_at", "error", "filename",
                 "download_url", "expires_at"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string", "pattern": "^prc_"},
        "date": {"type": "string", "format": "date",
                 "description": "The day the receipt covers, on the authority's clock."},
        "authority": {"type": "string"},
        "status": {"type": "string", "enum": ["pending", "kept", "failed"],
                   "description": "pending: asked for after the day has ended, retried with a "
                                  "growing delay while the authority gives none; kept; failed: "
                                  "the retries are spent (`error` says why; fetch it from the "
                                  "authority's site)."},
        "fetched_at": NULLABLE_TIMESTAMP,
        "error": {"type": ["string", "null"]},
        "filename": {"type": "string"},
        "download_url": {"type": ["string", "null"], "format": "uri",
                         "description": "A signed link to the PDF, valid one hour, served "
                                        "without an API key; null unless kept."},
        "expires_at": NULLABLE_TIMESTAMP,
    },
})

openapi.schema("PoliceReceiptList", {
    "type": "object", "required": ["booking_id", "receipts"], "additionalProperties": False,
    "properties": {"booking_id": {"type": "string", "pattern": "^book_"},
                   "receipts": {"type": "array", "items": ref("PoliceReceipt")}},
})

KIND_QUERY = {"kind": Field("string", choices=KINDS, default="arrival")}
SIGNED_QUERY = {name: Field("string", max_length=200) for name in ("nonce", "expires", "signature")}


# The authority's reference of a file the host uploaded by hand (both `/filed` routes).
REFERENCE_FIELD = Field("string", max_length=REFERENCE_MAX, nullable=True,
                        example="RICEVUTA 2026-11-22")


def register(api) -> None:
    @api.get("/bookings/<booking_id>/police", scope="read", tags=TAGS,
             summary="The police filing of a booking",
             description="The booking's `report_status` and `report_error`, its deadline and each "
                         "filing with the outcome per guest (no guest identity data).",
             response="PoliceStatus", errors=[NotFound])
    def police_status(ctx, booking_id):
        return host.police_view(ctx.account_id, booking_id)

    @api.post("/bookings/<booking_id>/police/refile", scope="write", tags=TAGS,
              summary="File again",
              description="After a rejection (fix the guest data first, through "
                          "`PUT /bookings/{id}/guests` or the guest page) or a failure: the "
                          "filing is queued again and filed at once. Guests the authority "
                          "already accepted are not sent again. 409 POLICE_NOT_READY when there "
                          "is nothing to file again.",
              response="PoliceStatus", errors=[NotFound, PoliceNotReady])
    def police_refile(ctx, booking_id):
        return host.refile(ctx.account_id, booking_id)

    @api.post("/bookings/<booking_id>/police/filed", scope="write", tags=TAGS,
              summary="Record a file uploaded by hand",
              description="`file` and `mossos` connectors: the host uploaded the authority's "
                          "file and marks the filing SUBMITTED, with the authority's reference "
                          "if any (Spain: the code SES.Hospedajes gave the upload, which a later "
                          "cancellation file names). `ertzaintza`: the host typed the party into "
                          "the Ertzaintza's portal (the filing was held for that). `kind` picks "
                          "the filing (Spain's `reservation` and cancellations are files too); "
                          "without it, the oldest awaiting the host. 409 POLICE_NOT_READY when "
                          "none awaits.",
              body={"reference": REFERENCE_FIELD,
                    "kind": Field("string", choices=KINDS)},
              response="PoliceStatus", errors=[NotFound, PoliceNotReady], optional_body=True)
    def police_filed(ctx, booking_id):
        body = ctx.body or {}
        return host.mark_filed(ctx.account_id, booking_id, body.get("reference"), body.get("kind"))

    @api.get("/bookings/<booking_id>/police/file", scope="read", tags=TAGS,
             summary="Download link of the police file",
             description="A signed URL of the authority's file (Alloggiati records, SES or SIBA "
                         "XML, the Mossos d'Esquadra's TXT), valid one hour, served without an API key. 409 POLICE_NOT_READY "
                         "until the file is built.",
             query=KIND_QUERY, response="PoliceFileLink", errors=[NotFound, PoliceNotReady])
    def police_file(ctx, booking_id):
        return host.file_link(ctx.settings, ctx.account_id, booking_id, ctx.query["kind"])

    @api.get("/bookings/<booking_id>/police/receipt", scope="read", tags=TAGS,
             summary="The authority's receipt",
             description="The receipt the authority gave for the filing (Alloggiati Web: the "
                         "day's PDF), kept with it. 404 when none is kept.",
             query=KIND_QUERY, response=None, content_type="application/pdf", errors=[NotFound])
    def police_receipt(ctx, booking_id):
        data, _ = host.receipt(ctx.account_id, booking_id, ctx.query["kind"])
        return Reply(data, headers={"Cache-Control": "private, no-store",
                                    "Content-Disposition":
                                        f'attachment; filename="receipt-{booking_id}.pdf"'})

    @api.get("/bookings/<booking_id>/police/receipts", scope="read", tags=TAGS,
             summary="The authority's receipts of the days the booking was filed",
             description="Alloggiati Web gives one receipt (`Ricevuta`) per day of filings, "
                         "the PDF the host keeps five years: it is fetched once the day has "
                         "ended (Italian time), kept sealed with that day's filings, in "
                         "backups, until the police receipts' retention "
                         "(`retention.police_receipts_years_it`). Each kept one comes with a "
                         "signed link valid one hour.",
             response="PoliceReceiptList", errors=[NotFound])
    def police_receipts(ctx, booking_id):
        return host.receipts_view(ctx.settings, ctx.account_id, booking_id)

    @api.get("/files/police-receipts/<account_id>/<receipt_id>", scope=None, public=True,
             prefix="", tags=TAGS, summary="A police receipt (signed link)",
             description="What a receipt's `download_url` points at: no API key, the signature "
                         "is the credential. Altered → 403 INVALID_SIGNATURE; past its hour → "
                         "410 LINK_EXPIRED; a receipt no longer kept → 404.",
             query=SIGNED_QUERY, response=None, content_type="application/pdf",
             errors=[InvalidSignature, LinkExpired, NotFound])
    def police_receipt_download(ctx, account_id, receipt_id):
        data, filename = receipts.open_signed(account_id, receipt_id, ctx.query)
        return Reply(data, headers={"Content-Disposition": f'attachment; filename="{filename}"',
                                    "Cache-Control": "private, no-store"})

    @api.get("/files/police/<account_id>/<filing_id>", scope=None, public=True, prefix="",
             tags=TAGS, summary="A police file (signed link)",
             description="What a police `download_url` points at: no API key, the signature is "
                         "the credential. Altered → 403 INVALID_SIGNATURE; past its hour → 410 "
                         "LINK_EXPIRED.",
             query=SIGNED_QUERY, response=None, content_type="application/octet-stream",
             errors=[InvalidSignature, LinkExpired, NotFound])
    def police_file_download(ctx, account_id, filing_id):
        data, filename, _ = host.open_signed_file(account_id, filing_id, ctx.query)
        return Reply(data, headers={"Content-Disposition": f'attachment; filename="{filename}"',
                                    "Cache-Control": "private, no-store"})

    register_list(api)

# A link of the list: its own schema, null as `anyOf` (one class in generated clients).
openapi.schema("FilingLink", {
    "type": "object", "required": ["download_url", "expires_at", "filename"],
    "additionalProperties": False,
    "properties": {"download_url": {"type": "string", "format": "uri"},
                   "expires_at": {"type": "string", "format": "date-time"},
                   "filename": {"type": "string"}},
})

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
    # The booking's `Filing` fields (above), then those of the list:
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
            "file": {"anyOf": [ref("FilingLink"), {"type": "null"}],
                     "description": "A one-hour signed link to the built file (served without "
                                    "an API key); null until built."},
            "receipt": {"anyOf": [ref("FilingLink"), {"type": "null"}],
                        "description": "A one-hour signed link to the authority's receipt "
                                       "acknowledging it; null unless kept."},
        },
    })


def register_list(api) -> None:
    """The account's filings as one list (`/filings`), booking and period alike, and the host's
    actions on one by its id; thin: filings/listing.py does the work."""
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
              body={"reference": REFERENCE_FIELD},
              response="ListedFiling", errors=[NotFound, PoliceNotReady], optional_body=True)
    def filing_filed(ctx, filing_id):
        return listing.mark_filed(ctx.settings, ctx.account_id, filing_id,
                                  (ctx.body or {}).get("reference"))
