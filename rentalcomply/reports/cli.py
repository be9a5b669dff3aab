"""`rentalcomply reports ...`: generate and list tax reports from the command line."""

from __future__ import annotations

import sys

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
    from rentalcomply.reports import service
    settings = state.open()
    account = resolve_account(account_ref)
    year, month = _domain_call(service.parse_period, period)
    service.request_generation(account.id, year, month)
    show_bar = not as_json and sys.stdout.isatty()
    if show_bar:
        with click.progressbar(length=len(service.STEPS), label=f"Report {period}",
                               item_show_func=lambda step: step) as bar:
            def advance(step: str) -> None:
                bar.update(1, step)
            report = service.generate(settings, account.id, year, month, progress=advance)
    else:
        report = service.generate(settings, account.id, year, month)
    events.notify_committed()
    view = service.report_view(report)
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
    folder = settings.data_dir / "reports" / report.account_id / report.files["dir"]
    for fmt in ("pdf", "xml", "csv"):
        click.echo(f"  {folder / report.files[fmt]['name']}")


@reports.command("list")
@click.option("--account", "account_ref", required=True, metavar="ACC",
              help="Account id or name.")
@click.option("--json", "as_json", is_flag=True, help='Print {"data": [...]}.')
@pass_state
def list_(state, account_ref: str, as_json: bool) -> None:
    """The account's reports, newest period first."""
    from rentalcomply.reports import service
    state.open()
    account = resolve_account(account_ref)
    rows, _ = service.list_reports(account.id, page=1, limit=1000)
    views = [service.report_view(row) for row in rows]
    if as_json:
        _emit_json({"data": views})
        return
    _table([(v["id"], v["status"], v["booking_count"], f"{v['total_revenue']:.2f}",
             f"{v['climate_fee_total']:.2f}", v["due_date"] or "",
             "yes" if v["outdated"] else "", v["generated_at"] or "") for v in views],
           ["ID", "STATUS", "STAYS", "GROSS EUR", "FEE EUR", "DUE", "OUTDATED", "GENERATED"])
