"""What docs/ and the README say of the code stays true of it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "rentalcomply"


def doc(name: str) -> str:
    return " ".join((ROOT / name).read_text(encoding="utf-8").split())  # lines joined


def test_the_readme_puts_report_files_in_the_database_where_they_are():
    from rentalcomply.reports.models import ReportFile
    readme = doc("README.md")
    assert "in `reports/` in the data directory" not in readme
    assert f"in the database (table `{ReportFile._meta.table_name}`)" in readme


def test_the_dashboard_doc_shows_the_pages_content_security_policy_as_sent():
    from rentalcomply.dashboard.web import CSP
    assert f"Content-Security-Policy: {CSP}`" in doc("docs/dashboard.md")


def test_the_dashboard_doc_names_every_stylesheet_and_script_there_is():
    text = doc("docs/dashboard.md")
    assert "one stylesheet" not in text
    for asset in [*(PACKAGE / "static" / "css").glob("*.css"),
                  *(PACKAGE / "static" / "js").glob("*.js")]:
        assert asset.name in text, asset.name


def test_the_dashboard_doc_says_where_sign_in_failures_are_counted():
    text = doc("docs/dashboard.md")
    assert "are kept in the process's memory, like the API's rate limit." not in text
    assert "in Redis, shared by every server process" in text


def test_the_architecture_table_lists_every_package_folder_and_where_templates_are():
    text = doc("docs/architecture.md")
    table = text.split("## The package", 1)[1].split("## The queues", 1)[0]
    folders = sorted(p.name for p in PACKAGE.iterdir()
                     if p.is_dir() and (p / "__init__.py").exists())
    missing = [name for name in folders if f"`{name}/`" not in table]
    assert missing == []
    assert "`templates/` (its own Bottle templates)" in table  # the dashboard's, in dashboard/
    assert (PACKAGE / "dashboard" / "templates").is_dir()
    assert (PACKAGE / "static" / "templates" / "checkin.tpl").is_file()


def test_the_webhook_receiver_doc_says_it_needs_the_package_and_no_other():
    text = doc("docs/webhooks.md")
    assert "Standard library only" not in text and "(standard library only)" not in text
    receiver = text.split("### A complete receiver", 1)[1]
    assert "The standard library and the `rentalcomply` package" in receiver
    assert "from rentalcomply.webhooks import InvalidSignature, verify" in receiver
    # What the doc promises: importing verify pulls in no third-party module.
    probe = ("import sys; before = set(sys.modules); "
             "from rentalcomply.webhooks import verify; "
             "print(sorted({m.split('.')[0] for m in set(sys.modules) - before} "
             "- set(sys.stdlib_module_names) - {'rentalcomply'}))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                          text=True, env={"PYTHONPATH": str(ROOT)}, timeout=60)
    assert done.stdout.strip() == "[]", done.stderr
