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


def summarise(report_dir: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SUMMARY), str(report_dir)], capture_output=True,
                          text=True, timeout=60)


def pytest_report(tmp_path: Path) -> Path:
    """A real pytest run's JUnit report: 3 passed, 1 failed, 1 error, 1 skipped."""
    (tmp_path / "sample").mkdir()
    (tmp_path / "sample" / "test_sample.py").write_text(SAMPLE_TESTS)
    report = tmp_path / "reports" / "pytest.xml"
    report.parent.mkdir(exist_ok=True)
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                    f"--junitxml={report}", str(tmp_path / "sample")], cwd=tmp_path,
                   capture_output=True, timeout=120)
    return report


def test_it_counts_every_runner_and_check_and_ends_with_the_line(tmp_path):
    report = pytest_report(tmp_path)
    (report.parent / "schemathesis.xml").write_text(SCHEMATHESIS_REPORT)
    (report.parent / "checks.tsv").write_text(
        "pass\tthe README's run command (.ci/smoke)\nfail\tfuzz: the server logged a traceback\n")
    result = summarise(report.parent)
    lines = result.stdout.splitlines()
    # pytest 3 + 1 + 1 + 1, schemathesis 2 + 1 + 1, checks 1 + 1
    assert lines[-1] == "ci: 6 passed, 4 failed, 2 skipped"
    assert "  pytest: 3 passed, 2 failed, 1 skipped" in lines
    assert "  schemathesis: 2 passed, 1 failed, 1 skipped" in lines
    assert result.returncode == 1


def test_a_clean_run_exits_0_and_leaves_out_skipped_when_there_are_none(tmp_path):
    (tmp_path / "checks.tsv").write_text("pass\tsmoke\n")
    (tmp_path / "fuzz.xml").write_text(
        '<testsuites><testsuite name="s" tests="2"><testcase name="a"/><testcase name="b"/>'
        '</testsuite></testsuites>')
    result = summarise(tmp_path)
    assert result.stdout.splitlines()[-1] == "ci: 3 passed, 0 failed"
    assert result.returncode == 0


def test_an_unreadable_report_counts_as_a_failure(tmp_path):
    (tmp_path / "cut.xml").write_text("<testsuites><testsuite><testcase name=")
    result = summarise(tmp_path)
    assert result.stdout.splitlines()[-1] == "ci: 0 passed, 1 failed"
    assert result.returncode == 1


def test_the_ci_run_script_ends_with_the_summary_whatever_happens():
    script = (ROOT / ".ci" / "run").read_text()
    assert "trap finish EXIT" in script and ".ci/summary.py" in script
    assert "--junitxml=$report" in script and "FUZZ_JUNIT=" in script
