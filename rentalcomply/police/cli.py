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
                                                "siba"]), help="The property's connector.")
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
    from rentalcomply.police import service
    from rentalcomply.properties import service as properties
    state.open()
    account = resolve_account(account_ref)
    credentials = _pairs(secrets, "--secret")
    for name, path in _pairs(secret_files, "--secret-file").items():
        try:
            credentials[name] = Path(path or "").read_text("utf-8").splitlines()[0].strip()
        except (OSError, IndexError):
            raise click.BadParameter(f"cannot read a first line from {path!r}",
                                     param_hint="--secret-file") from None
    prop = _domain_call(service.configure_property, account.id, property_id, connector=connector,
                        settings=_pairs(settings, "--set") if settings else None,
                        credentials=credentials or None)
    view = properties.property_view(prop)
    if as_json:
        _emit_json(view)
    else:
        click.echo(f"{prop.id}: connector {view['police_connector']}; settings "
                   f"{view['police_settings'] or '{}'}; credentials set: "
                   f"{', '.join(view['police_credentials_set']) or 'none'}")


@police.command("refresh-codes")
@click.option("--country", required=True, type=click.Choice(["IT"], case_sensitive=False),
              help="The authority's country.")
@click.option("--table", type=click.Choice(["luoghi", "stati", "documenti"]),
              help="Which table FILE is (guessed from its codes when left out).")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@pass_state
def police_refresh_codes(state: State, country: str, table: str | None, file: str) -> None:
    """Load a code table the authority publishes (Alloggiati Web's CSV: Codice;Descrizione;
    Provincia;DataFineVal...) into the data directory, where it replaces the shipped one."""
    from rentalcomply.police import codes
    settings = state.open()
    codes.configure(settings.data_dir)
    raw = Path(file).read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")  # the authority's older files
    try:
        table = table or codes.guess_table(text)
        count = codes.refresh(country, table, text)
    except codes.CodeFileError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"{country.upper()} {table}: {count} codes loaded")


@police.command("run")
@pass_state
def police_run(state: State) -> None:
    """Do now what the worker does every minute: file what is due, announce what is at risk."""
    from rentalcomply.core import events
    from rentalcomply.police import service
    state.open()
    done = service.run_due()
    events.notify_committed()
    click.echo(", ".join(f"{k}: {v}" for k, v in done.items()))
