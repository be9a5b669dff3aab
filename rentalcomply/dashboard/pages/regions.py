"""The property page's region, rooms and beds (the form's fields' choices and hints) and its
closed days: the section that lists the closed ranges ahead and in the current month, and the
small form that closes or reopens a range (properties/closed_days.py)."""

from __future__ import annotations

import datetime as dt

from rentalcomply.core import clock
from rentalcomply.core.errors import BookingConflict, ValidationError
from rentalcomply.dashboard.web import Pages, Redirect, form_errors
from rentalcomply.properties import closed_days, regions
from rentalcomply.properties import service as properties

# The countries whose properties are asked their closed days: the monthly tourism statistics
# report them (Italy's ROSS 1000 and the other regional systems).
CLOSED_DAYS_COUNTRIES = ("IT",)


def keep_derived_region(values: dict, prop, country: str) -> None:
    """The form always sends its select: a region read from the address, sent back unchanged,
    stays the address's (so a changed address reads it again) rather than becoming the
    host's; a region of another country (the country was just changed) is left to the
    address of the new one."""
    if "region" not in values or values["region"] is None:
        return
    if not values["region"].startswith(country + "-"):
        del values["region"]
    elif prop is not None and prop.region_source == regions.FROM_ADDRESS \
            and values["region"] == prop.region:
        del values["region"]


def region_choices(page, country: str, prop=None) -> dict:
    """The region select's options in the page's language and its hint: where the region came
    from, or why it is asked."""
    choices = regions.choices(country, page.lang)
    if prop is None:
        hint = page._("Left as it is, the region is read from the address where that is "
                      "certain (an Italian province’s abbreviation, a Spanish postcode).")
    elif prop.region and prop.region_source == regions.FROM_ADDRESS:
        hint = page._("Read from the address: {region}. Choose another if it is wrong; your "
                      "choice is then kept when the address changes.",
                      region=regions.region_name(prop.region, page.lang))
    elif prop.region:
        hint = page._("Chosen by you: kept when the address changes.")
    else:
        hint = page._("The address does not say it for certain: choose the region whose rules "
                      "apply (tourism statistics, police registration).")
    return {"region_choices": choices, "region_hint": hint}


def closed_days_view(page, prop, errors=None, values=None) -> dict:
    """The closed days' section (`_property_closed_days.tpl`): the ranges of the current month
    and the year ahead."""
    shown = prop.country in CLOSED_DAYS_COUNTRIES
    first, last = closed_days.default_window(clock.today())
    ranges = closed_days.ranges_of(closed_days.closed_days(prop.id, first, last)) if shown else []
    return {"closed_days_shown": shown or bool(errors), "closed_ranges": ranges,
            "closed_errors": errors or {},
            "closed_values": values or {"first_day": "", "last_day": ""},
            "closed_window": (first, last)}


def register(pages: Pages, show_property) -> None:
    @pages.post("/properties/<property_id>/closed-days")
    def closed_days_change(page, property_id):
        prop = properties.get_property(page.account_id, property_id)
        values = {"first_day": page.form("first_day").strip(),
                  "last_day": page.form("last_day").strip()}
        action = page.form("action")
        try:
            span = _typed_range(values)
            close, reopen = ([span], []) if action == "close" else ([], [span])
            closed_days.change(prop, close, reopen)
        except ValidationError as error:
            return show_property(page, prop, status=400, closed_values=values,
                                 closed_errors=_errors(error))
        except BookingConflict as error:
            return show_property(page, prop, status=409, closed_values=values, closed_errors={
                "first_day": page._("A booking has a night on these days: move or cancel it "
                                    "first, or close other days."),
                "bookings": [detail["booking_id"] for detail in error.details]})
        page.record("property.closed_days", property_id)
        raise Redirect(page.url(f"/properties/{property_id}", done="saved") + "#closed-days")


def _typed_range(values: dict) -> str:
    """The form's two dates as a range the domain takes; the last day may be left empty (one
    day)."""
    for name in ("first_day", "last_day"):
        text = values[name]
        if text:
            try:
                dt.date.fromisoformat(text)
            except ValueError:
                raise ValidationError(name, "must be a date in the form YYYY-MM-DD") from None
    if not values["first_day"]:
        raise ValidationError("first_day", "must be a date in the form YYYY-MM-DD")
    last = values["last_day"] or values["first_day"]
    return f"{values['first_day']}/{last}"


def _errors(error: ValidationError) -> dict:
    """The domain names a range `close[0]`; the form has its two days."""
    found = form_errors(error)
    return {("last_day" if "ends before" in message else "first_day")
            if name.startswith(("close", "open")) else name: message
            for name, message in found.items()}
