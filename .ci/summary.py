"""The last line of a CI run, counted from the runners' own reports, never typed in.

    python .ci/summary.py REPORT_DIR

REPORT_DIR holds the JUnit XML files the runners wrote (`*.xml`: pytest's --junitxml,
schemathesis' --report junit) and `checks.tsv`, one line per check that has no report of its own
(`pass<TAB>name` or `fail<TAB>name`, written by `run_check` in .ci/run: the smoke run counts as one
test). A test case is failed when it holds a <failure> or an <error>, skipped when it holds a
<skipped>, passed otherwise. One line per source, then, last and alone on its line:

    ci: 812 passed, 0 failed, 3 skipped

Exit code 1 when anything failed or a report is unreadable, else 0.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path


def count_junit(path: Path) -> tuple[int, int, int]:
    """(passed, failed, skipped) of one JUnit XML file."""
    root = ElementTree.parse(path).getroot()
    passed = failed = skipped = 0
    for case in root.iter("testcase"):
        tags = {child.tag for child in case}
        if tags & {"failure", "error"}:
            failed += 1
        elif "skipped" in tags:
            skipped += 1
        else:
            passed += 1
    # A suite-level error (a collection error in pytest) has no test case: count it as failed.
    for suite in root.iter("testsuite"):
        cases = len(list(suite.iter("testcase")))
        errors = int(suite.get("errors", 0) or 0) + int(suite.get("failures", 0) or 0)
        if cases == 0 and errors:
            failed += errors
    return passed, failed, skipped


def count_checks(path: Path) -> tuple[int, int]:
    """(passed, failed) of the checks file."""
    passed = failed = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        verdict, _, _name = line.partition("\t")
        if verdict == "pass":
            passed += 1
        elif verdict == "fail":
            failed += 1
    return passed, failed


def summarise(report_dir: Path) -> tuple[list[str], tuple[int, int, int]]:
    lines = []
    total = [0, 0, 0]
    for path in sorted(report_dir.glob("*.xml")):
        try:
            counts = count_junit(path)
        except (ElementTree.ParseError, OSError) as exc:
            lines.append(f"  {path.stem}: unreadable report ({exc}): counted as 1 failed")
            counts = (0, 1, 0)
        else:
            lines.append(f"  {path.stem}: {counts[0]} passed, {counts[1]} failed, "
                         f"{counts[2]} skipped")
        total = [a + b for a, b in zip(total, counts)]
    checks = report_dir / "checks.tsv"
    if checks.exists():
        passed, failed = count_checks(checks)
        lines.append(f"  other checks: {passed} passed, {failed} failed")
        total[0] += passed
        total[1] += failed
    return lines, (total[0], total[1], total[2])


def summary_line(passed: int, failed: int, skipped: int) -> str:
    line = f"ci: {passed} passed, {failed} failed"
    return line + (f", {skipped} skipped" if skipped else "")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    lines, (passed, failed, skipped) = summarise(Path(argv[1]))
    for line in lines:
        print(line)
    print(summary_line(passed, failed, skipped), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
