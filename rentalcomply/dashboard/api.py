"""The dashboard's pages under /dashboard: parse the form, call the domain function, render.

HTML pages for an account's people, not API endpoints: they are routes of the Bottle app and
never enter the OpenAPI document. See web.py for what surrounds each handler (session, CSRF, one
transaction with its activity record, the 404 of another account's ids).
"""

from __future__ import annotations

import datetime as dt
import urllib.parse

from rentalcomply.accounts import service as accounts
from rentalcomply.bookings import service as bookings
from rentalcomply.core import clock, queue
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import ApiError, NotFound, ValidationError
from rentalcomply.core.events import EVENT_TYPES
from rentalcomply.core.models import Account
from rentalcomply.dashboard import service, sign_in, users
from rentalcomply.dashboard.web import PREFIX, Pages, Redirect, form_errors, safe_next
from rentalcomply.properties import service as properties
from rentalcomply.web import pages as web_pages
from rentalcomply.webhooks import service as webhooks

PAGE_SIZE = 25
GRACE_CHOICES = (0, 1, 24, 72, 168)
BOOKING_STATUSES = ("confirmed", "cancelled")
CHECKIN_STATUSES = ("NOT_STARTED", "INVITED", "IN_PROGRESS", "COMPLETED", "EXPIRED")


def register(api) -> None:
    users.configure(api.settings)
    pages = Pages(api.app, api.settings)
    web_pages.register_static(api.app)  # the shared assets under /static/, once per app
    sign_in.register(pages)
    _today_and_calendar(pages)
    _booking_pages(pages)
    _property_pages(pages)
    _key_pages(pages)
    _webhook_pages(pages)
    _report_pages(pages)
    _police_pages(pages)
    _account_pages(pages)

    @pages.get("/activity")
    def activity_log(page):
        from rentalcomply.dashboard import activitylog
        number = _page_number(page)
        filters = {name: page.arg(name) for name in ("who", "kind", "from", "to")}
        dates, errors = _date_filters(filters)
        if filters["kind"] and filters["kind"] not in activitylog.KINDS:
            filters["kind"] = ""
        rows, more = [], False
        if not errors:
            rows, more = activitylog.find(
                page.account_id, actor=filters["who"] or None, kind=filters["kind"] or None,
                date_from=dates.get("from"), date_to=dates.get("to"), timezone=page.timezone,
                page=number)
        query = {k: v for k, v in filters.items() if v}
        return page.render("activity", title=page._("Activity"), rows=rows, number=number,
                           more=more, filters=filters, errors=errors, log=activitylog,
                           actors=activitylog.actors(page.account_id),
                           page_url=lambda n: page.url("/activity", page=n, **query))

    @pages.get("/<rest:path>")
    def unknown(page, rest):
        # Declared last: a page of the dashboard that does not exist is a page, not JSON.
        raise NotFound()


def _date_filters(filters: dict[str, str]) -> tuple[dict[str, dt.date], dict[str, str]]:
    """The `from` and `to` filters of a list page as dates, and an error for each that is not."""
    dates, errors = {}, {}
    for name in ("from", "to"):
        if filters[name]:
            try:
                dates[name] = dt.date.fromisoformat(filters[name])
            except ValueError:
                errors[name] = "must be a date like 2027-06-01"
    return dates, errors


def _page_number(page) -> int:
    value = page.arg("page", "1")
    return int(value) if value.isdigit() and 0 < int(value) < 100_000 else 1


def _with_query(target: str, **query) -> str:
    parts = urllib.parse.urlsplit(target)
    kept = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query) if k not in query]
    return parts.path + "?" + urllib.parse.urlencode(kept + list(query.items()))


def _confirmed(page) -> bool:
    """Whether a destructive form comes from its confirmation page (the second step)."""
    return page.form("confirm") == "yes"


def _confirm(page, *, title: str, subject: str, consequences: list[str], button: str,
             back: str, hidden: dict | None = None):
    """The second step of a destructive action, rendered by the server so that it works without
    JavaScript: it names what stops working and posts the same form again with confirm=yes.
    Nothing has changed yet when it shows."""
    return page.render("confirm", title=title, subject=subject, consequences=consequences,
                       button=button, back=back, action=page.path, hidden=hidden or {})


# --- today and the calendar -------------------------------------------------------------------------

def _today_and_calendar(pages: Pages) -> None:
    @pages.get("/today")
    def today(page):
        return page.render("today", title=page._("Today"), day=service.today(page.account_id))

    @pages.get("/calendar")
    def calendar(page):
        props = properties.list_properties(page.account_id)
        if not page.arg("property"):
            return _timeline(page, props)
        chosen = page.arg("property")
        errors = {}
        try:
            year, month = service.month_of(page.arg("month"))
        except ValidationError as error:
            errors = form_errors(error)
            year, month = service.month_of(None)
        grid = service.month_grid(page.account_id, chosen, year, month) if chosen else []
        first = dt.date(year, month, 1)
        previous = (first - dt.timedelta(days=1)).strftime("%Y-%m")
        following = (first + dt.timedelta(days=32)).strftime("%Y-%m")
        return page.render("calendar", title=page._("Calendar"), properties=props,
                           chosen=chosen, grid=grid, first=first, previous=previous,
                           following=following, errors=errors)


def _timeline(page, props):
    """Every property at once: a lane of stays per property over two weeks or a month."""
    span = page.arg("span") if page.arg("span") in service.TIMELINE_SPANS else "2w"
    errors = {}
    today_ = page.fmt.local(clock.utcnow()).date()  # the account's day, not UTC's
    try:
        start = dt.date.fromisoformat(page.arg("start")) if page.arg("start") else None
    except ValueError:
        errors["start"] = "must be a date like 2027-06-01"
        start = None
    if start is not None and not dt.date(2000, 1, 1) <= start <= dt.date(2100, 1, 1):
        errors["start"], start = "must be a date like 2027-06-01", None
    if span == "month":
        start = (start or today_).replace(day=1)
        next_month = (start.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
        days = (next_month - start).days
        previous = (start - dt.timedelta(days=1)).replace(day=1)
        following = start + dt.timedelta(days=days)
    else:
        start = start or today_ - dt.timedelta(days=today_.weekday())  # this week's Monday
        days = 14
        previous, following = start - dt.timedelta(days=14), start + dt.timedelta(days=14)
    dates = [start + dt.timedelta(days=n) for n in range(days)]
    return page.render("timeline", title=page._("Calendar"), properties=props,
                       rows=service.timeline(page.account_id, start, days), dates=dates,
                       start=start, span=span, today=today_, errors=errors,
                       previous=previous, following=following)


# --- bookings ---------------------------------------------------------------------------------------

def _booking_pages(pages: Pages) -> None:
    @pages.get("/bookings")
    def booking_list(page):
        filters = {name: page.arg(name) for name in
                   ("property", "status", "checkin", "from", "to", "guest")}
        dates, errors = _date_filters(filters)
        number = _page_number(page)
        rows, more = [], False
        if not errors:
            try:
                query = service.find_bookings(
                    page.account_id, property_id=filters["property"] or None,
                    status=filters["status"] or None, checkin_status=filters["checkin"] or None,
                    date_from=dates.get("from"), date_to=dates.get("to"), guest=filters["guest"])
                rows = list(query.paginate(number, PAGE_SIZE + 1))
                more = len(rows) > PAGE_SIZE
                rows = rows[:PAGE_SIZE]
            except ValidationError as error:
                errors = form_errors(error)
        return page.render("bookings", title=page._("Bookings"), rows=rows, filters=filters,
                           errors=errors, number=number, more=more,
                           names=service.property_names(page.account_id),
                           statuses=BOOKING_STATUSES, checkin_statuses=CHECKIN_STATUSES)

    @pages.get("/bookings/new")
    def booking_new(page):
        values = {"guest_count": "2", "guest_language": "el" if page.lang == "el" else "en",
                  "source": "walk_in", "invite": "yes", "property_id": page.arg("property"),
                  "arrival_date": page.arg("arrival")}
        return _booking_form(page, None, values)

    # Its own transactions: the check-in link is e-mailed within the request (checkin.resend),
    # after the booking is committed, and a slow mail server must not hold the database.
    @pages.post("/bookings", transaction=False)
    def booking_create(page):
        from rentalcomply.bookings.fees import FeeRates
        values = _booking_values(page, new=True)
        fields = _booking_fields(values)
        # Checked first: a refused form commits nothing, the booking included.
        note_error = service.note_problem(values["notes"])
        note_errors = {"notes": note_error} if note_error else {}
        with atomic():
            try:
                if note_errors:
                    bookings._checked_fields(fields)  # the booking's own messages beside the note's
                    raise ValidationError("notes", note_error)
                booking = bookings.create_booking(
                    page.account_id, rates=FeeRates.from_settings(page.settings),
                    property_id=values["property_id"], source=values["source"], **fields)
            except NotFound:
                return _booking_form(page, None, values, status=400,
                                     errors={"property_id": "choose one of your properties"})
            except ValidationError as error:
                return _booking_form(page, None, values, status=400,
                                     errors={**form_errors(error), **note_errors})
            except ApiError as error:  # the dates overlap another stay or a block
                return _booking_form(page, None, values, status=error.status,
                                     message=error.message)
            service.set_booking_note(page.account_id, booking.id, values["notes"])
            page.record("booking.create", booking.id)
        done = "booking_created"
        if values["invite"] and booking.guest_email:
            from rentalcomply.checkin import service as checkin
            try:
                checkin.resend(page.account_id, booking.id, page.public_url)
            except ApiError:
                # over already, no address, or the e-mail was not sent: said on the page
                done = "booking_created_not_invited"
            else:
                with atomic():
                    page.record("checkin.resend", booking.id)
                done = "booking_created_invited"
        raise Redirect(page.url(f"/bookings/{booking.id}", done=done))

    @pages.get("/bookings/<booking_id>/edit")
    def booking_edit_form(page, booking_id):
        booking = bookings.get_booking(page.account_id, booking_id)
        return _booking_form(page, booking, _values_of(booking))

    @pages.post("/bookings/<booking_id>/edit")
    def booking_edit(page, booking_id):
        from rentalcomply.bookings.fees import FeeRates
        booking = bookings.get_booking(page.account_id, booking_id)
        values = _booking_values(page, new=False)
        fields = _booking_fields(values)
        if booking.connection_id is not None:  # a channel's feed owns the dates
            fields.pop("arrival_date"), fields.pop("departure_date")
        note_error = service.note_problem(values["notes"])
        if note_error:  # before any change: a refused form commits nothing
            return _booking_form(page, booking, values, status=400, errors={"notes": note_error})
        try:
            bookings.update_booking(page.account_id, booking_id,
                                    rates=FeeRates.from_settings(page.settings), **fields)
            service.set_booking_note(page.account_id, booking_id, values["notes"])
        except ValidationError as error:
            return _booking_form(page, booking, values, status=400, errors=form_errors(error))
        except NotFound:
            raise
        except ApiError as error:
            return _booking_form(page, booking, values, status=error.status,
                                 message=error.message)
        page.record("booking.update", booking_id)
        raise Redirect(page.url(f"/bookings/{booking_id}", done="saved"))

    @pages.get("/bookings/<booking_id>")
    def booking_page(page, booking_id):
        return _booking(page, bookings.get_booking(page.account_id, booking_id))

    # Its own transactions: the e-mail is sent within the request (see booking_create).
    @pages.post("/bookings/<booking_id>/checkin/resend", transaction=False)
    def checkin_resend(page, booking_id):
        from rentalcomply.checkin import service as checkin
        try:
            checkin.resend(page.account_id, booking_id, page.public_url)
        except NotFound:
            raise
        except ApiError as error:  # no e-mail address, completed, cancelled, over, too often,
            # or the mail server did not take the e-mail
            return _booking(page, bookings.get_booking(page.account_id, booking_id),
                            status=error.status, message=error.message)
        with atomic():
            page.record("checkin.resend", booking_id)
        raise Redirect(page.url(f"/bookings/{booking_id}", done="invited"))

    @pages.post("/bookings/<booking_id>/cancel")
    def booking_cancel(page, booking_id):
        kept = page.form("amount_kept").strip().replace(",", ".")
        booking = bookings.get_booking(page.account_id, booking_id)
        was_cancelled = booking.status == "cancelled"
        # An amount that is not a number is refused by the domain below, before any confirmation.
        if not was_cancelled and not _confirmed(page) and not isinstance(_euros(kept or "0"), str):
            return _confirm(
                page, title=page._("Cancel this booking?"),
                subject=page._("{guest}, {property}, {arrival} to {departure}",
                               guest=booking.guest_name, property=booking.property.name,
                               arrival=page.fmt.date(booking.arrival_date),
                               departure=page.fmt.date(booking.departure_date)),
                consequences=[page._("The stay leaves the calendar and the property's exported "
                                     "feed: the dates become free for other bookings."),
                              page._("The guest's check-in link stops working."),
                              page._("Programs listening to webhooks are told booking.cancelled."),
                              page._("It cannot be undone: a new booking would be needed.")],
                button=page._("Yes, cancel the booking"),
                back=page.url(f"/bookings/{booking_id}"), hidden={"amount_kept": kept})
        try:
            bookings.cancel_booking(page.account_id, booking_id,
                                    amount_kept=_euros(kept) if kept else None)
        except ValidationError as error:
            return _booking(page, bookings.get_booking(page.account_id, booking_id), status=400,
                            errors=form_errors(error), amount_kept=kept)
        page.record("booking.amount_kept" if was_cancelled else "booking.cancel", booking_id)
        raise Redirect(page.url(f"/bookings/{booking_id}",
                                done="amount_kept" if was_cancelled else "cancelled"))


def _police_pages(pages: Pages) -> None:
    from rentalcomply.police import service as police

    @pages.post("/bookings/<booking_id>/police/refile")
    def police_refile(page, booking_id):
        try:
            police.refile(page.account_id, booking_id)
        except NotFound:
            raise
        except ApiError as error:
            return _booking(page, bookings.get_booking(page.account_id, booking_id),
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
            return _booking(page, bookings.get_booking(page.account_id, booking_id), status=400,
                            errors=form_errors(error))
        except NotFound:
            raise
        except ApiError as error:
            return _booking(page, bookings.get_booking(page.account_id, booking_id),
                            status=error.status, message=error.message)
        page.record("police.filed", booking_id)
        raise Redirect(page.url(f"/bookings/{booking_id}", done="police_filed"))


BOOKING_FORM_FIELDS = ("guest_name", "arrival_date", "departure_date", "guest_count",
                       "guest_email", "guest_phone", "guest_language", "total_price",
                       "payment_method")
GUEST_LANGUAGES = (("en", "English"), ("el", "Ελληνικά"), ("it", "Italiano"), ("es", "Español"),
                   ("pt", "Português"), ("de", "Deutsch"), ("fr", "Français"))


def _booking_values(page, new: bool) -> dict:
    """The form as typed (shown again when refused)."""
    values = {name: page.form(name).strip() for name in BOOKING_FORM_FIELDS}
    values["notes"] = page.form("notes").replace("\r\n", "\n").strip()
    if new:
        values.update(property_id=page.form("property_id"), source=page.form("source", "walk_in"),
                      invite=page.form("invite") == "yes")
    return values


def _booking_fields(values: dict) -> dict:
    """The form's values as the API would receive them, for the same service function and its
    messages: an empty optional field is null, a count a number when it is one."""
    fields = {name: values[name] for name in BOOKING_FORM_FIELDS}
    for name in ("guest_email", "guest_phone", "payment_method", "total_price"):
        fields[name] = fields[name] or None
    if fields["total_price"] is not None:
        fields["total_price"] = _euros(fields["total_price"].replace(",", "."))
    count = fields["guest_count"]
    fields["guest_count"] = int(count) if count.isdigit() else count
    return fields


def _values_of(booking) -> dict:
    return {"guest_name": booking.guest_name, "arrival_date": booking.arrival_date.isoformat(),
            "departure_date": booking.departure_date.isoformat(),
            "guest_count": str(booking.guest_count), "guest_email": booking.guest_email or "",
            "guest_phone": booking.guest_phone or "", "guest_language": booking.guest_language,
            "total_price": ("%.2f" % (booking.total_price_cents / 100)
                            if booking.total_price_cents is not None else ""),
            "payment_method": booking.payment_method or "",
            "notes": service.booking_note(booking.account_id, booking.id)}


def _booking_form(page, booking, values, status=200, errors=None, message=None):
    locked = None
    if booking is not None and booking.connection_id is not None:
        name = bookings.CHANNEL_NAMES.get(booking.channel, "the channel")
        locked = page._("The dates come from the {channel} calendar: change them there, and the "
                        "next sync brings them here.", channel=name)
    props = [(p.id, p.name) for p in properties.list_properties(page.account_id)
             if p.status == "active"]
    languages = list(GUEST_LANGUAGES)
    if values.get("guest_language") and values["guest_language"] not in dict(languages):
        languages.append((values["guest_language"], values["guest_language"]))
    return page.render(
        "booking_form", status=status, booking=booking, values=values, errors=errors or {},
        message=message, props=props, locked_dates=locked, languages=languages,
        title=page._("Edit the booking") if booking else page._("New booking"),
        action=f"{PREFIX}/bookings/{booking.id}/edit" if booking else f"{PREFIX}/bookings",
        payment_methods=[(m, page._("payment:" + m)) for m in bookings.PAYMENT_METHODS],
        sources=[(s_, page._("source:" + s_)) for s_ in bookings.SOURCES
                 if s_ != "direct"] + [("direct", page._("source:direct"))])


def _booking(page, booking, status=200, errors=None, amount_kept="", message=None):
    """A booking's page: the stay, the guests as check-in recorded them (document numbers
    masked), the check-in link, the police status, cancelling."""
    from rentalcomply.checkin import service as checkin
    party = checkin.guests_view(page.account_id, booking.id)
    link = None
    if booking.status != "cancelled" and booking.checkin_status not in ("COMPLETED", "EXPIRED") \
            and clock.utcnow() < checkin.expires_at(booking):
        link = checkin.link(page.public_url, booking.id)
    from rentalcomply.police import service as police
    return page.render("booking", status=status, title=booking.guest_name, booking=booking,
                       note=service.booking_note(page.account_id, booking.id),
                       view=bookings.booking_view(booking), errors=errors or {},
                       amount_kept=amount_kept, party=party, checkin_link=link, message=message,
                       police=police.police_view(page.account_id, booking.id))


def _euros(text: str):
    """A form's amount in euros as the API would receive it: a number, or the text itself so
    that the domain's validation names what is wrong with it."""
    try:
        return float(text)
    except ValueError:
        return text


# --- properties and their channels -------------------------------------------------------------------

PROPERTY_FIELDS = ("name", "address", "aade_property_id", "country", "timezone", "max_guests",
                   "climate_fee_category", "police_connector", "status")


def _property_values(page) -> dict:
    values = {name: page.form(name).strip() for name in PROPERTY_FIELDS}
    for name in ("aade_property_id", "max_guests"):
        if values[name] == "":
            values[name] = None
    if values["max_guests"] is not None and values["max_guests"].isdigit():
        values["max_guests"] = int(values["max_guests"])
    return values


def _property_choices() -> dict:
    return {"categories": properties.CLIMATE_FEE_CATEGORIES,
            "connectors": properties.POLICE_CONNECTORS,
            "statuses": properties.PROPERTY_STATUSES, "providers": properties.PROVIDERS}


def _property_pages(pages: Pages) -> None:
    @pages.get("/properties")
    def property_list(page):
        props = properties.list_properties(page.account_id)
        return page.render("properties", title=page._("Properties"), props=props,
                           channels=properties.channels_of([p.id for p in props]))

    @pages.get("/properties/new")
    def property_new(page):
        return page.render("property_form", title=page._("New property"), prop=None,
                           values=dict(properties.DEFAULTS), errors={}, **_property_choices())

    @pages.post("/properties")
    def property_create(page):
        values = _property_values(page)
        try:
            prop = properties.create_property(page.account_id, **values)
        except ValidationError as error:
            return page.render("property_form", status=400, title=page._("New property"),
                               prop=None, values=values, errors=form_errors(error),
                               **_property_choices())
        page.record("property.create", prop.id)
        raise Redirect(page.url(f"/properties/{prop.id}", done="created"))

    def _show(page, prop, status=200, values=None, errors=None, channel_errors=None,
              channel_values=None, access_errors=None, access_values=None):
        from rentalcomply.sync import export
        return page.render(
            "property", status=status, title=prop.name, prop=prop,
            values=values or {name: getattr(prop, name) for name in PROPERTY_FIELDS},
            errors=errors or {}, channel_errors=channel_errors or {},
            access_errors=access_errors or {},
            access_values=access_values or {
                "hours_before": str(prop.access_instructions_hours_before)},
            channel_values=channel_values or {"provider": "airbnb", "ical_url": ""},
            channels=properties.channels_of([prop.id])[prop.id], done=page.arg("done"),
            mask=properties.mask_feed_url, export_url=export.export_url(prop, page.public_url),
            **_property_choices())

    @pages.get("/properties/<property_id>")
    def property_page(page, property_id):
        return _show(page, properties.get_property(page.account_id, property_id))

    @pages.post("/properties/<property_id>")
    def property_update(page, property_id):
        values = _property_values(page)
        prop = properties.get_property(page.account_id, property_id)
        try:
            properties.update_property(page.account_id, property_id, **values)
        except ValidationError as error:
            return _show(page, prop, status=400, values=values, errors=form_errors(error))
        page.record("property.update", property_id)
        raise Redirect(page.url(f"/properties/{property_id}", done="saved"))

    @pages.post("/properties/<property_id>/access")
    def property_access(page, property_id):
        """Access instructions: write-only, like a password. An empty box keeps what is set; the
        text typed is never shown back, not even when the form is refused."""
        prop = properties.get_property(page.account_id, property_id)
        text = page.form("access_instructions").strip()
        hours = page.form("hours_before").strip()
        changes: dict = {}
        if page.form("remove") == "yes":
            changes["access_instructions"] = None
        elif text:
            changes["access_instructions"] = text
        try:
            changes["access_instructions_hours_before"] = int(hours)
        except ValueError:
            changes["access_instructions_hours_before"] = hours  # refused below, with its message
        try:
            properties.update_property(page.account_id, property_id, **changes)
        except ValidationError as error:
            found = form_errors(error)
            return _show(page, prop, status=400, access_values={"hours_before": hours},
                         access_errors={"access_instructions": found.get("access_instructions"),
                                        "hours_before": found.get(
                                            "access_instructions_hours_before")})
        page.record("property.access_instructions", property_id)  # what changed, never the text
        raise Redirect(page.url(f"/properties/{property_id}", done="access_saved"))

    @pages.post("/properties/<property_id>/channels")
    def channel_add(page, property_id):
        prop = properties.get_property(page.account_id, property_id)
        values = {"provider": page.form("provider"), "ical_url": page.form("ical_url").strip()}
        try:
            connection = properties.add_channel(
                page.account_id, property_id, provider=values["provider"],
                ical_url=values["ical_url"],
                allow_private_addresses=page.settings.sync.allow_private_addresses)
        except ValidationError as error:
            return _show(page, prop, status=400, channel_errors=form_errors(error),
                         channel_values=values)
        page.record("channel.add", connection.id)
        raise Redirect(page.url(f"/properties/{property_id}", done="channel_added"))

    @pages.post("/properties/<property_id>/ical-token")
    def export_rotate(page, property_id):
        from rentalcomply.sync import export
        prop = properties.get_property(page.account_id, property_id)
        if not _confirmed(page):
            return _confirm(
                page, title=page._("Give the calendar a new address?"), subject=prop.name,
                consequences=[page._("The current export address stops working at once."),
                              page._("Every channel that imports it (Airbnb, Booking.com, Vrbo, "
                                     "a channel manager) stops seeing this property's bookings "
                                     "until you paste the new address into it, and may let "
                                     "guests book dates that are taken.")],
                button=page._("Yes, give it a new address"),
                back=page.url(f"/properties/{property_id}"))
        export.rotate_token(page.account_id, property_id)
        page.record("property.rotate_export_url", property_id)
        raise Redirect(page.url(f"/properties/{property_id}", done="export_rotated"))

    @pages.post("/properties/<property_id>/channels/<channel_id>/accept-removals")
    def channel_accept_removals(page, property_id, channel_id):
        from rentalcomply.sync import service as sync
        from rentalcomply.sync import tasks as sync_tasks
        connection = sync.accept_removals(page.account_id, property_id, channel_id)
        page.record("channel.accept_removals", channel_id)
        page.after_commit.append(lambda: sync_tasks.sync_connection_task(connection.id))
        raise Redirect(page.url(f"/properties/{property_id}", done="removals_accepted"))

    @pages.post("/sync")
    def sync_now(page):
        """Every feed of the account, now: the API's trigger, with its once-per-5-minutes turn."""
        from rentalcomply.sync import service as sync
        from rentalcomply.sync import tasks as sync_tasks
        back = safe_next(page.form("next"))
        allowed, next_allowed_at = sync.claim_trigger(page.account_id)
        if not allowed:  # the turn is the account's, once per 5 minutes
            raise Redirect(_with_query(back, done="sync_wait"))
        page.record("sync.trigger")
        account_id, asked_at = page.account_id, clock.utcnow().isoformat()
        page.after_commit.append(lambda: sync_tasks.sync_account_task(account_id, asked_at))
        raise Redirect(_with_query(back, done="sync_queued"))

    @pages.post("/properties/<property_id>/channels/<channel_id>/delete")
    def channel_delete(page, property_id, channel_id):
        properties.remove_channel(page.account_id, property_id, channel_id)
        page.record("channel.delete", channel_id)
        raise Redirect(page.url(f"/properties/{property_id}", done="channel_deleted"))


# --- API keys ---------------------------------------------------------------------------------------

def _key_pages(pages: Pages) -> None:
    def _list(page, status=200, errors=None, values=None):
        return page.render("keys", status=status, title=page._("API keys"),
                           keys=service.list_keys(page.account_id), scopes=accounts.SCOPES,
                           grace_choices=GRACE_CHOICES, errors=errors or {},
                           values=values or {"name": "", "scopes": ["read"], "expires": ""},
                           usable=accounts.key_is_usable, done=page.arg("done"))

    @pages.get("/settings/keys", owners=True)
    def key_list(page):
        return _list(page)

    @pages.post("/settings/keys", owners=True)
    def key_create(page):
        values = {"name": page.form("name"), "scopes": page.form_list("scopes"),
                  "expires": page.form("expires_in_days").strip()}
        try:
            record, key = service.create_key(page.account_id, values["name"], values["scopes"],
                                             values["expires"])
        except ValidationError as error:
            return _list(page, status=400, errors=form_errors(error), values=values)
        page.record("api_key.create", record.id)
        return page.render("key_created", status=201, title=page._("Your new API key"),
                           record=record, key=key, replaces=None)

    @pages.post("/settings/keys/<key_id>/rotate", owners=True)
    def key_rotate(page, key_id):
        grace = page.form("grace_hours", "24")
        try:
            record, key = service.rotate_key(page.account_id, key_id,
                                             int(grace) if grace.isdigit() else -1)
        except ValidationError as error:
            return _list(page, status=400, errors=form_errors(error))
        page.record("api_key.rotate", key_id)
        return page.render("key_created", status=201, title=page._("Your new API key"),
                           record=record, key=key, replaces=key_id)

    @pages.post("/settings/keys/<key_id>/revoke", owners=True)
    def key_revoke(page, key_id):
        record = service.get_key(page.account_id, key_id)
        if not _confirmed(page):
            last = (page.fmt.datetime(record.last_used_at) if record.last_used_at
                    else page._("never"))
            return _confirm(
                page, title=page._("Revoke this API key?"),
                subject=page._("{name} ({hint}…), last used {when}",
                               name=record.name or page._("no name"), hint=record.key_hint,
                               when=last),
                consequences=[page._("Every program that uses this key is refused from its next "
                                     "request (401): a channel manager or an accounting tool "
                                     "using it stops syncing."),
                              page._("It cannot be undone: a new key would have to be made and "
                                     "given to each program.")],
                button=page._("Yes, revoke the key"), back=page.url("/settings/keys"))
        service.revoke_key(page.account_id, key_id)
        page.record("api_key.revoke", key_id)
        raise Redirect(page.url("/settings/keys", done="revoked"))


# --- webhooks ---------------------------------------------------------------------------------------

def _webhook_pages(pages: Pages) -> None:
    def _list(page, status=200, errors=None, values=None):
        return page.render("webhooks", status=status, title=page._("Webhooks"),
                           endpoints=list(webhooks.list_endpoints(page.account_id)),
                           event_types=[e for e in EVENT_TYPES if e != webhooks.TEST_EVENT],
                           errors=errors or {}, done=page.arg("done"),
                           values=values or {"url": "", "description": "", "events": ["*"]})

    @pages.get("/settings/webhooks", owners=True)
    def webhook_list(page):
        return _list(page)

    @pages.post("/settings/webhooks", owners=True)
    def webhook_create(page):
        values = {"url": page.form("url").strip(), "description": page.form("description").strip(),
                  "events": page.form_list("events")}
        try:
            if len(values["description"]) > 200:
                raise ValidationError("description", "must be at most 200 characters")
            endpoint, secret = webhooks.create_endpoint(page.account_id, values["url"],
                                                        values["events"], values["description"])
        except ValidationError as error:
            return _list(page, status=400, errors=form_errors(error), values=values)
        page.record("webhook.create", endpoint.id)
        return page.render("secret_created", status=201, title=page._("Webhook secret"),
                           endpoint=endpoint, secret=secret)

    def _webhook(page, endpoint, status=200, errors=None):
        deliveries = list(webhooks.list_deliveries(page.account_id, endpoint.id).limit(50))
        return page.render("webhook", status=status, title=endpoint.url, endpoint=endpoint,
                           deliveries=deliveries, view=webhooks.endpoint_view(endpoint),
                           errors=errors or {},
                           event_types=[e for e in EVENT_TYPES if e != webhooks.TEST_EVENT])

    @pages.get("/settings/webhooks/<webhook_id>", owners=True)
    def webhook_page(page, webhook_id):
        return _webhook(page, webhooks.get_endpoint(page.account_id, webhook_id))

    @pages.post("/settings/webhooks/<webhook_id>/events", owners=True)
    def webhook_events(page, webhook_id):
        try:
            webhooks.update_endpoint(page.account_id, webhook_id,
                                     {"events": page.form_list("events")})
        except ValidationError as error:
            endpoint = webhooks.get_endpoint(page.account_id, webhook_id)
            return _webhook(page, endpoint, status=400, errors=form_errors(error))
        page.record("webhook.update", webhook_id)
        raise Redirect(page.url(f"/settings/webhooks/{webhook_id}", done="events_saved"))

    @pages.post("/settings/webhooks/<webhook_id>/test", owners=True)
    def webhook_test(page, webhook_id):
        webhooks.send_test(page.account_id, webhook_id)
        page.record("webhook.test", webhook_id)
        raise Redirect(page.url(f"/settings/webhooks/{webhook_id}", done="test_sent"))

    @pages.post("/settings/webhooks/<webhook_id>/rotate", owners=True)
    def webhook_rotate(page, webhook_id):
        endpoint, secret = webhooks.rotate_secret(page.account_id, webhook_id)
        page.record("webhook.rotate_secret", webhook_id)
        return page.render("secret_created", status=201, title=page._("Webhook secret"),
                           endpoint=endpoint, secret=secret)

    @pages.post("/settings/webhooks/<webhook_id>/status", owners=True)
    def webhook_status(page, webhook_id):
        wanted = "active" if page.form("status") == "active" else "disabled"
        webhooks.update_endpoint(page.account_id, webhook_id, {"status": wanted})
        page.record("webhook.enable" if wanted == "active" else "webhook.disable", webhook_id)
        raise Redirect(page.url(f"/settings/webhooks/{webhook_id}", done=wanted))

    @pages.post("/settings/webhooks/<webhook_id>/delete", owners=True)
    def webhook_delete(page, webhook_id):
        endpoint = webhooks.get_endpoint(page.account_id, webhook_id)
        if not _confirmed(page):
            return _confirm(
                page, title=page._("Delete this webhook endpoint?"), subject=endpoint.url,
                consequences=[page._("The program at this address receives no more events."),
                              page._("Deliveries waiting to be made are dropped, and the "
                                     "delivery history is deleted."),
                              page._("It cannot be undone: registering it again gives a new "
                                     "secret the receiver must be told.")],
                button=page._("Yes, delete the endpoint"),
                back=page.url(f"/settings/webhooks/{webhook_id}"))
        webhooks.delete_endpoint(page.account_id, webhook_id)
        page.record("webhook.delete", webhook_id)
        raise Redirect(page.url("/settings/webhooks", done="deleted"))

    @pages.post("/settings/webhooks/<webhook_id>/deliveries/<delivery_id>/resend", owners=True)
    def delivery_resend(page, webhook_id, delivery_id):
        from rentalcomply.webhooks import tasks
        try:
            webhooks.resend_delivery(page.account_id, webhook_id, delivery_id)
        except ValidationError as error:
            raise Redirect(page.url(f"/settings/webhooks/{webhook_id}",
                                    done="resend_refused")) from error
        page.record("webhook.resend", delivery_id)
        page.after_commit.append(lambda: tasks.deliver(delivery_id))
        raise Redirect(page.url(f"/settings/webhooks/{webhook_id}", done="resent"))


# --- tax reports ------------------------------------------------------------------------------------

def _report_pages(pages: Pages) -> None:
    from rentalcomply.reports import files, generation, periods, queries, submission, views
    from rentalcomply.reports import tasks as report_tasks

    def _list(page, status=200, errors=None, period=""):
        year_text = page.arg("year")
        year = int(year_text) if year_text.isdigit() and len(year_text) == 4 else None
        rows, _ = queries.list_reports(page.account_id, year=year, page=1, limit=100)
        today_ = periods.local_today()
        last_month = (today_.replace(day=1) - dt.timedelta(days=1)).strftime("%Y-%m")
        return page.render("reports", status=status, title=page._("Tax reports"),
                           rows=[views.report_view(r) for r in rows], year=year,
                           years=range(today_.year, today_.year - 6, -1),
                           errors=errors or {}, period=period or last_month)

    @pages.get("/reports")
    def report_list(page):
        return _list(page)

    @pages.post("/reports")
    def report_generate(page):
        period = page.form("period").strip()
        try:
            year, month = periods.parse_period(period)
            report = generation.request_generation(page.account_id, year, month)
        except ValidationError as error:
            return _list(page, status=400, errors=form_errors(error), period=period)
        page.record("report.generate", report.code)
        page.after_commit.append(lambda: report_tasks.queue_generation(page.account_id, year, month))
        raise Redirect(page.url(f"/reports/{report.code}", done="generating"))

    def _attention(page, report) -> list:
        """The bookings of the period that need attention as they are now (not as when the
        report was made), each with what to fix in the page's language."""
        from rentalcomply.authorities.aade.building import build_report
        from rentalcomply.bookings.fees import FeeRates
        data = build_report(page.account_id, report.year, report.month,
                            FeeRates.from_settings(page.settings))
        return [(a, a.texts(page.lang)) for a in data.attention]

    def _report(page, report, status=200, errors=None, message=None):
        return page.render("report", status=status, title=report.code, report=report,
                           view=views.report_view(report), formats=files.FORMATS,
                           attention=_attention(page, report), errors=errors or {},
                           message=message)

    @pages.get("/reports/<code>")
    def report_page(page, code):
        report = queries.get_report(page.account_id, code)
        if page.arg("done") == "generating" and report.status not in ("pending", "generating"):
            # Made since: the page says what is true now, and the address forgets the message.
            raise Redirect(page.url(f"/reports/{code}"))
        return _report(page, report)

    @pages.get("/reports/<code>/download/<fmt>")
    def report_download(page, code, fmt):
        if fmt not in files.FORMATS:
            raise NotFound()
        link = files.download_link(page.settings, page.account_id, code, fmt)
        # The signed link, as a path on this server: the browser is already talking to it,
        # whatever server.public_url says.
        parts = urllib.parse.urlsplit(link["download_url"])
        raise Redirect(parts.path + "?" + parts.query)

    @pages.post("/reports/<code>/submission")
    def report_submit(page, code):
        report = queries.get_report(page.account_id, code)
        attention = _attention(page, report)
        if attention and page.form("anyway") != "yes":
            return _report(page, report, status=409, message=page._(
                "{n} of the period's bookings need attention: correct them first, or tick "
                "“file anyway”.", n=len(attention)))
        try:
            submission.record_submission(page.account_id, code, page.form("reference"))
        except ValidationError as error:
            return _report(page, report, status=400, errors=form_errors(error))
        page.record("report.submitted", code)
        raise Redirect(page.url(f"/reports/{code}", done="submitted"))


# --- the account: its time zone and its people ------------------------------------------------------

def _account_pages(pages: Pages) -> None:
    import zoneinfo

    def _show(page, status=200, errors=None, values=None, invite_errors=None, invite=None):
        return page.render("account", status=status, title=page._("Account"),
                           timezone=(values or {}).get("timezone", page.timezone),
                           zones=sorted(zoneinfo.available_timezones()),
                           people=users.list_users(page.account_id), errors=errors or {},
                           invite_errors=invite_errors or {},
                           invite=invite or {"email": "", "role": "member"},
                           now=clock.utcnow(),
                           morning_email=service.morning_email_on(page.account_id),
                           morning_hour=page.settings.dashboard.morning_email_hour,
                           morning_server_on=page.settings.dashboard.morning_email)

    @pages.get("/settings/account", owners=True)
    def account_page(page):
        return _show(page)

    @pages.post("/settings/account/timezone", owners=True)
    def account_timezone(page):
        try:
            service.set_account_timezone(page.account_id, page.form("timezone"))
        except ValidationError as error:
            return _show(page, status=400, errors=form_errors(error),
                         values={"timezone": page.form("timezone")})
        page.record("account.timezone")
        raise Redirect(page.url("/settings/account", done="timezone_saved"))

    @pages.post("/settings/account/morning-email", owners=True)
    def account_morning_email(page):
        on = page.form("morning_email") == "on"
        service.set_morning_email(page.account_id, on)
        page.record("account.morning_email_on" if on else "account.morning_email_off")
        raise Redirect(page.url("/settings/account",
                                done="morning_email_on" if on else "morning_email_off"))

    def _mail_link(page, user, token, kind):
        from rentalcomply.dashboard import tasks as dashboard_tasks
        values = {"account": Account.get_by_id(page.account_id).name,
                  "inviter": page.user.email or ""} if kind == "invite" else {}
        lang = page.lang
        page.after_commit.append(lambda: dashboard_tasks.queue_link_mail(
            user.id, token, kind, lang, **values))

    @pages.post("/settings/account/people", owners=True)
    def person_invite(page):
        queue.must_answer()  # the link travels only in its e-mail's task
        invite = {"email": page.form("email").strip(), "role": page.form("role", "member")}
        try:
            user, token = users.invite(page.account_id, invite["email"], invite["role"])
        except ValidationError as error:
            return _show(page, status=400, invite_errors=form_errors(error), invite=invite)
        page.record("user.invite", user.id)
        users.remember_language(user.id, page.lang)  # the invitation's, until they choose
        _mail_link(page, user, token, "invite")
        raise Redirect(page.url("/settings/account", done="invited_colleague"))

    @pages.post("/settings/account/people/<user_id>/role", owners=True)
    def person_role(page, user_id):
        try:
            users.change_role(page.account_id, user_id, page.form("role"))
        except ValidationError as error:
            return _show(page, status=400,
                         invite_errors={"role_change": form_errors(error).get("role", "")})
        page.record("user.role", user_id)
        raise Redirect(page.url("/settings/account", done="role_changed"))

    @pages.post("/settings/account/people/<user_id>/status", owners=True)
    def person_status(page, user_id):
        active = page.form("status") == "active"
        if user_id == page.user.id:
            raise NotFound()  # one does not disable oneself from the page
        try:
            users.set_status(page.account_id, user_id, active)
        except ValidationError as error:
            return _show(page, status=400, invite_errors=form_errors(error))
        page.record("user.enable" if active else "user.disable", user_id)
        raise Redirect(page.url("/settings/account",
                                done="user_enabled" if active else "user_disabled"))

    @pages.post("/settings/account/people/<user_id>/link", owners=True)
    def person_link(page, user_id):
        queue.must_answer()  # the link travels only in its e-mail's task
        user = users.account_user(page.account_id, user_id)
        if user.status != "active" or not user.email:
            raise NotFound()
        token = users.issue_link(user)
        page.record("user.password_link", user_id)
        _mail_link(page, user, token, "reset")
        raise Redirect(page.url("/settings/account", done="link_sent"))
