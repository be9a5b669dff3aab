"""Scanning guests' documents, as the dashboard shows it: the owner's "keep document images"
on the account's page (templates/_scan_keeping.tpl), and on a booking's page the documents read
as expired or expiring before departure (templates/_document_flags.tpl)."""

from __future__ import annotations

from rentalcomply.dashboard import problems
from rentalcomply.dashboard.web import Pages, Redirect
from rentalcomply.scan import keeping, reader
from rentalcomply.scan import service as scanning


def register(pages: Pages) -> None:
    @pages.post("/settings/account/document-images", owners=True)
    def document_images(page):
        keep = page.form("keep_document_images") == "on"
        keeping.set_keep_images(page.account_id, keep)
        page.record("account.document_images_on" if keep else "account.document_images_off")
        raise Redirect(page.url("/settings/account",
                                done="document_images_on" if keep else "document_images_off"))


def account_values(account_id: str) -> dict:
    """What the account page's partial shows."""
    on, why = reader.available()
    return {"keep_document_images": keeping.keeps_images(account_id), "scan_on": on,
            "scan_off_reason": "" if on else why}


def booking_values(booking_id: str) -> dict:
    """What the booking page's partial shows."""
    return {"document_flags": scanning.flags(booking_id), "document_problem": problems.document}
