"""What the package ships of the authority's code tables agrees with the authority: each code, name
and validity date of the starter set, and a state code for every state of the authority's table
through the ISO 3166 mapping."""

import csv
import datetime as dt
from pathlib import Path

import pytest

from rentalcomply import codes

HERE = Path(__file__).parent / "alloggiati_tables"
# The authority's tables as published (../shared beside the repository), read by this test alone.
REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference" / "alloggiati-web"
STARTER = ("comuni", "stati", "documenti", "tipo_alloggiato")


def rows(folder: Path, table: str) -> dict[str, dict]:
    with open(folder / f"{table}.csv", encoding="utf-8", newline="") as handle:
        return {row["Codice"]: row for row in csv.DictReader(handle)}


def day(text: str) -> dt.date | None:
    return dt.datetime.strptime(text[:10], "%d/%m/%Y").date() if text else None


@pytest.mark.skipif(not REFERENCE.is_dir(), reason=f"the authority's tables are not at {REFERENCE}")
@pytest.mark.parametrize("table", STARTER)
def test_every_shipped_code_name_and_validity_date_is_the_authoritys(table):
    authority = rows(REFERENCE, table)
    shipped = codes.starter("IT", table)
    assert shipped
    for place in shipped:
        assert place.code in authority, f"{table}: {place.code} is not in the authority's table"
        row = authority[place.code]
        assert place.name == row["Descrizione"], place
        if table == "comuni":
            assert place.province == row["Provincia"], place
        if "DataFineVal" in row:
            assert place.valid_to == day(row["DataFineVal"]), place


@pytest.mark.skipif(not REFERENCE.is_dir(), reason=f"the authority's tables are not at {REFERENCE}")
def test_the_tests_copies_of_the_tables_are_the_authoritys():
    for table in STARTER:
        assert (HERE / f"{table}.csv").read_bytes() == (REFERENCE / f"{table}.csv").read_bytes()


def test_every_state_of_the_authoritys_table_has_an_iso_code_and_the_starter_set_has_them_all():
    authority = rows(HERE, "stati")
    mapped = {code: iso for iso, codes_ in codes.iso_to_states().items() for code in codes_}
    assert set(mapped) == set(authority)
    assert {p.code for p in codes.starter("IT", "stati")} == set(authority)
    assert {iso: codes.iso_to_states()[iso] for iso in ("CA", "BR", "AR", "LU", "MX", "RU", "CI",
                                                        "LI", "MK")} == {
        "CA": ("100000509",), "BR": ("100000605",), "AR": ("100000602",), "LU": ("100000226",),
        "MX": ("100000527",), "RU": ("100000245",), "CI": ("100000404",),
        "LI": ("100000225",), "MK": ("100000253", "100000997")}


def test_a_state_whose_code_changed_takes_the_code_of_the_day():
    assert codes.it_state("MK", dt.date(2000, 1, 1)).code == "100000253"
    assert codes.it_state("MK", dt.date(2020, 1, 1)).code == "100000997"
    assert codes.it_state("MK").code == "100000997"


def test_the_starter_set_fixes_what_was_shipped_wrong():
    assert codes.it_municipality("Pesaro", "PU", dt.date(1990, 1, 1)).code == "411041044"
    assert codes.it_municipality("Pesaro", "PU", dt.date(1999, 1, 1)).code == "411141044"
    assert codes.it_municipality("Monza", "MB", dt.date(2009, 6, 29)).code == "403015149"
    assert codes.it_municipality("Monza", "MB", dt.date(2009, 6, 30)).code == "403108033"
    assert codes.it_document_type("residence_permit") is None
    assert not codes.it_full()
