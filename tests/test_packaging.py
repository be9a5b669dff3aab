"""The front door: the README documents every command, CI runs the README's test command, and the
package carries the files it reads at run time."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import click

from rentalcomply.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def all_commands(group: click.Group = main, prefix: str = ""):
    for name, command in sorted(group.commands.items()):
        path = f"{prefix}{name}"
        yield path, command
        if isinstance(command, click.Group):
            yield from all_commands(command, path + " ")


def readme_section(heading: str) -> str:
    return README.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def test_every_command_and_option_has_help_text():
    for path, command in all_commands():
        assert command.help and command.help.strip(), f"`rentalcomply {path}` has no help"
        for parameter in command.params:
            if isinstance(parameter, click.Option):
                assert parameter.help, f"`rentalcomply {path}` {parameter.opts[0]} has no help"


def test_every_command_is_in_the_readme_command_line_section():
    section = readme_section("The command line")
    for path, command in all_commands():
        if isinstance(command, click.Group):
            continue
        group, _, leaf = path.rpartition(" ")
        line = next((l for l in section.splitlines() if re.search(rf"\b{leaf}\b", l)
                     and (not group or group in l or "|" in l)), None)
        assert line is not None, f"`rentalcomply {path}` is missing from the README"
        for parameter in command.params:
            if isinstance(parameter, click.Option) and parameter.opts[0] not in ("--help",):
                assert parameter.opts[0] in section, (
                    f"`rentalcomply {path}` {parameter.opts[0]} is missing from the README")


def test_the_readme_run_section_is_a_virtual_environment_then_the_two_commands():
    block = re.search(r"```\n(.*?)\n```", readme_section("Run it"), re.S).group(1)
    assert block.splitlines() == ["python3 -m venv .venv && . .venv/bin/activate",
                                  "pip install .", "rentalcomply serve"]


def test_ci_runs_the_readme_test_command():
    block = re.search(r"```\n(.*?)\n```", readme_section("Test it"), re.S).group(1)
    assert block == "pip install -e '.[test]' && python -m pytest -q -n auto"
    ci = (ROOT / ".ci" / "run").read_text()
    assert "## Test it" in ci and 'bash -c "$TEST_COMMAND"' in ci


def test_the_ci_scripts_are_valid_bash():
    for script in ("run", "fuzz", "postgres", "redis", "binary"):
        subprocess.run(["bash", "-n", str(ROOT / ".ci" / script)], check=True)


def test_the_package_data_covers_the_migrations_and_static_files():
    import tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    package_data = project["tool"]["setuptools"]["package-data"]["rentalcomply"]
    assert "migrations/*.py" in package_data and "static/**/*" in package_data


def test_the_pyinstaller_spec_is_valid_python_that_collects_data_and_submodules():
    text = (ROOT / "rentalcomply.spec").read_text()
    compile(text, "rentalcomply.spec", "exec")
    assert 'collect_data_files("rentalcomply", include_py_files=True' in text
    assert 'collect_data_files("fpdf")' in text
    assert 'collect_submodules("rentalcomply")' in text
    assert (ROOT / "rentalcomply" / "__main__.py").is_file()


def test_the_readme_names_every_setting_that_may_come_from_a_file():
    from rentalcomply.config import SETTINGS
    section = readme_section("Configuration")
    for setting in SETTINGS:
        if setting.secret:
            assert f"`{setting.dotted}`" in section, setting.dotted


def test_the_readme_scale_out_settings_are_settings_the_product_reads(tmp_path):
    from rentalcomply.config import load_settings
    block = re.search(r"```\n(\[database\].*?)\n```", readme_section("Scale-out"), re.S).group(1)
    (tmp_path / "config.toml").write_text(block)
    settings = load_settings(data_dir=tmp_path, env={})
    assert settings.database.url.startswith("postgresql://")
    assert settings.queue.url.startswith("redis://") and settings.server.secret_key
