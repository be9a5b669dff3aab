"""Scanning on the guest page, without JavaScript and through scan.js's JSON: the fields filled,
a failed zone said with a tip, files refused with a clear message, expired documents flagged."""

import datetime as dt
import logging
import os

import pytest

from rentalcomply.checkin import service as checkin
from rentalcomply.core import clock
from rentalcomply.scan import keeping
from rentalcomply.scan.models import DocumentFlag, DocumentImage
from tests.scan.conftest import document_photo, needs_scanner, passport_values

pytestmark = needs_scanner


@pytest.fixture
def link(make_booking):
    booking = make_booking("PT", guest_count=2, arrival_in=10, nights=4)
    return booking, "/checkin/" + checkin.token_for(booking.id)


def scan_without_script(guest_page, path, photo, guest=0, typed=None, filename="doc.png"):
    fields = [(key, value) for key, value in (typed or {}).items()]
    return guest_page.post(f"{path}/scan/{guest}?lang=en", fields,
                           upload_files=[(f"scan-{guest}", filename, photo)],
                           status=303).follow()


def test_the_form_offers_the_camera_for_each_guest(guest_page, link):
    _, path = link
    page = guest_page.get(path + "?lang=en")
    assert page.text.count('capture="environment"') == 2
    assert 'accept="image/*"' in page.text and "Scan the document" in page.text
    assert 'formenctype="multipart/form-data"' in page.text


def test_without_javascript_the_page_comes_back_with_the_fields_filled(guest_page, link):
    booking, path = link
    page = scan_without_script(guest_page, path, document_photo(passport_values()),
                               typed={"g0.email": "maria@example.com", "g1.first_name": "Nikos"})
    form = page.forms["checkin-form"]
    assert form["g0.last_name"].value == "Papadopoulou"
    assert form["g0.first_name"].value == "Maria Eleni"
    assert form["g0.birth_date"].value == "1985-04-23"
    assert form["g0.nationality"].value == "GR" and form["g0.document_country"].value == "GR"
    assert form["g0.document_type"].value == "passport"
    assert form["g0.document_number"].value == "AB1234567"
    assert form["g0.email"].value == "maria@example.com"  # what was typed stays
    assert form["g1.first_name"].value == "Nikos"
    assert "Read from your document" in page.text


def test_scan_js_gets_the_fields_as_json(guest_page, link):
    _, path = link
    answer = guest_page.post(f"{path}/scan/1?lang=de", {},
                             upload_files=[("scan-1", "doc.png", document_photo(passport_values()))],
                             headers={"Accept": "application/json"}).json
    assert answer["status"] == "read" and answer["tone"] == "ok"
    assert answer["values"]["document_number"] == "AB1234567"
    assert "Aus Ihrem Dokument gelesen" in answer["lines"][0]


def test_a_zone_whose_check_digits_fail_fills_nothing_and_says_so_with_a_tip(guest_page, link):
    _, path = link
    page = scan_without_script(guest_page, path,
                               document_photo(passport_values(), break_check=True))
    assert page.forms["checkin-form"]["g0.document_number"].value == ""
    assert "could not be read with certainty" in page.text
    assert "even light" in page.text  # the tip
    spanish = guest_page.post(f"{path}/scan/0?lang=es", {},
                              upload_files=[("scan-0", "d.png", document_photo(
                                  passport_values(), break_check=True))],
                              headers={"Accept": "application/json"}).json
    assert spanish["status"] == "failed" and spanish["values"] == {}
    assert "no se han podido leer con seguridad" in spanish["lines"][0]


def test_an_expired_passport_is_flagged_to_the_guest_and_kept_for_the_host(guest_page, link):
    booking, path = link
    expired = passport_values(expiry=clock.today() - dt.timedelta(days=30))
    page = scan_without_script(guest_page, path, document_photo(expired))
    assert "This document expired on" in page.text
    flag = DocumentFlag.get(DocumentFlag.booking == booking.id)
    assert flag.problem == "expired" and flag.guest_index == 0
    # A valid document scanned next clears it.
    scan_without_script(guest_page, path, document_photo(passport_values()))
    assert DocumentFlag.select().where(DocumentFlag.booking == booking.id).count() == 0


def test_a_document_expiring_before_departure_is_flagged(guest_page, link):
    booking, path = link
    during = passport_values(expiry=booking.departure_date - dt.timedelta(days=1))
    answer = guest_page.post(f"{path}/scan/0?lang=en", {},
                             upload_files=[("scan-0", "d.png", document_photo(during))],
                             headers={"Accept": "application/json"}).json
    assert answer["tone"] == "warning" and "before your departure" in answer["lines"][0]
    assert DocumentFlag.get(DocumentFlag.booking == booking.id).problem == "expires_during_stay"


def test_a_file_over_10_mb_is_refused_with_a_clear_message(guest_page, link):
    _, path = link
    big = b"\xff\xd8\xff\xe0" + os.urandom(10 * 1024 * 1024)
    answer = guest_page.post(f"{path}/scan/0?lang=en", {}, upload_files=[("scan-0", "big.jpg", big)],
                             headers={"Accept": "application/json"}, status=413).json
    assert "larger than 10 MB" in answer["lines"][0]
    assert answer["error"]["code"] == "PAYLOAD_TOO_LARGE"
    page = guest_page.post(f"{path}/scan/0?lang=en", {}, upload_files=[("scan-0", "big.jpg", big)],
                           status=303).follow()
    assert "larger than 10 MB" in page.text


def test_a_file_that_is_no_image_is_refused_with_a_clear_message(guest_page, link):
    _, path = link
    answer = guest_page.post(f"{path}/scan/0?lang=fr", {},
                             upload_files=[("scan-0", "doc.jpg", b"%PDF-1.7 a document")],
                             headers={"Accept": "application/json"}, status=415).json
    assert "n'est pas une photo JPEG ou PNG" in answer["lines"][0]
    assert answer["error"]["code"] == "UNSUPPORTED_MEDIA_TYPE"  # the shared error shape
    assert answer["error"]["message"].startswith("This file is not a JPEG or PNG photo")
    heic = b"\x00\x00\x00\x18ftypheic" + b"\x00" * 100
    answer = guest_page.post(f"{path}/scan/0?lang=en", {},
                             upload_files=[("scan-0", "IMG_1.HEIC", heic)],
                             headers={"Accept": "application/json"}, status=415).json
    assert "HEIC" in answer["lines"][0]


def test_no_image_stays_anywhere_after_a_scan_with_keeping_off(guest_page, link, settings,
                                                               caplog):
    booking, path = link
    photo = document_photo(passport_values())
    with caplog.at_level(logging.DEBUG):
        scan_without_script(guest_page, path, photo)
    assert DocumentImage.select().count() == 0
    signature = photo[:64]
    for folder, _, files in os.walk(settings.data_dir):
        for name in files:
            content = open(os.path.join(folder, name), "rb").read()
            assert b"\x89PNG\r\n\x1a\n" not in content and signature not in content, name
            assert b"AB1234567" not in content, name  # nor the zone's text in clear
    # Nothing of the document is logged, even at DEBUG: neither its number nor the photo.
    logged = caplog.text
    assert "AB1234567" not in logged and "PNG" not in logged


def test_with_keeping_on_the_image_is_sealed_and_erased_with_the_guest_data(
        guest_page, link, settings, frozen_clock):
    booking, path = link
    keeping.set_keep_images(booking.account_id, True)
    photo = document_photo(passport_values())
    page = scan_without_script(guest_page, path, photo)
    assert "keeps the photo, encrypted" in page.text
    row = DocumentImage.get(DocumentImage.booking == booking.id)
    assert photo[:16] not in row.image_sealed.encode() and row.image_sealed.startswith("v1:")
    assert keeping.kept_images(booking.id) == [(0, "image/png", photo)]
    # A day after departure plus the retention, the daily purge erases it with the party.
    days = (booking.departure_date - clock.today()).days + 31
    frozen_clock.travel(dt.timedelta(days=days))
    checkin.purge_guest_data(30)
    assert DocumentImage.select().where(DocumentImage.booking == booking.id).count() == 0


def test_each_link_takes_a_limited_number_of_photos(guest_page, link, settings):
    _, path = link
    for _ in range(settings.checkin.scans_per_link):
        guest_page.post(f"{path}/scan/0?lang=en", {}, upload_files=[("scan-0", "x.jpg", b"no")],
                        headers={"Accept": "application/json"}, status=415)
    answer = guest_page.post(f"{path}/scan/0?lang=en", {}, upload_files=[("scan-0", "x.jpg", b"no")],
                             headers={"Accept": "application/json"}, status=429).json
    assert "Too many photos" in answer["lines"][0]


def test_a_spanish_dni_gives_its_number_and_support_number_and_asks_for_the_second_surname(
        guest_page, make_booking):
    booking = make_booking("ES", guest_count=1)
    path = "/checkin/" + checkin.token_for(booking.id)
    dni = passport_values(document_code="ID", issuing_country="ESP", nationality="ESP",
                          number="BAA000589", optional="12345678Z", optional_2="")
    dni["name"] = "GARCIA<LOPEZ<<LUCIA"
    answer = guest_page.post(f"{path}/scan/0?lang=es", {},
                             upload_files=[("scan-0", "dni.png", document_photo(dni, "TD1"))],
                             headers={"Accept": "application/json"}).json
    assert answer["values"]["document_number"] == "12345678Z"
    assert answer["values"]["document_support_number"] == "BAA000589"
    assert answer["values"]["document_type"] == "id_card"
    assert answer["values"]["last_name"] == "Garcia Lopez"
    assert any("Segundo apellido" in line for line in answer["lines"])
    assert not any("Número de soporte" in line for line in answer["lines"])  # it was filled
    page = scan_without_script(guest_page, path, document_photo(dni, "TD1"))
    assert page.forms["checkin-form"]["g0.document_support_number"].value == "BAA000589"
    assert "Second surname" in page.text and "move the second" in page.text


def test_kept_images_are_in_the_backup_still_sealed(guest_page, link, settings, tmp_path):
    import sqlite3

    from rentalcomply.ops import backup
    booking, path = link
    keeping.set_keep_images(booking.account_id, True)
    photo = document_photo(passport_values())
    scan_without_script(guest_page, path, photo)
    if backup.external_database(settings):
        # On PostgreSQL the database is backed up with its own tool, the images with it.
        assert DocumentImage.select().where(DocumentImage.booking == booking.id).count() == 1
        return
    archive, _ = backup.create_backup(settings, output=tmp_path / "backup.tar.gz")
    (tmp_path / "restored").mkdir()
    backup.read_backup(archive, tmp_path / "restored")
    database = tmp_path / "restored" / "rentalcomply.db"
    rows = sqlite3.connect(database).execute(
        "SELECT booking_id, image_sealed FROM document_image").fetchall()
    assert [row[0] for row in rows] == [booking.id]
    assert rows[0][1].startswith("v1:") and photo[:16] not in rows[0][1].encode()


def test_what_was_typed_stays_when_the_document_cannot_be_read(guest_page, link):
    _, path = link
    page = scan_without_script(guest_page, path, document_photo(passport_values(),
                                                                break_check=True),
                               typed={"g0.first_name": "Μαρία", "g0.phone": "+30 210 1234567"})
    form = page.forms["checkin-form"]
    assert form["g0.first_name"].value == "Μαρία" and form["g0.phone"].value == "+30 210 1234567"
    assert "could not be read with certainty" in page.text
