"""Signed download links: one hour, a new one per request, altered is 403, late is 410."""

import datetime as dt
import urllib.parse

import pytest

from rentalcomply.core import clock
from tests.helpers import assert_error


@pytest.fixture
def march(owner, month):
    owner.post_json("/api/v1/reports", {"period": "2026-03"}, status=202)
    return month


def link(actor, fmt="pdf"):
    return actor.get(f"/api/v1/reports/rep_2026_03/download?format={fmt}").json["data"]


def path_of(url):
    parts = urllib.parse.urlsplit(url)
    return parts.path + "?" + parts.query


def test_the_link_downloads_within_the_hour_without_a_key(frozen_clock, owner, anonymous, march):
    data = link(owner)
    issued = clock.utcnow()
    assert data["expires_at"] == clock.iso(issued + dt.timedelta(hours=1))
    clock.travel(dt.timedelta(minutes=59))
    assert anonymous.get(path_of(data["download_url"])).body.startswith(b"%PDF")


def test_the_same_link_a_minute_past_expiry_is_410(owner, anonymous, march):
    data = link(owner)
    clock.travel(dt.timedelta(hours=1, minutes=1))
    assert_error(anonymous.get(path_of(data["download_url"]), status=410), 410, "LINK_EXPIRED")


def test_one_changed_character_of_the_signature_is_403(owner, anonymous, march):
    url = link(owner)["download_url"]
    signature = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["signature"][0]
    changed = signature[:-1] + ("0" if signature[-1] != "0" else "1")
    assert_error(anonymous.get(path_of(url.replace(signature, changed)), status=403), 403,
                 "INVALID_SIGNATURE")


def test_an_altered_link_is_403_even_when_it_is_also_late(owner, anonymous, march):
    url = link(owner)["download_url"]
    expires = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["expires"][0]
    clock.travel(dt.timedelta(hours=3))
    stretched = url.replace(f"expires={expires}", f"expires={int(expires) + 7200}")
    assert_error(anonymous.get(path_of(stretched), status=403), 403, "INVALID_SIGNATURE")


@pytest.mark.parametrize("change", [
    lambda u: u.replace(".pdf?", ".csv?"),                        # another format
    lambda u: u.replace("rep_2026_03", "rep_2026_02"),            # another report
    lambda u: u.split("&signature=")[0],                          # no signature
    lambda u: u.replace("nonce=", "nonce=x"),                     # another nonce
])
def test_a_link_moved_to_another_file_or_stripped_is_403(owner, anonymous, march, change):
    url = link(owner)["download_url"]
    assert_error(anonymous.get(path_of(change(url)), status=403), 403, "INVALID_SIGNATURE")


def test_a_link_moved_to_another_account_is_403(owner, outsider, anonymous, march):
    url = link(owner)["download_url"]
    moved = url.replace(owner.account_id, outsider.account_id)
    assert_error(anonymous.get(path_of(moved), status=403), 403, "INVALID_SIGNATURE")


def test_every_request_mints_a_new_link(owner, march):
    assert link(owner)["download_url"] != link(owner)["download_url"]


def test_the_query_variant_gives_the_same_kind_of_link(owner, anonymous, march):
    data = owner.get("/api/v1/reports/download?report_id=rep_2026_03&format=xml").json["data"]
    assert data["filename"] == "rep_2026_03.xml" and data["format"] == "XML"
    assert anonymous.get(path_of(data["download_url"])).body.startswith(b"<?xml")
    assert_error(owner.get("/api/v1/reports/download?report_id=rep_2026_03&format=docx",
                           status=400), 400, "VALIDATION_ERROR")
    assert_error(owner.get("/api/v1/reports/download", status=400), 400, "VALIDATION_ERROR")
    assert_error(owner.get("/api/v1/reports/download?report_id=rep_1999_01", status=404), 404,
                 "NOT_FOUND")


def test_the_link_uses_the_public_url_and_lasts_the_configured_lifetime(frozen_clock, owner, march, settings):
    settings.reports.link_lifetime_seconds = 600
    data = link(owner)
    assert data["download_url"].startswith(settings.server.public_url + "/files/reports/")
    assert data["expires_at"] == clock.iso(clock.utcnow() + dt.timedelta(minutes=10))


def test_reading_links_needs_the_read_scope(writer, march):
    assert_error(writer.get("/api/v1/reports/rep_2026_03/download", status=403), 403,
                 "INSUFFICIENT_SCOPE")
