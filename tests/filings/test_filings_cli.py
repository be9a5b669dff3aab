"""`rentalcomply police filings`: the account's filings at a terminal, as the API lists them."""

import datetime as dt

from rentalcomply.core.db import atomic, db
from tests.cli.conftest import cli  # noqa: F401 - the fixture
from tests.cli.test_commands import open_data_dir

ACC = "Demo Agency"


def test_police_filings_lists_the_accounts_filings_and_filters_by_status(cli):  # noqa: F811
    cli("demo")
    open_data_dir(cli)
    from rentalcomply.core.models import Account, Property
    from rentalcomply.filings.models import Filing
    try:
        account = Account.get(Account.name == ACC)
        prop = Property.select().where(Property.account == account.id).first()
        with atomic():
            Filing.create(id="pf_cli1", account=account.id, authority="file", property=prop.id,
                          period="2026-11", status="ready",
                          deadline=dt.datetime(2026, 12, 5, 12, 0))
    finally:
        db.close()
    ready = cli.json("police", "filings", "--account", ACC, "--status", "ready")["data"]
    assert [(f["id"], f["period"], f["status"]) for f in ready] == [("pf_cli1", "2026-11",
                                                                    "ready")]
    assert "pf_cli1" in cli("police", "filings", "--account", ACC).output
    assert cli.json("police", "filings", "--account", ACC, "--status", "held")["data"] == []
    assert "No filings." in cli("police", "filings", "--account", ACC, "--status", "held").output
    cli("police", "filings", "--account", ACC, "--status", "nope", expect=2)


def test_the_status_choices_are_the_engines():
    from rentalcomply.filings.cli import police_filings
    from rentalcomply.filings.engine import FILING_STATUSES
    [status] = [p for p in police_filings.params if p.name == "status"]
    assert tuple(status.type.choices) == FILING_STATUSES


def test_police_filings_takes_the_apis_filters_and_refile_and_filed_act_by_id(cli):  # noqa: F811
    cli("demo")
    open_data_dir(cli)
    from rentalcomply.core.models import Account, Property
    from rentalcomply.filings.models import Filing
    try:
        account = Account.get(Account.name == ACC)
        first, second = Property.select().where(Property.account == account.id).limit(2)
        with atomic():
            for number, (prop, period, status) in enumerate(
                    [(first, "2026-03", "ready"), (first, "2026-Q1", "failed"),
                     (second, "2026-03", "held")]):
                Filing.create(id=f"pf_cli{number}", account=account.id, authority="file",
                              kind="month", property=prop.id, period=period, status=status,
                              error="timed out" if status == "failed" else None,
                              deadline=dt.datetime(2026, 12, 5 + number, 12, 0))
    finally:
        db.close()

    def found(*args):
        return [f["id"] for f in cli.json("police", "filings", "--account", ACC, *args)["data"]]

    assert found("--property", first.id, "--kind", "month") == ["pf_cli0", "pf_cli1"]
    assert found("--period", "2026-03") == ["pf_cli0", "pf_cli2"]
    assert found("--period", "2026-03", "--authority", "file", "--status", "held") == ["pf_cli2"]
    assert found("--booking", "book_none") == []
    refused = cli("police", "filings", "--account", ACC, "--period", "2026-13", expect=1)
    assert "period: must be a month" in refused.output
    assert "kind: must be one of" in cli("police", "filings", "--account", ACC, "--kind", "x",
                                         expect=1).output

    filed = cli.json("police", "filed", "pf_cli0", "--account", ACC, "--reference", "R-1")
    assert (filed["status"], filed["reference"]) == ("submitted", "R-1")
    assert "already submitted" in cli("police", "filed", "pf_cli0", "--account", ACC,
                                      expect=1).output
    assert "queued" in cli("police", "refile", "pf_cli1", "--account", ACC).output.lower()
    assert "No such filing" in cli("police", "refile", "pf_nothing", "--account", ACC,
                                   expect=1).output
