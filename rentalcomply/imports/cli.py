"""`rentalcomply sync import FILE... --account A [--property P] [--dry-run] [--json]`: the
channels' reservation exports, added to the `sync` group by sync/cli.py."""

from __future__ import annotations

import click

from rentalcomply.cli import _domain_call, _emit_json, _table, pass_state, resolve_account
from rentalcomply.imports.service import MAX_FILE_BYTES


@click.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id (or its name, when unique).")
@click.option("--property", "property_id", default=None, metavar="PROP",
              help="The property of the rows whose listing (Airbnb) or unit type (Booking.com) "
                   "is no property's name. Not needed when the account has one property.")
@click.option("--dry-run", is_flag=True, help="Show what the import would do; change nothing.")
@click.option("--json", "as_json", is_flag=True,
              help="Print each file's report as JSON (one object per file, in a list).")
@pass_state
def import_command(state, files, account_ref, property_id, dry_run, as_json) -> None:
    """Import Airbnb's reservations CSV or Booking.com's reservations download (.xls, CSV or
    XLSX): guest names, adults, children, infants, prices and confirmation codes of the
    calendar-feed bookings, and the bookings the feeds have not brought yet.

    Several files are imported in the order given (give Airbnb's timestamped files oldest
    first), each applied in short transactions beside the server's writes. A row is created,
    updated, unchanged or a conflict (what the host typed is never overwritten), with the
    reason. Exit code 1 when a file cannot be read or goes beyond the [imports] limits: nothing
    of it is changed, and the files after it are not imported.
    """
    from rentalcomply.bookings.fees import FeeRates
    from rentalcomply.imports.files import Limits
    from rentalcomply.imports.service import import_export
    settings = state.open()
    account = resolve_account(account_ref)
    reports = []
    for path in files:
        with open(path, "rb") as handle:
            content = handle.read(MAX_FILE_BYTES + 1)
        if len(content) > MAX_FILE_BYTES:
            raise click.ClickException(f"{path}: larger than 1 MiB; export fewer months at a "
                                       "time")
        try:
            report = _domain_call(import_export, account.id, content,
                                  rates=FeeRates.from_settings(settings),
                                  property_id=property_id, dry_run=dry_run,
                                  limits=Limits.from_settings(settings))
        except click.ClickException as refusal:
            raise click.ClickException(f"{path}: {refusal.message}") from None
        reports.append(report.view())
        if not as_json:
            _print(path, report)
    if as_json:
        _emit_json({"data": reports})


def _print(path: str, report) -> None:
    totals = report.totals
    verb = "Would import" if report.dry_run else "Imported"
    click.echo(f"{verb} {path} ({report.channel}, {report.kind}): {totals['created']} created, "
               f"{totals['updated']} updated, {totals['unchanged']} unchanged, "
               f"{totals['conflict']} conflicts.")
    for note in report.view()["notes"]:
        click.echo(f"Note: {note}")
    _table([(row.row, row.code, row.action, row.booking_id or "", row.reason)
            for row in report.rows], ["ROW", "CODE", "RESULT", "BOOKING", "REASON"])
    if report.dry_run:
        click.echo("Dry run: nothing was changed.")
