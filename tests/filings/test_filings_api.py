"""`GET /api/v1/filings`: an account's filings as one list, with its filters and pages, and the
host's actions on one by its id (`/refile`, `/filed`)."""

import datetime as dt
import urllib.parse

import pytest

from rentalcomply.core import clock, sealing
from rentalcomply.core.models import Booking, Event
from rentalcomply.filings.engine import save_filing
from rentalcomply.filings import receipts
from rentalcomply.filings.models import Filing, PoliceReceipt, PoliceReceiptFiling
from rentalcomply.properties import service as properties
from tests.helpers import assert_error
from tests.police.conftest import family, put_guests


@pytest.fixture
def file_property(owner):
    prop = properties.create_property(owner.account_id, name="Casa Mare", address="Via Mare 2",
                                      country="IT", max_guests=6)
    owner.patch_json(f"/api/v1/properties/{prop.id}",
                     {"police_connector": "file", "police_settings": {"apartment_id": "000777"}})
    return prop


@pytest.fixture
def ready_filing(owner, make_booking, file_property):
    """A booking of the `file` property, checked in: its file waits for a hand upload."""
    booking = make_booking(prop=file_property)
    put_guests(owner, booking.id, family())
    return Filing.get(Filing.booking == booking.id)


def listed(actor, **query):
    answer = actor.get("/api/v1/filings?" + urllib.parse.urlencode(query)).json
    return answer["data"], answer["pagination"]


def test_the_list_shows_a_ready_filing_with_its_words_and_file_link(owner, anonymous,
                                                                     ready_filing):
    (item,), pagination = listed(owner)
    assert pagination == {"page": 1, "limit": 20, "total": 1, "has_more": False,
                          "next_cursor": None}
    assert item["id"] == ready_filing.id and item["status"] == "ready"
    assert item["period"] is None and item["booking_id"] == ready_filing.booking_id
    assert item["authority"] == "file" and item["status_text"].startswith("The file is ready")
    assert item["authority_title"] == "A file uploaded by hand" and item["reason_text"] is None
    assert item["receipt"] is None
    parts = urllib.parse.urlsplit(item["file"]["download_url"])
    assert anonymous.get(parts.path + "?" + parts.query).body


def test_a_kept_receipt_comes_with_its_one_hour_link(frozen_clock, owner, anonymous, ready_filing,
                                                    file_property):
    row = PoliceReceipt.create(id="prc_1", account=owner.account_id, property=file_property.id,
                               authority="alloggiati", account_user="RM012345",
                               day=clock.today(), status="kept")
    row.pdf_sealed = sealing.seal(receipts.seal_purpose(row), b"%PDF-1.4 ricevuta")
    row.save()
    PoliceReceiptFiling.create(receipt=row.id, filing=ready_filing.id)
    (item,), _ = listed(owner)
    link = item["receipt"]
    assert link["expires_at"] == clock.iso(clock.utcnow() + dt.timedelta(hours=1))
    assert link["filename"] == receipts.filename(row)
    parts = urllib.parse.urlsplit(link["download_url"])
    assert anonymous.get(parts.path + "?" + parts.query).body == b"%PDF-1.4 ricevuta"


def test_each_filter_keeps_only_its_filings(owner, ready_filing, file_property,
                                            italian_property):
    booking_id, kind = ready_filing.booking_id, ready_filing.kind
    for query in ({"property_id": file_property.id}, {"booking_id": booking_id},
                  {"authority": "file"}, {"kind": kind}, {"status": "ready"}):
        assert [f["id"] for f in listed(owner, **query)[0]] == [ready_filing.id], query
    for query in ({"property_id": italian_property.id}, {"booking_id": "book_none"},
                  {"authority": "alloggiati"}, {"kind": "departure"}, {"status": "submitted"},
                  {"period": "2026-11"}):
        assert listed(owner, **query)[0] == [], query


def test_a_period_filter_finds_a_period_filing(owner, ready_filing, file_property):
    # Period filings come later: a row shaped as one must already list and filter.
    Filing.create(id="pf_period1", account=owner.account_id, authority="file", kind="arrival",
                  property=file_property.id, period="2026-11", deadline=ready_filing.deadline)
    (item,), _ = listed(owner, period="2026-11")
    assert item["id"] == "pf_period1" and item["booking_id"] is None
    assert item["property_id"] == file_property.id and item["period"] == "2026-11"
    assert len(listed(owner, property_id=file_property.id)[0]) == 2


def test_the_list_is_paginated(owner, make_booking, file_property):
    for week in range(3):
        arrival = clock.today() + dt.timedelta(days=7 * week)
        put_guests(owner, make_booking(arrival, prop=file_property).id, family())
    first, pagination = listed(owner, limit=2)
    assert pagination["total"] == 3 and pagination["has_more"] is True
    second, pagination = listed(owner, limit=2, page=2)
    assert pagination["has_more"] is False and len(second) == 1
    assert len({f["id"] for f in first + second}) == 3


@pytest.mark.parametrize("query", ["status=nope", "kind=x", "authority=nobody", "period=2026-13",
                                   "period=11-2026", "limit=0", "page=0"])
def test_a_bad_filter_is_400(owner, query):
    assert_error(owner.get(f"/api/v1/filings?{query}", status=400), 400, "VALIDATION_ERROR")


def test_another_accounts_filing_is_404_and_not_listed(outsider, ready_filing):
    assert listed(outsider)[0] == []
    outsider.post(f"/api/v1/filings/{ready_filing.id}/filed", status=404)
    outsider.post(f"/api/v1/filings/{ready_filing.id}/refile", status=404)
    outsider.post("/api/v1/filings/pf_nothing/filed", status=404)


def test_a_missing_scope_is_403(reader, ready_filing):
    assert len(listed(reader)[0]) == 1
    assert_error(reader.post(f"/api/v1/filings/{ready_filing.id}/filed", status=403),
                 403, "INSUFFICIENT_SCOPE")
    assert_error(reader.post(f"/api/v1/filings/{ready_filing.id}/refile", status=403),
                 403, "INSUFFICIENT_SCOPE")


def test_filed_marks_it_submitted_once_then_409(owner, ready_filing):
    done = owner.post_json(f"/api/v1/filings/{ready_filing.id}/filed",
                           {"reference": "RICEVUTA 9"}).json["data"]
    assert done["status"] == "submitted" and done["reference"] == "RICEVUTA 9"
    assert Booking.get_by_id(ready_filing.booking_id).report_status == "SUBMITTED"
    assert [e.type for e in Event.select() if e.type.startswith("police.")] == ["police.submitted"]
    assert_error(owner.post(f"/api/v1/filings/{ready_filing.id}/filed", status=409),
                 409, "POLICE_NOT_READY")


def test_refile_queues_a_failed_filing_again_and_409_when_nothing_to_refile(owner, ready_filing):
    save_filing(Filing.get_by_id(ready_filing.id), status="failed", error="timeout")
    done = owner.post(f"/api/v1/filings/{ready_filing.id}/refile").json["data"]
    assert done["status"] in ("queued", "ready", "sending", "submitted")
    assert done["error"] is None
    owner.post_json(f"/api/v1/filings/{ready_filing.id}/filed", {})
    assert_error(owner.post(f"/api/v1/filings/{ready_filing.id}/refile", status=409),
                 409, "POLICE_NOT_READY")
