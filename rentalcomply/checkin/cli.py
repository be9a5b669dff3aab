"""`rentalcomply checkin ...`: the check-in link from the command line, e-mailed to the guest
when the booking has an address (what POST /checkins/resend does), and marked as shared."""

from __future__ import annotations

import sys

import click

from rentalcomply.bookings import service as bookings
from rentalcomply.checkin import booking_links, service
from rentalcomply.cli import State, _api_error_text, _domain_call, _emit_json, pass_state, \
    resolve_account
from rentalcomply.core import clock, events
from rentalcomply.core.errors import ApiError, GuestEmailRejected, MailNotSent


def register(main: click.Group) -> None:
    main.add_command(checkin)


@click.group()
def checkin() -> None:
    """Guest check-in links."""


@checkin.command("invite")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id (or its name, when unique).")
@click.argument("booking_id")
@click.option("--json", "as_json", is_flag=True, help="Print the link and the e-mail's outcome "
                                                      "as one JSON object.")
@pass_state
def checkin_invite(state: State, account_ref: str, booking_id: str, as_json: bool) -> None:
    """Print the check-in link of BOOKING_ID and e-mail it to the guest now.

    The link works whether or not the e-mail goes: without a guest e-mail address nothing is
    sent and the link is printed to share (then `checkin shared`). Exits 1 when the mail server
    did not take the e-mail (the link is printed all the same)."""
    settings = state.open()
    account = resolve_account(account_ref)
    booking = _domain_call(bookings.get_booking, account.id, booking_id)
    booking_links.ensure_links([booking.id])
    url = booking_links.checkin_url(settings.server.public_url, booking)
    outcome = {"booking_id": booking.id, "checkin_url": url,
               "expires_at": clock.iso(service.expires_at(booking))}
    address = service.recipient(booking)  # the booking's, else the one the guest typed
    if url is None or not address:
        outcome.update(checkin_status=booking.checkin_status, email="none", sent_to=None)
        _say(outcome, as_json, "No guest e-mail address on this booking: nothing was sent. Share "
                               "the link yourself, then mark it shared with `rentalcomply checkin "
                               "shared`." if url else "The booking is cancelled: no check-in.")
        return
    try:
        invitation = service.resend(account.id, booking.id, settings.server.public_url)
    except (MailNotSent, GuestEmailRejected) as failure:
        outcome.update(checkin_status=bookings.get_booking(account.id, booking.id).checkin_status,
                       email="not_sent", sent_to=service.mask_email(address),
                       email_error=_api_error_text(failure))
        _say(outcome, as_json, f"E-mail NOT sent to {outcome['sent_to']}: "
                               f"{outcome['email_error']}")
        sys.exit(1)
    except ApiError as refusal:  # cancelled, completed, over, the hourly limit
        raise click.ClickException(_api_error_text(refusal)) from None
    events.notify_committed()  # queues the webhook deliveries
    outcome.update(checkin_status=invitation["checkin_status"], email="sent",
                   sent_to=invitation["sent_to"])
    _say(outcome, as_json, f"E-mail sent to {invitation['sent_to']}.")


@checkin.command("shared")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id (or its name, when unique).")
@click.argument("booking_id")
@pass_state
def checkin_shared(state: State, account_ref: str, booking_id: str) -> None:
    """Mark the check-in link of BOOKING_ID as sent to the guest by other means (WhatsApp, SMS,
    the channel's messages): the booking turns INVITED and `checkin.invited` fires, once."""
    state.open()
    account = resolve_account(account_ref)
    booking = _domain_call(service.mark_link_shared, account.id, booking_id)
    events.notify_committed()
    click.echo(f"{booking.id}: check-in {booking.checkin_status}")


def _say(outcome: dict, as_json: bool, words: str) -> None:
    if as_json:
        _emit_json(outcome)
        return
    click.echo(f"Check-in link for {outcome['booking_id']}: {outcome['checkin_url']} "
               f"(valid until {outcome['expires_at']})")
    click.echo(words, err=outcome.get("email") == "not_sent")


@checkin.command("reminders")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id (or its name, when unique).")
@click.option("--days", default=None, metavar="DAYS",
              help='The new schedule: days before arrival, like "7,2,0" (0: the morning of '
                   'arrival); "" for no reminders. Without it, the schedule is printed.')
@pass_state
def checkin_reminders(state: State, account_ref: str, days: str | None) -> None:
    """Show or set the account's check-in reminder schedule (as the dashboard's E-mail page)."""
    from rentalcomply.checkin import reminders
    settings = state.open()
    account = resolve_account(account_ref)
    if days is not None:
        _domain_call(reminders.set_schedule, account.id, days)
    chosen = reminders.schedule(settings, account.id)
    click.echo("Reminders: " + (", ".join(str(d) for d in chosen) + " days before arrival"
                                if chosen else "none"))
