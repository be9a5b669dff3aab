"""The last line of .ci/run, counted by .ci/summary.py from the runners' own reports."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUMMARY = ROOT / ".ci" / "summary.py"

SAMPLE_TESTS = textwrap.dedent('''
    import pytest

    def test_one(): pass
    def test_two(): pass
    def test_three(): pass
    def test_fails(): assert False
    @pytest.mark.skip(reason="not here")
    def test_skipped(): pass

    @pytest.fixture
    def broken(): raise RuntimeError("setup")
    def test_errors(broken): pass
''')

SCHEMATHESIS_REPORT = '''<?xml version="1.0" encoding="utf-8"?>
<testsuites errors="0" failures="1" skipped="1" tests="4" time="4.2">
  <testsuite name="schemathesis" errors="0" failures="1" skipped="1" tests="4" time="4.2">
    <testcase name="GET /api/v1/properties" time="0.11" />
    <testcase name="POST /api/v1/properties" time="0.13" />
    <testcase name="POST /api/v1/bookings" time="0.2"><failure type="failure" message="5xx">Server error</failure></testcase>
    <testcase name="GET /healthz" time="0.07"><skipped type="skipped" message="no auth" /></testcase>
  </testsuite>
</testsuites>
'''


def summarise(report_dir: Path, expected_skips: str = "") -> subprocess.CompletedProcess:
    skips = report_dir / "expected-skips"
    skips.write_text(expected_skips)
    return subprocess.run([sys.executable, str(SUMMARY), str(report_dir), str(skips)],
                          capture_output=True, text=True, timeout=60)


def pytest_report(tmp_path: Path, name: str = "readme") -> Path:
    """A real pytest run's JUnit report: 3 passed, 1 failed, 1 error, 1 skipped."""
    (tmp_path / "sample").mkdir(exist_ok=True)
    (tmp_path / "sample" / "test_sample.py").write_text(SAMPLE_TESTS)
    report = tmp_path / "reports" / f"{name}.xml"
    report.parent.mkdir(exist_ok=True)
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                    f"--junitxml={report}", str(tmp_path / "sample")], cwd=tmp_path,
                   capture_output=True, timeout=120)
    return report


def junit(*cases: str) -> str:
    return ('<testsuites><testsuite name="s" tests="%d">%s</testsuite></testsuites>'
            % (len(cases), "".join(cases)))


def test_it_counts_every_runner_and_check_and_ends_with_the_line(tmp_path):
    report = pytest_report(tmp_path)
    (report.parent / "fuzz.xml").write_text(SCHEMATHESIS_REPORT)
    (report.parent / "checks.tsv").write_text(
        "pass\tthe README's run command (.ci/smoke)\nfail\tfuzz: the server logged a traceback\n")
    result = summarise(report.parent, "readme *.test_sample::test_skipped  # why\nfuzz ::GET /healthz  # why\n")
    lines = result.stdout.splitlines()
    # pytest 3 + 1 + 1 + 1, schemathesis 2 + 1 + 1, checks 1 + 1
    assert lines[-1] == ("ci: 6 passed, 4 failed, 2 skipped (README pass: 3 passed, 2 failed, "
                         "1 skipped; fuzz: 2 passed, 1 failed, 1 skipped; checks: 1 passed, "
                         "1 failed)")
    assert "  README pass: 3 passed, 2 failed, 1 skipped" in lines
    assert "  fuzz: 2 passed, 1 failed, 1 skipped" in lines
    assert "  FAILED check: fuzz: the server logged a traceback" in lines
    assert result.returncode == 1


def test_a_test_run_in_two_passes_is_counted_once(tmp_path):
    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / "readme.xml").write_text(junit(
        '<testcase classname="tests.a" name="test_both"/>',
        '<testcase classname="tests.a" name="test_on_postgresql"><skipped message="no PG"/></testcase>',
        '<testcase classname="tests.a" name="test_breaks_on_one"/>'))
    (reports / "postgres-redis.xml").write_text(junit(
        '<testcase classname="tests.a" name="test_both"/>',
        '<testcase classname="tests.a" name="test_on_postgresql"/>',
        '<testcase classname="tests.a" name="test_breaks_on_one"><failure message="x"/></testcase>'))
    result = summarise(reports, "readme *::*postgresql*\n")
    assert result.stdout.splitlines()[-1] == (
        "ci: 2 passed, 1 failed (README pass: 2 passed, 0 failed, 1 skipped; "
        "PostgreSQL + Redis pass: 2 passed, 1 failed, 0 skipped)")
    assert result.returncode == 1


def test_a_skip_not_listed_for_its_pass_fails_the_run(tmp_path):
    (tmp_path / "readme.xml").write_text(junit(
        '<testcase classname="tests.q" name="test_real_queue"><skipped message="no Redis answers"/>'
        '</testcase>', '<testcase classname="tests.q" name="test_other"/>'))
    # Listed, but for another pass: still unexpected here.
    result = summarise(tmp_path, "postgres-redis tests.q::test_real_queue\n")
    lines = result.stdout.splitlines()
    assert ("  unexpected skip in the README pass: tests.q::test_real_queue: no Redis answers"
            in lines)
    assert lines[-1].startswith("ci: 1 passed, 1 failed, 1 skipped (README pass: ")
    assert result.returncode == 1


def test_a_clean_run_exits_0_and_leaves_out_skipped_when_there_are_none(tmp_path):
    (tmp_path / "checks.tsv").write_text("pass\tsmoke\n")
    (tmp_path / "fuzz.xml").write_text(junit('<testcase name="a"/>', '<testcase name="b"/>'))
    result = summarise(tmp_path)
    assert result.stdout.splitlines()[-1] == ("ci: 3 passed, 0 failed (fuzz: 2 passed, 0 failed, "
                                              "0 skipped; checks: 1 passed, 0 failed)")
    assert result.returncode == 0


def test_an_unreadable_report_counts_as_a_failure(tmp_path):
    (tmp_path / "cut.xml").write_text("<testsuites><testsuite><testcase name=")
    result = summarise(tmp_path)
    assert result.stdout.splitlines()[-1].startswith("ci: 0 passed, 1 failed (cut: ")
    assert result.returncode == 1


def test_the_shipped_list_of_expected_skips_names_passes_that_exist():
    sys.path.insert(0, str(ROOT / ".ci"))
    try:
        import summary
    finally:
        sys.path.pop(0)
    expected = summary.read_expected_skips(ROOT / ".ci" / "expected-skips")
    assert set(expected) <= set(summary.PASSES), expected
    assert sum(len(patterns) for patterns in expected.values()) <= 12  # a short list


def test_the_ci_run_script_ends_with_the_summary_whatever_happens():
    script = (ROOT / ".ci" / "run").read_text()
    assert "trap finish EXIT" in script and ".ci/summary.py" in script
    assert "--junitxml=$report" in script and "FUZZ_JUNIT=" in script
    assert ".ci/summary.py \"$REPORTS\" .ci/expected-skips" in script


def test_the_run_script_asks_the_summary_whether_a_failing_report_explains_a_failing_exit(
        tmp_path):
    """.ci/run's report_has_failures imports count_junit: a failed test is counted once, not
    again as an unexplained exit."""
    (tmp_path / "test_sample.py").write_text(SAMPLE_TESTS)
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                    f"--junitxml={tmp_path / 'r.xml'}", str(tmp_path / "test_sample.py")],
                   capture_output=True, cwd=tmp_path)
    check = subprocess.run(
        [sys.executable, "-c", "import sys; sys.path.insert(0, '.ci'); from summary import "
         "count_junit; print(count_junit(sys.argv[1]))", str(tmp_path / "r.xml")],
        capture_output=True, text=True, cwd=ROOT)
    assert check.stdout.strip() == "(3, 2)", check.stderr
    assert "from summary import count_junit" in (ROOT / ".ci" / "run").read_text()
