"""`rentalcomply reports ...`: generate and list tax reports from the command line."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from rentalcomply.cli import _domain_call, _emit_json, _table, pass_state, resolve_account


def register(main: click.Group) -> None:
    main.add_command(reports)


@click.group()
def reports() -> None:
    """Tax reports for AADE (monthly declarations and climate fee, yearly income)."""


@reports.command("generate")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id or name.")
@click.option("--period", required=True, metavar="YYYY-MM|YYYY", help="A month or a year.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
@pass_state
def generate(state, account_ref: str, period: str, as_json: bool) -> None:
    """Generate (or regenerate) a report now, in this process; exit 1 if it fails."""
    from rentalcomply.core import events
    from rentalcomply.reports import generation, periods, views
    settings = state.open()
    account = resolve_account(account_ref)
    year, month = _domain_call(periods.parse_period, period)
    generation.request_generation(account.id, year, month)
    show_bar = not as_json and sys.stdout.isatty()
    if show_bar:
        with click.progressbar(length=len(generation.STEPS), label=f"Report {period}",
                               item_show_func=lambda step: step) as bar:
            def advance(step: str) -> None:
                bar.update(1, step)
            report = generation.generate(settings, account.id, year, month, progress=advance)
    else:
        report = generation.generate(settings, account.id, year, month)
    events.notify_committed()
    view = views.report_view(report)
    if as_json:
        _emit_json(view)
    else:
        _print_report(view, settings, report)
    if report.status == "failed":
        sys.exit(1)


def _print_report(view: dict, settings, report) -> None:
    click.echo(f"Report {view['id']}: {view['status']}")
    if view["error"]:
        click.echo(view["error"])
        return
    click.echo(f"  stays {view['booking_count']}, nights {view['nights']}, gross rent "
               f"{view['total_revenue']:.2f} EUR, net {view['net_revenue']:.2f} EUR, climate fee "
               f"{view['climate_fee_total']:.2f} EUR")
    click.echo(f"  cancellations that pay {view['cancellation_count']} "
               f"({view['amount_kept']:.2f} EUR); needing attention "
               f"{view['needs_attention_count']}")
    if view["due_date"]:
        click.echo(f"  declare stays by {view['due_date']}, the fee by {view['fee_due_date']}")
    if view["provisional"]:
        click.echo(f"  PROVISIONAL: the period is still running; it holds the stays ended by "
                   f"{view['as_of']} and is generated again once the period has closed")
    # The files hold renters' tax and passport numbers: sealed at rest, opened by `export`.
    click.echo("  files (sealed, in the database): "
               + ", ".join(report.files[fmt]["name"] for fmt in ("pdf", "xml", "csv")))
    click.echo(f"  rentalcomply reports export --account {report.account_id} --period "
               f"{_period_text(report)} --format pdf --output {report.files['pdf']['name']}")


def _period_text(report) -> str:
    return f"{report.year:04d}" if report.month is None else f"{report.year:04d}-{report.month:02d}"


# `download REPORT` names the report by its code, as `reports list` and the API show it;
# `export --period` names it by its period, as `generate` does. Both write through write_output:
# the same file, the same --output rules, the same errors.

@reports.command("export")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id or name.")
@click.option("--period", required=True, metavar="YYYY-MM|YYYY", help="A month or a year.")
@click.option("--format", "fmt", type=click.Choice(["pdf", "xml", "csv"]), default="pdf",
              show_default=True, help="Which file.")
@click.option("--output", required=True, metavar="PATH",
              help="A file, a folder for the report's own file name, or '-' for standard output.")
@pass_state
def export(state, account_ref: str, period: str, fmt: str, output: str) -> None:
    """Write one of a report's files, opened, naming the report by its period (the same as
    `reports download REPORT`, which names it by its code)."""
    from rentalcomply.authorities.aade.building import report_code
    from rentalcomply.reports import files, periods
    settings = state.open()
    account = resolve_account(account_ref)
    year, month = _domain_call(periods.parse_period, period)
    content, name = _domain_call(files.read_file, settings, account.id,
                                 report_code(year, month), fmt)
    target = write_output(content, output, name)
    if target is not None:
        click.echo(f"wrote {target} ({len(content)} bytes)")


def write_output(content: bytes, output: str | None, name: str) -> Path | None:
    """Write `content` where --output says: standard output for '-' (returns None), inside a
    folder (an existing one, or one written with a trailing slash) under `name`, else to the
    file. Written beside the target and renamed into place, so that a failure leaves no half
    file; a place that cannot be written stops the command with a message, not a traceback."""
    if output == "-":
        sys.stdout.buffer.write(content)
        sys.stdout.buffer.flush()
        return None
    target = Path(output) if output else Path.cwd() / name
    if output and output.endswith(("/", os.sep)) and target.parent.is_dir():
        try:
            target.mkdir(exist_ok=True)  # a folder asked for by its slash, made if new
        except OSError as exc:
            raise click.ClickException(f"cannot make the folder {target}: "
                                       f"{exc.strerror or exc}") from None
    if output and target.is_dir():
        target = target / name
    if not target.parent.is_dir():
        raise click.ClickException(f"cannot write {target}: there is no folder {target.parent}")
    partial = target.with_name(f".{target.name}.partial")
    try:
        partial.write_bytes(content)
        os.replace(partial, target)
    except OSError as exc:
        try:
            partial.unlink(missing_ok=True)
        except OSError:
            pass
        raise click.ClickException(f"cannot write {target}: {exc.strerror or exc}") from None
    return target


@reports.command("list")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id or name.")
@click.option("--json", "as_json", is_flag=True, help='Print {"data": [...]}.')
@pass_state
def list_(state, account_ref: str, as_json: bool) -> None:
    """The account's reports, newest period first."""
    from rentalcomply.reports import queries
    from rentalcomply.reports.views import report_view
    state.open()
    account = resolve_account(account_ref)
    rows, _ = queries.list_reports(account.id, page=1, limit=1000)
    views = [report_view(row) for row in rows]
    if as_json:
        _emit_json({"data": views})
        return
    _table([(v["id"], v["status"], v["booking_count"], f"{v['total_revenue']:.2f}",
             f"{v['climate_fee_total']:.2f}", v["due_date"] or "",
             "yes" if v["outdated"] else "", v["generated_at"] or "") for v in views],
           ["ID", "STATUS", "STAYS", "GROSS EUR", "FEE EUR", "DUE", "OUTDATED", "GENERATED"])


# --- the files, and filing (used by the dashboard's people from the command line too) ------------

@reports.command("download")
@click.argument("code", metavar="REPORT")
@click.option("--account", "account_ref", required=True, metavar="ACC", help="Account id or name.")
@click.option("--format", "fmt", type=click.Choice(["pdf", "xml", "csv"]), default="pdf",
              show_default=True, help="Which of the report's files.")
@click.option("--output", default=None, metavar="PATH",
              help="A file, a folder for the report's own file name (an existing one, or any "
                   "ending in /), or '-' for standard output. Default: here.")
@click.option("--json", "as_json", is_flag=True, help="Print {path, bytes, format} as JSON.")
@pass_state
def download(state, code: str, account_ref: str, fmt: str, output: str | None,
             as_json: bool) -> None:
    """Write one of a report's files, opened (REPORT like rep_2026_05; `reports export
    --period` does the same by period)."""
    from rentalcomply.reports import files
    settings = state.open()
    account = resolve_account(account_ref)
    content, name = _domain_call(files.read_file, settings, account.id, code, fmt)
    target = write_output(content, output, name)
    if target is None:
        return
    if as_json:
        _emit_json({"path": str(target), "bytes": len(content), "format": fmt})
    else:
        click.echo(f"Wrote {target} ({len(content)} bytes).")


@reports.command("mark-filed")
@click.argument("code", metavar="REPORT")
@click.option("--account", "account_ref", required=True, metavar="ACC", help="Account id or name.")
@click.option("--reference", required=True, help="The myAADE reference of the filing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
@pass_state
def mark_filed(state, code: str, account_ref: str, reference: str, as_json: bool) -> None:
    """Record that a completed report was filed with AADE under REFERENCE."""
    from rentalcomply.core import events
    from rentalcomply.reports import submission, views
    state.open()
    account = resolve_account(account_ref)
    report = _domain_call(submission.record_submission, account.id, code, reference)
    events.notify_committed()
    if as_json:
        _emit_json(views.report_view(report))
    else:
        click.echo(f"Report {report.code} is marked as filed ({report.submission_reference}).")
