"""`rentalcomply police ...`: a property's connector, settings and credentials; the code tables;
the filings due, at once."""

from __future__ import annotations

from pathlib import Path

import click

from rentalcomply.cli import State, _domain_call, _emit_json, pass_state, resolve_account


def register(main: click.Group) -> None:
    main.add_command(police)


@click.group()
def police() -> None:
    """Police guest registration."""


def _pairs(values: tuple[str, ...], option: str) -> dict[str, str | None]:
    pairs: dict[str, str | None] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{item!r} must be NAME=VALUE (NAME= removes it)",
                                     param_hint=option)
        pairs[key.strip()] = value or None
    return pairs


@police.command("configure")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id (or its name, when unique).")
@click.option("--property", "property_id", required=True, metavar="ID",
              help="The property's id (prop_...).")
@click.option("--connector", type=click.Choice(["none", "file", "alloggiati", "ses_hospedajes",
                                                "siba", "mossos", "ertzaintza"]),
              help="The property's connector (mossos: Catalonia; ertzaintza: the Basque Country).")
@click.option("--set", "settings", multiple=True, metavar="NAME=VALUE",
              help="A connector setting (apartment_id, codigo_establecimiento...).")
@click.option("--secret", "secrets", multiple=True, metavar="NAME=VALUE",
              help="A credential (user, password, wskey...): sealed, never shown again.")
@click.option("--secret-file", "secret_files", multiple=True, metavar="NAME=PATH",
              help="A credential read from a file (its first line), kept out of the shell history.")
@click.option("--json", "as_json", is_flag=True, help="Print the property as one JSON object.")
@pass_state
def police_configure(state: State, account_ref: str, property_id: str, connector: str | None,
                     settings: tuple[str, ...], secrets: tuple[str, ...],
                     secret_files: tuple[str, ...], as_json: bool) -> None:
    """Set a property's police connector, its settings and its credentials."""
    from rentalcomply.filings import settings as authority_settings
    from rentalcomply.views import properties as composed
    state.open()
    account = resolve_account(account_ref)
    credentials = _pairs(secrets, "--secret")
    for name, path in _pairs(secret_files, "--secret-file").items():
        try:
            credentials[name] = Path(path or "").read_text("utf-8").splitlines()[0].strip()
        except (OSError, IndexError):
            raise click.BadParameter(f"cannot read a first line from {path!r}",
                                     param_hint="--secret-file") from None
    prop = _domain_call(authority_settings.configure_property, account.id, property_id, connector=connector,
                        settings=_pairs(settings, "--set") if settings else None,
                        credentials=credentials or None)
    view = composed.property_view(prop)
    if as_json:
        _emit_json(view)
    else:
        click.echo(f"{prop.id}: connector {view['police_connector']}; settings "
                   f"{view['police_settings'] or '{}'}; credentials set: "
                   f"{', '.join(view['police_credentials_set']) or 'none'}")


@police.command("refresh-codes")
@click.option("--country", required=True, type=click.Choice(["IT", "ES"], case_sensitive=False),
              help="The authority's country.")
@click.option("--table", help="ES only: the catalogue of a catalogo XML answer (tipo_documento, "
                              "sexo, parentesco, tipo_pago, municipios; taken from the file's "
                              "name when left out). Italian files are recognised by their "
                              "columns and codes.")
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False))
@pass_state
def police_refresh_codes(state: State, country: str, table: str | None,
                         files: tuple[str, ...]) -> None:
    """Load the authority's code tables into the database, where every process uses them from
    its next filing on. IT: the CSV files of Alloggiati Web's "Tabelle" page (comuni.csv,
    stati.csv, documenti.csv, tipo_alloggiato.csv; any of them, in one call, in one
    transaction). ES: a SES.Hospedajes catalogo answer (.xml), INE's municipalities (INE's
    diccionarioYY.xlsx as published, or saved as .csv) or a catalogue (.json).

    Without FILES, from the authority now, as the dashboard's "Refresh code tables": IT through
    Alloggiati Web's Tabella, ES through SES.Hospedajes' catalogo (with the credentials of a
    property configured for it) and INE's list from police.ine_municipalities_url."""
    from rentalcomply import codes
    settings = state.open()
    if not files:
        _refresh_from_authority(country.upper())
        return
    if country.upper() == "ES":
        for file in files:
            _refresh_es(settings, table, file)
        return
    if table is not None:
        raise click.BadParameter("Italian files are recognised by their contents",
                                 param_hint="--table")
    found: dict[str, list] = {}
    names: dict[str, str] = {}
    try:
        for file in files:
            path = Path(file)
            for name, places in codes.read_it_file(codes.decode(path.read_bytes()),
                                                   path.name).items():
                if name in found:
                    raise codes.CodeFileError(f"{path.name} and {names[name]} both hold the "
                                              f"{name} table")
                found[name], names[name] = places, path.name
        counts = codes.load("IT", found, "Alloggiati Web files (" + ", ".join(
            f"{names[name]}" for name in codes.IT_TABLES if name in names) + ")")
    except codes.CodeFileError as exc:
        raise click.ClickException(str(exc)) from None
    for name in codes.IT_TABLES:
        if name in counts:
            click.echo(f"IT {name}: {counts[name]} codes loaded from {names[name]}")


REFRESH_WORDS = {"refreshed": "refreshed from {authority}",
                 "no_credentials": "not refreshed: no property files with {authority} with its "
                                   "credentials",
                 "refused": "not refreshed: {authority} refused the credentials",
                 "unreachable": "not refreshed: {authority} did not answer",
                 "unreadable": "not refreshed: {authority}'s answer could not be read (see the "
                               "log)",
                 "not_set": "not refreshed: police.ine_municipalities_url is empty"}


def _refresh_from_authority(country: str) -> None:
    from rentalcomply import codes
    from rentalcomply.filings import code_refresh
    done = code_refresh.refresh_now(countries=(country,))
    for name, (authority, outcome) in done.items():
        click.echo(f"{name}: " + REFRESH_WORDS[outcome].format(authority=authority))
    for info in codes.status(country):
        when = (f"published {info.published}" if info.shipped
                else f"loaded {info.loaded_at:%Y-%m-%d %H:%M} UTC")
        click.echo(f"{country} {info.name}: {info.rows} rows, {info.source}, {when}")
    if not any(outcome == "refreshed" for _, outcome in done.values()):
        raise click.ClickException("nothing was refreshed; the tables in use stay")


def _refresh_es(settings, table: str | None, file: str) -> None:
    from rentalcomply.codes import es
    if table is not None and table not in es.SECTIONS:
        raise click.BadParameter("ES catalogues: " + ", ".join(es.SECTIONS), param_hint="--table")
    try:
        counts = es.refresh_es_catalogue(file, table)
    except es.CatalogueError as exc:
        raise click.ClickException(str(exc)) from None
    loaded = ", ".join(f"{name} {count}" for name, count in counts.items()) or "nothing changed"
    click.echo(f"ES catalogue loaded from {Path(file).name}: {loaded}")


# engine.FILING_STATUSES, spelled out: this module imports the domain only inside its commands
# (tests/filings/test_filings_cli.py keeps the two the same).
FILING_STATUSES = ("waiting", "queued", "sending", "polling", "ready", "submitted", "rejected",
                   "failed", "held")


@police.command("filings")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id (or its name, when unique).")
@click.option("--property", "property_id", metavar="ID",
              help="Only this property's filings (its periods' and its bookings').")
@click.option("--booking", "booking_id", metavar="ID", help="Only this booking's filings.")
@click.option("--authority", metavar="NAME", help="Only the filings with this authority "
                                                  "(alloggiati, ses_hospedajes, siba, file...).")
@click.option("--kind", metavar="KIND", help="Only this kind (arrival, reservation, month...).")
@click.option("--period", metavar="PERIOD", help="Only this period (2026-03, 2026-Q1, 2026).")
@click.option("--status", type=click.Choice(FILING_STATUSES),
              help="Only the filings in this status.")
@click.option("--json", "as_json", is_flag=True,
              help="Print {\"data\": [...]}, the filings as GET /api/v1/filings shows them.")
@pass_state
def police_filings(state: State, account_ref: str, as_json: bool, **filters) -> None:
    """List the account's filings, booking and period alike, the nearest deadline first. The
    filters are checked as the API checks them (an unknown authority or kind, a malformed
    period: an error naming it)."""
    from rentalcomply.filings import listing
    settings = state.open()
    account = resolve_account(account_ref)
    filters = {name: value for name, value in filters.items() if value is not None}
    _domain_call(listing.check_filters, **filters)
    # Every page, walked by cursor: a person at a terminal wants them all.
    views, cursor = [], None
    while True:
        found = listing.filing_page(settings, account.id, limit=100, cursor=cursor, **filters)
        views += found.views
        cursor = found.next_cursor
        if cursor is None:
            break
    if as_json:
        _emit_json({"data": views})  # as `bookings list --json`
        return
    for view in views:
        click.echo(_filing_line(view))
    if not views:
        click.echo("No filings.")


def _filing_line(view: dict) -> str:
    about = view["booking_id"] or f"{view['property_id']} {view['period']}"
    line = (f"{view['id']}  {about}  {view['authority']} {view['kind']}  due "
            f"{view['deadline']}  {view['status_text']}")
    if view["reference"]:
        line += f"  reference {view['reference']}"
    if view["reason_text"]:
        line += f"  {view['reason_text']}"
    return line


@police.command("refile")
@click.argument("filing_id")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id (or its name, when unique).")
@click.option("--json", "as_json", is_flag=True, help="Print the filing as one JSON object.")
@pass_state
def police_refile(state: State, filing_id: str, account_ref: str, as_json: bool) -> None:
    """File a refused, failed, held or hand-upload filing again (POST /filings/{id}/refile)."""
    from rentalcomply.core import events
    from rentalcomply.filings import listing
    settings = state.open()
    account = resolve_account(account_ref)
    view = _domain_call(listing.refile, settings, account.id, filing_id)
    events.notify_committed()
    _emit_json(view) if as_json else click.echo(_filing_line(view))


@police.command("filed")
@click.argument("filing_id")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id (or its name, when unique).")
@click.option("--reference", metavar="REF", help="The authority's reference of the upload.")
@click.option("--json", "as_json", is_flag=True, help="Print the filing as one JSON object.")
@pass_state
def police_filed(state: State, filing_id: str, account_ref: str, reference: str | None,
                 as_json: bool) -> None:
    """Record that the filing's file was uploaded to the authority by hand (POST
    /filings/{id}/filed): submitted, with its reference."""
    from rentalcomply.core import events
    from rentalcomply.filings import listing
    settings = state.open()
    account = resolve_account(account_ref)
    view = _domain_call(listing.mark_filed, settings, account.id, filing_id, reference)
    events.notify_committed()
    _emit_json(view) if as_json else click.echo(_filing_line(view))


@police.command("run")
@pass_state
def police_run(state: State) -> None:
    """Do now what the worker does every minute: file what is due, announce what is at risk."""
    from rentalcomply.core import events
    from rentalcomply.filings import sweep
    state.open()
    done = sweep.run_due()
    events.notify_committed()
    click.echo(", ".join(f"{k}: {v}" for k, v in done.items()))
