"""`rentalcomply bookings tax-collected ...` and `rentalcomply taxes rules`: mark a stay's
tourist tax collected, list the rule sets an account sees (taxes.service)."""

from __future__ import annotations

import click

from rentalcomply.bookings import service as bookings_service
from rentalcomply.bookings.cli import bookings
from rentalcomply.cli import _domain_call, _emit_json, _table, pass_state, resolve_account
from rentalcomply.taxes import service
from rentalcomply.taxes.service import COLLECTION_METHODS


def register(main: click.Group) -> None:
    bookings.add_command(tax_collected)
    main.add_command(taxes)


@click.command("tax-collected")
@click.argument("booking_id")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id (or its name, when unique).")
@click.option("--method", required=True, type=click.Choice(COLLECTION_METHODS),
              help="How the guest paid the tourist tax.")
@click.option("--json", "as_json", is_flag=True, help="Print the stay's tourist tax as JSON.")
@pass_state
def tax_collected(state, booking_id, account_ref, method, as_json) -> None:
    """Mark a stay's tourist tax collected: its amount is kept as it is from now on."""
    state.open()
    account = resolve_account(account_ref)
    booking = _domain_call(bookings_service.get_booking, account.id, booking_id)
    tax = _domain_call(service.mark_collected, account.id, booking, method)
    if as_json:
        _emit_json(tax)
    else:
        click.echo(f"Tourist tax of {booking.id} collected ({method}): {tax['amount']:.2f} "
                   f"{tax['currency']}.")


@click.group()
def taxes() -> None:
    """Tourist taxes: the rule sets."""


@taxes.command("rules")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id (or its name, when unique).")
@click.option("--json", "as_json", is_flag=True, help='Print {"data": [...]}.')
@pass_state
def taxes_rules(state, account_ref, as_json) -> None:
    """List the tax rule sets the account sees: the shipped ones, then its own."""
    state.open()
    account = resolve_account(account_ref)
    sets = service.list_rule_sets(account.id)
    if as_json:
        _emit_json({"data": sets})
        return
    _table([(s["id"], s["version"], "shipped" if s["shipped"] else "own", s["authority"],
             s["basis"], s["rates"][-1]["amount"], s["rates"][-1]["from"]) for s in sets],
           ["ID", "VERSION", "KIND", "AUTHORITY", "BASIS", "LATEST RATE", "FROM"])
