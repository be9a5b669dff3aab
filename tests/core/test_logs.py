"""Log lines name their request; JSON lines for collectors; a quiet first start."""

import json
import logging


from rentalcomply.core import logs
from rentalcomply.properties import service as properties
from tests.cli.conftest import cli  # noqa: F401 - the fixture


def failing_request(owner, monkeypatch):
    def broken(account_id):
        raise RuntimeError("a bug")
    monkeypatch.setattr(properties, "property_query", broken)
    return owner.get("/api/v1/properties", status=500)


def test_a_json_line_names_the_request_id_the_client_saw(owner, monkeypatch, capsys, restore_logging):
    logs.configure("info", "json")
    answer = failing_request(owner, monkeypatch)
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
    [line] = [line for line in lines if line["level"] == "error"]
    assert line["request_id"] == answer.headers["X-Request-Id"]
    assert line["logger"] == "rentalcomply.web.routing"
    assert "RuntimeError: a bug" in line["exception"]
    assert line["time"].endswith("Z")


def test_a_text_line_names_the_request_id_too(owner, monkeypatch, capsys, restore_logging):
    logs.configure("info", "text")
    answer = failing_request(owner, monkeypatch)
    err = capsys.readouterr().err
    assert f"ERROR rentalcomply.web.routing [{answer.headers['X-Request-Id']}]:" in err


def test_a_report_logs_nothing_of_its_font_subsetting_at_the_default_level(
        cli, capsys, restore_logging):
    logs.configure("info", "text")
    cli("init")
    account = cli.json("accounts", "create", "Agency F")["id"]
    cli("properties", "create", "--account", account, "--name", "Studio", "--address", "Athens",
        "--aade-property-id", "00000000009")
    cli("reports", "generate", "--account", account, "--period", "2026-03")
    err = capsys.readouterr().err
    assert "fontTools" not in err
    # Its warnings would still show.
    assert logging.getLogger("fontTools.subset").isEnabledFor(logging.WARNING)
    assert not logging.getLogger("fontTools.subset").isEnabledFor(logging.INFO)
