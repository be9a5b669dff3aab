"""What README.md shows in its code blocks still runs and still answers in the shape it shows.

Every block that can run on this machine without a network is run: the tour (the real server,
then the block of curl commands, each answer held against the `# -> ...` shape written under it),
the command-line summary (every command and option it lists exists), the systemd units, and the
configuration examples (every setting they name is a real one). Blocks that need another machine
(nginx, Caddy, a PostgreSQL at db.internal) are only read.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import click
import pytest

from rentalcomply.cli import main as cli_main
from rentalcomply.core import clock
from tests.e2e.conftest import ROOT, clean_environment

README = (ROOT / "README.md").read_text(encoding="utf-8")


def code_blocks() -> list[tuple[str, str, str]]:
    """(heading of the section, language, text) of each fenced block, in order."""
    blocks = []
    for match in re.finditer(r"```([a-z]*)\n(.*?)\n```", README, re.S):
        before = README[:match.start()]
        headings = re.findall(r"^##+ (.+)$", before, re.M)
        blocks.append((headings[-1] if headings else "", match.group(1), match.group(2)))
    return blocks


def block(heading: str, starting_with: str) -> str:
    found = [text for section, _, text in code_blocks()
             if section == heading and text.lstrip().startswith(starting_with)]
    assert found, f"README.md has no block starting {starting_with!r} under '{heading}'"
    return found[0]


# --- answer shapes --------------------------------------------------------------------------

class Anything:
    """`...` where a value stands in the README."""


def shape_of(documented: str):
    """The JSON the README shows under `# ->`, read with its ellipses: `"prop_..."` is any string
    starting `prop_`, a trailing `, ...` in an object or list allows more members."""
    text = re.sub(r",\s*\.\.\.\s*([}\]])", r', "__more__": true\1', documented)
    text = re.sub(r'"([^"]*)\.\.\."', lambda m: json.dumps("__prefix__" + m.group(1)), text)
    text = text.replace("...", '"__any__"')
    return json.loads(text)


def matches(shape, value, path: str = "") -> list[str]:
    """What differs between a documented shape and a real answer (empty when it matches)."""
    if shape == "__any__":
        return []
    if isinstance(shape, str) and shape.startswith("__prefix__"):
        prefix = shape.removeprefix("__prefix__")
        ok = isinstance(value, str) and value.startswith(prefix)
        return [] if ok else [f"{path or 'answer'}: {value!r} does not start {prefix!r}"]
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            return [f"{path or 'answer'}: an object was shown, {type(value).__name__} came"]
        problems = []
        for key, expected in shape.items():
            if key == "__more__":
                continue
            if key not in value:
                problems.append(f"{path}.{key}: shown in the README, missing from the answer")
            else:
                problems += matches(expected, value[key], f"{path}.{key}")
        if "__more__" not in shape:
            problems += [f"{path}.{key}: in the answer, not in the README's shape"
                         for key in value.keys() - shape.keys()]
        return problems
    if isinstance(shape, list):
        if not isinstance(value, list):
            return [f"{path or 'answer'}: a list was shown, {type(value).__name__} came"]
        return [problem for index, item in enumerate(shape) if item != "__more__"
                for problem in matches(item, value[index] if index < len(value) else None,
                                       f"{path}[{index}]")]
    return [] if shape == value else [f"{path or 'answer'}: {value!r}, the README shows {shape!r}"]


def test_the_shape_reader_holds_ellipses_and_finds_a_changed_answer():
    shape = shape_of('{"data": {"id": "prop_...", "status": "active", ...}}')
    assert matches(shape, {"data": {"id": "prop_1", "status": "active", "x": 1}}) == []
    assert matches(shape, {"data": {"id": "book_1", "status": "active"}})
    assert matches(shape, {"data": {"status": "active"}})
    assert matches(shape_of('{"a": 1}'), {"a": 1, "b": 2})


# --- the tour -------------------------------------------------------------------------------

def commands_of(text: str) -> list[tuple[str, str | None]]:
    """Each shell command of a block (continuation lines joined) with the `# -> ...` line(s)
    after it, if any."""
    commands: list[tuple[str, str | None]] = []
    current: list[str] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if current:
            current.append(line)
            if not line.rstrip().endswith("\\") and not _open_quote(" ".join(current)):
                commands.append((" ".join(part.rstrip().removesuffix("\\") for part in current),
                                 None))
                current = []
            continue
        stripped = line.strip()
        if stripped.startswith("# ->"):
            answer = [stripped.removeprefix("# ->").strip()]
            while index < len(lines) and lines[index].strip().startswith("#   "):
                answer.append(lines[index].strip().removeprefix("#"))
                index += 1
            commands[-1] = (commands[-1][0], " ".join(answer))
        elif stripped and not stripped.startswith("#"):
            current = [line]
            if not line.rstrip().endswith("\\") and not _open_quote(line):
                commands.append((line.split("  #", 1)[0].strip(), None))
                current = []
    return commands


def _open_quote(text: str) -> bool:
    return text.count("'") % 2 == 1


@pytest.mark.skipif(shutil.which("curl") is None, reason="the tour's commands use curl")
def test_the_tour_runs_as_the_readme_shows_it(start_server):
    server = start_server()
    transcript = block("A five-minute tour", "$ rentalcomply serve")
    printed = "".join(server.lines)
    for line in transcript.splitlines()[1:]:
        if not line.strip():
            continue
        pattern = re.escape(line.strip()).replace(r"\.\.\.", ".+").replace("8080", r"\d+")
        # The sample's data directory is the platform's default; this server's is the test's.
        pattern = pattern.replace(re.escape("/home/you/.local/share/rentalcomply"), ".+")
        assert re.search(pattern, printed), f"serve no longer prints {line.strip()!r}:\n{printed}"

    env = clean_environment()
    values: dict[str, str] = {}
    next_year = clock.today().year + 1
    for command, answer in commands_of(block("A five-minute tour", "export KEY=")):
        if command.startswith("export "):
            name, _, value = command.removeprefix("export ").partition("=")
            value = value.split("#", 1)[0].strip()
            if name == "KEY":
                value = server.key
            elif name == "API":
                value = value.replace("8080", str(server.port))
            elif name == "PROP":
                value = values["last_id"]
            env[name] = values[name] = value
            continue
        # The tour's stays are next summer's: moved to the year after this run's, so that the
        # test holds on every date (a past arrival would be refused) whatever year the README says.
        command = re.sub(r"\b20\d\d-(\d\d-\d\d)\b", rf"{next_year}-\1", command)
        run = subprocess.run(["bash", "-c", command + " -w '\\n%{http_code}'"], env=env,
                             capture_output=True, text=True, timeout=60)
        body, _, status = run.stdout.rpartition("\n")
        assert run.returncode == 0 and status.startswith("2"), (command, run.stdout, run.stderr)
        answered = json.loads(body)
        if isinstance(answered.get("data"), dict) and "id" in answered["data"]:
            values["last_id"] = answered["data"]["id"]
        if answer:
            expected_status, _, documented = answer.partition(" ") if answer[0].isdigit() \
                else ("", "", answer)
            if expected_status:
                assert status == expected_status, (command, status)
            problems = matches(shape_of(documented), answered)
            assert not problems, f"{command}\n" + "\n".join(problems)


# --- the command line -----------------------------------------------------------------------

def listed_commands() -> list[tuple[list[str], list[str]]]:
    """(command path, options) for each command of the README's command-line summary."""
    text = block("The command line", "rentalcomply [--data-dir DIR]")
    listed: list[tuple[list[str], list[str]]] = []
    for line in text.splitlines()[1:]:
        indent = len(line) - len(line.lstrip())
        stripped = line.strip()
        if not stripped:
            continue
        if indent > 2:  # a continuation of options, or the description column
            if stripped.startswith("[") and listed:
                listed[-1][1].extend(re.findall(r"--[a-z-]+", stripped.split("  ")[0]))
            continue
        usage = re.split(r"\s{2,}", stripped)[0]
        group = None
        for part in usage.split(" | "):
            words = part.split()
            if group is None:
                path = words[:1]
                if isinstance(cli_main.commands.get(words[0]), click.Group):
                    group = words[0]
                    path = words[:2]
            else:
                path = [group, words[0]]
            listed.append((path, re.findall(r"--[a-z-]+", part)))
    return listed


def test_every_command_and_option_the_readme_lists_exists():
    commands = listed_commands()
    assert len(commands) > 30
    missing = []
    for path, options in commands:
        command = cli_main
        for name in path:
            assert isinstance(command, click.Group), path
            if name not in command.commands:
                missing.append(" ".join(path))
                break
            command = command.commands[name]
        else:
            known = {opt for param in command.params for opt in param.opts + param.secondary_opts}
            missing += [f"{' '.join(path)} {option}" for option in options
                        if option not in known]
    assert not missing, f"README.md lists what the command line does not have: {missing}"


def test_every_command_of_the_command_line_is_in_the_readme():
    listed = {" ".join(path) for path, _ in listed_commands()}
    actual = set()
    for name, command in cli_main.commands.items():
        if getattr(command, "hidden", False):
            continue
        if isinstance(command, click.Group):
            actual |= {f"{name} {sub}" for sub, child in command.commands.items()
                       if not getattr(child, "hidden", False)}
        else:
            actual.add(name)
    assert actual - listed == set(), "commands missing from README.md's command-line summary"


def test_the_systemd_commands_print_units_for_both_roles(tmp_path):
    text = block("Scale-out", "rentalcomply --data-dir") if any(
        section == "Scale-out" for section, _, _ in code_blocks()) else next(
        body for _, _, body in code_blocks() if "systemd-unit --role web" in body)
    for role in re.findall(r"systemd-unit --role (\w+)", text):
        run = subprocess.run([sys.executable, "-m", "rentalcomply", "--data-dir",
                              str(tmp_path / "data"), "systemd-unit", "--role", role],
                             capture_output=True, text=True, env=clean_environment(), cwd=ROOT,
                             timeout=60)
        assert run.returncode == 0, run.stderr
        assert "[Service]" in run.stdout and "ExecStart=" in run.stdout


# --- configuration --------------------------------------------------------------------------

def known_settings() -> set[str]:
    example = (ROOT / "config.example.toml").read_text(encoding="utf-8")
    uncommented = "\n".join(re.sub(r"^#\s?(?=\[|[a-z_]+\s*=)", "", line)
                            for line in example.splitlines())
    return {f"{section}.{key}" for section, values in tomllib.loads(uncommented).items()
            if isinstance(values, dict) for key in values}


def test_every_setting_a_configuration_example_names_exists():
    known = known_settings()
    shown = set()
    for _, _, text in code_blocks():
        if not re.match(r"\s*\[[a-z_]+\]", text):
            continue
        for section, values in tomllib.loads(text).items():
            shown |= {f"{section}.{key}" for key in values}
    assert shown, "README.md shows no configuration example"
    assert shown <= known, f"settings the README names that do not exist: {shown - known}"


def test_the_commands_in_running_text_exist():
    """`rentalcomply WORD ...` in the README's prose names a command there is."""
    names = set(re.findall(r"`rentalcomply (?:--data-dir \S+ )?([a-z-]+)", README))
    assert names <= set(cli_main.commands) | {"COMMAND"}, names - set(cli_main.commands)


def test_shell_lines_of_the_tour_parse():
    for command, _ in commands_of(block("A five-minute tour", "export KEY=")):
        shlex.split(command, comments=True)
