"""The bookings' pages: the list, the new and edit forms, a booking's page, the check-in link
e-mailed again, cancelling."""

from __future__ import annotations

import re
from urllib.parse import quote

from rentalcomply.bookings import service as bookings
from rentalcomply.checkin import access
from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import ApiError, NotFound, ValidationError
from rentalcomply.dashboard import mailviews, police_words, problems, service
from rentalcomply.dashboard.pages.checkin_links import booking_link_block
from rentalcomply.dashboard.pages.shared import confirm, confirmed, date_filters, page_number
from rentalcomply.dashboard.web import PREFIX, Pages, Redirect, form_errors
from rentalcomply.dashboard.pages import scanning
from rentalcomply.properties import service as properties
from rentalcomply.filings import host as police
from rentalcomply.filings import standing

PAGE_SIZE = 25
BOOKING_STATUSES = ("confirmed", "cancelled")
CHECKIN_STATUSES = ("NOT_STARTED", "INVITED", "IN_PROGRESS", "COMPLETED", "EXPIRED")


def register(pages: Pages) -> None:
    @pages.get("/bookings")
    def booking_list(page):
        filters = {name: page.arg(name) for name in
                   ("property", "status", "checkin", "from", "to", "guest")}
        dates, errors = date_filters(filters)
        number = page_number(page)
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
                           police_statuses=standing.shown_statuses(rows),
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
                with atomic():  # a savepoint: a refusal caught below keeps nothing of it
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
                                     message=problems.booking_conflict(error, page._, page.fmt))
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
                                 message=problems.booking_conflict(error, page._, page.fmt))
        page.record("booking.update", booking_id)
        raise Redirect(page.url(f"/bookings/{booking_id}", done="saved"))

    @pages.get("/bookings/<booking_id>")
    def booking_page(page, booking_id):
        return render_booking(page, bookings.get_booking(page.account_id, booking_id))

    # Its own transactions: the e-mail is sent within the request (see booking_create).
    @pages.post("/bookings/<booking_id>/checkin/resend", transaction=False)
    def checkin_resend(page, booking_id):
        from rentalcomply.checkin import service as checkin
        # A choice, never an address: the address stays server-side (sealed in the party).
        to = checkin.TYPED_ADDRESS if page.form("to") == checkin.TYPED_ADDRESS else None
        try:
            checkin.resend(page.account_id, booking_id, page.public_url, to=to)
        except NotFound:
            raise
        except ApiError as error:  # no e-mail address, completed, cancelled, over, too often,
            # or the mail server did not take the e-mail
            return render_booking(page, bookings.get_booking(page.account_id, booking_id),
                                  status=error.status,
                                  message=problems.resend_problem(error, page._))
        with atomic():
            page.record("checkin.resend", booking_id)
        raise Redirect(page.url(f"/bookings/{booking_id}", done="invited"))

    @pages.post("/bookings/<booking_id>/cancel")
    def booking_cancel(page, booking_id):
        kept = page.form("amount_kept").strip().replace(",", ".")
        booking = bookings.get_booking(page.account_id, booking_id)
        was_cancelled = booking.status == "cancelled"
        # An amount that is not a number is refused by the domain below, before any confirmation.
        if not was_cancelled and not confirmed(page) and not isinstance(_euros(kept or "0"), str):
            return confirm(
                page, title=page._("Cancel this booking?"),
                subject=page._("{guest}, {property}, {arrival} to {departure}",
                               guest=booking.guest_name, property=booking.property.name,
                               arrival=page.fmt.date(booking.arrival_date),
                               departure=page.fmt.date(booking.departure_date)),
                consequences=[page._("The stay leaves the calendar and the property's exported "
                                     "feed: the dates become free for other bookings."),
                              page._("The guest's check-in link stops working."),
                              page._("Programs listening to webhooks are told booking.cancelled."),
                              *[page._(said) for said in
                                police_words.cancellation_words(booking.property)],
                              page._("It cannot be undone: a new booking would be needed.")],
                button=page._("Yes, cancel the booking"),
                back=page.url(f"/bookings/{booking_id}"), hidden={"amount_kept": kept})
        try:
            bookings.cancel_booking(page.account_id, booking_id,
                                    amount_kept=_euros(kept) if kept else None)
        except ValidationError as error:
            return render_booking(page, bookings.get_booking(page.account_id, booking_id),
                                  status=400, errors=form_errors(error), amount_kept=kept)
        page.record("booking.amount_kept" if was_cancelled else "booking.cancel", booking_id)
        raise Redirect(page.url(f"/bookings/{booking_id}",
                                done="amount_kept" if was_cancelled else "cancelled"))


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


def render_booking(page, booking, status=200, errors=None, amount_kept="", message=None):
    """A booking's page: the stay, the guests as check-in recorded them (document numbers
    masked), the check-in link, the police status, cancelling."""
    from rentalcomply.checkin import service as checkin
    party = checkin.guests_view(page.account_id, booking.id)
    for guest in party["guests"]:  # the contact each guest typed, as links (_guest_contact.tpl)
        guest.update(contact_links(guest.get("email"), guest.get("phone")))
    link = None
    if booking.status != "cancelled" and booking.checkin_status not in ("COMPLETED", "EXPIRED") \
            and clock.utcnow() < checkin.expires_at(booking):
        link = booking_link_block(page, booking)
    return page.render("booking", status=status, title=booking.guest_name, booking=booking,
                       note=service.booking_note(page.account_id, booking.id),
                       view=bookings.booking_view(booking), errors=errors or {},
                       amount_kept=amount_kept, party=party, checkin_link=link, message=message,
                       typed_email=_other_typed_email(booking, party),
                       police=police.police_view(page.account_id, booking.id),
                       police_status=standing.shown_status(booking),
                       unfiled=standing.of_booking(booking),
                       cancellation=police_words.cancellation_words(booking.property),
                       amount_hint=police_words.amount_hint(booking.property),
                       guest_mail=mailviews.guest_mail(page.settings, booking),
                       access_mail=access.delivery_problem(booking),
                       advice=mailviews.ADVICE,
                       **scanning.booking_values(booking.id))  # _document_flags.tpl


def contact_links(email: str | None, phone: str | None) -> dict:
    """`mailto` and `tel` addresses of a typed contact: the e-mail quoted (a `?` or `#` in its
    local part would start a header or a fragment), the phone its digits and leading `+`."""
    digits = re.sub(r"[^0-9]", "", phone or "")
    plus = "+" if (phone or "").strip().startswith("+") else ""
    return {"mailto": "mailto:" + quote(email, safe="@+.-_") if email else None,
            "tel": "tel:" + plus + digits if digits else None}


def _other_typed_email(booking, party: dict) -> str | None:
    """The e-mail the lead guest typed when it is not the booking's own (the resend offers it);
    when the booking has none, the resend uses it anyway (checkin.recipient)."""
    lead = party["guests"][0] if party["guests"] else {}
    typed = lead.get("email")
    if typed and booking.guest_email and typed.lower() != booking.guest_email.lower():
        return typed
    return None


def _euros(text: str):
    """A form's amount in euros as the API would receive it: a number, or the text itself so
    that the domain's validation names what is wrong with it."""
    try:
        return float(text)
    except ValueError:
        return text
