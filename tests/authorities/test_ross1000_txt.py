"""The legacy ROSS 1000 TXT record (authorities/ross1000/txtfile.py), read back with a table of
positions written here from the domain note (italy-statistics-and-tax.md, "TXT record"), not
from the builder's LAYOUT: 328 characters, CRLF, ASCII, modalità."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from rentalcomply.authorities.ross1000 import txtfile
from rentalcomply.authorities.ross1000.movement import MonthInput, Stay
from tests.authorities.test_ross1000 import MONTH, guest

# The note's table, 1-based inclusive positions: (first, last, what).
NOTE = [
    (1, 2, "tipo"), (3, 12, "arrivo"), (13, 62, "cognome"), (63, 92, "nome"), (93, 93, "sesso"),
    (94, 103, "nascita"), (104, 112, "comune_nascita"), (113, 114, "prov_nascita"),
    (115, 123, "stato_nascita"), (124, 132, "cittadinanza"), (133, 141, "comune_res"),
    (142, 143, "prov_res"), (144, 152, "stato_res"), (153, 202, "indirizzo"),
    (203, 207, "doc_tipo"), (208, 227, "doc_numero"), (228, 236, "doc_luogo"),
    (237, 246, "partenza"), (247, 276, "turismo"), (277, 306, "mezzo"),
    (307, 309, "camere_occ"), (310, 312, "camere_disp"), (313, 316, "letti_disp"),
    (317, 317, "tassa"), (318, 327, "posizione"), (328, 328, "modalita"),
]


def read(line: str) -> dict[str, str]:
    return {name: line[first - 1:last] for first, last, name in NOTE}


def test_the_note_table_covers_328_characters_without_gaps():
    assert NOTE[-1][1] == 328
    assert all(NOTE[i][1] + 1 == NOTE[i + 1][0] for i in range(len(NOTE) - 1))
    # The builder's table agrees with the note's, field by field.
    assert [(f.start, f.start + f.width - 1) for f in txtfile.LAYOUT] == [(a, b) for a, b, _ in NOTE]


def test_the_month_as_txt_records():
    data = txtfile.build(MONTH)
    assert data.endswith(b"\r\n") and data.decode("ascii")
    lines = data.decode("ascii").split("\r\n")[:-1]
    assert all(len(line) == 328 for line in lines)
    # One record per guest arriving in June: 29 singles (one cancelled left out) + a family of 3.
    assert len(lines) == 28 + 3
    records = [read(line) for line in lines]
    rome = next(r for r in records if r["posizione"].strip() == "S01")
    assert rome == {
        "tipo": "16", "arrivo": "01/06/2026", "cognome": "SurnameS01".ljust(50),
        "nome": "NameS01".ljust(30), "sesso": "2", "nascita": "09/04/1985",
        "comune_nascita": "412058091", "prov_nascita": "  ", "stato_nascita": "100000100",
        "cittadinanza": "100000100", "comune_res": "412058091", "prov_res": "RM",
        "stato_res": "100000100", "indirizzo": " " * 50, "doc_tipo": "IDENT",
        "doc_numero": "ABS01".ljust(20), "doc_luogo": "412058091", "partenza": "03/06/2026",
        "turismo": "Culturale".ljust(30), "mezzo": "Treno".ljust(30), "camere_occ": "  1",
        "camere_disp": "  8", "letti_disp": "  18", "tassa": " ", "posizione": "S01".ljust(10),
        "modalita": "1"}
    german = next(r for r in records if r["posizione"].strip() == "S10")
    assert (german["comune_res"], german["prov_res"], german["stato_res"], german["turismo"],
            german["mezzo"]) == (" " * 9, "  ", "100000216", "Non Specificato".ljust(30),
                                 "Non Specificato".ljust(30))
    # The family: head first; the members have no rooms, beds or document (fields 21-23, 15-17).
    family = [r for r in records if r["posizione"].startswith("F09")]
    assert [r["tipo"] for r in family] == ["17", "19", "19"]
    assert all(r["camere_occ"] + r["camere_disp"] + r["letti_disp"] == " " * 10
               and r["doc_tipo"] + r["doc_numero"] + r["doc_luogo"] == " " * 34
               for r in family[1:])
    assert family[0]["camere_occ"] == "  1"
    # A stay across the month's end carries its July departure.
    assert next(r for r in records if r["posizione"].strip() == "S24")["partenza"] == "03/07/2026"


def test_deletion_keeps_only_fields_1_2_25_26():
    line = txtfile.lines(MONTH, txtfile.DELETE)[0]
    record = read(line)
    assert (record["tipo"], record["arrivo"], record["modalita"]) == ("16", "01/06/2026", "3")
    assert line[12:317].strip() == ""


def test_text_is_folded_to_ascii_and_cut_to_its_width():
    accented = dataclasses.replace(guest("S99", "RM"), surname="Núñez D’Àrco" + "x" * 60,
                                   name="Chloé\u0007Zoë")
    month = MonthInput("A", 2026, 6, 1, 2, (Stay(dt.date(2026, 6, 1), dt.date(2026, 6, 2),
                                                 (accented,)),))
    record = read(txtfile.lines(month)[0])
    assert record["cognome"].startswith("Nunez D Arco") and len(record["cognome"]) == 50
    assert record["nome"].rstrip() == "Chloe Zoe"


def test_a_position_code_is_ten_characters_and_stable():
    long = "a" * 16 + "-12"
    assert len(txtfile.position_code(long)) == 10
    assert txtfile.position_code(long) == txtfile.position_code(long)
    assert txtfile.position_code(long) != txtfile.position_code("a" * 16 + "-13")
    assert txtfile.position_code("S01") == "S01"


def test_an_unknown_modality_is_refused():
    with pytest.raises(txtfile.TxtError, match="modalità"):
        txtfile.lines(MONTH, "4")
