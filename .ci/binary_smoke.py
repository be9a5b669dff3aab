"""Smoke-test the one-file executable built from rentalcomply.spec, as an operator would use it.

    python .ci/binary_smoke.py dist/rentalcomply [VENV]

--version; init in a fresh data directory; serve on a loopback port; an authenticated request; a
property and a booking; a report generated and downloaded as PDF, XML (checked against its XSD)
and CSV; the police file of an Italian booking; the guest page in every language it offers and
the dashboard's sign-in page in both of its languages, with their assets; a clean stop on SIGTERM.
Exits non-zero on any failure.

Then three figures, side by side for the binary and, with VENV (the virtual environment the
binary was built from), for the installed package run as `VENV/bin/python -m rentalcomply`: the
size (the file; the package and its dependencies as installed), the time from start to the first
answered request and the resident memory once idle, each the median of three starts taken in
turns, beside the targets.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def days_ahead(days: int) -> str:
    """A date `days` after today (the stays must lie ahead, whatever day CI runs)."""
    return (datetime.date.today() + datetime.timedelta(days=days)).isoformat()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Client:
    def __init__(self, base: str, key: str | None = None):
        self.base, self.key = base, key

    def call(self, method: str, path: str, body=None, expect=(200,), raw=False):
        headers = {"Authorization": f"Bearer {self.key}"} if self.key else {}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, payload, kind = response.status, response.read(), response.headers.get("Content-Type", "")
        except urllib.error.HTTPError as error:
            status, payload, kind = error.code, error.read(), error.headers.get("Content-Type", "")
        if status not in expect:
            raise AssertionError(f"{method} {path}: {status} {payload[:500]!r}")
        if raw or "json" not in kind:
            return payload
        return json.loads(payload)


def resident_kib(pid: int) -> int:
    """Resident memory of the process and its children (the one-file bootloader runs a child)."""
    total = 0
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(child) for child in children]
    except OSError:
        pass
    for one in pids:
        for line in Path(f"/proc/{one}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def check_xml_against_xsd(xml: bytes) -> None:
    from lxml import etree
    xsd = ROOT / "rentalcomply" / "authorities" / "aade" / "aade-report.xsd"
    schema = etree.XMLSchema(etree.parse(str(xsd)))
    document = etree.fromstring(xml)
    if not schema.validate(document):
        raise AssertionError(f"the report XML does not validate: {schema.error_log}")


def main(binary: str, venv: str | None = None) -> int:
    binary = str(Path(binary).resolve())
    size_mb = Path(binary).stat().st_size / 1_000_000
    version = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60)
    assert version.returncode == 0 and "rentalcomply" in version.stdout.lower(), version
    print(f"binary: {version.stdout.strip()}, {size_mb:.1f} MB")

    work = Path(tempfile.mkdtemp())
    data_dir = work / "data"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(work)}
    init = subprocess.run([binary, "--data-dir", str(data_dir), "init"], capture_output=True,
                          text=True, env=env, timeout=120)
    assert init.returncode == 0, init
    # A mail server on loopback that takes every message: the check-in link is sent within the
    # request, and a mail that cannot be sent is an error the smoke would meet.
    from aiosmtpd.controller import Controller

    class Sink:
        async def handle_DATA(self, server, session, envelope):
            return "250 OK"

    mail = Controller(Sink(), hostname="127.0.0.1", port=free_port())
    mail.start()
    env = dict(env, RENTALCOMPLY_SMTP_HOST="127.0.0.1", RENTALCOMPLY_SMTP_PORT=str(mail.port))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    # Its own session: the one-file bootloader runs the program as a child, and a failed run must
    # end both.
    server = subprocess.Popen([binary, "--data-dir", str(data_dir), "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                              start_new_session=True)
    try:
        wait_for_answer(base, time.monotonic())
        # `init` printed the first key (serve prints it only when it creates the account).
        key = re.search(r"\brc_[A-Za-z0-9]{40}\b", init.stdout + init.stderr)
        assert key, "no API key printed by init:\n" + init.stdout
        api = Client(base + "/api/v1", key.group(0))

        api.call("GET", "/properties")
        greek = api.call("POST", "/properties", {
            "name": "Seaside Studio", "address": "Akti Miaouli 12, Piraeus",
            "aade_property_id": "00001234567"}, expect=(201,))["data"]
        booking = api.call("POST", "/bookings", {
            "property_id": greek["id"], "guest_name": "Eleni Papadopoulou",
            "guest_email": "eleni@example.com", "arrival_date": "2026-03-10",
            "departure_date": "2026-03-14", "guest_count": 2, "total_price": 480.0,
            "payment_method": "card"},
            expect=(201,))["data"]

        report = api.call("POST", "/reports", {"period": "2026-03"}, expect=(202,))["data"]
        deadline = time.monotonic() + 60
        while report["status"] not in ("completed", "failed") and time.monotonic() < deadline:
            time.sleep(0.2)
            report = api.call("GET", f"/reports/{report['id']}")["data"]
        assert report["status"] == "completed", report
        downloads = {}
        for fmt in ("pdf", "xml", "csv"):
            link = api.call("GET", f"/reports/{report['id']}/download?format={fmt}")["data"]
            url = urllib.parse.urlsplit(link["download_url"])
            downloads[fmt] = Client(base).call("GET", url.path + "?" + url.query, raw=True)
        assert downloads["pdf"].startswith(b"%PDF"), downloads["pdf"][:20]
        check_xml_against_xsd(downloads["xml"])
        csv_rows = downloads["csv"].decode("utf-8-sig").splitlines()
        # Every cell quoted (core/spreadsheet.py: no cell is ever read as a formula).
        assert csv_rows[0].startswith('"ama","arrival_date",'), csv_rows[:1]
        assert any(booking["id"] in row and "Eleni Papadopoulou" in row for row in csv_rows[1:]), \
            csv_rows

        italian = api.call("POST", "/properties", {
            "name": "Casa Mare", "address": "Via Mare 2, Roma", "country": "IT"}, expect=(201,))["data"]
        api.call("PATCH", f"/properties/{italian['id']}", {"police_connector": "file"})
        stay = api.call("POST", "/bookings", {
            "property_id": italian["id"], "guest_name": "Luca Verdi", "arrival_date": days_ahead(30),
            "departure_date": days_ahead(33), "guest_count": 1}, expect=(201,))["data"]
        api.call("PUT", f"/bookings/{stay['id']}/guests", {"guests": [{
            "first_name": "Luca", "last_name": "Verdi", "sex": "M", "birth_date": "1985-01-01",
            "birth_country": "FR", "nationality": "FR", "document_type": "passport",
            "document_number": "18AB12345", "document_country": "FR",
            "document_issue_place": "FR", "email": "luca@example.com",
            "residence_country": "FR", "residence_place": "Lyon",
            "relationship": "single"}]})
        deadline = time.monotonic() + 60  # the worker builds the file
        while True:
            answer = api.call("GET", f"/bookings/{stay['id']}/police/file", expect=(200, 409))
            if "data" in answer or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        link = answer["data"]
        url = urllib.parse.urlsplit(link["download_url"])
        police_file = Client(base).call("GET", url.path + "?" + url.query, raw=True)
        assert police_file.startswith(b"16") and len(police_file.split(b"\r\n")[0]) == 168, police_file[:200]

        coming = api.call("POST", "/bookings", {
            "property_id": greek["id"], "guest_name": "Maria Ioannou", "guest_email": "maria@example.com",
            "arrival_date": days_ahead(60), "departure_date": days_ahead(64), "guest_count": 1},
            expect=(201,))["data"]
        checkin_url = api.call("POST", "/checkins/resend", {"booking_id": coming["id"]},
                               expect=(202,))["data"]["checkin_url"]
        page_path = urllib.parse.urlsplit(checkin_url).path
        page = Client(base).call("GET", page_path, raw=True).decode()
        for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', page):
            Client(base).call("GET", asset, raw=True)
        # Every language the page offers: its dates and counted nouns come from the CLDR data the
        # spec keeps (a locale left out is an error page in that language only).
        languages = re.findall(r'\?lang=([a-z]{2})" hreflang=', page)
        assert len(languages) >= 2, "the guest page offers no language"
        for lang in languages:
            translated = Client(base).call("GET", f"{page_path}?lang={lang}", raw=True).decode()
            assert f'<html lang="{lang}"' in translated, (lang, translated[:300])
        for lang in ("en", "el"):
            sign_in = Client(base).call("GET", f"/dashboard/sign-in?lang={lang}", raw=True).decode()
            assert f'lang="{lang}"' in sign_in, (lang, sign_in[:300])
        assets = re.findall(r'(?:src|href)="(/(?:static|dashboard/static)[^"]+)"', sign_in)
        assert assets, "the sign-in page names no asset"
        for asset in assets:
            Client(base).call("GET", asset, raw=True)

        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=30)
        assert code == 0, f"serve exited {code} on SIGTERM:\n{server.stderr.read()[-2000:]}"
    except BaseException:
        os.killpg(server.pid, signal.SIGKILL)
        out, err = server.communicate(timeout=10)
        print(out[-3000:], err[-5000:], sep="\n", file=sys.stderr)
        raise
    finally:
        mail.stop()
    print("every step of the binary's smoke test passed")
    print_figures(binary, size_mb, venv)
    return 0


def wait_for_answer(base: str, started: float) -> float:
    """Seconds from `started` until /healthz answers 200."""
    while time.monotonic() - started < 60:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1) as response:
                if response.status == 200:
                    return time.monotonic() - started
        except (urllib.error.URLError, ConnectionError, OSError):
            time.sleep(0.02)
    raise AssertionError("no answer within 60 s")


def start_figures(command: list[str], data_dir: Path, env: dict) -> tuple[float, float]:
    """One start of `serve`: seconds to the first answered request, MiB resident once idle."""
    port = free_port()
    started = time.monotonic()
    with tempfile.TemporaryFile() as errors:
        server = subprocess.Popen([*command, "--data-dir", str(data_dir), "serve", "--port",
                                   str(port)], stdout=subprocess.DEVNULL, stderr=errors, env=env,
                                  start_new_session=True)
        try:
            first_answer = wait_for_answer(f"http://127.0.0.1:{port}", started)
            time.sleep(3)  # idle: the worker settled
            idle_mib = resident_kib(server.pid) / 1024
            server.send_signal(signal.SIGTERM)
            assert server.wait(timeout=30) == 0, "serve did not stop cleanly on SIGTERM"
        except BaseException:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)
            errors.seek(0)
            print(errors.read()[-3000:].decode(errors="replace"), file=sys.stderr)
            raise
    return first_answer, idle_mib


# The installed size of the package and of what it requires (extras aside), from the dist-info
# RECORDs of the virtual environment: what `pip install .` puts beside Python.
INSTALLED_SIZE = r"""
import importlib.metadata as metadata, re
seen, wanted, total = set(), ["rentalcomply"], 0
while wanted:
    name = re.sub(r"[-_.]+", "-", wanted.pop()).lower()
    if name in seen:
        continue
    seen.add(name)
    try:
        dist = metadata.distribution(name)
    except metadata.PackageNotFoundError:  # another platform's requirement
        continue
    total += sum(path.stat().st_size for path in map(lambda f: f.locate(), dist.files or [])
                 if path.is_file())
    wanted += [re.match(r"[A-Za-z0-9._-]+", requirement).group(0)
               for requirement in dist.requires or [] if "extra ==" not in requirement]
print(total)
"""


def print_figures(binary: str, size_mb: float, venv: str | None) -> None:
    """Start the binary (and the installed package) three times each, in turns, in fresh data
    directories; print the medians beside the targets."""
    kinds = {"binary": [binary]}
    sizes = {"binary": size_mb}
    if venv:
        python = str(Path(venv) / "bin" / "python")
        kinds["package"] = [python, "-m", "rentalcomply"]
        sizes["package"] = int(subprocess.run([python, "-c", INSTALLED_SIZE], capture_output=True,
                                              text=True, check=True).stdout) / 1_000_000
    work = Path(tempfile.mkdtemp())
    env = {"PATH": "/usr/bin:/bin", "HOME": str(work)}
    samples: dict[str, list[tuple[float, float]]] = {kind: [] for kind in kinds}
    for kind, command in kinds.items():
        subprocess.run([*command, "--data-dir", str(work / kind), "init"], capture_output=True,
                       env=env, timeout=120, check=True)
    for _ in range(3):
        for kind, command in kinds.items():
            samples[kind].append(start_figures(command, work / kind, env))
    medians = {kind: (statistics.median(s[0] for s in runs), statistics.median(s[1] for s in runs))
               for kind, runs in samples.items()}
    # Figures, not checks: they vary with the machine's load, so they are printed beside their
    # targets for a person to read, and never decide the run.
    rows = [("size", "MB", "{:.1f}", lambda kind: sizes[kind], 30),
            ("start to first answered request", "s", "{:.2f}", lambda kind: medians[kind][0], 1.0),
            ("idle resident memory", "MiB", "{:.0f}", lambda kind: medians[kind][1], 60)]
    print("figures, not checks (medians of three starts; the package as `python -m rentalcomply`"
          " from its virtual environment, its size installed with its dependencies):")
    for name, unit, form, value, target in rows:
        line = f"  {name:<32}"
        for kind in kinds:
            line += f"  {kind} {form.format(value(kind))} {unit}"
        within = "within" if value("binary") <= target else "over"
        print(f"{line}  (binary's target at most {target} {unit}: {within})")


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
