"""`rentalcomply properties update`: change a property's fields (the API's PATCH)."""

from __future__ import annotations

import click

from rentalcomply.cli import _domain_call, _emit_json, pass_state, resolve_account

UNSET = object()


def register(main: click.Group) -> None:
    main.commands["properties"].add_command(properties_update)


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
    for name in ("aade_property_id", "max_guests"):
        if changes.get(name) == "":
            changes[name] = None
    if isinstance(changes.get("max_guests"), str):
        changes["max_guests"] = int(changes["max_guests"]) if changes["max_guests"].isdigit() \
            else changes["max_guests"]
    if "country" in changes:
        changes["country"] = changes["country"].upper()
    prop = _domain_call(service.update_property, account.id, property_id, **changes)
    events.notify_committed()
    if as_json:
        _emit_json({**composed.property_view(prop), "account_id": account.id})
    else:
        click.echo(f'Updated property "{prop.name}": {prop.id}')
