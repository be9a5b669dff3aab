"""Build the data a release that kept police filings in `police_filing` leaves behind, and record
what a client of that release sees; tests/upgrade/test_filing_engine_upgrade.py starts the
current code on it.

Run it with that release's package first on the path, from a checkout of it:

    git worktree add /tmp/previous-release <commit> --detach
    PYTHONPATH=/tmp/previous-release python tests/upgrade/make_previous_release.py

It writes tests/upgrade/previous_release/ (or the folder given as the first argument):

- `rentalcomply.sql`: the SQLite database as SQL text (sqlite3's iterdump);
- `secret.key`: the data directory's server secret, which opens the sealed files, receipts and
  guest data (a test fixture's secret, made for this data alone);
- `answers.json`: per booking, `GET /api/v1/bookings/{id}/police`; per report,
  `GET /api/v1/reports/{code}`; the SHA-256 of every police file and receipt (opened through the
  release's own service functions, and downloaded through its API), and of every report file.

What the data holds: an account with a property per police connector (`none` (Greece, with the
AADE reports), `file`, `alloggiati`, `ses_hospedajes`, `siba`), bookings with their check-ins
completed, a filing of every kind in every status, with the file or receipt that status has,
and a report in every status, with its files where it has some. The machinery makes what it
makes by itself (a check-in completed, a `file` connector's file, a report's files); the states
an authority's answer would bring are then written into the rows through the release's models.
Nothing here is read by the product: it is a test's fixture.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import shutil
import sqlite3
import sys
import tempfile
import urllib.parse
from pathlib import Path

import webtest

from rentalcomply.accounts import service as accounts
from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.config import load_settings
from rentalcomply.core import clock, sealing
from rentalcomply.core.db import db
from rentalcomply.core.models import Booking, Property
from rentalcomply.police import service as police
from rentalcomply.police.models import PoliceFiling
from rentalcomply.properties import service as properties
from rentalcomply.reports import service as reports
from rentalcomply.reports.models import Report
from rentalcomply.runtime import bootstrap
from rentalcomply.web.app import create_app

HERE = Path(__file__).resolve().parent
PUBLIC_URL = "https://stay.example.org"
HTTPS_ENVIRON = {"wsgi.url_scheme": "https", "HTTP_HOST": "api.example.org",
                 "REMOTE_ADDR": "203.0.113.7"}
# No authority answers here: a filing the machinery tries meets a closed loopback port (a
# transient error) and is then given the state it is meant to have.
NOBODY = "http://127.0.0.1:9/"
SETTINGS_ENV = {
    "RENTALCOMPLY_QUEUE_URL": "memory://",
    "RENTALCOMPLY_SERVER_PUBLIC_URL": PUBLIC_URL,
    "RENTALCOMPLY_POLICE_ALLOGGIATI_URL": NOBODY,
    "RENTALCOMPLY_POLICE_SES_URL": NOBODY,
    "RENTALCOMPLY_POLICE_SIBA_URL": NOBODY,
    "RENTALCOMPLY_POLICE_TIMEOUT_SECONDS": "2",
    "RENTALCOMPLY_RATE_LIMIT_PER_MINUTE": "1000000",
}
# The fixture is committed: kept small.
MAX_FIXTURE_BYTES = 300_000
# Every timestamp the data holds comes from this clock, stepped a few seconds per change.
START = dt.datetime(2026, 10, 1, 9, 0, 0)

KINDS = ("arrival", "departure", "cancellation", "reservation", "rh_cancellation")
STATUSES = ("waiting", "queued", "sending", "polling", "ready", "submitted", "rejected", "failed",
            "held")
# Who files each kind: a departure is Portugal's (siba), the reservation and cancellations
# Spain's (ses_hospedajes); an arrival anyone's.
RESERVATION_KINDS = ("reservation", "rh_cancellation")
ARRIVAL_CONNECTOR = {"waiting": "alloggiati", "queued": "alloggiati", "sending": "ses_hospedajes",
                     "polling": "ses_hospedajes", "ready": "file", "submitted": "alloggiati",
                     "rejected": "siba", "failed": "alloggiati", "held": "alloggiati"}
# Arrivals besides the matrix: Spain's and Portugal's accepted filings, and Spain's held one
# (the file connector's are made its own way, in make_filings).
EXTRA_ARRIVALS = (("submitted", "ses_hospedajes"), ("submitted", "siba"),
                  ("held", "ses_hospedajes"))

SIGNATURE = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
             "+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
PARTIES = {
    "IT": [
        {"first_name": "Giulia", "last_name": "Bianchi", "sex": "F", "birth_date": "1979-03-12",
         "birth_country": "IT", "birth_municipality": "Roma", "birth_province": "RM",
         "nationality": "IT", "relationship": "head_of_family", "document_type": "passport",
         "document_number": "YA1234567", "document_country": "IT",
         "document_issue_place": "Roma", "phone": "+39 333 123 4567"},
        {"first_name": "Marco", "last_name": "Bianchi", "sex": "M", "birth_date": "1978-07-30",
         "birth_country": "DE", "nationality": "IT", "relationship": "family_member",
         "document_type": "id_card", "document_number": "CA12345AB", "document_country": "IT",
         "document_issue_place": "Milano"},
    ],
    "ES": [
        {"first_name": "José", "last_name": "Núñez", "second_last_name": "Peña", "sex": "M",
         "birth_date": "1980-03-14", "nationality": "ES", "document_type": "id_card",
         "document_number": "12345678Z", "document_country": "ES",
         "document_support_number": "BAA000589", "address_street": "Calle Mayor 5",
         "address_city": "Madrid", "address_postcode": "28013", "address_country": "ES",
         "email": "jose@example.es", "signature": SIGNATURE},
        {"first_name": "Lucía", "last_name": "Núñez", "second_last_name": "Gil", "sex": "F",
         "birth_date": "2016-09-02", "nationality": "ES", "minor_relationship": "parent"},
    ],
    "PT": [
        {"first_name": "Jürgen", "last_name": "Müller", "sex": "M", "birth_date": "1975-02-03",
         "nationality": "DE", "document_type": "passport", "document_number": "C01X00T47",
         "document_country": "DE", "residence_country": "DE", "residence_place": "München",
         "email": "j@example.de"},
    ],
}
PROPERTIES = {
    "file": {"country": "IT", "timezone": "Europe/Rome", "name": "Casa Limone",
             "settings": {"apartment_id": "000777"}, "credentials": None},
    "alloggiati": {"country": "IT", "timezone": "Europe/Rome", "name": "Casa Roma",
                   "settings": {"apartment_id": "000778"},
                   "credentials": {"user": "RM012345", "password": "segreto", "wskey": "WSKEY1"}},
    "ses_hospedajes": {"country": "ES", "timezone": "Europe/Madrid", "name": "Casa Sol",
                       "settings": {"codigo_arrendador": "0000000042",
                                    "codigo_establecimiento": "0000012345"},
                       "credentials": {"user": "ses-user", "password": "ses-pass"}},
    "siba": {"country": "PT", "timezone": "Europe/Lisbon", "name": "Casa Azul",
             "settings": {"unidade_hoteleira": "121212121", "estabelecimento": "0"},
             "credentials": {"chave_acesso": "999999999"}},
}


def tick(seconds: int = 3) -> None:
    clock.travel(dt.timedelta(seconds=seconds))


class Builder:
    def __init__(self, settings, app):
        self.settings = settings
        self.rates = FeeRates.from_settings(settings)
        self.account_id = accounts.create_account("Agency Previous").id
        _, key = accounts.create_key(self.account_id, ["read", "write"], name="fixture")
        self.app = app
        self.app.authorization = ("Bearer", key)
        self.properties: dict[str, str] = {}
        self.next_arrival: dict[str, dt.date] = {}
        self.bookings: list[str] = []
        self.states: list[tuple[str, str, str]] = []

    # --- properties and bookings ---------------------------------------------------------------

    def make_properties(self) -> None:
        greek = properties.create_property(self.account_id, name="Studio Plaka",
                                           address="Adrianou 12, Athens",
                                           aade_property_id="00000000001")
        self.properties["none"] = greek.id
        self.next_arrival["none"] = dt.date(2026, 8, 1)
        for connector, spec in PROPERTIES.items():
            tick()
            prop = properties.create_property(self.account_id, name=spec["name"],
                                              address="Via 1", country=spec["country"],
                                              timezone=spec["timezone"], max_guests=6)
            change = {"police_connector": connector, "police_settings": spec["settings"]}
            if spec["credentials"]:
                change["police_credentials"] = spec["credentials"]
            self.app.patch_json(f"/api/v1/properties/{prop.id}", change)
            self.properties[connector] = prop.id
            self.next_arrival[connector] = dt.date(2026, 8, 1)

    def book(self, connector: str, *, complete: bool = True, nights: int = 2,
             arrival: dt.date | None = None, price: int | None = None) -> Booking:
        """A booking on the connector's property, the day after the previous one ended; its
        check-in completed through the API unless `complete` is False."""
        tick()
        prop_id = self.properties[connector]
        country = PROPERTIES[connector]["country"] if connector != "none" else "GR"
        arrival = arrival or self.next_arrival[connector]
        departure = arrival + dt.timedelta(days=nights)
        self.next_arrival[connector] = max(self.next_arrival[connector], departure)
        party = PARTIES.get(country, [])
        booking = bookings.create_booking(
            self.account_id, rates=self.rates, property_id=prop_id,
            guest_name="Lead Guest", guest_email="lead@example.org", guest_phone="+30 210 0000000",
            arrival_date=arrival, departure_date=departure, guest_count=len(party) or 2,
            total_price=price if price is not None else 300, payment_method="cash")
        self.bookings.append(booking.id)
        if complete and party:
            tick()
            self.app.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": party})
        return Booking.get_by_id(booking.id)

    # --- filings --------------------------------------------------------------------------------

    def filing(self, kinds: tuple[str, ...], status: str, connector: str) -> None:
        """A booking whose filings of `kinds` are to be in `status` (set_states gives it that
        state). Its check-in is completed unless only a reservation is filed, or the arrival
        waits for it."""
        complete = not (set(kinds) <= set(RESERVATION_KINDS)
                        or (kinds == ("arrival",) and status == "waiting"))
        booking = self.book(connector, complete=complete)
        if "cancellation" in kinds:
            tick()
            bookings.cancel_booking(self.account_id, booking.id, amount_kept=None)
        prop = Property.get_by_id(booking.property_id)
        for kind in kinds:
            tick()
            row = police._filing_row(booking, prop, kind)
            self.states.append((row.id, status, connector))

    def set_states(self) -> None:
        """Each filing's state, written last: any change that commits an event runs the
        release's filing machinery, which would move a queued, sending or polling row on."""
        for filing_id, status, connector in self.states:
            row = PoliceFiling.get_by_id(filing_id)
            if row.status == status == "ready" and row.file_sealed:
                continue  # the file connector built it: the genuine article
            tick()
            booking = Booking.get_by_id(row.booking_id)
            for name, value in self.fields_of(row, booking, status, connector).items():
                setattr(row, name, value)
            row.save()

    def fields_of(self, row: PoliceFiling, booking: Booking, status: str, connector: str) -> dict:
        now = clock.utcnow()
        guests = [{"index": i, "accepted": True, "code": None, "message": None}
                  for i in range(booking.guest_count)]
        fields: dict = {"status": status, "connector": connector, "updated_at": now,
                        "next_attempt_at": None, "sending_since": None, "error": None}
        if status == "waiting":
            fields.update(attempts=0, guests=[])
            if row.kind == "reservation":
                fields["error"] = police.HOLDER_UNKNOWN
        elif status == "queued":
            fields.update(attempts=2, next_attempt_at=now + dt.timedelta(minutes=4),
                          error="connection refused by the authority's server")
        elif status == "sending":
            fields.update(attempts=1, sending_since=now - dt.timedelta(seconds=20))
        elif status == "polling":
            fields.update(attempts=1, remote_id=f"LOTE-{row.id[-6:]}",
                          next_attempt_at=now + dt.timedelta(minutes=1))
        elif status == "ready":
            fields.update(attempts=1, guests=[])
        elif status == "submitted":
            fields.update(attempts=1, guests=guests, submitted_at=now,
                          reference=f"RIF-{row.id[-8:]}")
        elif status == "rejected":
            guests[-1] = {"index": len(guests) - 1, "accepted": False, "code": "DATOS",
                          "message": "the document number is not valid"}
            fields.update(attempts=1, guests=guests,
                          error=f"guest {len(guests)}: DATOS the document number is not valid")
        elif status == "failed":
            fields.update(attempts=8, at_risk_at=now - dt.timedelta(hours=1),
                          error="credentials refused: the authority refused the user name "
                                "(after 8 attempts)")
        elif status == "held":
            field = "address_city" if connector == "ses_hospedajes" else "birth_municipality"
            fields.update(attempts=0, at_risk_at=now - dt.timedelta(hours=2),
                          error=f"held: guest 1 {field} has no code in the starter code "
                                "tables; load the authority's tables (police refresh-codes)")
        if (status == "ready" or (status == "submitted" and connector == "file")) \
                and not row.file_sealed:
            fields.update(file_sealed=sealing.seal(police.DOCUMENT_PURPOSE + row.id,
                                                   f"file of {row.id}\r\n".encode()),
                          file_name=f"{row.kind}-{row.id}.txt",
                          file_type="text/plain; charset=utf-8")
        if status in ("submitted", "rejected", "polling") and connector != "file":
            receipt = b"%PDF-1.4\n% receipt of " + row.id.encode() + b"\n%%EOF\n"
            fields.update(receipt_sealed=sealing.seal(police.DOCUMENT_PURPOSE + row.id
                                                      + ":receipt", receipt),
                          receipt_type="application/pdf")
        return fields

    def make_filings(self) -> None:
        for status in STATUSES:
            self.filing(("arrival",), status, ARRIVAL_CONNECTOR[status])
            self.filing(("departure",), status, "siba")
            self.filing(("cancellation",), status, "ses_hospedajes")
            # A reservation whose dates changed: its cancellation beside it.
            self.filing(RESERVATION_KINDS, status, "ses_hospedajes")
        for status, connector in EXTRA_ARRIVALS:
            self.filing(("arrival",), status, connector)
        # The file connector's own way: a check-in completed builds the file (ready), and the
        # host marks it filed (submitted) through the API.
        booking = self.book("file")
        assert PoliceFiling.get((PoliceFiling.booking == booking.id)
                                & (PoliceFiling.kind == "arrival")).status == "ready"
        booking = self.book("file")
        tick()
        self.app.post_json(f"/api/v1/bookings/{booking.id}/police/filed",
                           {"reference": "RICEVUTA 2026-08"})
        # A booking of a property that files nothing.
        self.book("none", complete=False)

    # --- reports ---------------------------------------------------------------------------------

    def make_reports(self) -> None:
        """A report in every status: completed and submitted with their files, pending and
        generating as a request leaves them, failed with its reason."""
        greek = "none"
        for month in range(1, 7):
            self.book(greek, complete=False, arrival=dt.date(2025, month, 10), nights=3,
                      price=250 + 10 * month)
        tick()
        reports.generate(self.settings, self.account_id, 2025, 1)
        tick()
        reports.generate(self.settings, self.account_id, 2025, 2)
        tick()
        reports.record_submission(self.account_id, "rep_2025_02", "ΑΑΔΕ-2025-000042")
        tick()
        reports.request_generation(self.account_id, 2025, 3)            # pending, queued
        tick()
        report = reports.request_generation(self.account_id, 2025, 4)   # generating
        report.status, report.job = "generating", "running"
        report.lease_owner = "previous-host:4242:abcd1234:1"
        report.lease_expires_at = clock.utcnow() + dt.timedelta(seconds=30)
        report.save()
        tick()
        report = reports.request_generation(self.account_id, 2025, 5)   # failed
        report.status, report.job, report.lease_expires_at = "failed", None, None
        report.error = "writing the PDF: the font file is missing"
        report.save()
        assert sorted({r.status for r in Report.select()}) == sorted(reports.STATUSES)

    # --- what a client sees ---------------------------------------------------------------------

    def answers(self) -> dict:
        police_answers = {booking_id: self.answer(f"/api/v1/bookings/{booking_id}/police")
                          for booking_id in self.bookings}
        report_answers = {report.code: self.answer(f"/api/v1/reports/{report.code}")
                          for report in Report.select().order_by(Report.code)}
        files, receipts = [], []
        for row in PoliceFiling.select().order_by(PoliceFiling.id):
            if row.file_sealed:
                files.append(self.police_file(row))
            if row.receipt_sealed:
                receipts.append(self.police_receipt(row))
        report_files = []
        for report in Report.select().where(Report.files.is_null(False)).order_by(Report.code):
            for fmt in reports.FORMATS:
                data, name = reports.read_file(self.settings, self.account_id, report.code, fmt)
                report_files.append({"report": report.code, "format": fmt, "filename": name,
                                     "sha256": hashlib.sha256(data).hexdigest()})
        return {"account_id": self.account_id, "public_url": PUBLIC_URL,
                "police": police_answers, "reports": report_answers,
                "police_files": files, "police_receipts": receipts, "report_files": report_files}

    def answer(self, path: str) -> dict:
        response = self.app.get(path)
        return {"status": response.status_int, "content_type": response.headers["Content-Type"],
                "body": response.text}

    def police_file(self, row: PoliceFiling) -> dict:
        link = police.file_link(self.settings, self.account_id, row.booking_id, row.kind)
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(link["download_url"]).query))
        data, filename, content_type = police.open_signed_file(self.account_id, row.id, query)
        digest = hashlib.sha256(data).hexdigest()
        # The same bytes through the API, as a client downloads them.
        answer = self.app.get(f"/api/v1/bookings/{row.booking_id}/police/file",
                              {"kind": row.kind}).json["data"]
        download = self.app.get(answer["download_url"][len(PUBLIC_URL):])
        assert hashlib.sha256(download.body).hexdigest() == digest
        return {"booking_id": row.booking_id, "kind": row.kind, "filing_id": row.id,
                "filename": filename, "content_type": content_type, "sha256": digest,
                "download_content_type": download.headers["Content-Type"],
                "content_disposition": download.headers["Content-Disposition"]}

    def police_receipt(self, row: PoliceFiling) -> dict:
        data, content_type = police.receipt(self.account_id, row.booking_id, row.kind)
        digest = hashlib.sha256(data).hexdigest()
        download = self.app.get(f"/api/v1/bookings/{row.booking_id}/police/receipt",
                                {"kind": row.kind})
        assert hashlib.sha256(download.body).hexdigest() == digest
        return {"booking_id": row.booking_id, "kind": row.kind, "filing_id": row.id,
                "content_type": content_type, "sha256": digest,
                "download_content_type": download.headers["Content-Type"],
                "content_disposition": download.headers["Content-Disposition"]}


def check_coverage() -> None:
    """Every kind in every status is there, or the fixture would test less than it claims."""
    pairs = {(row.kind, row.status) for row in PoliceFiling.select()}
    missing = [(k, s) for k in KINDS for s in STATUSES if (k, s) not in pairs]
    assert not missing, missing
    connectors = {row.connector for row in PoliceFiling.select()}
    assert connectors == {"file", "alloggiati", "ses_hospedajes", "siba"}, connectors
    assert PoliceFiling.select().where(PoliceFiling.file_sealed.is_null(False)).count() >= 3
    assert PoliceFiling.select().where(PoliceFiling.receipt_sealed.is_null(False)).count() >= 3


def main(target: Path) -> None:
    assert hasattr(police, "PoliceFiling"), "run this with the previous release on PYTHONPATH"
    work = Path(tempfile.mkdtemp(prefix="rentalcomply-previous-"))
    try:
        settings = load_settings(data_dir=work / "data", env=dict(SETTINGS_ENV))
        clock.freeze(START)
        bootstrap(settings)
        app = webtest.TestApp(create_app(settings), extra_environ=dict(HTTPS_ENVIRON))
        builder = Builder(settings, app)
        builder.make_properties()
        builder.make_reports()
        builder.make_filings()
        builder.set_states()
        check_coverage()
        answers = builder.answers()
        # The outbox of events (most of the database) and the log of the fixture's own
        # requests: nothing the upgrade touches, and the fixture stays small.
        db.execute_sql('DELETE FROM "event"')
        db.execute_sql('DELETE FROM "activity"')
        db.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()
        target.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(work / "data" / "rentalcomply.db")
        try:
            dump = "\n".join(connection.iterdump()) + "\n"
        finally:
            connection.close()
        (target / "rentalcomply.sql").write_text(dump, encoding="utf-8")
        shutil.copyfile(work / "data" / "secret.key", target / "secret.key")
        (target / "answers.json").write_text(
            json.dumps(answers, indent=0, separators=(",", ":"), sort_keys=True,
                       ensure_ascii=False) + "\n",
            encoding="utf-8")
        size = sum(path.stat().st_size for path in target.iterdir())
        assert size < MAX_FIXTURE_BYTES, f"the fixture grew to {size} bytes"
        print(f"wrote {target} ({size} bytes)")
    finally:
        clock.reset()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "previous_release")
