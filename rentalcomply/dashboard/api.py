"""The dashboard's pages under /dashboard: parse the form, call the domain function, render.

HTML pages for an account's people, not API endpoints: they are routes of the Bottle app and
never enter the OpenAPI document. See web.py for what surrounds each handler (session, CSRF, one
transaction with its activity record, the 404 of another account's ids). Each group of pages is
a module of pages/.
"""

from __future__ import annotations

from rentalcomply.core.errors import NotFound
from rentalcomply.dashboard import sign_in, users
from rentalcomply.dashboard.pages import (account, activity, bookings, checkin_links,
                                          code_tables, controller, devices, email, filings,
                                          imports, keys, police, properties, reports, scanning,
                                          search, taxes, today, webhooks)
from rentalcomply.dashboard.web import Pages
from rentalcomply.web import pages as web_pages

# In the order their routes are declared: Bottle tries a route in that order.
# imports before bookings: /bookings/import is not the page of a booking called "import".
PAGE_GROUPS = (today, imports, bookings, checkin_links, properties, keys, webhooks, reports,
               police, filings, controller, account, scanning, code_tables, devices, email,
               activity, search, taxes)


def register(api) -> None:
    users.configure(api.settings)
    pages = Pages(api.app, api.settings)
    web_pages.register_static(api.app)  # the shared assets under /static/, once per app
    sign_in.register(pages)
    for group in PAGE_GROUPS:
        group.register(pages)

    @pages.get("/<rest:path>")
    def unknown(page, rest):
        # Declared last: a page of the dashboard that does not exist is a page, not JSON.
        raise NotFound()
