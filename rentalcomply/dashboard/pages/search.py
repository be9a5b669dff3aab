"""The header's search: the account's bookings found by a guest's name, e-mail or phone, a
channel's confirmation code or the booking's reference (dashboard/search.py). A GET form, so it
works without a script and its results have an address."""

from __future__ import annotations

from rentalcomply.dashboard import search
from rentalcomply.dashboard.web import Pages

QUERY_MAX = 200


def register(pages: Pages) -> None:
    @pages.get("/search")
    def search_page(page):
        text = page.arg("q")[:QUERY_MAX]
        found = search.search(page.account_id, text) if text else []
        return page.render("search", title=page._("Search"), q=text, found=found,
                           limit=search.RESULTS)
