"""What docs/ and the README say of the code stays true of it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.moved_clock.sitecustomize import SHIFT_VARIABLE

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


def _readme_block(section: str, after: str = "") -> str:
    """The first code block of the README's `section` (after the line `after`, where given)."""
    import re
    text = (ROOT / "README.md").read_text(encoding="utf-8").split(f"\n## {section}\n", 1)[1]
    text = text.split("\n## ", 1)[0]
    if after:
        text = text.split(after, 1)[1]
    return re.search(r"```[a-z]*\n(.*?)\n```", text, re.S).group(1)


def test_the_readme_run_section_has_a_virtual_environment_the_python_version_and_the_dashboard():
    assert _readme_block("Run it").splitlines() == [
        "python3 -m venv .venv && . .venv/bin/activate", "pip install .", "rentalcomply serve"]
    run = doc("README.md").split("## Run it", 1)[1].split("## Test it", 1)[0]
    assert "Python 3.11 or newer" in run and "http://127.0.0.1:8080/dashboard" in run
    assert "the first link" in run
    import tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["requires-python"] == ">=3.11"


@pytest.mark.server
def test_the_readme_sample_start_up_is_what_serve_prints_on_a_fresh_data_directory(tmp_path):
    # The tour's sample output, line for line, against the real first start with no
    # configuration at all (a new HOME: the data directory is the platform's default under it);
    # what differs from one start to the next (ids, the key, the link's token, the port, the
    # home folder) is written as in the README.
    import os
    import re
    import socket
    import time
    sample = _readme_block("A five-minute tour").splitlines()
    assert sample[0] == "$ rentalcomply serve"
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {name: value for name, value in os.environ.items()
           # The run's moved clock is kept: the server's clock moves with the tests'.
           if not name.startswith("RENTALCOMPLY_") or name == SHIFT_VARIABLE}
    env.update({"HOME": str(tmp_path), "RENTALCOMPLY_SERVER_PORT": str(port),
                "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"})
    env.pop("XDG_DATA_HOME", None)
    server = subprocess.Popen([sys.executable, "-m", "rentalcomply", "serve"], env=env,
                              cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True)
    printed = []
    try:
        deadline = time.monotonic() + 120
        for line in server.stdout:
            printed.append(line.rstrip("\n"))
            if line.startswith("RentalComply listening on") or time.monotonic() > deadline:
                break
    finally:
        server.terminate()
        server.wait(timeout=60)
    general = [re.sub(r"acc_[A-Za-z0-9]+", "acc_...",
               re.sub(r"rc_[A-Za-z0-9]{40}", "rc_...",
               re.sub(r"/dashboard/password/[A-Za-z0-9_-]+", "/dashboard/password/...",
                      line.replace(f":{port}", ":8080")
                          .replace(str(tmp_path), "/home/you"))))
               for line in printed]
    assert general == sample[1:]
