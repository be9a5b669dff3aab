"""The reader on generated photos: clean and degraded documents read exactly, a broken check digit
refused, a photo with no zone said so."""

import pytest

from rentalcomply.scan import mrz, reader
from tests.scan.conftest import document_photo, needs_scanner, passport_values

pytestmark = needs_scanner


def test_a_clean_passport_is_read_exactly():
    values = passport_values()
    reading = reader.read_image(document_photo(values))
    assert reading.valid
    assert reading.lines == mrz.compose("TD3", **values)


def test_a_phone_photo_of_an_identity_card_is_read_exactly():
    values = passport_values(document_code="ID", optional="12345678Z", optional_2="")
    values["name"] = "GARCIA<LOPEZ<<LUCIA"
    reading = reader.read_image(document_photo(values, "TD1", degraded=True, seed=3))
    assert reading.valid
    assert reading.lines == mrz.compose("TD1", **values)


def test_a_broken_check_digit_is_not_passed_off_as_read():
    reading = reader.read_image(document_photo(passport_values(), break_check=True))
    assert not reading.valid


def test_a_photo_without_a_zone_is_unreadable():
    import io

    from PIL import Image
    buffer = io.BytesIO()
    Image.new("RGB", (800, 600), (200, 190, 180)).save(buffer, "PNG")
    with pytest.raises(reader.Unreadable):
        reader.read_image(buffer.getvalue())


def test_bytes_that_are_no_image_are_unreadable():
    with pytest.raises(reader.Unreadable):
        reader.read_image(b"%PDF-1.7 not an image")


def test_the_reader_says_whether_it_can_run():
    on, why = reader.available()
    assert on and "OCR-B" in why


@pytest.mark.parametrize("turn", [90, 180, 270])
def test_a_photo_turned_by_a_quarter_or_upside_down_is_read(turn):
    import io

    from PIL import Image
    values = passport_values()
    buffer = io.BytesIO()
    Image.open(io.BytesIO(document_photo(values))).rotate(turn, expand=True).save(buffer, "PNG")
    reading = reader.read_image(buffer.getvalue())
    assert reading.valid and reading.lines == mrz.compose("TD3", **values)
