"""What happens around every handler: errors, bodies, validation, transactions, idempotency."""

import pytest

from rentalcomply.core import events
from rentalcomply.core.errors import BookingConflict
from rentalcomply.core.models import Account, Event
from rentalcomply.web.validation import Field
from tests.helpers import assert_error


@pytest.fixture
def routes(wsgi_app, account_a):
    api = wsgi_app.api
    calls = []

    @api.post("/things", scope="write", summary="make a thing", status=201,
              body={"name": Field("string", required=True, max_length=20),
                    "count": Field("integer", minimum=1, maximum=5, default=1),
                    "day": Field("date")},
              response={"type": "object"}, errors=[BookingConflict])
    def make_thing(ctx):
        calls.append(ctx.body)
        events.emit(ctx.account_id, "booking.created", {"name": ctx.body["name"]})
        if ctx.body["name"] == "clash":
            raise BookingConflict()
        if ctx.body["name"] == "crash":
            raise RuntimeError("secret detail /etc/passwd")
        return {"name": ctx.body["name"], "number": len(calls)}

    @api.get("/boom", scope="read", summary="always fails", response={"type": "object"})
    def boom(ctx):
        raise RuntimeError("SELECT * FROM account -- traceback material")

    return calls


def test_an_unknown_endpoint_is_a_json_404(owner):
    assert_error(owner.get("/api/v1/nothing-here", status=404), 404, "NOT_FOUND")


def test_a_wrong_method_is_a_json_405_with_allow(routes, owner):
    response = owner.delete("/api/v1/things", status=405)
    assert_error(response, 405, "METHOD_NOT_ALLOWED")
    assert "POST" in response.headers["Allow"]


def test_allow_names_head_wherever_get_is_allowed(owner):
    response = owner.delete("/api/v1/properties", status=405)
    assert {m.strip() for m in response.headers["Allow"].split(",")} >= {"GET", "HEAD", "POST"}


def test_an_unexpected_error_is_a_bare_500_with_the_request_id(routes, owner, caplog):
    response = owner.get("/api/v1/boom", status=500)
    error = assert_error(response, 500, "INTERNAL_ERROR")
    assert "SELECT" not in response.text and "Traceback" not in response.text
    assert error["request_id"] in error["message"]
    assert "traceback material" in caplog.text  # logged server-side, with the request id
    assert error["request_id"] in caplog.text


def test_a_valid_body_reaches_the_handler(routes, owner):
    response = owner.post_json("/api/v1/things", {"name": "lamp", "day": "2026-03-01"}, status=201)
    assert response.json == {"data": {"name": "lamp", "number": 1}}
    assert str(routes[0]["day"]) == "2026-03-01" and routes[0]["count"] == 1


def test_every_bad_field_is_named_at_once(routes, owner):
    response = owner.post_json("/api/v1/things", {"name": 7, "count": 9, "day": "2026-02-30",
                                                 "colour": "red"}, status=400)
    error = assert_error(response, 400, "VALIDATION_ERROR")
    assert {d["field"] for d in error["details"]} == {"name", "count", "day", "colour"}
    assert routes == []


def test_a_missing_field_is_named(routes, owner):
    error = assert_error(owner.post_json("/api/v1/things", {}, status=400), 400, "VALIDATION_ERROR")
    assert error["details"] == [{"field": "name", "message": "is required"}]


def test_malformed_json_is_refused(routes, owner):
    response = owner.post("/api/v1/things", '{"name": "lamp",', status=400,
                          content_type="application/json")
    assert_error(response, 400, "INVALID_JSON")


def test_a_json_array_is_not_an_object(routes, owner):
    response = owner.post("/api/v1/things", "[1]", status=400, content_type="application/json")
    assert_error(response, 400, "VALIDATION_ERROR")


def test_a_body_that_is_not_json_is_refused_by_media_type(routes, owner):
    response = owner.post("/api/v1/things", "name=lamp", status=415,
                          content_type="application/x-www-form-urlencoded")
    assert_error(response, 415, "UNSUPPORTED_MEDIA_TYPE")


def test_a_body_over_one_mebibyte_is_refused(routes, owner):
    huge = '{"name": "' + "x" * (1024 * 1024) + '"}'
    response = owner.post("/api/v1/things", huge, status=413, content_type="application/json")
    assert_error(response, 413, "PAYLOAD_TOO_LARGE")


def test_scope_is_judged_before_the_body(routes, reader):
    response = reader.post("/api/v1/things", "not json", status=403, content_type="application/json")
    assert_error(response, 403, "INSUFFICIENT_SCOPE")


def test_a_business_error_rolls_back_the_events_of_the_request(routes, owner):
    assert_error(owner.post_json("/api/v1/things", {"name": "clash"}, status=409), 409,
                 "BOOKING_CONFLICT")
    assert_error(owner.post_json("/api/v1/things", {"name": "crash"}, status=500), 500,
                 "INTERNAL_ERROR")
    assert Event.select().count() == 0
    owner.post_json("/api/v1/things", {"name": "lamp"}, status=201)
    assert [e.type for e in Event.select()] == ["booking.created"]


def test_an_idempotent_retry_returns_the_first_response(routes, owner):
    first = owner.post_json("/api/v1/things", {"name": "lamp"}, headers={"Idempotency-Key": "k1"},
                            status=201)
    again = owner.post_json("/api/v1/things", {"name": "lamp"}, headers={"Idempotency-Key": "k1"},
                            status=201)
    assert again.body == first.body
    assert len(routes) == 1 and Event.select().count() == 1
    assert "Idempotent-Replayed" not in first.headers
    assert again.headers["Idempotent-Replayed"] == "true"


def test_an_idempotent_retry_replays_an_error_response_too(routes, owner):
    first = owner.post_json("/api/v1/things", {"name": "clash"},
                            headers={"Idempotency-Key": "k2"}, status=409)
    again = owner.post_json("/api/v1/things", {"name": "clash"},
                            headers={"Idempotency-Key": "k2"}, status=409)
    assert again.json["error"]["code"] == first.json["error"]["code"] == "BOOKING_CONFLICT"
    assert len(routes) == 1
    assert again.headers["Idempotent-Replayed"] == "true"


def test_a_server_error_is_not_stored_under_the_idempotency_key(routes, owner):
    owner.post_json("/api/v1/things", {"name": "crash"}, headers={"Idempotency-Key": "k3"},
                    status=500)
    owner.post_json("/api/v1/things", {"name": "crash"}, headers={"Idempotency-Key": "k3"},
                    status=500)
    assert len(routes) == 2


def test_the_same_idempotency_key_with_another_body_is_a_conflict(routes, owner):
    owner.post_json("/api/v1/things", {"name": "lamp"}, headers={"Idempotency-Key": "k4"})
    response = owner.post_json("/api/v1/things", {"name": "desk"},
                               headers={"Idempotency-Key": "k4"}, status=409)
    assert_error(response, 409, "IDEMPOTENCY_CONFLICT")


def test_idempotency_keys_belong_to_one_account(routes, owner, outsider):
    owner.post_json("/api/v1/things", {"name": "lamp"}, headers={"Idempotency-Key": "k5"})
    response = outsider.post_json("/api/v1/things", {"name": "desk"},
                                  headers={"Idempotency-Key": "k5"}, status=201)
    assert response.json["data"]["name"] == "desk"
    assert Account.select().count() == 2


def test_idempotency_records_are_forgotten_after_their_retention(routes, owner):
    import datetime as dt

    from rentalcomply.core import clock
    from rentalcomply.core.models import IdempotencyRecord
    from rentalcomply.ops.tasks import purge_past_retention

    owner.post_json("/api/v1/things", {"name": "lamp"}, headers={"Idempotency-Key": "k6"})
    assert purge_past_retention.call_local()["idempotency_record"] == 0
    clock.travel(dt.timedelta(hours=24, seconds=1))
    assert purge_past_retention.call_local()["idempotency_record"] == 1
    assert IdempotencyRecord.select().count() == 0


def test_text_that_is_not_valid_unicode_is_refused_not_stored(routes, owner):
    response = owner.post("/api/v1/things", b'{"name": "\\ud800"}', status=400,
                          content_type="application/json")
    assert assert_error(response, 400, "VALIDATION_ERROR")["details"][0]["field"] == "name"


def test_numbers_too_large_for_any_column_are_refused(wsgi_app, owner):
    @wsgi_app.api.post("/counts", scope="write", summary="count", body={"n": Field("integer")},
                       response={"type": "object"})
    def count(ctx):
        return ctx.body

    response = owner.post("/api/v1/counts", b'{"n": 123456789012345678901234567890}', status=400,
                          content_type="application/json")
    assert_error(response, 400, "VALIDATION_ERROR")


def test_json_nested_too_deep_to_parse_is_invalid_json_not_a_crash(routes, owner):
    response = owner.post("/api/v1/things", "[" * 5000 + "]" * 5000, status=400,
                          content_type="application/json")
    assert_error(response, 400, "INVALID_JSON")


def test_the_router_compiles_its_patterns_once_and_still_matches_a_route_added_later():
    from rentalcomply.web.app import CompiledOnceRouter
    router = CompiledOnceRouter()
    for number in range(150):  # more than Bottle puts in one combined pattern
        router.add(f"/things{number}/<thing_id>", "GET", f"thing {number}")
    assert router.dyna_regexes == {}  # adding a route compiles nothing
    router.compile()
    assert router.match({"PATH_INFO": "/things149/t1", "REQUEST_METHOD": "GET"}) == \
        ("thing 149", {"thing_id": "t1"})
    router.add("/later/<thing_id>", "POST", "later")
    assert router.match({"PATH_INFO": "/later/t2", "REQUEST_METHOD": "POST"}) == \
        ("later", {"thing_id": "t2"})
    assert router.match({"PATH_INFO": "/things0/t3", "REQUEST_METHOD": "GET"}) == \
        ("thing 0", {"thing_id": "t3"})
