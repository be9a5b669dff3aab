"""The data controller on the Account page (owners only): the legal name, address and contact
that the guests' privacy notice names (accounts/controller.py). Shown inside the Account page
(_controller.tpl); a refused form comes back on a page of its own with the messages."""

from __future__ import annotations

from rentalcomply.accounts import controller
from rentalcomply.core.errors import ValidationError
from rentalcomply.dashboard.web import Pages, Redirect, form_errors

PATH = "/settings/account/controller"
FIELDS = ("legal_name", "address", "email", "phone")


def register(pages: Pages) -> None:
    @pages.get(PATH, owners=True)
    def controller_page(page):
        return page.render("controller", title=page._("Privacy notice for guests"))

    @pages.post(PATH, owners=True)
    def controller_save(page):
        values = {name: page.form(name) for name in FIELDS}
        try:
            controller.save_controller(page.account_id, **values)
        except ValidationError as error:
            return page.render("controller", status=400, title=page._("Privacy notice for guests"),
                               controller_values=values, controller_errors=form_errors(error))
        page.record("account.controller")
        raise Redirect(page.url("/settings/account", done="controller_saved"))
