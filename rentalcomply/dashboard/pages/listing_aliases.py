"""A property's listing names in the channels' reservation files (imports/listings.py): the
section of the property's page that lists them, adds one and removes one. An import remembers
the host's answers here; a name removed is asked again by the next file."""

from __future__ import annotations

from rentalcomply.core.errors import NotFound, ValidationError
from rentalcomply.dashboard.web import Pages, Redirect, form_errors
from rentalcomply.imports import listings
from rentalcomply.imports.channels import CHANNEL_NAMES
from rentalcomply.properties import service as properties


def listing_aliases_view(prop, errors=None, values=None) -> dict:
    """The section's values for property.tpl (`_property_listing_aliases.tpl`)."""
    return {"listing_aliases": list(listings.aliases_of(prop.account_id, prop.id)),
            "alias_errors": errors or {}, "alias_values": values or {"channel": "airbnb"},
            "alias_channels": CHANNEL_NAMES}


def register(pages: Pages, show_property) -> None:
    """`show_property`: the property page's renderer (pages/properties.py, which calls this), for
    a refused name shown again with its error."""

    @pages.post("/properties/<property_id>/listing-aliases")
    def alias_add(page, property_id):
        prop = properties.get_property(page.account_id, property_id)
        values = {"channel": page.form("channel"), "title": page.form("title").strip()}
        try:
            listings.add_alias(page.account_id, property_id, values["channel"], values["title"])
        except ValidationError as error:
            return show_property(page, prop, status=400, alias_errors=form_errors(error),
                                 alias_values=values)
        page.record("property.listing_alias_add", property_id)
        raise Redirect(page.url(f"/properties/{property_id}", done="saved") + "#listing-aliases")

    @pages.post("/properties/<property_id>/listing-aliases/<alias_id>/delete")
    def alias_remove(page, property_id, alias_id):
        try:
            listings.remove_alias(page.account_id, property_id, alias_id)
        except NotFound:
            pass  # removed already (a second click): the page shows what is left
        else:
            page.record("property.listing_alias_remove", property_id)
        raise Redirect(page.url(f"/properties/{property_id}", done="saved") + "#listing-aliases")
