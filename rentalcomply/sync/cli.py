"""`rentalcomply sync run [--account ACC] [--accept-removals]`."""

from __future__ import annotations

import sys

import click

from rentalcomply.cli import pass_state, resolve_account


def register(main: click.Group) -> None:
    from rentalcomply.imports.cli import import_command  # `sync import`: the channels' exports
    sync.add_command(import_command)
    main.add_command(sync)


@click.group()
def sync() -> None:
    """Channel calendar feeds (Airbnb, Booking.com, Vrbo) and reservation exports."""


@sync.command("run")
@click.option("--account", "account_ref", default=None, metavar="ACC",
              help="Only this account's connections. Default: every account's.")
@click.option("--accept-removals", is_flag=True,
              help="Apply the cancellations a suspicious feed (empty, or without most of its "
                   "future stays) was held back for.")
@pass_state
def sync_run(state, account_ref: str | None, accept_removals: bool) -> None:
    """Sync every channel connection now, several feeds at a time.

    Exit code 1 when any connection failed, each named with its reason.
    """
    from rentalcomply.sync import service
    from rentalcomply.sync.runs import sync_many
    state.open()
    account_id = resolve_account(account_ref).id if account_ref else None
    ids = service.connection_ids(account_id)
    if not ids:
        click.echo("No channel connections to sync.")
        return
    show_bar = sys.stdout.isatty()
    with click.progressbar(length=len(ids), label="Syncing feeds", file=sys.stdout,
                           hidden=not show_bar) as bar:
        results = sync_many(ids, accept_removals=accept_removals,
                            progress=lambda result: bar.update(1))
    ok = [r for r in results if r.status == "ok"]
    failed = [r for r in results if r.failed]
    skipped = [r for r in results if r.status in ("skipped", "deferred")]
    click.echo(f"Synced {len(ok)} of {len(results)} connections: "
               f"{_count(sum(r.new_bookings for r in ok), 'new booking')}, "
               f"{_count(sum(r.blocks for r in ok), 'new block')}, "
               f"{sum(r.updated for r in ok)} changed, "
               f"{sum(r.cancelled for r in ok)} cancelled, "
               f"{sum(1 for r in ok if r.not_modified)} unchanged feeds.")
    for result in skipped:
        click.echo(f"Skipped {result.connection_id}: {result.error}")
    for result in failed:
        click.echo(f"FAILED {result.connection_id} ({result.provider}, property "
                   f"{result.property_id}): {result.error}", err=True)
    if failed:
        sys.exit(1)


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}" + ("" if number == 1 else "s")
