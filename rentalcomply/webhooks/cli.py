"""`rentalcomply webhooks ...`: list and delete an account's webhook endpoints."""

from __future__ import annotations

import click

from rentalcomply.cli import _domain_call, _emit_json, _table, pass_state, resolve_account


def register(main: click.Group) -> None:
    main.add_command(webhooks)


@click.group()
def webhooks() -> None:
    """Webhook endpoints: list them, delete one."""


@webhooks.command("list")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id (or its name, when unique).")
@click.option("--json", "as_json", is_flag=True, help='Print {"data": [...]}.')
@pass_state
def webhooks_list(state, account_ref, as_json) -> None:
    """List the account's endpoints (never their secrets)."""
    from rentalcomply.webhooks import service
    state.open()
    account = resolve_account(account_ref)
    views = [service.endpoint_view(e) for e in service.list_endpoints(account.id)]
    if as_json:
        _emit_json({"data": views})
        return
    _table([(v["id"], v["url"], v["status"], ", ".join(v["events"]),
             v.get("failing_since") or "") for v in views],
           ["ID", "URL", "STATUS", "EVENTS", "FAILING SINCE"])


@webhooks.command("delete")
@click.argument("webhook_id")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id (or its name, when unique).")
@click.option("--yes", is_flag=True, help="Do not ask before deleting.")
@click.option("--json", "as_json", is_flag=True, help='Print {"deleted": ID}.')
@pass_state
def webhooks_delete(state, webhook_id, account_ref, yes, as_json) -> None:
    """Delete an endpoint: it receives no more events, waiting deliveries are dropped and its
    delivery history is deleted. Asks first unless --yes."""
    from rentalcomply.webhooks import service
    state.open()
    account = resolve_account(account_ref)
    endpoint = _domain_call(service.get_endpoint, account.id, webhook_id)
    if not yes:
        click.confirm(f"Delete the endpoint {endpoint.url}? It receives no more events",
                      abort=True)
    _domain_call(service.delete_endpoint, account.id, webhook_id)
    if as_json:
        _emit_json({"deleted": webhook_id})
    else:
        click.echo(f"Deleted webhook endpoint {webhook_id} ({endpoint.url}).")
