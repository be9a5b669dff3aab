"""`rentalcomply properties update`: change a property's fields (the API's PATCH)."""

from __future__ import annotations

import click

from rentalcomply.cli import _domain_call, _emit_json, pass_state, resolve_account

UNSET = object()


def register(main: click.Group) -> None:
    main.commands["properties"].add_command(properties_update)
    main.commands["properties"].add_command(properties_closed_days)


@click.command("update")
@click.argument("property_id")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id (or its name, when unique).")
@click.option("--name", default=None, help="The property's name, as the host calls it.")
@click.option("--address", default=None, help="Street address.")
@click.option("--aade-property-id", default=None, metavar="X",
              help='The AADE registry number (AMA); "" clears it.')
@click.option("--country", default=None, metavar="CC", help="ISO 3166-1 alpha-2 country code.")
@click.option("--timezone", default=None, metavar="ZONE", help="IANA time zone name.")
@click.option("--max-guests", default=None, metavar="N", help='A number; "" clears it.')
@click.option("--climate-fee-category", default=None, help="The AADE climate fee category.")
@click.option("--police-connector", default=None, help="How stays are filed with the police.")
@click.option("--cin", default=None, metavar="CODE",
              help='Italian properties: the CIN, kept as typed; "" clears it.')
@click.option("--region", default=None, metavar="CODE",
              help='Italian and Spanish properties: the ISO 3166-2 region (IT-25, ES-CT), kept '
                   'when the address changes; "" goes back to what the address says.')
@click.option("--rooms", default=None, metavar="N",
              help='Rooms let, for the tourism statistics (0-999); "" clears them.')
@click.option("--beds", default=None, metavar="N",
              help='Beds let, for the tourism statistics (0-999); "" clears them.')
@click.option("--licence-number", default=None, metavar="CODE",
              help='Spanish properties: the regional tourism licence, kept as typed; "" clears it.')
@click.option("--nrua", default=None, metavar="CODE",
              help='Spanish properties: an NRUA already held (legacy), kept as typed; "" clears it.')
@click.option("--status", type=click.Choice(["active", "inactive"]), default=None,
              help="An inactive property takes no new bookings.")
@click.option("--json", "as_json", is_flag=True, help="Print the property as one JSON object.")
@pass_state
def properties_update(state, property_id, account_ref, as_json, **given) -> None:
    """Change the given fields of a property; the others stay as they are."""
    from rentalcomply.core import events
    from rentalcomply.properties import service
    from rentalcomply.views import properties as composed
    state.open()
    account = resolve_account(account_ref)
    changes = {name: value for name, value in given.items() if value is not None}
    if not changes:
        raise click.UsageError("give at least one field to change")
    for name in ("aade_property_id", "max_guests", "region", "rooms", "beds"):
        if changes.get(name) == "":
            changes[name] = None
    for name in ("max_guests", "rooms", "beds"):
        if isinstance(changes.get(name), str) and changes[name].isdigit():
            changes[name] = int(changes[name])
    if isinstance(changes.get("region"), str):
        changes["region"] = changes["region"].upper()
    if "country" in changes:
        changes["country"] = changes["country"].upper()
    prop = _domain_call(service.update_property, account.id, property_id, **changes)
    events.notify_committed()
    if as_json:
        _emit_json({**composed.property_view(prop), "account_id": account.id})
    else:
        click.echo(f'Updated property "{prop.name}": {prop.id}')


@click.command("closed-days")
@click.argument("property_id")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id (or its name, when unique).")
@click.option("--close", "to_close", multiple=True, metavar="RANGE",
              help="Close a day YYYY-MM-DD or a range YYYY-MM-DD/YYYY-MM-DD (both included); "
                   "repeat for more.")
@click.option("--open", "to_open", multiple=True, metavar="RANGE",
              help="Reopen a day or a range; repeat for more.")
@click.option("--from", "first", default=None, metavar="DATE",
              help="List from this day (default: the current month's first).")
@click.option("--to", "last", default=None, metavar="DATE",
              help="List to this day, included (default: a year after --from).")
@click.option("--json", "as_json", is_flag=True, help="Print the closed ranges as JSON.")
@pass_state
def properties_closed_days(state, property_id, account_ref, to_close, to_open, first, last,
                           as_json) -> None:
    """List a property's closed days, or close and reopen some (the API's closed-days). A day on
    which a booking has a night is not closed: the bookings are named."""
    import datetime as dt

    from rentalcomply.properties import closed_days, service
    state.open()
    account = resolve_account(account_ref)
    prop = _domain_call(service.get_property, account.id, property_id)
    if to_close or to_open:
        _domain_call(closed_days.change, prop, list(to_close), list(to_open))
    try:
        start = dt.date.fromisoformat(first) if first else closed_days.default_window()[0]
        end = dt.date.fromisoformat(last) if last else start + dt.timedelta(days=365)
    except ValueError:
        raise click.UsageError("--from and --to take a day YYYY-MM-DD") from None
    ranges = _domain_call(closed_days.closed_ranges, prop, start, end)
    if as_json:
        _emit_json({"from": start.isoformat(), "to": end.isoformat(),
                    "data": [span.view() for span in ranges]})
        return
    if not ranges:
        click.echo(f"No closed days from {start.isoformat()} to {end.isoformat()}.")
    for span in ranges:
        click.echo(f"closed {span.text()} ({span.days} day{'s' if span.days != 1 else ''})")
