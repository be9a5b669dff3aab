"""`rentalcomply users ...`: the dashboard's users, created by the server's administrator."""

from __future__ import annotations

import click

from rentalcomply.cli import State, _domain_call, _emit_json, _table, pass_state, resolve_account
from rentalcomply.dashboard.models import ROLES


def _open(state: State):
    from rentalcomply.dashboard import users
    settings = state.open()
    users.configure(settings)
    return settings


def _print_link(settings, user, token: str) -> None:
    from rentalcomply.dashboard import users
    click.echo(f"Dashboard user {user.id} ({user.email or 'e-mail address chosen on the page'}, "
               f"{user.role}) of account {user.account_id}. To set the password, open within "
               f"{hours_text(settings.dashboard.password_link_hours)}:")
    click.echo(f"\n    {users.link_url(settings.server.public_url, token)}\n")
    click.echo("The link works once.")


def hours_text(hours: int) -> str:
    return "1 hour" if hours == 1 else f"{hours} hours"


def register(main: click.Group) -> None:
    @main.group()
    def users() -> None:
        """Dashboard users: create (printing a one-time link to set the password), list,
        disable, link."""

    @users.command("create")
    @click.option("--account", "account_ref", required=True, metavar="ACC",
                  help="Account id (or its name, when unique).")
    @click.option("--email", required=True, metavar="E", help="The user's e-mail address: the "
                  "name they sign in with.")
    @click.option("--role", type=click.Choice(ROLES), default="owner", show_default=True,
                  help="owner: everything, people and keys included; member: the day-to-day "
                       "work.")
    @click.option("--json", "as_json", is_flag=True,
                  help="Print one JSON object: the user and its `password_link`.")
    @pass_state
    def users_create(state: State, account_ref: str, email: str, role: str,
                     as_json: bool) -> None:
        """Create a dashboard user; prints a one-time link where the user sets a password."""
        from rentalcomply.dashboard import users as service
        settings = _open(state)
        account = resolve_account(account_ref)
        user, token = _domain_call(service.create_user, account.id, email, role=role)
        if as_json:
            _emit_json({**service.user_view(user),
                        "password_link": service.link_url(settings.server.public_url, token)})
        else:
            _print_link(settings, user, token)

    @users.command("link")
    @click.argument("user_id")
    @pass_state
    def users_link(state: State, user_id: str) -> None:
        """A new one-time link for a user who forgot the password (earlier links stop working)."""
        from rentalcomply.dashboard import users as service
        settings = _open(state)
        user, token = _domain_call(service.new_link_for, user_id)
        if user.status != "active":
            raise click.ClickException(f"user {user.id} is disabled")
        _print_link(settings, user, token)

    @users.command("list")
    @click.option("--account", "account_ref", default=None, metavar="ACC",
                  help="Only this account's users.")
    @click.option("--json", "as_json", is_flag=True, help='Print {"data": [...]}.')
    @pass_state
    def users_list(state: State, account_ref: str | None, as_json: bool) -> None:
        """List dashboard users."""
        from rentalcomply.dashboard import users as service
        _open(state)
        account_id = resolve_account(account_ref).id if account_ref else None
        views = [service.user_view(u) for u in service.list_users(account_id)]
        if as_json:
            _emit_json({"data": views})
        else:
            _table([(v["id"], v["account_id"], v["email"] or "(not chosen yet)", v["role"],
                     v["status"], "yes" if v["password_set"] else "no",
                     v["last_sign_in_at"] or "never")
                    for v in views],
                   ["ID", "ACCOUNT", "EMAIL", "ROLE", "STATUS", "PASSWORD", "LAST SIGN-IN"])

    @users.command("disable")
    @click.argument("user_id")
    @pass_state
    def users_disable(state: State, user_id: str) -> None:
        """Disable a user: sign-in refused, open sessions ended at once."""
        from rentalcomply.dashboard import users as service
        _open(state)
        user = _domain_call(service.disable_user, user_id)
        click.echo(f"Disabled dashboard user {user.id} ({user.email}); their sessions are ended.")

    @users.command("enable")
    @click.argument("user_id")
    @click.option("--json", "as_json", is_flag=True, help="Print the user as one JSON object.")
    @pass_state
    def users_enable(state: State, user_id: str, as_json: bool) -> None:
        """Let a disabled user sign in again (a forgotten password: `users link`)."""
        from rentalcomply.dashboard import users as service
        _open(state)
        user = _domain_call(service.enable_user, user_id)
        if as_json:
            _emit_json(service.user_view(user))
        else:
            click.echo(f"Enabled dashboard user {user.id} ({user.email}).")
