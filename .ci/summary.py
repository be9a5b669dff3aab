"""The last line of a CI run, counted from the runners' own reports, never typed in.

    python .ci/summary.py REPORT_DIR [EXPECTED_SKIPS]

REPORT_DIR holds the JUnit XML files the runners wrote, one per pass (`readme.xml`,
`postgres-redis.xml`, `clock-ahead.xml`: pytest's --junitxml; `fuzz.xml`: schemathesis' --report
junit), and `checks.tsv`, one line per check that has no report of its own (`pass<TAB>name` or
`fail<TAB>name`, written by `run_check` in .ci/run: the smoke run counts as one test).

A test is one test however many passes ran it: the same pytest test in the README pass and in the
PostgreSQL + Redis pass is counted once, failed if it failed in any pass, passed if it passed in
one and failed in none, skipped if every pass skipped it. A test case is failed when it holds a
<failure> or an <error>, skipped when it holds a <skipped>, passed otherwise.

EXPECTED_SKIPS (default: .ci/expected-skips beside this file) lists, per pass, the skips that pass
has by design. Any other skip is a fault the run would otherwise hide (a service that stopped
answering, a tool missing): it is named, and counted as a failed test.

One line per pass, the unexpected skips, then, last and alone on its line:

    ci: 1412 passed, 0 failed, 2 skipped (README pass: 1388 passed, ...; checks: 3 passed, 0 failed)

Exit code 1 when anything failed, a skip was unexpected or a report is unreadable, else 0.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

# The name each report's pass is shown by, in the order shown; any other report by its file name.
PASSES = {"readme": "README pass", "postgres-redis": "PostgreSQL + Redis pass",
          "clock-ahead": "clock a year ahead", "fuzz": "fuzz"}
OUTCOMES = ("passed", "failed", "skipped")


@dataclasses.dataclass
class Case:
    test: str  # "tests.core.test_db::test_x[param]": the same string in every pass
    outcome: str
    reason: str = ""


def read_junit(path: Path) -> list[Case]:
    """The test cases of one JUnit XML file. A suite-level error without test cases (a collection
    error in pytest) is one failed case."""
    root = ElementTree.parse(path).getroot()
    cases = []
    for case in root.iter("testcase"):
        children = {child.tag: child for child in case}
        if {"failure", "error"} & children.keys():
            outcome, reason = "failed", ""
        elif "skipped" in children:
            outcome, reason = "skipped", children["skipped"].get("message", "")
        else:
            outcome, reason = "passed", ""
        test = f"{case.get('classname', '')}::{case.get('name', '')}"
        cases.append(Case(test, outcome, reason))
    for number, suite in enumerate(root.iter("testsuite")):
        errors = int(suite.get("errors", 0) or 0) + int(suite.get("failures", 0) or 0)
        if not list(suite.iter("testcase")) and errors:
            cases.append(Case(f"{path.stem}: suite {number} ({suite.get('name', '')})", "failed"))
    return cases


def count_junit(path: str | Path) -> tuple[int, int]:
    """(passed, failed) in one JUnit XML file: .ci/run asks whether a failing exit is explained
    by failed tests in the runner's own report."""
    tally = counts(read_junit(Path(path)))
    return tally["passed"], tally["failed"]


def read_checks(path: Path) -> list[Case]:
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        verdict, _, name = line.partition("\t")
        if verdict in ("pass", "fail"):
            cases.append(Case(f"check: {name}", "passed" if verdict == "pass" else "failed"))
    return cases


def read_expected_skips(path: Path) -> dict[str, list[str]]:
    """{pass: [test pattern, ...]} from lines `PASS PATTERN  # why`: the pattern is the rest of
    the line up to the `#` (a schemathesis test's name has spaces: `fuzz ::GET /healthz`)."""
    expected: dict[str, list[str]] = {}
    if not path.exists():
        return expected
    for line in path.read_text(encoding="utf-8").splitlines():
        name, _, pattern = line.split("#", 1)[0].strip().partition(" ")
        if name and pattern.strip():
            expected.setdefault(name, []).append(pattern.strip())
    return expected


def counts(cases: list[Case]) -> dict[str, int]:
    return {outcome: sum(case.outcome == outcome for case in cases) for outcome in OUTCOMES}


def combined(outcomes: list[str]) -> str:
    if "failed" in outcomes:
        return "failed"
    return "passed" if "passed" in outcomes else "skipped"


def summarise(report_dir: Path, expected_skips: Path) -> tuple[list[str], dict[str, int], str]:
    """(lines to print, the distinct tests' counts, the passes' counts as one phrase)."""
    expected = read_expected_skips(expected_skips)
    order = {name: number for number, name in enumerate(PASSES)}
    reports = sorted(report_dir.glob("*.xml"), key=lambda p: (order.get(p.stem, 99), p.stem))
    by_test: dict[str, list[str]] = {}
    lines, phrases, unexpected = [], [], []
    for path in reports:
        label = PASSES.get(path.stem, path.stem)
        try:
            cases = read_junit(path)
        except (ElementTree.ParseError, OSError) as exc:
            lines.append(f"  {label}: unreadable report ({exc}): counted as 1 failed")
            cases = [Case(f"{path.stem}: unreadable report", "failed")]
        for case in cases:
            key = case.test if path.stem != "fuzz" else f"fuzz: {case.test}"
            by_test.setdefault(key, []).append(case.outcome)
            if case.outcome == "skipped" and not any(
                    fnmatch.fnmatchcase(case.test, pattern) for pattern in expected.get(path.stem, [])):
                unexpected.append(f"  unexpected skip in the {label}: {case.test}: {case.reason}")
                by_test[f"unexpected skip: {path.stem}: {case.test}"] = ["failed"]
        seen = counts(cases)
        text = f"{seen['passed']} passed, {seen['failed']} failed, {seen['skipped']} skipped"
        lines.append(f"  {label}: {text}")
        phrases.append(f"{label}: {text}")
    checks = report_dir / "checks.tsv"
    if checks.exists():
        cases = read_checks(checks)
        for case in cases:
            by_test.setdefault(case.test, []).append(case.outcome)
        seen = counts(cases)
        lines.append(f"  checks: {seen['passed']} passed, {seen['failed']} failed")
        phrases.append(f"checks: {seen['passed']} passed, {seen['failed']} failed")
        lines += [f"  FAILED {case.test}" for case in cases if case.outcome == "failed"]
    lines += unexpected
    distinct = counts([Case(test, combined(outcomes)) for test, outcomes in by_test.items()])
    return lines, distinct, "; ".join(phrases)


def summary_line(total: dict[str, int], passes: str) -> str:
    """`ci: N passed, N failed, N skipped (…)`: distinct tests first, then each pass's own."""
    line = f"ci: {total['passed']} passed, {total['failed']} failed"
    if total["skipped"]:
        line += f", {total['skipped']} skipped"
    return line + (f" ({passes})" if passes else "")


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    expected = Path(argv[2]) if len(argv) == 3 else Path(__file__).with_name("expected-skips")
    lines, total, passes = summarise(Path(argv[1]), expected)
    for line in lines:
        print(line)
    print(summary_line(total, passes), flush=True)
    return 1 if total["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
