"""`rentalcomply sync import FILE... --account A [--property P] [--dry-run] [--json]`: the
channels' reservation exports, added to the `sync` group by sync/cli.py."""

from __future__ import annotations

import sys

import click

from rentalcomply.cli import _domain_call, _emit_json, _table, pass_state, resolve_account
from rentalcomply.imports.service import MAX_FILE_BYTES


@click.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id (or its name, when unique).")
@click.option("--map", "mappings", multiple=True, metavar="TITLE=PROP",
              help="The property of a listing (Airbnb's listing title, Booking.com's property "
                   "name) that is no property's name or alias; repeat for each. Remembered as "
                   "the listing's alias (not in a dry run). Asked for at a terminal when left "
                   "out.")
@click.option("--ask/--no-ask", "ask", default=None,
              help="Ask the property of each unknown listing before importing (the default "
                   "at a terminal, without --json).")
@click.option("--property", "property_id", default=None, metavar="PROP",
              help="The property of the file's one unknown listing (refused for a file of "
                   "several: use --map).")
@click.option("--dry-run", is_flag=True, help="Show what the import would do; change nothing.")
@click.option("--json", "as_json", is_flag=True,
              help="Print each file's report as JSON (one object per file, in a list).")
@pass_state
def import_command(state, files, account_ref, mappings, ask, property_id, dry_run,
                   as_json) -> None:
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
    listing_map = _listing_map(mappings)
    if ask is None:
        ask = not as_json and sys.stdin.isatty()
    reports = []
    for path in files:
        with open(path, "rb") as handle:
            content = handle.read(MAX_FILE_BYTES + 1)
        if len(content) > MAX_FILE_BYTES:
            raise click.ClickException(f"{path}: larger than 1 MiB; export fewer months at a "
                                       "time")
        rates = FeeRates.from_settings(settings)
        try:
            limits = Limits.from_settings(settings)
            if ask:  # the listings no property has yet, asked before anything is applied
                trial = _domain_call(import_export, account.id, content, rates=rates,
                                     property_id=property_id, dry_run=True,
                                     listing_map=listing_map, limits=limits)
                _ask(account.id, trial.unknown_listings, listing_map)
            report = _domain_call(import_export, account.id, content, rates=rates,
                                  property_id=property_id, dry_run=dry_run,
                                  listing_map=listing_map or None, limits=limits)
        except click.ClickException as refusal:
            raise click.ClickException(f"{path}: {refusal.message}") from None
        reports.append(report.view())
        if not as_json:
            _print(path, report, _property_names(account.id))
    if as_json:
        _emit_json({"data": reports})


def _listing_map(mappings) -> dict[str, str]:
    listing_map = {}
    for mapping in mappings:
        title, equals, property_id = mapping.rpartition("=")
        if not equals or not title.strip() or not property_id.strip():
            raise click.BadParameter(f"'{mapping}': give TITLE=PROP", param_hint="--map")
        listing_map[title.strip()] = property_id.strip()
    return listing_map


def _ask(account_id: str, unknown: list[dict], listing_map: dict[str, str]) -> None:
    """One question per unknown listing, the properties numbered; the answers join the map."""
    if not unknown:
        return
    from rentalcomply.core.models import Property
    places = list(Property.select(Property.id, Property.name)
                  .where(Property.account == account_id).order_by(Property.name))
    click.echo("The file has listings that are no property's name yet. Your properties:")
    for number, prop in enumerate(places, start=1):
        click.echo(f"  {number:>2}. {prop.name}")
    for listing in unknown:
        rows = ", ".join(str(row) for row in listing["rows"])
        number = click.prompt(f"Which property is \"{listing['listing'] or '(no listing name)'}\""
                              f" (rows {rows})? Number", type=click.IntRange(1, len(places)))
        listing_map[listing["listing"]] = places[number - 1].id


def _property_names(account_id: str) -> dict[str, str]:
    from rentalcomply.core.models import Property
    return {prop.id: prop.name for prop in Property.select(Property.id, Property.name)
            .where(Property.account == account_id)}


def _print(path: str, report, names: dict[str, str]) -> None:
    totals = report.totals
    verb = "Would import" if report.dry_run else "Imported"
    click.echo(f"{verb} {path} ({report.channel}, {report.kind}): {totals['created']} created, "
               f"{totals['updated']} updated, {totals['unchanged']} unchanged, "
               f"{totals['conflict']} conflicts.")
    for note in report.view()["notes"]:
        click.echo(f"Note: {note}")
    for listing in report.unknown_listings:
        click.echo(f"Unknown listing: \"{listing['listing']}\" (rows "
                   f"{', '.join(str(row) for row in listing['rows'])}): give --map "
                   "\"TITLE=PROP\".")
    _table([(row.row, row.code, names.get(row.property_id, "?"), row.action,
             row.booking_id or "", row.reason)
            for row in report.rows], ["ROW", "CODE", "PROPERTY", "RESULT", "BOOKING", "REASON"])
    if report.dry_run:
        click.echo("Dry run: nothing was changed.")
