"""One English text has one Greek translation: a key written twice in the catalogue with two
different translations silently keeps the later one, on every page that uses it ("From" of the
date filters once became the e-mail's sender, «Αποστολέας»)."""

from __future__ import annotations

import ast
from pathlib import Path

import rentalcomply.dashboard.i18n as i18n
from rentalcomply.dashboard import words

SOURCES = [Path(i18n.__file__)] + sorted(Path(words.__file__).parent.glob("*.py"))


def _greek_entries(path: Path):
    """(key, translation, line) of every literal entry of a GREEK dict or GREEK.update({...})."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        target = None
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            names = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(n, ast.Name) and n.id == "GREEK" for n in names):
                target = node.value
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "update" and isinstance(node.func.value, ast.Name)
              and node.func.value.id == "GREEK" and node.args):
            target = node.args[0]
        if isinstance(target, ast.Dict):
            for key, value in zip(target.keys, target.values):
                if isinstance(key, ast.Constant) and isinstance(value, ast.Constant):
                    yield key.value, value.value, f"{path.name}:{key.lineno}"


def test_no_english_text_has_two_greek_translations():
    seen: dict[str, tuple[str, str]] = {}
    clashes = []
    for path in SOURCES:
        for key, greek, where in _greek_entries(path):
            if key in seen and seen[key][0] != greek:
                clashes.append((key, seen[key], (greek, where)))
            seen.setdefault(key, (greek, where))
    assert not clashes, clashes


def test_the_date_filters_say_from_and_to_in_greek():
    assert i18n.translate("el", "From") == "Από" and i18n.translate("el", "To") == "Έως"
