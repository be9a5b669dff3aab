"""The systemd unit: where its executable may lie, and how the first key reaches the admin."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from rentalcomply.ops.systemd import unit
from rentalcomply.server import first_key_or_how_to_get_it, writes_to_journal
from tests.conftest import bootstrapped_settings

VENV_IN_A_HOME = "/home/ann/venv/bin/rentalcomply"


def service_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def test_a_unit_for_a_virtual_environment_in_a_home_directory_can_read_it():
    text = unit(Path("/var/lib/rentalcomply"), exec_start=VENV_IN_A_HOME)
    lines = service_lines(text)
    assert f"ExecStart={VENV_IN_A_HOME} --data-dir /var/lib/rentalcomply serve" in lines
    assert "ProtectHome=read-only" in lines and "ProtectHome=true" not in lines
    assert "ReadWritePaths=/var/lib/rentalcomply" in lines
    assert "may enter that directory" in text  # a home closed to others is named as the trap


def test_a_unit_for_a_data_directory_in_a_home_directory_may_write_only_there():
    text = unit(Path("/home/ann/rc-data"), exec_start="/usr/local/bin/rentalcomply")
    assert "ProtectHome=read-only" in text and "ReadWritePaths=/home/ann/rc-data" in text


@pytest.mark.parametrize("place", ["/tmp/venv/bin/rentalcomply", "/var/tmp/rentalcomply"])
def test_a_unit_for_an_executable_in_a_private_temporary_directory_says_where_to_install(place):
    text = unit(Path("/var/lib/rentalcomply"), exec_start=place)
    assert text.startswith("# NOT STARTABLE AS IT IS")
    assert "/opt or /usr/local" in text.splitlines()[1] + text.splitlines()[2]


def test_an_executable_in_the_usual_places_gets_no_warning():
    for place in ("/usr/local/bin/rentalcomply", "/opt/rentalcomply/bin/python -m rentalcomply"):
        assert unit(Path("/var/lib/rc"), exec_start=place).startswith("# RentalComply as a")


def test_the_first_key_comes_from_the_terminal_never_from_the_journal():
    text = unit(Path("/var/lib/rc"), user="rc", exec_start="/usr/local/bin/rentalcomply")
    comments = [line for line in text.splitlines() if line.startswith("#")]
    assert "#   sudo -u rc /usr/local/bin/rentalcomply --data-dir /var/lib/rc init" in comments
    assert any(line.startswith("#   sudo -u rc /usr/local/bin/rentalcomply --data-dir /var/lib/rc "
                               "keys create --account default") for line in comments)
    journal = [line for line in comments if "journalctl" in line]
    assert journal == ["#   sudo journalctl -u rentalcomply    # its log: never a key or a link"]
    # The key is made before the service is enabled, so its first start has nothing to print.
    assert comments.index(next(c for c in comments if c.endswith(" init"))) < \
        comments.index(next(c for c in comments if "enable --now" in c))


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze is not installed")
@pytest.mark.parametrize("exec_start", [VENV_IN_A_HOME, "/usr/local/bin/rentalcomply"])
def test_systemd_analyze_accepts_the_unit(tmp_path, exec_start):
    # verify wants the executable to exist: a copy of /bin/true stands in for it at its path's
    # place inside the test's directory.
    program = tmp_path / exec_start.lstrip("/")
    program.parent.mkdir(parents=True)
    shutil.copy("/bin/true", program)
    path = tmp_path / "rentalcomply.service"
    path.write_text(unit(tmp_path / "data", exec_start=str(program)))
    checked = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True,
                             text=True)
    assert checked.returncode == 0, checked.stderr
    assert "ProtectHome" not in checked.stderr


def test_a_server_writing_into_the_journal_shows_no_key_and_names_init(tmp_path, monkeypatch):
    with bootstrapped_settings(tmp_path) as settings, open(tmp_path / "journal", "w+") as out:
        status = os.fstat(out.fileno())
        monkeypatch.setenv("JOURNAL_STREAM", f"{status.st_dev}:{status.st_ino}")
        assert writes_to_journal(out)
        first_key_or_how_to_get_it(out, settings)
        out.seek(0)
        text = out.read()
        assert "rc_" not in text and "/dashboard/" not in text
        assert f"rentalcomply --data-dir {settings.data_dir} init" in text


def test_a_server_on_a_terminal_or_a_pipe_prints_the_first_key(tmp_path, monkeypatch):
    monkeypatch.setenv("JOURNAL_STREAM", "1:1")
    with bootstrapped_settings(tmp_path) as settings:
        out = io.StringIO()
        first_key_or_how_to_get_it(out, settings)
        assert "rc_" in out.getvalue()
