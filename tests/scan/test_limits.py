"""The scanner's limits (issue 35): a photo's declared size read from its header and refused
before anything decodes it, one photo read at a time, no transaction open while it is, the
size limit the page states, and one kept image per guest."""

from __future__ import annotations

import struct
import threading
import time

import peewee
import pytest

from rentalcomply.checkin import service as checkin
from rentalcomply.core.db import db
from rentalcomply.scan import images, keeping, reader, service
from rentalcomply.scan.models import DocumentImage
from rentalcomply.web.app import create_app
from tests.conftest import documented_app
from tests.scan.conftest import document_photo, needs_scanner, passport_values
from tests.scan.files import jpeg_declaring, png_declaring, png_grey, small_jpeg, small_png

pytestmark = needs_scanner
JSON = {"Accept": "application/json"}


@pytest.fixture
def link(make_booking):
    booking = make_booking("PT", guest_count=2, arrival_in=10, nights=4)
    return booking, "/checkin/" + checkin.token_for(booking.id)


@pytest.fixture
def no_decoding(monkeypatch):
    """OpenCV's decoder, made to fail the test if anything reaches it."""
    import cv2

    def refuse(*args, **kwargs):
        raise AssertionError("the image was handed to the decoder")
    monkeypatch.setattr(cv2, "imdecode", refuse)


def post_scan(guest_page, path, photo, status, lang="en", guest=0, headers=JSON):
    return guest_page.post(f"{path}/scan/{guest}?lang={lang}", {},
                           upload_files=[(f"scan-{guest}", "photo.jpg", photo)],
                           headers=headers, status=status)


@pytest.mark.parametrize("bomb", [jpeg_declaring(30000, 30000), png_declaring(30000, 30000)],
                         ids=["jpeg", "png"])
def test_a_bomb_declaring_30000_by_30000_pixels_is_refused_from_its_header(
        guest_page, link, no_decoding, bomb):
    _, path = link
    assert len(bomb) < 400  # the size of issue 35's 335-byte JPEG
    started = time.monotonic()
    answer = post_scan(guest_page, path, bomb, 413, lang="de").json
    assert time.monotonic() - started < 1.0
    error = answer["error"]
    assert error["code"] == "PAYLOAD_TOO_LARGE"
    assert error["details"][0]["setting"] == "scan.max_image_side"
    assert error["details"][0]["limit"] == 12_000
    assert "at most 12000 pixels a side and 50 megapixels" in error["message"]
    assert "höchstens 12000 Pixel je Seite" in answer["lines"][0]  # the guest's language


def test_a_photo_within_the_side_limit_but_past_the_pixel_limit_names_the_pixel_setting(
        guest_page, link, no_decoding):
    _, path = link
    answer = post_scan(guest_page, path, jpeg_declaring(11_000, 11_000), 413).json
    assert answer["error"]["details"][0]["setting"] == "scan.max_image_pixels"
    assert answer["error"]["details"][0]["limit"] == 50_000_000


def test_without_a_script_a_bomb_is_refused_on_the_page_in_the_guests_language(
        guest_page, link, no_decoding):
    _, path = link
    page = post_scan(guest_page, path, png_declaring(30000, 30000), 303, lang="it",
                     headers={}).follow()
    assert page.content_type == "text/html"
    assert "La foto ha troppi pixel per essere letta qui" in page.text


def _without_frame(jpeg: bytes) -> bytes:
    from tests.scan.files import frame_offset
    at = frame_offset(jpeg)
    length = struct.unpack(">H", jpeg[at + 2:at + 4])[0]
    return jpeg[:at] + jpeg[at + 2 + length:]


def _two_frames(jpeg: bytes) -> bytes:
    from tests.scan.files import frame_offset
    at = frame_offset(jpeg)
    frame = jpeg[at:at + 2 + struct.unpack(">H", jpeg[at + 2:at + 4])[0]]
    return jpeg[:at] + frame + frame + jpeg[at + len(frame):]


@pytest.mark.parametrize("data", [
    _without_frame(small_jpeg()),                                     # no frame header at all
    jpeg_declaring(64, 0),                                            # height left to a DNL
    small_jpeg()[:2] + b"junk" + small_jpeg()[2:],                   # damage between segments
    _two_frames(small_jpeg()),                                        # two frame headers
    small_jpeg(mode="CMYK", progressive=True),                        # not a camera's
    small_png()[:12] + b"tEXt" + small_png()[16:],                   # IHDR not first
    small_png()[:8],                                                  # the signature alone
], ids=["no-frame", "height-zero", "damaged", "two-frames", "cmyk", "no-ihdr",
        "signature-only"])
def test_a_file_whose_size_its_header_does_not_give_is_never_decoded(data, no_decoding):
    with pytest.raises(images.Refused) as refused:
        images.accept(data)
    assert refused.value.key == "scan.not_image"


def test_a_progressive_jpeg_of_more_scans_than_a_camera_writes_is_refused():
    photo = small_jpeg(progressive=True)
    scan = photo.index(b"\xff\xda")
    many = photo[:-2] + b"\xff\xda\x00\x08\x01\x01\x00\x00\x3f\x00" * (images.MAX_SCANS + 1) \
        + photo[-2:]
    assert images.accept(photo).width == 64 and scan > 0
    with pytest.raises(images.Refused):
        images.accept(many)


@pytest.mark.parametrize("width, height", [(12000, 1), (1, 12000), (3000, 2), (2, 2),
                                           (12000, 700)])
def test_a_photo_of_an_odd_shape_is_a_zone_not_found_not_an_error(guest_page, link, width,
                                                                 height):
    _, path = link
    answer = post_scan(guest_page, path, png_grey(width, height), 200).json
    assert answer["status"] == "failed" and answer["values"] == {}
    assert answer["lines"][0].startswith("No document lines were found in the photo.")


def test_the_reader_itself_sizes_the_file_before_decoding(no_decoding):
    with pytest.raises(reader.Unreadable, match="scan.too_many_pixels"):
        reader.read_image(jpeg_declaring(30000, 30000))


def test_no_database_transaction_is_open_while_a_photo_is_decoded(guest_page, link, monkeypatch):
    import cv2
    decode, seen = cv2.imdecode, []

    def watching(*args, **kwargs):
        seen.append(db.in_transaction())
        return decode(*args, **kwargs)
    monkeypatch.setattr(cv2, "imdecode", watching)
    booking, path = link
    keeping.set_keep_images(booking.account_id, True)  # every write a scan makes
    post_scan(guest_page, path, document_photo(passport_values()), 200)
    assert seen == [False]


def test_two_photos_are_never_read_at_once(make_booking, monkeypatch):
    booking = make_booking("PT", guest_count=2)
    running, most, lock = [0], [0], threading.Lock()

    def slow_read(data, today=None, limits=None):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.3)
        with lock:
            running[0] -= 1
        raise reader.Unreadable("none")
    monkeypatch.setattr(reader, "read_image", slow_read)
    gate = service.ReadGate(1)
    threads = [threading.Thread(target=service.scan_document,
                                args=(booking, guest, small_png(), images.Limits(), gate))
               for guest in (0, 1, 0)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most[0] == 1


def test_a_photo_that_waits_too_long_for_a_reader_asks_the_guest_to_try_again(
        settings, link, monkeypatch):
    gate = service.ReadGate(1, wait_seconds=0.05)
    monkeypatch.setattr(service, "ReadGate", lambda concurrent: gate)
    guest_page = documented_app(create_app(settings))
    _, path = link
    with gate.turn():  # another photo is being read
        answer = post_scan(guest_page, path, small_png(), 503, lang="fr")
    assert answer.headers["Retry-After"] == "60"
    assert answer.json["error"]["code"] == "SERVICE_UNAVAILABLE"
    assert answer.json["lines"][0].startswith("Beaucoup de photos sont en cours de lecture")


def test_the_page_states_the_size_limit_as_set(settings, link):
    settings.scan.max_upload_mb = 4
    guest_page = documented_app(create_app(settings))
    _, path = link
    big = b"\xff\xd8\xff\xe0" + b"\x00" * (4 * images.MIB)
    answer = post_scan(guest_page, path, big, 413).json
    assert "larger than 4 MB" in answer["lines"][0]
    assert answer["error"]["details"][0] == {
        "field": "scan-0", "message": answer["error"]["message"], "setting": "scan.max_upload_mb",
        "limit": 4}
    page = post_scan(guest_page, path, big, 303, lang="es", headers={}).follow()
    assert "La foto supera los 4 MB" in page.text


def test_a_re_scan_replaces_the_kept_image(guest_page, link):
    booking, path = link
    keeping.set_keep_images(booking.account_id, True)
    first = document_photo(passport_values(), seed=1)
    second = document_photo(passport_values(number="CD7654321"), seed=2)
    for photo in (first, first, second):
        post_scan(guest_page, path, photo, 200)
    post_scan(guest_page, path, first, 200, guest=1)
    assert keeping.kept_images(booking.id) == [(0, "image/png", second), (1, "image/png", first)]
    assert DocumentImage.select().where(DocumentImage.booking == booking.id).count() == 2


def test_the_upgrade_keeps_the_newest_kept_image_of_each_guest(link):
    """Migration 0036 on a database of the previous release, where each scan added a row."""
    import importlib
    upgrade = importlib.import_module("rentalcomply.migrations.0036_one_kept_image")
    booking, _ = link
    db.execute_sql('DROP INDEX "document_image_booking_id_guest_index"')
    for guest, sealed in ((0, "v1:first"), (0, "v1:second"), (1, "v1:only"), (0, "v1:third")):
        DocumentImage.create(booking=booking.id, account=booking.account_id, guest_index=guest,
                             media_type="image/png", image_sealed=sealed)
    upgrade.up(None, db)
    kept = DocumentImage.select().order_by(DocumentImage.guest_index)
    assert [(row.guest_index, row.image_sealed) for row in kept] == [(0, "v1:third"),
                                                                      (1, "v1:only")]
    with pytest.raises(peewee.IntegrityError):  # the unique index is back
        DocumentImage.create(booking=booking.id, account=booking.account_id, guest_index=1,
                             media_type="image/png", image_sealed="v1:again")


def test_the_page_states_the_size_limit_before_a_photo_is_chosen(settings, link):
    _, path = link
    assert "A JPEG or PNG photo, up to 10 MB." in documented_app(create_app(settings)).get(
        path + "?lang=en").text
    settings.scan.max_upload_mb = 25
    page = documented_app(create_app(settings)).get(path + "?lang=fr").text
    assert "Une photo JPEG ou PNG, jusqu&#039;à 25 MB." in page
