"""Import reservations: upload a channel's export, see every change it would make, apply it.

The preview is applied exactly as shown: the uploaded file is kept sealed on the server
(imports.service.keep_previewed, for this account and user alone) and the Apply form carries
only its id and the plan's digest; an apply whose plan came out different (the bookings changed
meanwhile) is refused and previewed afresh.

A listing no property has (imports/listings.py) is asked as a question of its own, a select of
the properties, before anything is applied: the answers go back with the preview and the apply
(`title_N` and `property_N`, N from 0) and applying remembers them as the listings' aliases.
"""

from __future__ import annotations

import bottle

from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import (ExportTooLarge, ExportUnreadable, ImportPlanChanged, NotFound,
                                      ValidationError)
from rentalcomply.dashboard import activitynames, service
from rentalcomply.dashboard.web import Pages
from rentalcomply.imports import service as imports
from rentalcomply.imports.files import Limits, spoken
from rentalcomply.imports.planning import UNKNOWN_LISTING

ACTION_WORDS = {"created": "new booking", "updated": "filled in", "unchanged": "no change",
                "conflict": "conflict"}
CHANGE_WORDS = {"guest_name": "Guest name", "guest_count": "Guests", "adults": "Adults",
                "children": "Children", "infants": "Infants", "total_price_cents": "Price",
                "external_ref": "Confirmation code",
                "payment_method": "Payment method", "guest_phone": "Phone",
                "guest_language": "Language", "booked_at": "Booked on"}
MAX_ANSWERS = 500  # listings answered in one form; a file has a few dozen at most


def register(pages: Pages) -> None:
    def _render(page, *, status=200, report=None, preview_id="", property_id="", error=None,
                applied=False, answers=None):
        return page.render("imports", status=status, title=page._("Import reservations"),
                           report=report, preview_id=preview_id, property_id=property_id,
                           error=error, applied=applied, answers=answers or {},
                           names=service.property_names(page.account_id),
                           action_words=ACTION_WORDS, change_words=CHANGE_WORDS,
                           reason_text=lambda outcome: _reason_text(page, outcome),
                           note_text=lambda note: spoken(*note, page._),
                           shown=lambda name, value: _shown(page, name, value))

    def _preview(page, content: bytes, property_id: str, status: int = 200, error=None,
                 answers=None):
        try:
            report = imports.import_export(page.account_id, content,
                                           rates=FeeRates.from_settings(page.settings),
                                           property_id=property_id or None, dry_run=True,
                                           listing_map=answers or None,
                                           limits=Limits.from_settings(page.settings))
        except (ExportUnreadable, ExportTooLarge) as problem:
            return _render(page, status=422, property_id=property_id,
                           error=spoken(*problem.spoken, page._))
        except (NotFound, ValidationError):
            return _render(page, status=400, error=page._("Choose one of your properties."))
        with atomic():
            preview_id = imports.keep_previewed(page.account_id, page.user.id, content)
        return _render(page, status=status, report=report, preview_id=preview_id,
                       property_id=property_id, error=error, answers=answers)

    def _answers(page) -> dict[str, str]:
        """The listings answered in the form: title -> property id (unanswered ones left out)."""
        answers = {}
        for index in range(MAX_ANSWERS):
            title = page.form(f"title_{index}", None)
            if title is None:
                break
            if page.form(f"property_{index}").strip():
                answers[title] = page.form(f"property_{index}").strip()
        return answers

    @pages.get("/bookings/import")
    def import_form(page):
        return _render(page)

    # transaction=False: the file is read and planned with no transaction open, and applied in
    # short batches (imports/service.py), so that no other account waits on a large file.
    @pages.post("/bookings/import", transaction=False)
    def import_preview(page):
        property_id = page.form("property_id").strip()
        upload = bottle.request.files.get("file")
        content = upload.file.read(imports.MAX_FILE_BYTES + 1) if upload is not None else b""
        if not content:
            return _render(page, status=400, property_id=property_id,
                           error=page._("Choose the file to import."))
        if len(content) > imports.MAX_FILE_BYTES:
            return _render(page, status=413, property_id=property_id,
                           error=page._("The file is larger than 1 MB: export fewer months."))
        return _preview(page, content, property_id)

    @pages.post("/bookings/import/answer", transaction=False)
    def import_answer(page):
        """The listings' questions answered: the same file previewed again with the answers."""
        preview_id = page.form("preview")
        with atomic():
            content = imports.previewed_file(page.account_id, page.user.id, preview_id)
            imports.forget_previewed(page.account_id, preview_id)
        answers = _answers(page)
        return _preview(page, content, "", status=200 if answers else 400, answers=answers,
                        error=None if answers else page._("Choose the property of each listing."))

    @pages.post("/bookings/import/apply", transaction=False)
    def import_apply(page):
        property_id = page.form("property_id").strip()
        preview_id = page.form("preview")
        with atomic():
            content = imports.previewed_file(page.account_id, page.user.id, preview_id)
            imports.forget_previewed(page.account_id, preview_id)
        answers = _answers(page)
        try:
            report = imports.import_export(page.account_id, content,
                                           rates=FeeRates.from_settings(page.settings),
                                           property_id=property_id or None,
                                           expected_plan=page.form("plan"),
                                           listing_map=answers or None,
                                           limits=Limits.from_settings(page.settings))
        except ImportPlanChanged:
            return _preview(page, content, property_id, status=409, answers=answers, error=page._(
                "The bookings changed since the preview: check this new preview and apply it "
                "again."))
        with atomic():
            page.record("booking.import")
        return _render(page, report=report, applied=True)


def _reason_text(page, outcome) -> str:
    parts = []
    for template, values in outcome.reasons:
        if template == UNKNOWN_LISTING:  # its title is in the Property column already
            parts.append(page._("choose its property above"))
            continue
        shown = dict(values)
        if "field" in values:
            shown["field"] = page._(values["field"])
        if str(values.get("booking", "")).startswith("book_"):  # a person reads its guest
            shown["booking"] = activitynames.bookings([values["booking"]], page.fmt).get(
                values["booking"], page._("another booking"))
        if "fields" in values:
            shown["fields"] = ", ".join(page._(word) for word in values["fields"].split(", "))
        parts.append(page._(template, **shown))
    return "; ".join(parts)


def _shown(page, name: str, value) -> str:
    if value is None:
        return "—"
    if name == "total_price_cents":
        return page.fmt.money(value)
    if name == "payment_method":
        return page._("payment:" + value)
    if name == "booked_at":
        return page.fmt.short_date(value.date() if hasattr(value, "date") else value)
    return str(value)
