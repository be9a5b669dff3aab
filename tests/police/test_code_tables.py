"""The authority's code tables: loaded into the database from the portal's files or the service's
`Tabella`, used by every process from its next filing on; and on a fresh install, the tables
shipped with the package (the authority's own, codes/README.md), so that every town is coded from
the first start."""

import csv
import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rentalcomply.core import clock
from rentalcomply.core.models import Booking
from rentalcomply import codes
from rentalcomply.filings import sweep
from rentalcomply.filings import code_refresh as remote
from rentalcomply.authorities.alloggiati.connector import CONNECTOR
from rentalcomply.filings.connector import Guest, Stay
from rentalcomply.authorities.alloggiati import format as records

from tests.cli.conftest import cli  # noqa: F401 - the fixture
from tests.police.conftest import CREDENTIALS, family, put_guests

TABLES = Path(__file__).parent / "alloggiati_tables"
FILES = [TABLES / name for name in ("comuni.csv", "stati.csv", "documenti.csv",
                                    "tipo_alloggiato.csv")]
STAY = Stay(booking_id="book_1", reference="HM123", arrival=dt.date(2026, 7, 10),
            departure=dt.date(2026, 7, 13), booked_on=dt.date(2026, 5, 1), guest_count=1,
            payment_method=None, property_country="IT", property_name="Casa Limone")


def pad(text, width):
    return text + " " * (width - len(text))


def reference(name):
    with open(TABLES / name, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def guest(**data):
    data = {"first_name": "Ada", "last_name": "Prova", "sex": "F", "document_type": "passport",
            "document_number": "AB1234567", **data}
    data["birth_date"] = dt.date.fromisoformat(data["birth_date"])
    return Guest(index=0, role="single", data=data)


def refresh_in_another_process(settings, *files):
    """`rentalcomply police refresh-codes` run as its own process on the same database."""
    env = {**os.environ, "RENTALCOMPLY_QUEUE_URL": "memory://"}
    if settings.database.url:
        env["RENTALCOMPLY_DATABASE_URL"] = settings.database.url
    done = subprocess.run([sys.executable, "-m", "rentalcomply", "--data-dir",
                           str(settings.data_dir), "police", "refresh-codes", "--country", "IT",
                           *map(str, files)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


# --- records after the portal's files are loaded ---------------------------------------------------

@pytest.fixture
def loaded(cli):  # noqa: F811
    cli("init")
    cli("police", "refresh-codes", "--country", "IT", *map(str, FILES))
    assert codes.it_full()


@pytest.mark.parametrize("country, state", [
    ("CA", "100000509"), ("BR", "100000605"), ("AR", "100000602"), ("LU", "100000226"),
    ("MX", "100000527"), ("RU", "100000245")])
def test_a_foreign_guest_is_filed_with_the_authoritys_state_code(loaded, country, state):
    line = records.record(STAY, guest(birth_date="1985-04-01", birth_country=country,
                                      nationality=country, document_country=country))
    assert line == ("16" "10/07/2026" "03" + pad("PROVA", 50) + pad("ADA", 30) + "2" "01/04/1985"
                    + " " * 11 + state + state + "PASOR" + pad("AB1234567", 20) + state)
    assert dict((r["Codice"], r["Descrizione"]) for r in reference("stati.csv"))[state]


@pytest.mark.parametrize("place, province, born, code, sigla", [
    ("Pesaro", "PU", "1990-05-20", "411041044", "PS"),      # PS code closed 31/12/1998
    ("Pesaro", "PU", "1995-05-20", "411041044", "PS"),
    ("Pesaro", "PU", "1999-01-01", "411141044", "PU"),
    ("Monza", "MB", "2009-06-15", "403015149", "MI"),       # MI code valid to 29/06/2009
    ("Monza", "MB", "2009-06-30", "403108033", "MB"),
    ("Abano Terme", "PD", "1980-02-02", "405028001", "PD"),
])
def test_an_italian_birthplace_takes_the_code_valid_on_the_birth_date(loaded, place, province,
                                                                      born, code, sigla):
    line = records.record(STAY, guest(birth_date=born, birth_country="IT",
                                      birth_municipality=place, birth_province=province,
                                      nationality="IT", document_country="IT",
                                      document_type="id_card",
                                      document_issue_place="Abano Terme"))
    day = dt.date.fromisoformat(born).strftime("%d/%m/%Y")
    assert line == ("16" "10/07/2026" "03" + pad("PROVA", 50) + pad("ADA", 30) + "2" + day
                    + code + sigla + "100000100" "100000100" "IDENT" + pad("AB1234567", 20)
                    + "405028001")
    row = next(r for r in reference("comuni.csv") if r["Codice"] == code)
    assert (row["Provincia"], codes.fold(place)) == (sigla, row["Descrizione"])


def test_a_residence_permit_has_no_code_in_the_authoritys_table_and_is_never_filed(loaded):
    # documenti.csv holds no "permesso di soggiorno": no code is guessed (PERSO was one).
    assert not [r for r in reference("documenti.csv") if "SOGG" in r["Descrizione"]]
    assert codes.it_document_type("residence_permit") is None
    with pytest.raises(records.RecordError) as refused:
        records.record(STAY, guest(birth_date="1985-04-01", birth_country="AL",
                                   nationality="AL", document_country="IT",
                                   document_issue_place="Roma",
                                   document_type="residence_permit"))
    assert [f for _, f, _ in refused.value.problems] == ["document_type"]


# --- the connector's Tabella -----------------------------------------------------------------------

def test_tabella_answers_the_authoritys_tables_row_for_row(double):
    tables = CONNECTOR.fetch_tables(CREDENTIALS, {"endpoint_url": double.url}, 10)
    assert double.calls == ["GenerateToken", "Tabella", "Tabella", "Tabella"]
    for name, file in (("comuni", "comuni.csv"), ("stati", "stati.csv")):
        assert [(p.code, p.name, p.province if name == "comuni" else "ES",
                 p.valid_to.strftime("%d/%m/%Y 00:00:00") if p.valid_to else "")
                for p in tables[name]] == [
            (r["Codice"], r["Descrizione"], r["Provincia"], r["DataFineVal"])
            for r in reference(file)]
    for name, file in (("documenti", "documenti.csv"), ("tipo_alloggiato", "tipo_alloggiato.csv")):
        assert [(p.code, p.name) for p in tables[name]] == [
            (r["Codice"], r["Descrizione"]) for r in reference(file)]


def test_a_configured_property_loads_the_tables_through_tabella_then_weekly(italian_property,
                                                                           double):
    assert remote.refresh_due() == {"IT": "comuni 11284, stati 236, documenti 95, "
                                          "tipo_alloggiato 5"}
    info = codes.table_info("IT", "comuni")
    assert info.source == "Alloggiati Web, operation Tabella" and info.version == 1
    codes.configure()  # forget this process's copy: what follows is read from the database
    assert [(p.code, p.name, p.province, p.valid_to.strftime("%d/%m/%Y 00:00:00")
             if p.valid_to else "") for p in codes.it_municipalities()] == [
        (r["Codice"], r["Descrizione"], r["Provincia"], r["DataFineVal"])
        for r in reference("comuni.csv")]
    assert [(p.code, p.name) for p in codes.it_document_types()] == [
        (r["Codice"], r["Descrizione"]) for r in reference("documenti.csv")]
    assert codes.it_full() and codes.it_municipality("Abano Terme").code == "405028001"
    assert remote.refresh_due() == {}                      # loaded now: not due
    clock.travel(dt.timedelta(days=8))
    double.down()
    assert "not loaded" in remote.refresh_due()["IT"]      # due, the service down: kept
    assert codes.table_info("IT", "comuni").version == 1
    assert remote.refresh_due() == {}                      # tried again an hour later
    double.up()
    clock.travel(dt.timedelta(hours=1, minutes=1))
    assert "comuni 11284" in remote.refresh_due()["IT"]
    assert codes.table_info("IT", "comuni").version == 2


def test_the_weekly_refresh_is_a_periodic_task():
    from rentalcomply.filings import tasks
    from huey.api import PeriodicTask
    assert issubclass(tasks.refresh_code_tables.task_class, PeriodicTask)


# --- held, never guessed -----------------------------------------------------------------------------

def abano_family():
    party = family()
    party[0].update(birth_municipality="Abano Terme", birth_province="PD")
    return party


def test_a_fresh_install_files_a_guest_born_in_abbadia_cerreto_lodi_with_no_table_loaded(
        owner, double, make_booking, settings):
    assert all(t.shipped for t in codes.status("IT")) and codes.it_full()  # nothing loaded
    booking = make_booking(arrival=clock.today())
    party = family()
    party[0].update(birth_municipality="Abbadia Cerreto", birth_province="LO",
                    birth_date="1995-06-01", document_issue_place="Abbadia Cerreto")
    put_guests(owner, booking.id, party)
    sweep.run_due()
    shown = owner.get(f"/api/v1/bookings/{booking.id}").json["data"]
    assert (shown["report_status"], shown["report_error"]) == ("SUBMITTED", None)
    head = double.sent[0]
    assert head[105:116] == "403098001LO"           # Lodi's code, not Milan's closed 403015699
    assert double.calls.count("Send") == 1 and "Tabella" not in double.calls
    assert all(t.shipped for t in codes.status("IT"))  # still the shipped tables: none loaded


def test_a_guest_born_in_abbadia_cerreto_before_1992_takes_the_milan_code_of_that_day():
    assert codes.it_municipality("Abbadia Cerreto", "LO", dt.date(1980, 1, 1)).code == "403015699"
    assert codes.it_municipality("Abbadia Cerreto", None, dt.date(1995, 1, 1)).code == "403098001"


def test_once_the_tables_are_loaded_the_guests_api_takes_only_codable_values(
        owner, make_booking, settings):
    booking = make_booking(arrival=clock.today() + dt.timedelta(days=3))
    refresh_in_another_process(settings, *FILES)
    party = abano_family()
    party[0]["birth_municipality"] = "Atlantide"
    refused = put_guests(owner, booking.id, party, status=400).json["error"]["details"]
    assert [d["field"] for d in refused] == ["guests[0].birth_municipality"]
    put_guests(owner, booking.id, abano_family())


def test_a_residence_permit_and_a_country_without_a_state_code_are_refused_in_italy(
        owner, make_booking):
    booking = make_booking(arrival=clock.today() + dt.timedelta(days=3))
    party = family()
    party[0].update(document_type="residence_permit")
    party[1].update(nationality="AQ")                     # Antarctica: no state of the authority
    refused = put_guests(owner, booking.id, party, status=400).json["error"]["details"]
    assert {d["field"] for d in refused} == {"guests[0].document_type", "guests[1].nationality"}
    party = family()
    party[1].update(nationality="MX", birth_country="RU")  # Mexico and Russia are coded
    put_guests(owner, booking.id, party)


def test_the_guest_page_offers_no_residence_permit_in_italy(wsgi_app, make_booking):
    from rentalcomply.checkin import service as checkin
    from rentalcomply.core.db import atomic
    from tests.conftest import documented_app
    booking = make_booking(arrival=clock.today() + dt.timedelta(days=3))
    with atomic():
        checkin._checkin_row(Booking.get_by_id(booking.id))
    page = documented_app(wsgi_app).get(f"/checkin/{checkin.token_for(booking.id)}").text
    assert 'value="passport"' in page and 'value="residence_permit"' not in page
    assert '<option value="MX">Mexico</option>' in page
    assert '<option value="AQ">Antarctica</option>' not in page


def test_a_name_two_provinces_share_is_never_picked_blind(loaded):
    assert codes.it_municipality("Castro") is None
    assert codes.it_municipality("Castro", "LE").code == "416075096"
    assert codes.it_municipality("Castro (BG)").code == "403016065"
    names = codes.it_municipality_names()
    assert "Castro (BG)" in names and "Castro (LE)" in names and "Castro" not in names
    assert "Abano Terme" in names and len(names) > 7800
