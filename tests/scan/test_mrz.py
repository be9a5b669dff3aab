"""The zone's layouts, check digits and look-alike correction (ICAO 9303 specimens)."""

import datetime as dt

import pytest

from rentalcomply.scan import mrz

TD3 = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]
TD2 = ["I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<", "D231458907UTO7408122F1204159<<<<<<<6"]
TD1 = ["I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6",
       "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"]
DNI = ["IDESPBAA000589599999999R<<<<<<", "8001014F2501017ESP<<<<<<<<<<<7",
       "ESPANOLA<ESPANOLA<<CARMEN<<<<<"]


def test_the_check_digit_follows_icao_weights():
    assert mrz.check_digit("L898902C3") == "6"
    assert mrz.check_digit("740812") == "2"
    assert mrz.check_digit("<<<<<<") == "0"


@pytest.mark.parametrize("lines,layout", [(TD3, "TD3"), (TD2, "TD2"), (TD1, "TD1"), (DNI, "TD1")])
def test_the_icao_specimens_pass_every_check(lines, layout):
    reading = mrz.read(lines)
    assert reading.layout == layout
    assert reading.valid, reading.checks
    assert reading.lines == lines


def test_a_passport_gives_its_fields():
    fields = mrz.read(TD3, today=dt.date(2026, 1, 1)).fields
    assert fields["surname"] == "ERIKSSON" and fields["given_names"] == "ANNA MARIA"
    assert fields["number"] == "L898902C3" and fields["nationality"] == "UTO"
    assert fields["birth_date"] == "1974-08-12" and fields["expiry_date"] == "2012-04-15"
    assert fields["sex"] == "F" and fields["document_code"] == "P"


def test_a_wrong_check_digit_is_refused():
    wrong = [TD3[0], TD3[1][:9] + "7" + TD3[1][10:]]
    reading = mrz.read(wrong)
    assert not reading.valid
    assert reading.failed_checks


def test_a_changed_number_with_its_old_check_digit_fails_the_number_check():
    changed = [TD3[0], "L898902C4" + TD3[1][9:]]
    reading = mrz.read(changed, candidates=[[""] * 44, [""] * 44])
    assert reading.failed_checks == ["number", "composite"]


def test_the_composite_is_checked():
    # The optional data changed together with its own check digit: only the composite sees it.
    optional = "ZE184226C<<<<<"
    line = TD3[1][:28] + optional + mrz.check_digit(optional) + TD3[1][43]
    reading = mrz.read([TD3[0], line])
    assert reading.checks["optional"] is True
    assert reading.checks["composite"] is False
    assert not reading.valid


def test_look_alikes_are_corrected_by_field_type_and_by_the_check_digits():
    misread = ["P<UT0ERIKSS0N<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<",
               "L8989O2C36UT07408I22F12O4159ZE184226B<<<<<1O"]
    reading = mrz.read(misread)
    assert reading.lines == TD3
    assert reading.valid


def test_a_letter_or_digit_look_alike_inside_a_number_is_chosen_by_its_check_digit():
    # "L898902C3" read as "L8989O2C3": both fit a number; only the digit passes its check.
    misread = [TD3[0], "L8989O2C3" + TD3[1][9:]]
    assert mrz.read(misread).lines == TD3


def test_the_reader_s_second_guess_wins_when_the_check_digit_says_so():
    misread = [TD3[0], TD3[1][:13] + "7408132" + TD3[1][20:]]  # 2 read as 3 in the birth date
    candidates = [[""] * 44, [""] * 44]
    candidates[1][18] = "28"
    assert mrz.read(misread, candidates).lines == TD3


def test_a_filler_read_as_k_is_put_back():
    misread = [TD3[0], TD3[1][:37] + "<<K<<10"]
    assert mrz.read(misread).lines == TD3


def test_a_filler_read_as_k_after_a_name_is_put_back():
    misread = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<K<<<<<<<<<<<", TD3[1]]
    assert mrz.read(misread).lines == TD3


def test_a_real_k_in_a_name_stays():
    lines = ["P<UTOKARLSSON<<KAJ<<<<<<<<<<<<<<<<<<<<<<<<<<", TD3[1]]
    assert mrz.read(lines).fields["given_names"] == "KAJ"


def test_a_shape_that_is_no_zone_is_refused():
    with pytest.raises(ValueError):
        mrz.read(["P<UTO", "123"])


def test_compose_writes_the_specimen():
    assert mrz.compose("TD3", document_code="P", issuing_country="UTO",
                       name="ERIKSSON<<ANNA<MARIA", number="L898902C3", nationality="UTO",
                       birth_date="740812", sex="F", expiry_date="120415",
                       optional="ZE184226B") == TD3
