"""`GET /api/v1/filings` with booking and period filings mixed: each filter, the walk by cursor
(no filing twice, none missed, while filings are added), bad filters and cursors, another
account's rows, and the host's actions on a period filing (`/refile`, `/filed`).

Period filings are rows with a property and a period and no booking, made here directly as the
engine makes them."""

import datetime as dt
import itertools
import json
import urllib.parse

import pytest

from rentalcomply.core import clock
from rentalcomply.core.models import Event
from rentalcomply.filings.models import Filing
from rentalcomply.properties import service as properties
from tests.helpers import assert_error
from tests.police.conftest import family, put_guests

_ids = itertools.count(1)


def period_filing(prop, *, period="2026-03", status="waiting", kind="month",
                  authority="ross1000", deadline=None, **fields) -> Filing:
    return Filing.create(id=f"pf_period{next(_ids):04d}", account=prop.account_id,
                         authority=authority, kind=kind, property=prop.id, period=period,
                         status=status, deadline=deadline or clock.utcnow() + dt.timedelta(days=5),
                         **fields)


def listed(actor, **query):
    answer = actor.get("/api/v1/filings?" + urllib.parse.urlencode(query)).json
    return answer["data"], answer["pagination"]


def ids(items) -> list[str]:
    return [item["id"] for item in items]


@pytest.fixture
def mixed(owner, make_booking, italian_property):
    """A checked-in booking of the Italian property (its arrival filing), a period filing of the
    same property, and one of a second property."""
    booking = make_booking()
    put_guests(owner, booking.id, family())
    booking_filing = Filing.get(Filing.booking == booking.id)
    other = properties.create_property(owner.account_id, name="Casa Monte", address="Via Alta 3",
                                       country="IT")
    march = period_filing(italian_property, period="2026-03", status="ready")
    quarter = period_filing(other, period="2026-Q1", status="held", kind="arrival",
                            authority="alloggiati", held_reason="set-up needed: user, password")
    return {"booking": booking, "booking_filing": booking_filing, "march": march,
            "quarter": quarter, "other": other, "prop": italian_property}


def test_booking_and_period_filings_list_side_by_side(owner, mixed):
    items = {item["id"]: item for item in listed(owner)[0]}
    assert set(items) == {mixed["booking_filing"].id, mixed["march"].id, mixed["quarter"].id}
    march = items[mixed["march"].id]
    assert march["booking_id"] is None and march["period"] == "2026-03"
    assert march["property_id"] == mixed["prop"].id and march["kind"] == "month"
    assert march["authority"] == "ross1000" and march["status_text"].startswith("The file is")
    booking_filing = items[mixed["booking_filing"].id]
    assert booking_filing["booking_id"] == mixed["booking"].id and booking_filing["period"] is None
    assert booking_filing["property_id"] == mixed["prop"].id
    assert booking_filing["authority_title"].startswith("Alloggiati Web")
    assert march["at_risk"] is False
    quarter = items[mixed["quarter"].id]
    assert quarter["reason_text"] == ("Nothing was sent: the set-up is not complete (missing: "
                                      "user, password).")


def test_a_filing_announced_at_risk_is_at_risk_until_filed(owner, italian_property):
    row = period_filing(italian_property, status="ready", at_risk_at=clock.utcnow())
    (item,), _ = listed(owner)
    assert item["at_risk"] is True and item["at_risk_at"] is not None
    owner.post_json(f"/api/v1/filings/{row.id}/filed", {"reference": "R"})
    (item,), _ = listed(owner)
    assert item["at_risk"] is False


def test_each_filter_with_both_kinds_of_filings(owner, mixed):
    booking_filing, march, quarter = mixed["booking_filing"], mixed["march"], mixed["quarter"]
    expected = {
        (("property_id", mixed["prop"].id),): {booking_filing.id, march.id},
        (("property_id", mixed["other"].id),): {quarter.id},
        (("booking_id", mixed["booking"].id),): {booking_filing.id},
        (("authority", "alloggiati"),): {booking_filing.id, quarter.id},
        (("kind", "month"),): {march.id},
        (("kind", "arrival"),): {booking_filing.id, quarter.id},
        (("period", "2026-03"),): {march.id},
        (("period", "2026-Q1"),): {quarter.id},
        (("period", "2026"),): set(),
        (("status", "held"),): {quarter.id},
        (("status", "ready"),): {march.id},
        (("property_id", mixed["prop"].id), ("status", "ready")): {march.id},
        (("authority", "alloggiati"), ("kind", "arrival"), ("period", "2026-Q1")): {quarter.id},
    }
    for query, wanted in expected.items():
        items, pagination = listed(owner, **dict(query))
        assert set(ids(items)) == wanted, query
        assert pagination["total"] == len(wanted), query


def test_the_cursor_walks_every_filing_once_while_filings_are_added(owner, italian_property):
    start = clock.utcnow().replace(microsecond=0) + dt.timedelta(days=1)
    # Several due at the same second: the id keeps their order.
    made = [period_filing(italian_property, period=f"2026-{month:02d}",
                          deadline=start + dt.timedelta(hours=month // 3))
            for month in range(1, 12)]
    expected = [row.id for row in sorted(made, key=lambda row: (row.deadline, row.id))]
    seen, cursor, pages = [], None, 0
    while True:
        query = {"limit": 3, **({"cursor": cursor} if cursor else {})}
        items, pagination = listed(owner, **query)
        pages += 1
        seen += ids(items)
        assert pagination["limit"] == 3 and pagination["total"] >= 11
        assert pagination["page"] == (None if cursor else 1)
        if pages == 2:  # filings added before and after the place reached
            period_filing(italian_property, period="2025", deadline=start - dt.timedelta(days=9))
            later = period_filing(italian_property, period="2027",
                                  deadline=start + dt.timedelta(days=30))
        cursor = pagination["next_cursor"]
        assert pagination["has_more"] is (cursor is not None)
        if cursor is None:
            break
    assert len(seen) == len(set(seen))
    assert seen == expected + [later.id]
    assert pages == 4


def test_page_numbers_still_work_and_cannot_be_mixed_with_a_cursor(owner, italian_property):
    for month in range(1, 6):
        period_filing(italian_property, period=f"2026-{month:02d}",
                      deadline=clock.utcnow() + dt.timedelta(days=month))
    first, pagination = listed(owner, limit=2, page=1)
    assert pagination["page"] == 1 and pagination["has_more"] and pagination["total"] == 5
    second, _ = listed(owner, limit=2, page=2)
    by_cursor, _ = listed(owner, limit=2, cursor=pagination["next_cursor"])
    assert ids(second) == ids(by_cursor) and not set(ids(first)) & set(ids(second))
    answer = owner.get("/api/v1/filings?page=2&cursor=" + pagination["next_cursor"], status=400)
    assert_error(answer, 400, "VALIDATION_ERROR")
    assert [d["field"] for d in answer.json["error"]["details"]] == ["cursor"]


@pytest.mark.parametrize("cursor", ["nonsense", "WzEsMl0", "eyJhIjogMX0", "!!!!"])
def test_a_cursor_the_list_did_not_give_is_400(owner, cursor):
    answer = owner.get(f"/api/v1/filings?cursor={cursor}", status=400)
    assert_error(answer, 400, "VALIDATION_ERROR")
    assert answer.json["error"]["details"][0]["field"] == "cursor"


@pytest.mark.parametrize("query", ["period=2026-Q5", "period=2026-3", "period=26", "status=done",
                                   "kind=monthly", "cursor=", "limit=101", "property_id="])
def test_bad_filters_are_400_naming_the_field(owner, query):
    answer = owner.get(f"/api/v1/filings?{query}", status=400)
    assert_error(answer, 400, "VALIDATION_ERROR")
    assert answer.json["error"]["details"][0]["field"] == query.split("=")[0]


def test_another_accounts_rows_and_ids_match_nothing(owner, outsider, mixed):
    assert listed(outsider)[0] == []
    # Their property or booking, asked for by its id, lists nothing (never a 404: no lookup).
    assert listed(outsider, property_id=mixed["prop"].id)[0] == []
    assert listed(outsider, booking_id=mixed["booking"].id)[0] == []
    theirs = properties.create_property(outsider.account_id, name="Casa B", address="Via B",
                                        country="IT")
    period_filing(theirs, period="2026-03", status="ready")
    assert set(ids(listed(owner, period="2026-03")[0])) == {mixed["march"].id}
    assert listed(owner, property_id=theirs.id)[0] == []
    outsider.post_json(f"/api/v1/filings/{mixed['march'].id}/filed", {}, status=404)
    outsider.post(f"/api/v1/filings/{mixed['quarter'].id}/refile", status=404)


def test_reading_needs_read_and_acting_needs_write(reader, writer, mixed):
    assert len(listed(reader)[0]) == 3
    assert_error(writer.get("/api/v1/filings", status=403), 403, "INSUFFICIENT_SCOPE")
    assert_error(reader.post(f"/api/v1/filings/{mixed['march'].id}/filed", status=403),
                 403, "INSUFFICIENT_SCOPE")
    assert_error(reader.post(f"/api/v1/filings/{mixed['quarter'].id}/refile", status=403),
                 403, "INSUFFICIENT_SCOPE")


def test_a_period_filing_is_marked_filed_with_its_reference(owner, mixed):
    march = mixed["march"]
    done = owner.post_json(f"/api/v1/filings/{march.id}/filed",
                           {"reference": "ROSS 2026-03"}).json["data"]
    assert done["status"] == "submitted" and done["reference"] == "ROSS 2026-03"
    assert done["period"] == "2026-03" and done["submitted_at"] is not None
    row = Filing.get_by_id(march.id)
    assert row.status == "submitted" and row.version == march.version + 1
    # Its event (the period engine's filing.submitted) names the filing and keeps no signed link.
    (event,) = [e for e in Event.select() if e.type == "filing.submitted"
                and march.id in json.dumps(e.data)]
    assert "2026-03" in json.dumps(event.data) and "download_url" not in json.dumps(event.data)
    assert_error(owner.post(f"/api/v1/filings/{march.id}/filed", status=409),
                 409, "POLICE_NOT_READY")
    # Only a file waiting for its upload can be marked filed.
    assert_error(owner.post(f"/api/v1/filings/{mixed['quarter'].id}/filed", status=409),
                 409, "POLICE_NOT_READY")


def test_a_period_filing_is_handed_back_to_its_engine(frozen_clock, owner, italian_property):
    failed = period_filing(italian_property, status="failed", attempts=5, error="timed out",
                           next_attempt_at=None)
    done = owner.post(f"/api/v1/filings/{failed.id}/refile").json["data"]
    row = Filing.get_by_id(failed.id)
    # Queued from attempt 0, then taken at once by the worker: this property's ROSS 1000 set-up
    # is not complete, so it is held saying what is missing, never sent with a guess.
    assert (row.status, row.attempts, row.error) == ("held", 0, None)
    assert "structure_code" in row.held_reason
    assert done["status"] in ("queued", "held") and done["error"] is None
    waiting = period_filing(italian_property, period="2026-04")
    assert_error(owner.post(f"/api/v1/filings/{waiting.id}/refile", status=409),
                 409, "POLICE_NOT_READY")
