"""What the package ships of the authorities' code tables is the authorities' own published tables:
each file is the one codes/README.md records (its SHA-256), the Italian ones are byte for byte the
tests' copies of the portal's files (tests/police/alloggiati_tables), and what the product reads
from them agrees with them row by row. Nothing here reads outside the repository."""

import csv
import datetime as dt
import hashlib
import re
from importlib import resources
from pathlib import Path

import pytest

from rentalcomply import codes
from rentalcomply.codes import es

HERE = Path(__file__).parent / "alloggiati_tables"
IT_TABLES = ("comuni", "stati", "documenti", "tipo_alloggiato")
PACKAGE = resources.files("rentalcomply.codes")


def rows(folder: Path, table: str) -> dict[str, dict]:
    with open(folder / f"{table}.csv", encoding="utf-8", newline="") as handle:
        return {row["Codice"]: row for row in csv.DictReader(handle)}


def day(text: str) -> dt.date | None:
    return dt.datetime.strptime(text[:10], "%d/%m/%Y").date() if text else None


def recorded_checksums() -> dict[str, str]:
    readme = PACKAGE.joinpath("README.md").read_text("utf-8")
    return dict(re.findall(r"^\| ((?:it|es)/\S+\.csv) \| ([0-9a-f]{64}) \|$", readme, re.M))


def test_every_shipped_table_is_the_file_its_readme_records_with_source_and_date():
    recorded = recorded_checksums()
    assert set(recorded) == {f"it/{t}.csv" for t in IT_TABLES} | {"es/municipios.csv",
                                                                  "es/postcodes.csv"}
    for name, checksum in recorded.items():
        assert hashlib.sha256(PACKAGE.joinpath(name).read_bytes()).hexdigest() == checksum, name
    readme = PACKAGE.joinpath("README.md").read_text("utf-8")
    assert "April 2025" in readme and "diccionario23.xlsx" in readme and "20 municipalities" in readme


@pytest.mark.parametrize("table", IT_TABLES)
def test_the_shipped_italian_tables_are_the_portals_files_the_tests_hold(table):
    assert PACKAGE.joinpath(f"it/{table}.csv").read_bytes() == (HERE / f"{table}.csv").read_bytes()


@pytest.mark.parametrize("table", IT_TABLES)
def test_every_shipped_code_name_and_validity_date_is_the_authoritys(table):
    authority = rows(HERE, table)
    shipped = codes.shipped("IT", table)
    assert len(shipped) == len(authority)
    for place in shipped:
        row = authority[place.code]
        assert place.name == row["Descrizione"], place
        if table == "comuni":
            assert place.province == row["Provincia"], place
        if "DataFineVal" in row:
            assert place.valid_to == day(row["DataFineVal"]), place


def test_the_shipped_ine_list_has_its_check_digits_and_postcodes():
    table = es.shipped_section("municipios")
    assert len(table) == 8111 and table["41038"] == "Dos Hermanas"
    assert es.check_digits()["08019"] == "3" and es.check_digits()["41038"] == "4"
    assert es.municipality_code("080193") == "08019"          # INE's six digits, DC checked
    assert es.municipality_code("080190") is None
    assert es.postcode_municipalities()["41700"] == ("41038",)
    assert "00001" not in es.postcode_municipalities()        # an artefact of the register
    info = codes.table_info("ES", "municipios")
    assert info.shipped and not info.complete and info.rows == 8111
    assert "2023" in info.source and info.published == "2023"


def test_every_state_of_the_authoritys_table_has_an_iso_code_and_the_shipped_table_has_them_all():
    authority = rows(HERE, "stati")
    mapped = {code: iso for iso, codes_ in codes.iso_to_states().items() for code in codes_}
    assert set(mapped) == set(authority)
    assert {p.code for p in codes.shipped("IT", "stati")} == set(authority)
    assert {iso: codes.iso_to_states()[iso] for iso in ("CA", "BR", "AR", "LU", "MX", "RU", "CI",
                                                        "LI", "MK")} == {
        "CA": ("100000509",), "BR": ("100000605",), "AR": ("100000602",), "LU": ("100000226",),
        "MX": ("100000527",), "RU": ("100000245",), "CI": ("100000404",),
        "LI": ("100000225",), "MK": ("100000253", "100000997")}


def test_a_state_whose_code_changed_takes_the_code_of_the_day():
    assert codes.it_state("MK", dt.date(2000, 1, 1)).code == "100000253"
    assert codes.it_state("MK", dt.date(2020, 1, 1)).code == "100000997"
    assert codes.it_state("MK").code == "100000997"


def test_the_shipped_tables_code_a_place_on_the_day_that_matters():
    assert codes.it_municipality("Pesaro", "PU", dt.date(1990, 1, 1)).code == "411041044"
    assert codes.it_municipality("Pesaro", "PU", dt.date(1999, 1, 1)).code == "411141044"
    assert codes.it_municipality("Monza", "MB", dt.date(2009, 6, 29)).code == "403015149"
    assert codes.it_municipality("Monza", "MB", dt.date(2009, 6, 30)).code == "403108033"
    assert codes.it_document_type("residence_permit") is None
    assert codes.it_full()
