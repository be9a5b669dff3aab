"""The package's shape: no import circle, no module of code over 600 lines, and the layers that
pyproject.toml's import-linter contracts describe (`lint-imports`).

An import inside a function counts like any other: deferring an import hides a dependency from
the interpreter's start-up, it does not remove it, and two modules that need each other are one
module in two files whichever line the import sits on.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "rentalcomply"

LONGEST_MODULE = 600
# Modules that may be longer, each with why. A path ending in "/" stands for a folder.
LONG_BY_NATURE = {
    "rentalcomply/migrations/": "each migration records one change of the schema as it shipped; it "
                                "is never split or edited afterwards",
}


# -- the import graph --------------------------------------------------------------------------

def module_name(path: Path) -> str:
    """rentalcomply/police/service.py -> rentalcomply.police.service; a package's __init__.py is
    the package itself."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported_names(node: ast.Import | ast.ImportFrom, importer: str, is_package: bool) -> list[str]:
    """The dotted names an import statement reaches, relative imports resolved. `from a import b`
    reaches `a` (its __init__ runs) and `a.b` (which may be a module or only a name in `a`)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        # From a package's __init__, "." is the package itself; from a module, its package.
        anchor = importer.split(".") if is_package else importer.split(".")[:-1]
        anchor = anchor[:len(anchor) - (node.level - 1)]
        base = ".".join(anchor + ([base] if base else []))
    return [base] + [f"{base}.{alias.name}" for alias in node.names if alias.name != "*"]


def import_graph() -> dict[str, dict[str, list[int]]]:
    """{importer: {imported: [line, ...]}} over the package's own modules, every import statement
    counted wherever it sits (module level, function, class, `if TYPE_CHECKING:`)."""
    modules = package_modules()
    graph: dict[str, dict[str, list[int]]] = {name: defaultdict(list) for name in modules}
    for importer, path in modules.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for name in imported_names(node, importer, is_package):
                # `import a.b.c` or `from a.b import c` where c is a function: the deepest module.
                while name and name not in modules:
                    name = name.rpartition(".")[0]
                # A package's __init__ importing its own submodules is the package presenting its
                # parts, not one unit leaning on another (its submodules reach it through the
                # `from package import ...` edge when they need it).
                if not name or name == importer or (is_package and name.startswith(importer + ".")):
                    continue
                if node.lineno not in graph[importer][name]:
                    graph[importer][name].append(node.lineno)
    return graph


def circles(graph: dict[str, dict[str, list[int]]]) -> list[list[str]]:
    """The strongly connected components of two modules or more (Tarjan's algorithm, iterative
    so that a long chain of imports cannot exhaust the interpreter's stack), each sorted."""
    index: dict[str, int] = {}
    lowlink: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = lowlink[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = lowlink[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    break
                if successor in on_stack:
                    lowlink[node] = min(lowlink[node], index[successor])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    lowlink[parent] = min(lowlink[parent], lowlink[node])
                if lowlink[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def describe(circle: list[str], graph: dict[str, dict[str, list[int]]]) -> str:
    members = set(circle)
    lines = [f"an import circle of {len(circle)} modules: {', '.join(circle)}"]
    for importer in circle:
        for imported in sorted(set(graph[importer]) & members):
            where = ", ".join(f"l.{line}" for line in sorted(graph[importer][imported]))
            lines.append(f"    {importer} imports {imported} ({where})")
    return "\n".join(lines)


def test_no_import_circle():
    graph = import_graph()
    found = circles(graph)
    if found:
        pytest.fail("Modules that import each other, directly or round a loop (an import inside "
                    "a function counts):\n\n"
                    + "\n\n".join(describe(circle, graph) for circle in found), pytrace=False)


def test_the_circle_finder_sees_imports_inside_functions_and_relative_forms():
    # Its own reading of a few statements, on names of the package (only the edges are checked).
    source = ("from . import service\n"
              "from ..core import clock\n"
              "def later():\n"
              "    from rentalcomply.sync.export import export_url\n"
              "    import rentalcomply.webhooks.signing\n")
    names = [name for node in ast.walk(ast.parse(source))
             if isinstance(node, (ast.Import, ast.ImportFrom))
             for name in imported_names(node, "rentalcomply.properties.api", is_package=False)]
    assert names == ["rentalcomply.properties", "rentalcomply.properties.service",
                     "rentalcomply.core", "rentalcomply.core.clock",
                     "rentalcomply.sync.export", "rentalcomply.sync.export.export_url",
                     "rentalcomply.webhooks.signing"]
    assert circles({"a": {"b": [1]}, "b": {"c": [1]}, "c": {"a": [9]}, "d": {"a": [1]}}) == [
        ["a", "b", "c"]]


# -- long modules --------------------------------------------------------------------------------

def long_by_nature(relative: str) -> bool:
    return any(relative == allowed or (allowed.endswith("/") and relative.startswith(allowed))
               for allowed in LONG_BY_NATURE)


def test_no_module_of_code_is_over_600_lines():
    too_long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > LONGEST_MODULE and not long_by_nature(relative):
            too_long.append(f"    {relative}: {lines} lines")
    if too_long:
        pytest.fail(f"Modules over {LONGEST_MODULE} lines (split them by what they do; a table "
                    "that is long by nature goes in LONG_BY_NATURE, with why):\n"
                    + "\n".join(too_long), pytrace=False)


def test_every_module_listed_as_long_by_nature_exists():
    # A list of exceptions that outlives its files would excuse whatever later takes their names.
    missing = [allowed for allowed in LONG_BY_NATURE if not (ROOT / allowed).exists()]
    assert not missing, f"LONG_BY_NATURE names what is no longer there: {missing}"


# -- import-linter -------------------------------------------------------------------------------

def test_the_import_contracts_hold():
    """`lint-imports` with pyproject.toml's contracts, on this checkout's package."""
    # The console script of this interpreter's environment (import-linter is a test dependency).
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which(
        "lint-imports")
    assert command, "lint-imports is missing: pip install -e '.[test]' installs import-linter"
    environment = dict(os.environ, COLUMNS="160",
                       PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT),
                                                                os.environ.get("PYTHONPATH")])))
    # --no-cache: no cache folder written into the checkout.
    done = subprocess.run([command, "--no-cache"], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        pytest.fail(f"lint-imports exited {done.returncode}:\n{done.stdout}{done.stderr}",
                    pytrace=False)
