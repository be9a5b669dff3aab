"""The same benchmarks on a baseline git ref and on this checkout, in one run, side by side.

    python bench/compare.py --baseline <git ref> [--rounds 3] [--only bookings,reports,...]

Checks the baseline out into a temporary detached worktree (removed at the end, also on an error
or Ctrl-C) and runs, round after round, each benchmark once on each side:

- bookings: bench/api_throughput.py --seconds 5 --posts 3 (GET /bookings, GET /bookings/{id} and
  POST /bookings over HTTP, then the WSGI call alone in-process);
- reports: bench/reports.py --stays 5000 (a month's tax report: build, PDF, XML, CSV, store);
- imports: bench/imports.py --rows 8000 (an export imported while another account writes: the
  import's time and the longest wait of those writes, the p100);
- sync: bench/sync.py (the first sync of 200 feeds x 100 events, then a round of 304s);
- webhooks: bench/webhooks.py (an outbox burst delivered, against signed POSTs sent directly).

Each figure that issue 41 sets a goal for is printed with it ("goal": met or MISSED, for the
current side).

Why the sides alternate: on a shared machine the load of other work comes and goes over minutes,
and whichever side happened to run during a burst would look slower. So each benchmark runs on
the baseline and on the current code back to back, the side that goes first swapping every round,
and the noise hits both sides alike; the median over the rounds, per side, then drops the odd
round a burst spoiled. "bare Bottle GET" is a control: the same code on both sides, so its ratio
shows how far the machine alone moved the figures.

Each side runs its OWN copy of the benchmark scripts (the baseline worktree's bench/ for the
baseline, this checkout's bench/ for the current side), with PYTHONPATH and the working directory
set to that checkout. This checkout's copies cannot serve both sides: each script puts its own
repository first on sys.path (and api_throughput.py starts its server from its own file), so run
against the baseline they would still import this checkout's package and measure the same code
twice; they also import internal modules (rentalcomply.reports.building, rentalcomply.server)
that move between versions. The figures are read from the tables the scripts print, whose labels
have stayed the same since api_throughput.py took `--posts`; a baseline older than that stops
with that script's own usage error.

Printed: each figure's median per side and current/baseline (above 1.00: more requests/s, or
more milliseconds, seconds or megabytes), then which figures moved more than 10%, for better or
for worse. The machine's load changes the absolute figures; the ratios are what to read.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
SIDES = ("baseline", "current")
MOVED = 0.10
CONTROL = "bare Bottle GET req/s (control)"
# Far above a round's minute: only a benchmark that hangs meets it.
SCRIPT_TIMEOUT_SECONDS = 900
NUMBER = r"([\d.]+)"


class BenchmarkFailed(Exception):
    pass


def figure_from(output: str, pattern: str, script: str) -> re.Match:
    match = re.search(pattern, output, re.M)
    if not match:
        raise ValueError(f"{script} printed no line matching {pattern!r}")
    return match


def parse_api_throughput(output: str) -> dict[str, float]:
    """The wrk and POST lines (req/s, p50 ms) and the in-process line (median ms) of its table."""
    script = "api_throughput.py"
    figures = {}
    lines = {"bare Bottle on Waitress, GET": None, "GET /bookings (50 of 20,000)": "GET /bookings",
             "GET /bookings/{id}": "GET /bookings/{id}", "POST /bookings": "POST /bookings"}
    for label, name in lines.items():
        # A table line: the label, then req/s, p50 ms, p99 ms, non-2xx.
        match = figure_from(output, rf"^{re.escape(label)}\s+{NUMBER}\s+{NUMBER}\s", script)
        if name is None:
            figures[CONTROL] = float(match[1])
            continue
        figures[f"{name} req/s"] = float(match[1])
        figures[f"{name} p50 ms"] = float(match[2])
        p99 = re.search(rf"^{re.escape(label)}\s+{NUMBER}\s+{NUMBER}\s+{NUMBER}\s", output, re.M)
        if p99:
            figures[f"{name} p99 ms"] = float(p99[3])
    figures["GET /bookings / bare GET"] = figures["GET /bookings req/s"] / figures[CONTROL]
    post_ratio = re.search(rf"^\s*ratio POST /bookings / bare: {NUMBER}", output, re.M)
    if post_ratio:
        figures["POST /bookings / bare POST"] = float(post_ratio[1])
    in_process = figure_from(output, r"^\s+bare Bottle GET .*$", script)[0]
    for label in ("GET /bookings page", "GET /bookings/{id}", "POST /bookings"):
        name = label.removesuffix(" page")
        figures[f"{name} in-process ms"] = float(
            figure_from(in_process, rf"{re.escape(label)} {NUMBER}", script)[1])
    return figures


def parse_reports(output: str) -> dict[str, float]:
    """The report line: wall time of the whole generation and peak Python memory."""
    match = figure_from(output, rf"^report:.*?{NUMBER} s\s+peak\s+{NUMBER} MB", "reports.py")
    return {"report s": float(match[1]), "report peak MB": float(match[2])}


def parse_imports(output: str) -> dict[str, float]:
    """bench/imports.py's line: the import's time and the longest wait of another account."""
    match = figure_from(output, rf"import {NUMBER} s; .*?longest wait {NUMBER} ms", "imports.py")
    return {"import of 8,000 rows s": float(match[1]),
            "write beside the import, longest ms": float(match[2])}


def parse_sync(output: str) -> dict[str, float]:
    """bench/sync.py's first and all-304 rounds (wall time)."""
    first = figure_from(output, rf"^\s+first sync \(.*?\):\s+{NUMBER} s", "sync.py")
    second = figure_from(output, rf"^\s+second sync, every feed 304:\s+{NUMBER} s", "sync.py")
    return {"first sync 200x100 s": float(first[1]), "all-304 sync s": float(second[1])}


def parse_webhooks(output: str) -> dict[str, float]:
    match = figure_from(output, rf"^ratio delivered / baseline: {NUMBER}", "webhooks.py")
    return {"webhooks / direct signed POSTs": float(match[1])}


@dataclass(frozen=True)
class Benchmark:
    script: str
    options: tuple[str, ...]
    parse: Callable[[str], dict[str, float]]
    exit_codes: frozenset[int] = frozenset({0})


BENCHMARKS = {
    "bookings": Benchmark("bench/api_throughput.py", ("--seconds", "5", "--posts", "3"),
                          parse_api_throughput),
    # reports.py exits 1 when it misses its targets (5 s, 200 MB): here a figure like any other.
    "reports": Benchmark("bench/reports.py", ("--stays", "5000"), parse_reports,
                         frozenset({0, 1})),
    "imports": Benchmark("bench/imports.py", ("--rows", "8000"), parse_imports),
    "sync": Benchmark("bench/sync.py", (), parse_sync),
    "webhooks": Benchmark("bench/webhooks.py", (), parse_webhooks),
}

# Issue 41's goals, each figure's: (">=" or "<", the value). Printed beside the current median.
GOALS = {
    "GET /bookings / bare GET": (">=", 0.8),
    "GET /bookings p99 ms": ("<", 25.0),
    "POST /bookings / bare POST": (">=", 0.3),
    "report s": ("<", 1.0),
    "write beside the import, longest ms": ("<", 300.0),
    "first sync 200x100 s": ("<", 5.0),
    "all-304 sync s": ("<", 1.0),
    "webhooks / direct signed POSTs": (">=", 0.9),
}


def goal_column(figure: str, current: float) -> str:
    if figure not in GOALS:
        return ""
    sign, value = GOALS[figure]
    met = current >= value if sign == ">=" else current < value
    return f"{sign} {value:g}: {'met' if met else 'MISSED'}"


def git(*args: str, check: bool = True) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                          check=check).stdout.strip()


@contextlib.contextmanager
def baseline_worktree(ref: str) -> Iterator[Path]:
    """A detached worktree of `ref` in a temporary directory, removed whatever happens."""
    parent = Path(tempfile.mkdtemp(prefix="rentalcomply-baseline-"))
    path = parent / "checkout"
    try:
        git("worktree", "add", "--detach", "--quiet", str(path), ref)
        # Bytecode compiled now, as this checkout's already is, not during the first round.
        subprocess.run([sys.executable, "-m", "compileall", "-q", "rentalcomply", "bench"],
                       cwd=path, check=True, stdout=subprocess.DEVNULL)
        yield path
    finally:
        removed = subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                  str(path)], capture_output=True)
        shutil.rmtree(parent, ignore_errors=True)
        if removed.returncode != 0:
            git("worktree", "prune", check=False)  # forget it, should `add` have half-failed


def side_env(checkout: Path) -> dict:
    # PYTHONPATH replaced, not extended: one pointing at another checkout must not leak in.
    return {**os.environ, "PYTHONPATH": str(checkout)}


def check_imports_own_package(checkout: Path) -> None:
    """PYTHONPATH must win over an editable install of the package from elsewhere."""
    found = subprocess.run(
        [sys.executable, "-c", "import rentalcomply; print(rentalcomply.__file__)"],
        cwd=checkout, env=side_env(checkout), capture_output=True, text=True)
    if found.returncode != 0:
        raise BenchmarkFailed(f"{checkout}: rentalcomply does not import:\n{found.stderr}")
    imported = found.stdout.strip()
    if not Path(imported).resolve().is_relative_to(checkout.resolve()):
        raise BenchmarkFailed(f"{checkout} imports rentalcomply from {imported}")


def stop(process: subprocess.Popen) -> None:
    """SIGINT to the script's process group, as Ctrl-C would send: the script's own `finally`
    stops its server and removes its data directory. SIGKILL if it has not ended within 10 s."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def run(benchmark: Benchmark, checkout: Path) -> dict[str, float]:
    command = [sys.executable, str(checkout / benchmark.script), *benchmark.options]
    # stderr to a file: the API server writes an access line per request there.
    with tempfile.TemporaryFile() as errors:
        # A session of its own, so that Ctrl-C here reaches the script only through stop().
        process = subprocess.Popen(command, cwd=checkout, env=side_env(checkout), text=True,
                                   stdout=subprocess.PIPE, stderr=errors, start_new_session=True)
        try:
            output, _ = process.communicate(timeout=SCRIPT_TIMEOUT_SECONDS)
        except BaseException:
            stop(process)
            raise
        try:
            if process.returncode not in benchmark.exit_codes:
                raise ValueError(f"exited with {process.returncode}")
            return benchmark.parse(output)
        except ValueError as error:
            errors.seek(max(0, errors.seek(0, os.SEEK_END) - 3000))
            tail = errors.read().decode(errors="replace")
            raise BenchmarkFailed(f"{' '.join(command)}: {error}\n--- stdout\n{output[-3000:]}"
                                  f"\n--- stderr (end)\n{tail}") from None


def formatted(figure: str, value: float) -> str:
    if "req/s" in figure:
        return f"{value:.0f}"
    return f"{value:.2f}" if " / " in figure else f"{value:.3f}"


def moved_line(medians: dict[str, dict[str, float]]) -> str:
    moved = {}
    for figure, base in medians["baseline"].items():
        if figure not in medians["current"]:
            continue
        ratio = medians["current"][figure] / base if base else float("inf")
        if abs(ratio - 1) > MOVED:
            # More req/s is better, and so is a higher share of a baseline's figure (a ratio
            # named "a / b"); more time or memory is not.
            better = (ratio > 1) == ("req/s" in figure or " / " in figure)
            moved[figure] = "better" if better else "worse"
    if not moved:
        return f"Moved more than {MOVED:.0%}: nothing."
    # The control runs the same code on both sides: better or worse says nothing of the code.
    named = [f"{figure} ({direction})" for figure, direction in moved.items() if figure != CONTROL]
    if CONTROL in moved:
        named.append("the control, so the machine's noise alone was that large")
    return f"Moved more than {MOVED:.0%}: " + "; ".join(named) + "."


def print_table(medians: dict[str, dict[str, float]], rounds: int) -> None:
    width = max(len(figure) for figure in medians["current"]) + 2
    print(f"\nMedians over {rounds} round{'s' if rounds > 1 else ''}:")
    print(f"{'figure':{width}} {'baseline':>10} {'current':>10} {'current/baseline':>17}  goal")
    for figure, current in medians["current"].items():
        base = medians["baseline"].get(figure)
        ratio = f"{current / base:.2f}" if base else "-"
        shown = formatted(figure, base) if base is not None else "-"
        print(f"{figure:{width}} {shown:>10} {formatted(figure, current):>10} "
              f"{ratio:>17}  {goal_column(figure, current)}")
    print(moved_line(medians))


def describe_current() -> str:
    dirty = git("status", "--porcelain", "--untracked-files=no")
    return f"{git('rev-parse', '--short', 'HEAD')}{' with uncommitted changes' if dirty else ''}"


def compare(ref: str, rounds: int, names: list[str]) -> None:
    commit = git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False)
    if not commit:
        raise BenchmarkFailed(f"{ref!r} names no commit")
    print(f"baseline: {ref} ({commit[:7]}); current: {ROOT} ({describe_current()})", flush=True)
    samples: dict[str, dict[str, list[float]]] = {side: defaultdict(list) for side in SIDES}
    with baseline_worktree(commit) as baseline:
        checkouts = {"baseline": baseline, "current": ROOT}
        for checkout in checkouts.values():
            check_imports_own_package(checkout)
        for number in range(rounds):
            order = SIDES if number % 2 == 0 else SIDES[::-1]
            for name in names:
                for side in order:
                    started = time.monotonic()
                    for figure, value in run(BENCHMARKS[name], checkouts[side]).items():
                        samples[side][figure].append(value)
                    print(f"round {number + 1}/{rounds}: {name} on {side}, "
                          f"{time.monotonic() - started:.0f} s", flush=True)
    medians = {side: {figure: statistics.median(values) for figure, values in figures.items()}
               for side, figures in samples.items()}
    print_table(medians, rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="git ref to compare against")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default=",".join(BENCHMARKS),
                        help=f"comma-separated, of: {', '.join(BENCHMARKS)}")
    args = parser.parse_args()
    names = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = sorted(set(names) - set(BENCHMARKS))
    if unknown or not names or args.rounds < 1:
        parser.error(f"--only takes {', '.join(BENCHMARKS)}; --rounds at least 1"
                     + (f" (unknown: {', '.join(unknown)})" if unknown else ""))
    # SIGTERM unwinds like Ctrl-C, so that the worktree and the running script are cleaned up.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        compare(args.baseline, args.rounds, names)
    except BenchmarkFailed as error:
        sys.exit(f"compare: {error}")
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
