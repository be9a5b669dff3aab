"""The command line, run in-process with Click's CliRunner against a fresh data directory."""

from __future__ import annotations

import json
import os
import re

import pytest
from click.testing import CliRunner

from rentalcomply.accounts import service as accounts
from rentalcomply.cli import main
from rentalcomply.core import clock
from rentalcomply.core.db import close_database
from tests.moved_clock.sitecustomize import SHIFT_VARIABLE

KEY_PATTERN = re.compile(r"\brc_[A-Za-z0-9]{40}\b")


class Cli:
    """`cli("accounts", "list")` runs `rentalcomply --data-dir D accounts list`."""

    def __init__(self, data_dir, env):
        self.data_dir = data_dir
        self.env = env

    def __call__(self, *args, env=None, expect=0, global_args=None):
        runner = CliRunner()
        argv = (global_args if global_args is not None else ["--data-dir", str(self.data_dir)])
        result = runner.invoke(main, [*argv, *args], env={**self.env, **(env or {})},
                               catch_exceptions=False)
        close_database()
        if expect is not None:
            assert result.exit_code == expect, (result.exit_code, result.output)
        return result

    def json(self, *args, **kwargs):
        result = self(*args, "--json", **kwargs)
        return json.loads(result.stdout)


@pytest.fixture
def cli(tmp_path, monkeypatch, mail_server):
    for name in list(os.environ):
        if name.startswith("RENTALCOMPLY_") and name != SHIFT_VARIABLE:  # the run's moved clock
            monkeypatch.delenv(name)
    # Tasks run in the caller: these tests are about the commands, not the queue. Mail goes to a
    # loopback SMTP server, which `doctor` checks.
    env = {"RENTALCOMPLY_QUEUE_URL": "memory://", **mail_server.env}
    yield Cli(tmp_path / "data", env)
    clock.reset()
    accounts.forget_cached_keys()
    close_database()


def keys_in(text: str) -> list[str]:
    return KEY_PATTERN.findall(text)
