"""Alloggiati Web records, byte for byte, against lines worked out by hand from the record table
(positions 1-168, 169-174 for the apartment id)."""

import datetime as dt

import pytest

from rentalcomply.filings.connector import Guest, Stay
from rentalcomply.authorities.alloggiati import format as records

STAY = Stay(booking_id="book_1", reference="HM123", arrival=dt.date(2026, 7, 10),
            departure=dt.date(2026, 7, 13), booked_on=dt.date(2026, 5, 1), guest_count=1,
            payment_method=None, property_country="IT", property_name="Casa Limone")


def pad(text: str, width: int) -> str:
    return text + " " * (width - len(text))


def guest(index, role, **data):
    data.setdefault("sex", "M")
    data.setdefault("nationality", "IT")
    if isinstance(data.get("birth_date"), str):
        data["birth_date"] = dt.date.fromisoformat(data["birth_date"])
    return Guest(index=index, role=role, data=data)


MARIO = guest(0, "single", first_name="Mario", last_name="Rossi", birth_date="1980-05-02",
              birth_country="IT", birth_municipality="Roma", birth_province="RM",
              document_type="id_card", document_number="AX1234567", document_country="IT",
              document_issue_place="Roma")


def test_a_single_guest_born_in_rome():
    line = records.record(STAY, MARIO)
    expected = ("16" "10/07/2026" "03" + pad("ROSSI", 50) + pad("MARIO", 30) + "1" "02/05/1980"
                "412058091" "RM" "100000100" "100000100" "IDENT" + pad("AX1234567", 20)
                + "412058091")
    assert line == expected
    assert len(line) == 168
    # The positions of the table, counted from 1.
    assert line[0:2] == "16" and line[2:12] == "10/07/2026" and line[12:14] == "03"
    assert line[94] == "1" and line[105:114] == "412058091" and line[114:116] == "RM"
    assert line[116:125] == "100000100" and line[134:139] == "IDENT" and line[159:168] == "412058091"


def test_a_family_of_four_with_a_minor_members_after_their_head_without_documents():
    head = guest(0, "head_of_family", first_name="Anna", last_name="Müller", sex="F",
                 birth_date="1985-11-30", birth_country="DE", nationality="DE",
                 document_type="passport", document_number="C01X00T47", document_country="DE")
    spouse = guest(1, "family_member", first_name="Jonas", last_name="Müller",
                   birth_date="1983-01-09", birth_country="DE", nationality="DE")
    child = guest(2, "family_member", first_name="Lea", last_name="Müller", sex="F",
                  birth_date="2016-08-21", birth_country="IT", birth_municipality="Milano",
                  birth_province="MI", nationality="DE")
    baby = guest(3, "family_member", first_name="Paul", last_name="Müller",
                 birth_date="2024-02-29", birth_country="DE", nationality="DE")
    # Given out of order: the members come after their head whatever the input order.
    lines = records.records(STAY, [spouse, head, child, baby])
    blank = " " * 34
    assert lines == [
        "17" "10/07/2026" "03" + pad("MÜLLER", 50) + pad("ANNA", 30) + "2" "30/11/1985"
        + " " * 9 + "  " + "100000216" "100000216" "PASOR" + pad("C01X00T47", 20) + "100000216",
        "19" "10/07/2026" "03" + pad("MÜLLER", 50) + pad("JONAS", 30) + "1" "09/01/1983"
        + " " * 11 + "100000216" "100000216" + blank,
        "19" "10/07/2026" "03" + pad("MÜLLER", 50) + pad("LEA", 30) + "2" "21/08/2016"
        "403015146" "MI" "100000100" "100000216" + blank,
        "19" "10/07/2026" "03" + pad("MÜLLER", 50) + pad("PAUL", 30) + "1" "29/02/2024"
        + " " * 11 + "100000216" "100000216" + blank,
    ]
    assert all(len(line) == 168 for line in lines)


def test_a_group_leader_and_members():
    leader = guest(0, "group_leader", first_name="Pierre", last_name="Martin",
                   birth_date="1970-04-04", birth_country="FR", nationality="FR",
                   document_type="id_card", document_number="880692310285", document_country="FR")
    members = [guest(i, "group_member", first_name=name, last_name="Dubois",
                     birth_date="1990-01-0" + str(i), birth_country="FR", nationality="FR")
               for i, name in ((1, "Luc"), (2, "Marc"))]
    lines = records.records(STAY, [leader, *members])
    assert [line[:2] for line in lines] == ["18", "20", "20"]
    assert lines[0][134:] == "IDENT" + pad("880692310285", 20) + "100000215"
    assert lines[1] == ("20" "10/07/2026" "03" + pad("DUBOIS", 50) + pad("LUC", 30) + "1"
                        "01/01/1990" + " " * 11 + "100000215" "100000215" + " " * 34)


def test_names_with_accents_and_apostrophes_are_upper_cased_and_kept():
    person = guest(0, "single", first_name="José  María", last_name="D’Angelo Núñez",
                   birth_date="1991-12-01", birth_country="ES", nationality="ES",
                   document_type="passport", document_number="PAA123456", document_country="ES")
    line = records.record(STAY, person)
    assert line[14:64] == pad("D'ANGELO NÚÑEZ", 50)
    assert line[64:94] == pad("JOSÉ MARÍA", 30)
    assert len(line) == 168
    assert len(line.encode("utf-8")) == 168 + 4  # Ú, Ñ, É, Í take two bytes each in UTF-8


def test_a_long_surname_is_cut_to_its_width():
    person = guest(0, "single", **{**MARIO.data, "last_name": "X" * 60})
    assert records.record(STAY, person)[14:64] == "X" * 50


def test_a_guest_born_in_monza_takes_the_code_valid_on_the_birth_date():
    # Monza moved from the province of Milan (MI) to Monza and Brianza (MB) in June 2009: its
    # code changed. Born in 1980, the guest takes the old code and province, even written MB.
    before = guest(0, "single", **{**MARIO.data, "birth_municipality": "Monza",
                                   "birth_province": "MB", "birth_date": dt.date(1980, 3, 1)})
    after = guest(0, "single", **{**MARIO.data, "birth_municipality": "Monza",
                                  "birth_province": "MB", "birth_date": dt.date(2010, 3, 1)})
    assert records.record(STAY, before)[105:116] == "403015149" "MI"
    assert records.record(STAY, after)[105:116] == "403108033" "MB"


def test_the_apartment_variant_is_174_characters():
    line = records.record(STAY, MARIO, apartment_id="000123")
    assert len(line) == 174 and line[168:] == "000123"
    assert line[:168] == records.record(STAY, MARIO)


def test_a_long_stay_counts_at_most_30_days():
    long_stay = Stay(**{**STAY.__dict__, "departure": dt.date(2026, 9, 30)})
    assert records.record(long_stay, MARIO)[12:14] == "30"


def test_at_most_1000_lines_a_file():
    line = records.record(STAY, MARIO)
    files = records.files([line] * 1001)
    assert len(files) == 2
    assert files[0].count(b"\r\n") == 1000 and files[1] == line.encode() + b"\r\n"


def test_places_without_a_code_are_refused_per_guest_before_anything_is_sent():
    unknown = guest(0, "head_of_family", **{**MARIO.data, "birth_municipality": "Atlantide"})
    stateless = guest(1, "family_member", first_name="Solo", last_name="Membro",
                      birth_date="1990-01-01", birth_country="ZZ", nationality="ZZ")
    with pytest.raises(records.RecordError) as refused:
        records.records(STAY, [unknown, stateless])
    fields = {(index, field) for index, field, _ in refused.value.problems}
    assert fields == {(0, "birth_municipality"), (1, "birth_country"), (1, "nationality")}
