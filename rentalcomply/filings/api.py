"""Routes of police filing: a booking's filings, re-filing, the file for hand upload, the receipt;
the account's filings as one list (`/filings`) and the same actions on one by its id."""

from __future__ import annotations

from rentalcomply.core.errors import InvalidSignature, LinkExpired, NotFound, PoliceNotReady
import rentalcomply.authorities  # noqa: F401  (registers the authorities with the engine)
from rentalcomply.filings import host, listing, obligations, receipts, registry
from rentalcomply.properties import service as properties_service
from rentalcomply.views import properties as composed
from rentalcomply.bookings.service import REPORT_STATUSES
from rentalcomply.filings.engine import FILING_STATUSES, KINDS, REFERENCE_MAX
from rentalcomply.web import openapi
from rentalcomply.web.openapi import NULLABLE_TIMESTAMP, VERSION, ref
from rentalcomply.web.routing import PAGINATION_QUERY, Reply
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
                                                             "(`LOCAL`: refused before sending); "
                                                             "of a period filing's guest, its id "
                                                             "at the authority (ROSS 1000 "
                                                             "`idswh`)."},
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
        "kind": {"type": "string", "enum": [*KINDS, *registry.period_kinds()],
                 "description": "`arrival`; `departure` (Portugal); `cancellation`, `reservation` "
                                "and `rh_cancellation` (Spain: the reservation, and the "
                                "cancellation of one whose dates changed); a period filing's "
                                "period kind (`month`: ISTAT's statistics through ROSS 1000)."},
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
    register_obligations(api)

# A link of the list: its own schema, null as `anyOf` (one class in generated clients).
openapi.schema("FilingLink", {
    "type": "object", "required": ["download_url", "expires_at", "filename"],
    "additionalProperties": False,
    "properties": {"download_url": {"type": "string", "format": "uri"},
                   "expires_at": {"type": "string", "format": "date-time"},
                   "filename": {"type": "string"}},
})

PERIOD_PATTERN, LISTED_KINDS = listing.PERIOD_PATTERN, listing.listed_kinds()

LIST_QUERY = {
    "property_id": Field("string", min_length=1, max_length=64,
                         description="Only this property's filings: its period filings and its "
                                     "bookings' filings."),
    "booking_id": Field("string", min_length=1, max_length=64,
                        description="Only this booking's filings."),
    "authority": Field("string", choices=registry.all_names(),
                       description="Only the filings with this authority (connector, or a "
                                   "period authority such as `ross1000`)."),
    "kind": Field("string", choices=LISTED_KINDS,
                  description="A booking filing's kind, or a period filing's (`month`)."),
    "period": Field("string", pattern=PERIOD_PATTERN, max_length=7,
                    description="Only the period filings of this period (\"2026-11\", "
                                "\"2026-Q1\", \"2026\")."),
    "status": Field("string", choices=FILING_STATUSES),
    "cursor": Field("string", min_length=1, max_length=200,
                    description="Where the previous page ended: its `next_cursor`, as it is. "
                                "Not with `page`."),
    "page": Field("integer", minimum=1, maximum=1_000_000,
                  description="Page number, from 1, for clients that count pages (1 when "
                              "neither `page` nor `cursor` is sent). Not with `cursor`."),
    "limit": PAGINATION_QUERY["limit"],
}

openapi.schema("FilingPagination", {
    "type": "object", "required": ["page", "limit", "total", "has_more", "next_cursor"],
    "additionalProperties": False,
    "properties": {
        "page": {"type": ["integer", "null"], "minimum": 1,
                 "description": "The page number; null when walked by `cursor`."},
        "limit": {"type": "integer"},
        "total": {"type": "integer", "minimum": 0,
                  "description": "How many filings pass the filters, in all."},
        "has_more": {"type": "boolean"},
        "next_cursor": {"type": ["string", "null"],
                        "description": "Send it as `cursor` for the page after this one; null "
                                       "at the end."},
    },
})


def _schemas() -> None:
    # The booking's `Filing` fields (above), then those of the list:
    # spelled out rather than `allOf`, which cannot be closed with additionalProperties.
    base = openapi.SCHEMAS["Filing"]
    openapi.schema("ListedFiling", {
        "type": "object",
        "required": [*base["required"], "authority", "authority_title", "booking_id",
                     "property_id", "period", "status_text", "at_risk", "reason_text", "file",
                     "receipt"],
        "additionalProperties": False,
        "properties": {
            **base["properties"],
            "kind": {**base["properties"]["kind"], "enum": list(LISTED_KINDS),
                     "description": base["properties"]["kind"]["description"]
                     + " A period filing's: its period's kind (`month`: ISTAT's statistics "
                                         "through ROSS 1000; `quarter`, `year`)."},
            "authority": {"type": "string", "description": "The connector it is filed with."},
            "authority_title": {"type": "string",
                                "description": "What a person calls the authority."},
            "booking_id": {"type": ["string", "null"],
                           "description": "The booking filed; null for a period filing."},
            "property_id": {"type": ["string", "null"]},
            "period": {"type": ["string", "null"],
                       "description": "A period filing's period (\"2026-11\", a month; "
                                      "\"2026-Q1\"; \"2026\"); null for a booking filing."},
            "status_text": {"type": "string", "description": "The status in words."},
            "at_risk": {"type": "boolean",
                        "description": "Announced at risk (its deadline near, nothing filed: "
                                       "`police.at_risk`) and still not filed."},
            "reason_text": {"type": ["string", "null"],
                            "description": "Why it is held, refused or not sent, in words "
                                           "(`error` keeps the raw reason); null when nothing "
                                           "stops it."},
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
                         "deadline first, then by id; each filter is optional. Each filing "
                         "comes with its authority's title, its status and reason in words and "
                         "one-hour signed links to its file and receipt. `period` is null for a "
                         "booking filing, `booking_id` for a period filing.\n\n"
                         "Pages: follow `next_cursor` (send it as `cursor`; null at the end): a "
                         "walk by cursor shows no filing twice and misses none while filings "
                         "are added. `page` still counts pages for the clients that do; both "
                         "together are 400. An unknown status, kind or authority, a malformed "
                         "period or a cursor this list did not give is 400 VALIDATION_ERROR; "
                         "an unknown or another account's property or booking lists nothing "
                         "(it is never looked up outside the account). No ETag: each answer "
                         "mints fresh signed links.",
             query=LIST_QUERY, response="ListedFiling", paginated="FilingPagination")
    def list_filings(ctx):
        limit, page, cursor = ctx.query["limit"], ctx.query.get("page"), ctx.query.get("cursor")
        filters = {name: ctx.query.get(name) for name in
                   ("property_id", "booking_id", "authority", "kind", "period", "status")}
        found = listing.filing_page(ctx.settings, ctx.account_id, limit=limit, page=page,
                                    cursor=cursor, **filters)
        return Reply(found.views, pagination={
            "page": None if cursor else (page or 1), "limit": limit, "total": found.total,
            "has_more": found.has_more, "next_cursor": found.next_cursor})

    @api.post("/filings/<filing_id>/refile", scope="write", tags=TAGS, summary="File again",
              description="After a rejection (fix the data first), a failure, a hold or a "
                          "file left for a hand upload: a booking filing as `POST "
                          "/bookings/{id}/police/refile` (the booking's refused or failed "
                          "filings are queued again together); a period filing is queued "
                          "again alone (attempts from 0, its error cleared). Both are filed at "
                          "once. 409 POLICE_NOT_READY when this filing has nothing to file "
                          "again.",
              response="ListedFiling", errors=[NotFound, PoliceNotReady])
    def filing_refile(ctx, filing_id):
        return listing.refile(ctx.settings, ctx.account_id, filing_id)

    @api.post("/filings/<filing_id>/filed", scope="write", tags=TAGS,
              summary="Record a file uploaded by hand",
              description="The host uploaded this filing's file to the authority (a booking's "
                          "or a period's): it is marked submitted, with the authority's "
                          "reference if any, and `police.submitted` is sent (for a period "
                          "filing its data is the filing, without links). 409 POLICE_NOT_READY "
                          "when it is already submitted or no file awaits.",
              body={"reference": REFERENCE_FIELD},
              response="ListedFiling", errors=[NotFound, PoliceNotReady], optional_body=True)
    def filing_filed(ctx, filing_id):
        return listing.mark_filed(ctx.settings, ctx.account_id, filing_id,
                                  (ctx.body or {}).get("reference"))


# --- a property's obligations (filings/obligations.py) --------------------------------------------

openapi.schema("Obligation", {
    "type": "object",
    "required": ["authority", "purpose", "title", "setup_complete", "missing", "settings",
                 "credentials_set", "problem"],
    "additionalProperties": False,
    "properties": {
        "authority": {"type": ["string", "null"],
                      "description": "The authority owed (`alloggiati`, `ross1000`...; `none`: "
                                     "no registration chosen); null when it cannot be told yet "
                                     "(`problem` says why: the region is not known)."},
        "purpose": {"type": "string", "enum": list(obligations.PURPOSES)},
        "title": {"type": "string", "description": "What a person calls it."},
        "setup_complete": {"type": "boolean",
                           "description": "Whether what it needs to be filed is set."},
        "missing": {"type": "array", "items": {"type": "string"},
                    "description": "The settings or credentials it still needs."},
        "settings": {"type": "object", "additionalProperties": {"type": "string"},
                     "description": "Its non-secret settings."},
        "credentials_set": {"type": "array", "items": {"type": "string"},
                            "description": "The names of its credentials that are set; their "
                                           "values are sealed and never shown."},
        "problem": {"type": ["string", "null"],
                    "description": "What stops it, in words (\"no police registration chosen: "
                                   "its guests are not being filed\")."},
    },
})

OBLIGATION_BODY = {
    "settings": Field("string_map", max_items=20, max_length=200,
                      description="Non-secret settings, merged (null removes one); ROSS 1000: "
                                  "`structure_code`, `deadline_day`."),
    "credentials": Field("string_map", max_items=20, max_length=200,
                         description="Credentials, merged and sealed; only their names come "
                                     "back. ROSS 1000: `username`, `password` (the tourism "
                                     "office's transmission credentials)."),
}


def register_obligations(api) -> None:
    @api.route("PUT", "/properties/<property_id>/obligations/<authority>", scope="write",
               tags=["properties"], summary="Set up one of a property's obligations",
               description="The settings and credentials of a period obligation the property "
                           "owes (listed in its `obligations`; ROSS 1000: `structure_code`, "
                           "`deadline_day`, and the transmission `username` and `password`). "
                           "Merged: a name set to null is removed. Credentials are sealed and "
                           "only their names come back. Filings held for this set-up are filed "
                           "again. An authority the property does not owe is 400 "
                           "VALIDATION_ERROR; the police registration is set with `PATCH "
                           "/properties/{id}` (`police_connector`).",
               body=OBLIGATION_BODY, response="Property", errors=[NotFound])
    def put_obligation(ctx, property_id, authority):
        obligations.configure(ctx.account_id, property_id, authority,
                              settings=ctx.body.get("settings"),
                              credentials=ctx.body.get("credentials"))
        prop = properties_service.get_property(ctx.account_id, property_id)
        return composed.property_view(prop)

    @api.get("/filings/<filing_id>/preview", scope="read", tags=TAGS,
             summary="A period filing's file as it stands",
             description="The period's file built now with the figures so far (ROSS 1000: the "
                         "month's XML; for a region on another system, a ZIP with the XML and "
                         "the figures as a PDF to type in), whatever the filing's state. 409 "
                         "POLICE_NOT_READY for a booking's filing or when the data cannot make "
                         "the file yet (the reason says why).",
             response=None, content_type="application/octet-stream",
             errors=[NotFound, PoliceNotReady])
    def filing_preview(ctx, filing_id):
        name, content_type, data = listing.preview(ctx.account_id, filing_id)
        return Reply(data, headers={"Content-Type": content_type,
                                    "Content-Disposition": f'attachment; filename="{name}"',
                                    "Cache-Control": "private, no-store"})
