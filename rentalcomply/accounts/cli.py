"""`rentalcomply accounts rename`: change an account's name (the Account page's form)."""

from __future__ import annotations

import click

from rentalcomply.cli import _domain_call, _emit_json, pass_state, resolve_account


def register(main: click.Group) -> None:
    main.commands["accounts"].add_command(accounts_rename)


@click.command("rename")
@click.argument("account_ref", metavar="ACC")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print the account as one JSON object.")
@pass_state
def accounts_rename(state, account_ref: str, name: str, as_json: bool) -> None:
    """Call the account ACC (its id, or its name when unique) NAME from now on, in e-mails too."""
    from rentalcomply.accounts import service
    state.open()
    account = _domain_call(service.rename_account, resolve_account(account_ref).id, name)
    if as_json:
        _emit_json(service.account_view(account))
    else:
        click.echo(f'Account {account.id} is now named "{account.name}"')
