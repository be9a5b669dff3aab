"""The command line: `rentalcomply [--data-dir DIR] [--config FILE] COMMAND`.

Each command parses its options, calls a domain function and prints the result. `--json` prints
exactly one JSON object: the created resource, or `{"data": [...]}` for a list. A setting with a
value we cannot use stops the command with a message naming the setting and exit code 2; an
unknown account or key, or a refused operation, with a message and exit code 1.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import Any, Iterable

import click

from rentalcomply import __version__
from rentalcomply.config import SETTINGS_BY_NAME, ConfigError, example_toml, load_settings
from rentalcomply.core.modules import optional_modules
from rentalcomply.ops.listening import use_recorded_address

CONFIG_EXIT_CODE = 2


class ConfigProblem(click.ClickException):
    """A setting is wrong: printed as `Error: setting server.port ...`, exit code 2."""

    exit_code = CONFIG_EXIT_CODE


class State:
    def __init__(self, data_dir: str | None, config_file: str | None):
        self.data_dir = data_dir
        self.config_file = config_file

    def settings(self, overrides: dict[str, Any] | None = None, recorded_address: bool = True):
        """The settings; with `recorded_address`, links lead where the server last listened
        when server.public_url is not set (`serve` makes its own from where it listens)."""
        try:
            settings = load_settings(self.data_dir, self.config_file, overrides=overrides)
        except ConfigError as exc:
            raise ConfigProblem(str(exc)) from None
        return use_recorded_address(settings) if recorded_address else settings

    def open(self, overrides: dict[str, Any] | None = None):
        """Settings loaded, secret, database and queue ready: what every data command needs."""
        from rentalcomply.runtime import bootstrap
        settings = self.settings(overrides)
        try:
            return bootstrap(settings)
        except ConfigError as exc:
            raise ConfigProblem(str(exc)) from None
        except ValueError as exc:  # an unsupported queue or database URL
            raise ConfigProblem(str(exc)) from None


pass_state = click.make_pass_decorator(State)


def _emit_json(value: Any) -> None:
    click.echo(json.dumps(value, ensure_ascii=False, indent=2))


def _domain_call(function, *args, **kwargs):
    """Call a domain function; turn the refusals it raises into a message and exit code 1."""
    from rentalcomply.accounts.service import KeyError_
    from rentalcomply.core.errors import ApiError
    try:
        return function(*args, **kwargs)
    except ApiError as exc:
        raise click.ClickException(_api_error_text(exc)) from None
    except (KeyError_, ValueError) as exc:
        raise click.ClickException(str(exc)) from None


def _api_error_text(exc) -> str:
    if exc.details:
        return "; ".join(f"{d['field']}: {d['message']}" for d in exc.details)
    return exc.message


def _table(rows: Iterable[Iterable[Any]], headings: list[str]) -> None:
    rows = [["" if cell is None else str(cell) for cell in row] for row in rows]
    if not rows:
        click.echo("(none)")
        return
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headings)]
    for line in [headings] + rows:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())


def resolve_account(value: str):
    """An account by id, or by name when exactly one account has that name."""
    from rentalcomply.accounts import service as accounts
    from rentalcomply.core.models import Account
    account = Account.get_or_none(Account.id == value)
    if account is not None:
        return account
    named = [a for a in accounts.list_accounts() if a.name == value]
    if len(named) == 1:
        return named[0]
    if named:
        raise click.ClickException(f"{len(named)} accounts are named {value!r}; give the account id "
                                   "(rentalcomply accounts list)")
    raise click.ClickException(f"no account {value!r} (rentalcomply accounts list shows them)")


def _print_new_key(record, key: str) -> None:
    click.echo(f"API key {record.id} for account {record.account_id}, "
               f"scopes {record.scopes.replace(' ', ', ')}"
               + (f", expires {record.expires_at:%Y-%m-%d %H:%M} UTC" if record.expires_at else "")
               + ":")
    click.echo(f"\n    {key}\n")
    click.echo("This key is shown once and never again: store it now.")


# --- the group -----------------------------------------------------------------------------------

@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--data-dir", type=click.Path(file_okay=False), default=None,
              help="Data directory (database, secret, reports). Default: $RENTALCOMPLY_DATA_DIR, "
                   "else the platform's user data directory.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None,
              help="Configuration file (TOML). Default: $RENTALCOMPLY_CONFIG, else config.toml in "
                   "the data directory if it exists.")
@click.version_option(__version__, prog_name="rentalcomply")
@click.pass_context
def main(ctx: click.Context, data_dir: str | None, config_file: str | None) -> None:
    """RentalComply: check-in, police and tax reporting for short-term rentals.

    Settings come from command-line options, then RENTALCOMPLY_<SECTION>_<KEY> environment
    variables, then the config file, then defaults (see config.example.toml).
    """
    ctx.obj = State(data_dir, config_file)


# --- init, serve, worker, demo -------------------------------------------------------------------

@main.command()
@click.option("--write-config", is_flag=True,
              help="Also write config.toml into the data directory: every setting, commented out "
                   "at its default. An existing file is left alone.")
@pass_state
def init(state: State, write_config: bool) -> None:
    """Create the data directory, secret and database (idempotent).

    On a database without accounts, creates the account `default` and an API key with every
    scope, and prints that key once.
    """
    from rentalcomply.core import db as database
    from rentalcomply.core import secrets
    from rentalcomply.runtime import bootstrap
    from rentalcomply.server import announce_first_key

    settings = state.settings()
    try:
        bootstrap(settings, migrate=False)
    except ValueError as exc:
        raise ConfigProblem(str(exc)) from None
    applied = database.run_migrations(database.db.obj)
    click.echo(f"Data directory: {settings.data_dir}")
    if settings.database.url:
        click.echo("Database: as configured in database.url")
    else:
        click.echo(f"Database: {database.sqlite_path(settings)}")
    click.echo("Migrations applied: " + (", ".join(applied) if applied else "none (up to date)"))
    if settings.server.secret_key:
        click.echo("Server secret: from server.secret_key")
    else:
        click.echo(f"Server secret: {secrets.secret_file(settings.data_dir)}")
    if write_config:
        target = Path(settings.data_dir) / "config.toml"
        if target.exists():
            click.echo(f"Config file: {target} exists, left as it is")
        else:
            target.write_text(commented_config(), encoding="utf-8")
            click.echo(f"Config file: {target} written (every setting at its default, commented)")
    elif settings.config_file:
        click.echo(f"Config file: {settings.config_file}")
    if not announce_first_key(sys.stdout, settings):
        click.echo("Accounts exist already: no key printed (rentalcomply keys create makes one).")


def commented_config() -> str:
    """config.example.toml with every value commented out, so that defaults can still change."""
    lines = []
    for line in example_toml().splitlines():
        is_value = line and not line.startswith(("#", "["))
        lines.append("# " + line if is_value else line)
    return "\n".join(lines) + "\n"


def _default(dotted: str) -> Any:
    """A setting's default, as the settings registry declares it (so help texts cannot drift)."""
    return SETTINGS_BY_NAME[dotted].default


@main.command()
@click.option("--host", default=None,
              help=f"Listen address (server.host; default {_default('server.host')}).")
@click.option("--port", default=None, metavar="PORT",
              help=f"Listen port (server.port; default {_default('server.port')}).")
@click.option("--threads", default=None, metavar="N",
              help=f"Waitress worker threads (server.threads; default {_default('server.threads')}).")
@click.option("--no-worker", is_flag=True,
              help="Do not run the task worker in this process (run `rentalcomply worker` instead).")
@pass_state
def serve(state: State, host: str | None, port: str | None, threads: str | None,
          no_worker: bool) -> None:
    """Serve the API, the guest pages and the embedded task worker until Ctrl+C or SIGTERM."""
    from rentalcomply import server
    settings = state.settings({"server.host": host, "server.port": port,
                               "server.threads": threads}, recorded_address=False)
    try:
        code = server.serve(settings, worker=not no_worker)
    except ConfigError as exc:
        raise ConfigProblem(str(exc)) from None
    except ValueError as exc:  # an unsupported queue or database URL
        raise ConfigProblem(str(exc)) from None
    sys.exit(code)


@main.command()
@pass_state
def worker(state: State) -> None:
    """Run the task worker alone, for a second machine or process (stops on Ctrl+C or SIGTERM)."""
    from rentalcomply import server
    settings = state.settings()
    try:
        code = server.run_worker(settings)
    except ValueError as exc:
        raise ConfigProblem(str(exc)) from None
    sys.exit(code)



@main.command()
@pass_state
def demo(state: State) -> None:
    """Seed an account "Demo Agency" with three properties (two Greek, one Italian) and ten
    bookings over the coming weeks, and print a key for it once. A second run changes nothing."""
    from rentalcomply.demo import seed_demo
    settings = state.open()
    result = _domain_call(seed_demo, settings)
    if not result.created:
        click.echo(f'The demo account "{result.account.name}" exists already: {result.account.id}. '
                   "rentalcomply keys create --account " + result.account.id
                   + " --scope read --scope write --scope webhooks makes another key.")
        return
    click.echo(f'Demo account "{result.account.name}": {result.account.id}')
    click.echo(f"  {len(result.property_ids)} properties and {len(result.booking_ids)} bookings, "
               f"arriving from {result.first_arrival} and leaving by {result.last_departure}")
    click.echo("API key with the scopes read, write, webhooks:")
    click.echo(f"\n    {result.key}\n")
    click.echo("This key is shown once and never again: store it now.")
    if result.dashboard_token:
        from rentalcomply.dashboard import users
        users.configure(settings)
        hours = settings.dashboard.password_link_hours
        click.echo(f"\nDashboard: choose a password within {hours} hour{'' if hours == 1 else 's'} "
                   "at (the link works once)")
        click.echo(f"\n    {users.link_url(settings.server.public_url, result.dashboard_token)}\n")
        click.echo(f"then sign in at {settings.server.public_url.rstrip('/')}/dashboard as "
                   f"{result.dashboard_email}.")

# --- accounts ------------------------------------------------------------------------------------

@main.group()
def accounts() -> None:
    """Accounts: each agency or host, with its own properties, bookings and keys."""


@accounts.command("create")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print the account as one JSON object.")
@pass_state
def accounts_create(state: State, name: str, as_json: bool) -> None:
    """Create an account named NAME."""
    from rentalcomply.accounts import service
    state.open()
    account = _domain_call(service.create_account, name)
    if as_json:
        _emit_json(service.account_view(account))
    else:
        click.echo(f'Created account "{account.name}": {account.id}')


@accounts.command("list")
@click.option("--json", "as_json", is_flag=True, help='Print {"data": [...]}.')
@pass_state
def accounts_list(state: State, as_json: bool) -> None:
    """List the accounts."""
    from rentalcomply.accounts import service
    state.open()
    views = [service.account_view(a) for a in service.list_accounts()]
    if as_json:
        _emit_json({"data": views})
    else:
        _table([(v["id"], v["name"], v["created_at"]) for v in views], ["ID", "NAME", "CREATED"])


# --- keys ----------------------------------------------------------------------------------------

@main.group()
def keys() -> None:
    """API keys: create, list, revoke, rotate."""


@keys.command("create")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id (or its name, when unique).")
@click.option("--scope", "scopes", required=True, multiple=True,
              type=click.Choice(["read", "write", "webhooks"]),
              help="A scope the key gets; repeat for several.")
@click.option("--name", default="", help="A label, to tell keys apart.")
@click.option("--expires-in-days", type=int, default=None, metavar="D",
              help="The key stops working after D days. Default: never.")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object with id, key, account_id and scopes.")
@pass_state
def keys_create(state: State, account_ref: str, scopes: tuple[str, ...], name: str,
                expires_in_days: int | None, as_json: bool) -> None:
    """Create an API key; the key is printed once and never again."""
    from rentalcomply.accounts import service
    state.open()
    account = resolve_account(account_ref)
    record, key = _domain_call(service.create_key, account.id, list(scopes), name=name,
                               expires_in_days=expires_in_days)
    if as_json:
        _emit_json({**service.key_view(record), "key": key})
    else:
        _print_new_key(record, key)


@keys.command("list")
@click.option("--account", "account_ref", default=None, metavar="ACC",
              help="Only this account's keys.")
@click.option("--json", "as_json", is_flag=True, help='Print {"data": [...]}.')
@pass_state
def keys_list(state: State, account_ref: str | None, as_json: bool) -> None:
    """List API keys (never the keys themselves: only their first characters)."""
    from rentalcomply.accounts import service
    state.open()
    account_id = resolve_account(account_ref).id if account_ref else None
    views = [service.key_view(k) for k in service.list_keys(account_id)]
    if as_json:
        _emit_json({"data": views})
    else:
        _table([(v["id"], v["account_id"], v["name"], v["key_hint"], " ".join(v["scopes"]),
                 v["status"], v["last_used_at"] or "never", v["expires_at"] or "")
                for v in views],
               ["ID", "ACCOUNT", "NAME", "KEY", "SCOPES", "STATUS", "LAST USED", "EXPIRES"])


@keys.command("revoke")
@click.argument("key_id")
@pass_state
def keys_revoke(state: State, key_id: str) -> None:
    """Revoke an API key at once: a running server refuses it from its next request."""
    from rentalcomply.accounts import service
    state.open()
    record = _domain_call(service.revoke_key, key_id)
    click.echo(f"Revoked API key {record.id} ({record.key_hint}…).")


@keys.command("rotate")
@click.argument("key_id")
@click.option("--grace-hours", type=int, default=24, show_default=True, metavar="H",
              help="The old key keeps working this many hours (0: stops now).")
@click.option("--json", "as_json", is_flag=True,
              help="Print the new key as one JSON object (with `key` and `replaces`).")
@pass_state
def keys_rotate(state: State, key_id: str, grace_hours: int, as_json: bool) -> None:
    """Replace an API key with a new one of the same account, name and scopes."""
    from rentalcomply.accounts import service
    state.open()
    record, key = _domain_call(service.rotate_key, key_id, grace_hours=grace_hours)
    if as_json:
        _emit_json({**service.key_view(record), "key": key, "replaces": key_id})
        return
    _print_new_key(record, key)
    if grace_hours:
        click.echo(f"The old key {key_id} keeps working for {grace_hours} "
                   f"hour{'' if grace_hours == 1 else 's'}.")
    else:
        click.echo(f"The old key {key_id} is revoked.")



# --- properties ----------------------------------------------------------------------------------

@main.group()
def properties() -> None:
    """Properties: the homes an account rents out."""


@properties.command("create")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id (or its name, when unique).")
@click.option("--name", required=True, help="The property's name, as the host calls it.")
@click.option("--address", required=True, help="Street address.")
@click.option("--aade-property-id", default=None, metavar="X",
              help="The property's number at AADE (the Greek short-term rental register).")
@click.option("--country", default="GR", show_default=True, metavar="CC",
              help="ISO 3166-1 alpha-2 country code.")
@click.option("--timezone", default=None, metavar="ZONE",
              help="IANA time zone name. Default: the country's, where it has only one "
                   "(a country with several, like ES, needs it).")
@click.option("--json", "as_json", is_flag=True, help="Print the property as one JSON object.")
@pass_state
def properties_create(state: State, account_ref: str, name: str, address: str,
                      aade_property_id: str | None, country: str, timezone: str | None,
                      as_json: bool) -> None:
    """Create a property (the API's PATCH /properties/{id} sets the other fields)."""
    from rentalcomply.properties import service
    from rentalcomply.views import properties as composed
    state.open()
    account = resolve_account(account_ref)
    prop = _domain_call(service.create_property, account.id, name=name, address=address,
                        aade_property_id=aade_property_id, country=country.upper(),
                        timezone=timezone)
    if as_json:
        _emit_json({**composed.property_view(prop), "account_id": account.id})
    else:
        click.echo(f'Created property "{prop.name}": {prop.id} (account {account.id})')


@properties.command("list")
@click.option("--account", "account_ref", default=None, metavar="ACC",
              help="Only this account's properties. Default: every account's.")
@click.option("--json", "as_json", is_flag=True, help='Print {"data": [...]}.')
@pass_state
def properties_list(state: State, account_ref: str | None, as_json: bool) -> None:
    """List properties."""
    from rentalcomply.accounts import service as accounts
    from rentalcomply.properties import service
    from rentalcomply.views import properties as composed
    state.open()
    chosen = [resolve_account(account_ref)] if account_ref else accounts.list_accounts()
    views = [{**view, "account_id": account.id}
             for account in chosen
             for view in composed.property_views(service.list_properties(account.id))]
    if as_json:
        _emit_json({"data": views})
    else:
        _table([(v["id"], v["account_id"], v["name"], v["country"], v["aade_property_id"],
                 v["status"]) for v in views],
               ["ID", "ACCOUNT", "NAME", "COUNTRY", "AADE ID", "STATUS"])

# --- backup, restore, doctor ---------------------------------------------------------------------

def _passphrase(path: str | None) -> bytes | None:
    if path is None:
        return None
    from rentalcomply.ops.sealed_archive import read_passphrase_file
    try:
        return read_passphrase_file(path)
    except (OSError, ValueError) as exc:
        raise click.ClickException(f"--passphrase-file: {exc}") from None


@main.command()
@click.option("--output", type=click.Path(), default=None, metavar="PATH",
              help="Write the archive here (a file, or a folder for a dated file). Default: a "
                   "dated file in backup.directory, keeping the newest backup.keep of them.")
@click.option("--passphrase-file", type=click.Path(dir_okay=False, exists=True), default=None,
              metavar="FILE", help="Encrypt the archive with the passphrase on this file's first "
                                   "line (AES-256-GCM, key from scrypt).")
@pass_state
def backup(state: State, output: str | None, passphrase_file: str | None) -> None:
    """Back up the database, task queue, server secret and config into a .tar.gz, with the
    report files and refreshed police code tables (police files and receipts are in the database).

    Safe while the server runs (SQLite's online backup API). The archive holds the server secret:
    keep it as private as the data directory.
    """
    from rentalcomply.ops.backup import STEPS, BackupError, create_backup
    settings = state.settings()
    passphrase = _passphrase(passphrase_file)
    warnings: list[str] = []
    try:
        # A progress bar on a terminal only.
        with click.progressbar(length=len(STEPS), label="Backing up", file=sys.stderr,
                               hidden=not sys.stderr.isatty(),
                               item_show_func=lambda step: step) as bar:
            path, deleted = create_backup(settings, output, warnings=warnings,
                                          passphrase=passphrase,
                                          progress=lambda step: bar.update(1, step))
    except BackupError as exc:
        raise click.ClickException(str(exc)) from None
    for warning in warnings:
        click.echo(f"Warning: {warning}", err=True)
    click.echo(f"Backup written: {path}")
    for old in deleted:
        click.echo(f"Old backup deleted: {old}")


@main.command()
@click.argument("archive", type=click.Path(dir_okay=False))
@click.option("--passphrase-file", type=click.Path(dir_okay=False, exists=True), default=None,
              metavar="FILE", help="The passphrase of an encrypted archive (its first line).")
@pass_state
def restore(state: State, archive: str, passphrase_file: str | None) -> None:
    """Replace the data with a backup made by `rentalcomply backup`. Stop the server first.

    Refused (exit 1, naming the PIDs) while a server or worker uses the data directory. The
    archive is checked before anything changes; the current files are moved into
    before-restore-<time>/ in the data directory, and migrations bring an older backup up to date.
    """
    from rentalcomply.core.db import db
    from rentalcomply.ops import datalock
    from rentalcomply.ops.backup import BackupError, restore_backup
    from rentalcomply.runtime import bootstrap
    settings = state.settings()
    os.umask(0o077)  # what the restore creates is private, whatever the caller's umask
    data_dir = Path(settings.data_dir)
    existed = data_dir.exists()
    try:
        with datalock.exclusive(settings.data_dir):
            manifest, aside = restore_backup(settings, archive,
                                             passphrase=_passphrase(passphrase_file))
            bootstrap(settings)
            db.close()
    except (BackupError, datalock.DataDirectoryBusy) as exc:
        if not existed:  # refused: leave no directory holding only the lock behind
            _remove_if_only_the_lock(data_dir)
        raise click.ClickException(str(exc)) from None
    click.echo(f"Restored the backup of {manifest.get('created_at', '?')} "
               f"(RentalComply {manifest.get('version', '?')}) into {settings.data_dir}")
    if not manifest.get("secret_included"):
        click.echo("The backup holds no secret file: the server secret comes from "
                   "server.secret_key, which must be the one in force when it was made.")
    if aside is not None:
        click.echo(f"The previous files are in {aside}")


def _remove_if_only_the_lock(data_dir: Path) -> None:
    from rentalcomply.ops.datalock import LOCK_FILE
    try:
        if {p.name for p in data_dir.iterdir()} <= {LOCK_FILE}:
            (data_dir / LOCK_FILE).unlink(missing_ok=True)
            data_dir.rmdir()
    except OSError:
        pass  # something else appeared meanwhile: it stays


@main.command("systemd-unit")
@click.option("--user", default="rentalcomply", show_default=True,
              help="The system user the service runs as.")
@click.option("--role", type=click.Choice(["serve", "web", "worker"]), default="serve",
              show_default=True,
              help="serve: the one machine (API, pages and the embedded worker); for scale-out, "
                   "web runs `serve --no-worker` and worker runs `worker`.")
@pass_state
def systemd_unit(state: State, user: str, role: str) -> None:
    """Print a systemd unit that starts RentalComply on boot for this data directory."""
    from rentalcomply.ops.systemd import executable, misplaced_executable, unit
    directory = misplaced_executable(executable())
    if directory:
        click.echo(f"Warning: this RentalComply lies under {directory}, which a service cannot "
                   "see: install it under /opt or /usr/local and print the unit from there.",
                   err=True)
    click.echo(unit(state.settings().data_dir, user, role=role), nl=False)


@main.command()
@click.option("--json", "as_json", is_flag=True, help='Print {"data": [checks]}.')
@pass_state
def doctor(state: State, as_json: bool) -> None:
    """Check the installation: data directory, secret, database integrity, migrations, queue.

    Changes nothing. Exit code 1 when a check fails.
    """
    from rentalcomply.ops.doctor import run_checks
    checks = run_checks(state.settings())
    if as_json:
        _emit_json({"data": [dataclasses.asdict(c) for c in checks]})
    else:
        for check in checks:
            click.echo(f"{'ok  ' if check.ok else 'FAIL'}  {check.name}: {check.detail}")
    if not all(check.ok for check in checks):
        sys.exit(1)


# Capabilities add their command groups (`reports`, `sync`, `users`, `police`) from their own
# `cli.py`, which defines register(main), so this file stays the root and does not grow.
CLI_MODULES = ("rentalcomply.checkin.cli", "rentalcomply.reports.cli", "rentalcomply.sync.cli",
               "rentalcomply.filings.cli", "rentalcomply.dashboard.cli", "rentalcomply.bookings.cli",
               "rentalcomply.webhooks.cli", "rentalcomply.properties.cli",
               "rentalcomply.accounts.cli", "rentalcomply.taxes.cli")
for _module in optional_modules(CLI_MODULES):
    _module.register(main)
