"""A booking's police filing, from its page: file again, download the file, mark it filed."""

from __future__ import annotations

import urllib.parse

from rentalcomply.bookings import service as bookings
from rentalcomply.core.errors import ApiError, NotFound, ValidationError
from rentalcomply.dashboard.pages.bookings import render_booking
from rentalcomply.dashboard.web import Pages, Redirect, form_errors
from rentalcomply.filings import host as police


def register(pages: Pages) -> None:

    @pages.post("/bookings/<booking_id>/police/refile")
    def police_refile(page, booking_id):
        try:
            police.refile(page.account_id, booking_id)
        except NotFound:
            raise
        except ApiError as error:
            return render_booking(page, bookings.get_booking(page.account_id, booking_id),
                                  status=error.status, message=error.message)
        page.record("police.refile", booking_id)
        raise Redirect(page.url(f"/bookings/{booking_id}", done="refiled"))

    @pages.get("/bookings/<booking_id>/police/file")
    def police_file(page, booking_id):
        link = police.file_link(page.settings, page.account_id, booking_id)
        parts = urllib.parse.urlsplit(link["download_url"])
        raise Redirect(parts.path + "?" + parts.query)

    @pages.post("/bookings/<booking_id>/police/filed")
    def police_filed(page, booking_id):
        try:
            police.mark_filed(page.account_id, booking_id, page.form("reference"))
        except ValidationError as error:
            return render_booking(page, bookings.get_booking(page.account_id, booking_id),
                                  status=400, errors=form_errors(error))
        except NotFound:
            raise
        except ApiError as error:
            return render_booking(page, bookings.get_booking(page.account_id, booking_id),
                                  status=error.status, message=error.message)
        page.record("police.filed", booking_id)
        raise Redirect(page.url(f"/bookings/{booking_id}", done="police_filed"))
