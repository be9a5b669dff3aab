"""config.example.toml stays what the settings registry generates, and every setting is explained."""

from __future__ import annotations

import tomllib
from pathlib import Path

from rentalcomply.config import SETTINGS, example_toml, load_settings

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "config.example.toml"
REGENERATE = ('python -c "from rentalcomply.config import example_toml; '
              "open('config.example.toml', 'w').write(example_toml())\"")


def test_config_example_toml_is_exactly_what_the_registry_generates():
    assert EXAMPLE.read_text(encoding="utf-8") == example_toml(), (
        "config.example.toml is out of date; regenerate it with: " + REGENERATE)


def test_every_setting_has_help_text():
    for setting in SETTINGS:
        assert len(setting.help.strip()) >= 10, f"{setting.dotted} has no useful help text"
        assert f"# {setting.help}" in example_toml()


def test_every_setting_appears_in_the_example_with_its_environment_variable():
    document = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    text = EXAMPLE.read_text(encoding="utf-8")
    for setting in SETTINGS:
        assert document[setting.section][setting.key] == setting.default, setting.dotted
        assert setting.env_name in text


def test_the_example_file_loads_and_gives_the_defaults(tmp_path):
    from_file = load_settings(tmp_path, config_file=EXAMPLE, env={})
    defaults = load_settings(tmp_path, env={})
    for setting in SETTINGS:
        assert from_file.get(setting.dotted) == defaults.get(setting.dotted), setting.dotted


def test_setting_names_are_unique():
    names = [setting.dotted for setting in SETTINGS]
    assert len(names) == len(set(names))
