"""A tourist tax return is a period filing: a town's month of 20 stays becomes a filing ready
once the month ends, whose CSV, XLSX and PDF hold the figures the form asks (their totals the sum
of the stays'), due on the rule set's day and announced at risk before it; the host marks it
filed. Italy's annual declaration sums a year of 200 stays per comune and structure."""

from __future__ import annotations

import csv
import datetime as dt
import io
import subprocess
import zipfile

import babel.dates
import babel.numbers
import openpyxl
import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.core.models import Event
from rentalcomply.dashboard import users
from rentalcomply.filings import sweep
from rentalcomply.filings.models import Filing
from rentalcomply.filings.period_dates import bounds, period_of
from rentalcomply.properties import service as properties
from rentalcomply.taxes import service as taxes
from tests.taxes.conftest import own_rule_set

RATES = FeeRates(800, 200, 1500, 400, frozenset(range(4, 11)))
MONTHLY = {"every": "month", "due_day": 16, "due_months_after": 1}


@pytest.fixture
def month(settings):
    """A month ahead of whatever today is: the clock stands ten days before it starts."""
    first = (clock.today().replace(day=1) + dt.timedelta(days=62)).replace(day=1)
    clock.freeze(dt.datetime.combine(first - dt.timedelta(days=10), dt.time(9, 0)))
    yield period_of(first, "month")
    clock.reset()


def at(day: dt.date, hour: int = 8) -> None:
    clock.travel(dt.datetime.combine(day, dt.time(hour, 0)) - clock.utcnow())


def town(owner, name="Casa Paese", rule=None, returns=MONTHLY, **rule_changes):
    """An Italian flat (no region: no statistics owed) charged a town's tax with a return."""
    prop = properties.create_property(owner.account_id, name=name, address=f"Via Roma 1, {name}",
                                      country="IT", timezone="Europe/Rome", max_guests=8)
    if rule is None:
        rule = owner.post_json("/api/v1/tax-rules", own_rule_set(
            returns=returns, platform_channels=["airbnb"], **rule_changes), status=201).json["data"]
    owner.patch_json(f"/api/v1/properties/{prop.id}", {"tax_rules": [rule["id"]]})
    return prop, rule


def stay(owner, prop, arrival: dt.date, nights: int, guests: int, channel="manual"):
    with atomic():
        return bookings.create_booking(
            owner.account_id, rates=RATES, property_id=prop.id, guest_name=f"Guest {arrival}",
            arrival_date=arrival, departure_date=arrival + dt.timedelta(days=nights),
            guest_count=guests, channel=channel, source=None if channel != "manual" else "direct")


def twenty_stays(owner, prop, first: dt.date) -> list:
    """20 stays one after the other: 1 to 4 guests, 1 or 2 nights; every fifth by Airbnb (which
    collects the tax itself), a child in some, a driver exempt, every third collected in cash."""
    made = []
    arrival = first
    for index in range(20):
        booking = stay(owner, prop, arrival, nights=nights_of(index), guests=index % 4 + 1,
                       channel=channel_of(index))
        arrival += dt.timedelta(days=nights_of(index))
        if index % 6 == 1:  # a child of 8 and an adult
            taxes.record_party(booking, [{"birth_date": "1980-01-01"},
                                         {"birth_date": f"{first.year - 8}-01-01"}])
        if index % 7 == 2:
            with atomic():
                taxes.declare_exemption(owner.account_id, booking, 1, "driver")
        if index % 3 == 0 and channel_of(index) == "manual":
            owner.post_json(f"/api/v1/bookings/{booking.id}/tourist-tax/collected",
                            {"method": "cash"})
        made.append(booking.id)
    return made


def nights_of(index: int) -> int:
    return 2 if index % 5 == 2 else 1


def channel_of(index: int) -> str:
    return "airbnb" if index % 5 == 4 else "manual"


def the_filing(prop, authority="tourist_tax_it") -> Filing:
    return Filing.get((Filing.property == prop.id) & (Filing.authority == authority))


def files_of(owner, row: Filing) -> dict[str, bytes]:
    [listed] = owner.get(f"/api/v1/filings?property_id={row.property_id}&period={row.period}"
                         ).json["data"]
    download = owner.app.get(listed["file"]["download_url"].replace("https://stay.example.org", ""))
    with zipfile.ZipFile(io.BytesIO(download.body)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_a_towns_month_of_twenty_stays_is_a_return_whose_totals_are_the_stays(month, owner,
                                                                             tmp_path):
    prop, rule = town(owner)
    first, last = bounds(month)
    at(first)
    ids = twenty_stays(owner, prop, first)
    sweep.run_due()
    assert the_filing(prop).status == "waiting"
    at(last + dt.timedelta(days=1))
    sweep.run_due()
    row = the_filing(prop)
    assert (row.status, row.kind, row.period) == ("ready", "tax_return", month)
    # Due on the 16th of the next month, 23:59 in Rome (CET or CEST: 21:59 or 22:59 UTC).
    due = (last + dt.timedelta(days=16))
    assert row.deadline.date() == due and row.deadline.hour in (21, 22)

    stays = [owner.get(f"/api/v1/bookings/{booking_id}").json["data"]["tourist_tax"]
             for booking_id in ids]
    due_total = round(sum(tax["amount"] for tax in stays), 2)
    platform_total = round(sum(tax["platform_amount"] for tax in stays), 2)
    collected_total = round(sum(tax["amount"] for tax in stays if tax["status"] == "collected"), 2)
    assert due_total > 0 and platform_total > 0 and collected_total > 0

    files = files_of(owner, row)
    assert sorted(files) == sorted(f"tourist-tax-casa-paese-{month}.{ext}"
                                   for ext in ("csv", "xlsx", "pdf"))
    table = list(csv.DictReader(io.StringIO(files[f"tourist-tax-casa-paese-{month}.csv"]
                                            .decode("utf-8-sig"))))
    [the_month] = [line for line in table if line["Month"] == month]
    [total] = [line for line in table if line["Month"] == "Total"]
    for line in (the_month, total):
        assert float(line["Tax due"]) == due_total
        assert float(line["Collected"]) == collected_total
        assert float(line["Collected by platforms"]) == platform_total
        assert int(line["Stays"]) == 20
        assert int(line["Guests"]) == sum(index % 4 + 1 for index in range(20))
        assert int(line["Nights"]) == sum(nights_of(index) for index in range(20))
    assert int(total["Exempt: age"]) == sum(1 for index in range(20) if index % 6 == 1)
    assert int(total["Exempt: driver"]) == sum(1 for index in range(20) if index % 7 == 2)
    assert float(total["To collect"]) == round(due_total - collected_total, 2)

    sheet = openpyxl.load_workbook(io.BytesIO(files[f"tourist-tax-casa-paese-{month}.xlsx"])).active
    rows = list(sheet.iter_rows(values_only=True))
    head = rows[0]
    [read_total] = [r for r in rows if r[head.index("Month")] == "Total"]
    assert read_total[head.index("Tax due")] == pytest.approx(due_total)
    assert read_total[head.index("Collected by platforms")] == pytest.approx(platform_total)

    pdf_path = tmp_path / "return.pdf"
    pdf_path.write_bytes(files[f"tourist-tax-casa-paese-{month}.pdf"])
    text = subprocess.run(["pdftotext", "-layout", str(pdf_path), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert f"Tourist tax return {month}" in text
    assert "Comune di Paese" in text and "Casa Paese" in text
    assert f"{due_total:,.2f}" in text and f"{platform_total:,.2f}" in text
    assert "No authority publishes an upload format or an API" in text
    assert "Tax due" in text and "Page 1 of 1" in text

    done = owner.post_json(f"/api/v1/filings/{row.id}/filed", {"reference": "PROT 7"}).json["data"]
    assert (done["status"], done["reference"]) == ("submitted", "PROT 7")


def pdf_text(content: bytes, tmp_path) -> str:
    pdf_path = tmp_path / "return.pdf"
    pdf_path.write_bytes(content)
    return subprocess.run(["pdftotext", "-layout", str(pdf_path), "-"], capture_output=True,
                          text=True, check=True).stdout


def test_an_account_whose_people_chose_italian_files_its_return_in_italian(month, owner,
                                                                          tmp_path):
    for email in ("anna@example.org", "bruno@example.org"):
        user, _ = users.create_user(owner.account_id, email)
        users.remember_language(user.id, "it")
    prop, _ = town(owner)
    first, last = bounds(month)
    at(first)
    ids = [stay(owner, prop, first + dt.timedelta(days=index * 3), nights=2, guests=index + 1).id
           for index in range(3)]
    at(last + dt.timedelta(days=1))
    sweep.run_due()
    due_total = round(sum(owner.get(f"/api/v1/bookings/{booking_id}").json["data"]
                          ["tourist_tax"]["amount"] for booking_id in ids), 2)
    files = files_of(owner, the_filing(prop))

    table = list(csv.DictReader(io.StringIO(files[f"tourist-tax-casa-paese-{month}.csv"]
                                            .decode("utf-8-sig"))))
    assert list(table[0])[:4] == ["Regole d'imposta", "Ente", "Mese", "Soggiorni"]
    [total] = [line for line in table if line["Mese"] == "Totale"]
    assert float(total["Imposta dovuta"]) == due_total  # the figures as in English: 12.00
    assert int(total["Soggiorni"]) == 3 and int(total["Ospiti"]) == 6
    sheet = openpyxl.load_workbook(io.BytesIO(files[f"tourist-tax-casa-paese-{month}.xlsx"])).active
    assert sheet.title == f"Dichiarazione {month}"
    assert [cell.value for cell in sheet[1]][2:4] == ["Mese", "Soggiorni"]

    text = pdf_text(files[f"tourist-tax-casa-paese-{month}.pdf"], tmp_path)
    assert f"Dichiarazione dell'imposta di soggiorno {month}" in text
    assert "Struttura: Casa Paese" in text and "Ente: Comune di Paese" in text
    assert all(word in text for word in ("Soggiorni", "Ospiti", "Notti", "Riscossa", "Totale"))
    assert "Pagina 1 di 1" in text
    assert "Nessun ente pubblica un formato di caricamento" in text
    assert babel.dates.format_date(first, "long", locale="it_IT") in text  # "1 gennaio 2027"
    assert babel.dates.format_skeleton("yMMMM", first, locale="it_IT") in text
    assert babel.numbers.format_decimal(due_total, "#,##0.00", locale="it_IT") in text


def test_a_quarterly_return_is_announced_at_risk_before_its_deadline(month, owner):
    prop, _ = town(owner, returns={"every": "quarter", "due_day": 16, "due_months_after": 1})
    first = bounds(month)[0]
    at(first)
    stay(owner, prop, first, nights=2, guests=2)
    sweep.run_due()
    quarter = period_of(first, "quarter")
    row = the_filing(prop)
    assert row.period == quarter
    deadline_day = bounds(quarter)[1] + dt.timedelta(days=16)
    at(deadline_day - dt.timedelta(days=1))
    sweep.run_due()
    assert the_filing(prop).at_risk_at is not None
    announced = [e.data for e in Event.select().where(Event.type == "filing.at_risk")]
    # From January to June, last year's annual declaration (it_tax_declaration) is due too and
    # may be announced beside it: only the periodic returns are this test's.
    assert [(data["authority"], data["period"]) for data in announced
            if data["authority"] == "tourist_tax_it"] == [("tourist_tax_it", quarter)]


def test_a_half_yearly_return_lists_its_six_months(month, owner):
    prop, _ = town(owner, returns={"every": "half_year", "due_day": 20, "due_months_after": 1})
    first = bounds(month)[0]
    at(first)
    stay(owner, prop, first, nights=2, guests=2)
    half = period_of(first, "half_year")
    at(bounds(half)[1] + dt.timedelta(days=1))
    sweep.run_due()
    row = the_filing(prop)
    assert (row.period, row.status) == (half, "ready")
    assert row.deadline.date() == bounds(half)[1] + dt.timedelta(days=20)
    table = list(csv.DictReader(io.StringIO(files_of(owner, row)[
        f"tourist-tax-casa-paese-{half}.csv"].decode("utf-8-sig"))))
    assert [line["Month"] for line in table][:6] == [
        f"{bounds(half)[0].year}-{m:02d}" for m in range(bounds(half)[0].month,
                                                         bounds(half)[0].month + 6)]
    assert float(table[-1]["Tax due"]) == 8.0  # 2 guests × 2 nights × €2


def test_a_stay_whose_tax_cannot_be_computed_holds_the_return_in_words(month, owner):
    first, last = bounds(month)
    prop, _ = town(owner, rates=[{"from": "2020-01-01", "to": (first + dt.timedelta(days=1))
                                  .isoformat(), "amount": 2.0, "source": "delibera"}])
    at(first)
    stay(owner, prop, first, nights=4, guests=2)
    at(last + dt.timedelta(days=1))
    sweep.run_due()
    row = the_filing(prop)
    assert row.status == "held"
    assert "its tourist tax cannot be computed" in row.held_reason


def test_an_italian_year_of_two_hundred_stays_over_three_comuni_is_declared_by_comune_and_structure(
        settings, owner):
    year = clock.today().year + 1
    clock.freeze(dt.datetime(year, 1, 2, 9, 0))
    try:
        comuni = []
        for name in ("Alba", "Bra", "Cuneo"):
            rule = owner.post_json("/api/v1/tax-rules", own_rule_set(
                name=f"Imposta di soggiorno, {name}", authority=f"Comune di {name}",
                max_nights=None), status=201).json["data"]
            comuni.append(rule)
        flats = [town(owner, f"Casa {index}", rule=comuni[index % 3])[0] for index in range(5)]
        expected: dict[tuple[str, str], float] = {}
        start = dt.date(year, 1, 3)
        for index in range(200):
            prop = flats[index % 5]
            arrival = start + dt.timedelta(days=(index // 5) * 8)
            booking = stay(owner, prop, arrival, nights=index % 3 + 1, guests=index % 4 + 1)
            amount = taxes.tax_views([booking.id])[booking.id]["amount"]
            key = (comuni[flats.index(prop) % 3]["authority"], prop.name)
            expected[key] = round(expected.get(key, 0) + amount, 2)
        at(dt.date(year + 1, 1, 1))
        sweep.run_due()
        sweep.run_due()
        # One declaration for the host's structures, filed on the oldest property.
        [declaring] = Filing.select().where((Filing.authority == "it_tax_declaration")
                                            & (Filing.period == str(year)))
        oldest = min(flats, key=lambda prop: (prop.created_at, prop.id))
        assert (declaring.property_id, declaring.period, declaring.status) == (
            oldest.id, str(year), "ready")
        assert declaring.deadline.date() == dt.date(year + 1, 6, 30)
        files = files_of(owner, declaring)
        table = list(csv.DictReader(io.StringIO(
            files[f"imposta-di-soggiorno-dichiarazione-{year}.csv"].decode("utf-8-sig"))))
        structures = {(line["Comune"], line["Structure"]): float(line["Tax due"])
                      for line in table if line["Structure"] not in ("Total", "")}
        assert structures == expected
        per_comune = {line["Comune"]: int(line["Stays"]) for line in table
                      if line["Structure"] == "Total"}
        assert per_comune == {"Comune di Alba": 80, "Comune di Bra": 80, "Comune di Cuneo": 40}
        [year_total] = [line for line in table if line["Comune"] == "Total"]
        assert int(year_total["Stays"]) == 200
        assert float(year_total["Tax due"]) == round(sum(expected.values()), 2)
    finally:
        clock.reset()


def test_a_rule_sets_return_is_kept_or_refused_in_words(owner):
    kept = owner.post_json("/api/v1/tax-rules", own_rule_set(returns={"every": "quarter",
                                                                      "due_day": 16}),
                           status=201).json["data"]
    assert kept["returns"] == {"every": "quarter", "due_day": 16, "due_months_after": 1}
    none = owner.post_json("/api/v1/tax-rules", own_rule_set(returns=None), status=201).json["data"]
    assert none["returns"] is None
    refused = owner.post_json("/api/v1/tax-rules", own_rule_set(
        returns={"every": "fortnight", "due_day": 40}), expect_errors=True)
    assert refused.status_int == 400
    assert [d["field"] for d in refused.json["error"]["details"]] == ["returns"]
    assert "month, quarter, half_year, year" in refused.json["error"]["details"][0]["message"]
