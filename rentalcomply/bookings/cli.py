"""`rentalcomply bookings ...`: list and cancel an account's bookings (bookings.service)."""

from __future__ import annotations

import datetime as dt

import click

from rentalcomply.cli import _domain_call, _emit_json, _table, pass_state, resolve_account


def register(main: click.Group) -> None:
    main.add_command(bookings)


@click.group()
def bookings() -> None:
    """Bookings: list them, cancel one."""


def _date(ctx, param, value):
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise click.BadParameter("must be a date like 2027-06-01") from None


@bookings.command("list")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id (or its name, when unique).")
@click.option("--property", "property_id", default=None, metavar="PROP", help="Only this property.")
@click.option("--status", type=click.Choice(["confirmed", "cancelled"]), default=None,
              help="Only bookings with this status.")
@click.option("--from", "date_from", default=None, metavar="DATE", callback=_date,
              help="Stays departing after this date.")
@click.option("--to", "date_to", default=None, metavar="DATE", callback=_date,
              help="Stays arriving before this date.")
@click.option("--limit", default=100, show_default=True, type=click.IntRange(1, 10000),
              help="At most this many, by arrival date.")
@click.option("--json", "as_json", is_flag=True, help='Print {"data": [...]}.')
@pass_state
def bookings_list(state, account_ref, property_id, status, date_from, date_to, limit,
                  as_json) -> None:
    """List bookings, by arrival date (the API's filters)."""
    from rentalcomply.bookings import service
    state.open()
    account = resolve_account(account_ref)
    query = _domain_call(service.list_bookings, account.id, property_id=property_id,
                         status=status, date_from=date_from, date_to=date_to)
    views = [service.booking_view(b) for b in query.limit(limit)]
    if as_json:
        _emit_json({"data": views})
        return
    _table([(v["id"], v["property_id"], v["guest_name"], v["arrival_date"], v["departure_date"],
             v["guest_count"], v["channel"], v["status"], v["checkin_status"])
            for v in views],
           ["ID", "PROPERTY", "GUEST", "ARRIVAL", "DEPARTURE", "GUESTS", "CHANNEL", "STATUS",
            "CHECK-IN"])


@bookings.command("cancel")
@click.argument("booking_id")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id (or its name, when unique).")
@click.option("--amount-kept", default=None, metavar="EUR",
              help="What the guest still pays, declared to AADE in the month of the cancellation.")
@click.option("--yes", is_flag=True, help="Do not ask before cancelling.")
@click.option("--json", "as_json", is_flag=True, help="Print the booking as one JSON object.")
@pass_state
def bookings_cancel(state, booking_id, account_ref, amount_kept, yes, as_json) -> None:
    """Cancel a booking: its dates become free, its check-in link stops, webhooks announce
    booking.cancelled. Asks first unless --yes."""
    from rentalcomply.bookings import service
    from rentalcomply.core import events
    state.open()
    account = resolve_account(account_ref)
    booking = _domain_call(service.get_booking, account.id, booking_id)
    if booking.status != "cancelled" and not yes:
        click.confirm(f"Cancel {booking.guest_name}'s stay {booking.arrival_date} to "
                      f"{booking.departure_date}? Its dates become free and its check-in link "
                      "stops working", abort=True)
    kept = None
    if amount_kept is not None:
        try:
            kept = float(amount_kept.replace(",", "."))
        except ValueError:
            kept = amount_kept  # the domain names what is wrong with it
    booking = _domain_call(service.cancel_booking, account.id, booking_id, amount_kept=kept)
    events.notify_committed()
    if as_json:
        _emit_json(service.booking_view(booking))
    else:
        click.echo(f"Booking {booking.id} is cancelled.")
