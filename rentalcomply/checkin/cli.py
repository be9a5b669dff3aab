"""`rentalcomply checkin ...`: invitations from the command line (what POST /checkins/resend does)."""

from __future__ import annotations

import click

from rentalcomply.cli import State, _domain_call, _emit_json, pass_state, resolve_account


def register(main: click.Group) -> None:
    main.add_command(checkin)


@click.group()
def checkin() -> None:
    """Guest check-in links."""


@checkin.command("invite")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id (or its name, when unique).")
@click.argument("booking_id")
@click.option("--json", "as_json", is_flag=True, help="Print the invitation as one JSON object.")
@pass_state
def checkin_invite(state: State, account_ref: str, booking_id: str, as_json: bool) -> None:
    """E-mail the guest of BOOKING_ID the check-in link now and print it."""
    from rentalcomply.checkin import service
    from rentalcomply.core import events
    settings = state.open()
    account = resolve_account(account_ref)
    invitation = _domain_call(service.resend, account.id, booking_id, settings.server.public_url)
    events.notify_committed()  # queues the webhook deliveries
    if as_json:
        _emit_json(invitation)
    else:
        click.echo(f"Check-in link for {booking_id} sent to {invitation['sent_to']}: "
                   f"{invitation['checkin_url']} (valid until {invitation['expires_at']})")


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
