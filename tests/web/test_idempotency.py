"""Idempotency records at rest: the answer sealed, what is shown once not kept at all."""

import pytest

from rentalcomply.core import sealing
from rentalcomply.core.errors import NotFound
from rentalcomply.core.models import IdempotencyRecord
from rentalcomply.web.idempotency import ShownOnce
from rentalcomply.web.validation import Field
from tests.helpers import assert_error

GONE: set[str] = set()


def still_there(account_id, data):
    if data["id"] in GONE:
        raise NotFound("No such thing.")


@pytest.fixture
def routes(wsgi_app, account_a):
    api = wsgi_app.api
    GONE.clear()

    @api.post("/keyed-things", scope="write", summary="make a thing with a secret", status=201,
              body={"name": Field("string", required=True, max_length=20)},
              response={"type": "object"}, shown_once=ShownOnce(("password",), still_there))
    def make_keyed_thing(ctx):
        return {"id": "thing_" + ctx.body["name"], "name": ctx.body["name"],
                "password": "pw-" + ctx.body["name"] + "-0123456789"}


def post(owner, name, key, status=201):
    return owner.post_json("/api/v1/keyed-things", {"name": name},
                           headers={"Idempotency-Key": key}, status=status)


def test_the_stored_answer_is_sealed_and_holds_no_secret(routes, owner):
    post(owner, "lamp", "k1")
    record = IdempotencyRecord.get()
    assert "lamp" not in record.body and "pw-" not in record.body
    opened = sealing.unseal("idempotency-answer", record.body)
    assert b"thing_lamp" in opened and b"pw-lamp" not in opened


def test_a_replay_withholds_the_secret_and_says_so(routes, owner):
    first = post(owner, "lamp", "k1")
    again = post(owner, "lamp", "k1")
    assert first.json["data"]["password"] == "pw-lamp-0123456789"
    assert again.json["data"] == {**first.json["data"], "password": None}
    assert again.headers["Idempotent-Withheld"] == "password"
    assert "Idempotent-Withheld" not in first.headers


def test_a_replay_once_the_resource_is_gone_is_its_404(routes, owner):
    post(owner, "lamp", "k1")
    GONE.add("thing_lamp")
    assert_error(post(owner, "lamp", "k1", status=404), 404, "NOT_FOUND")


def test_an_answer_that_cannot_be_opened_is_never_run_again(routes, owner):
    post(owner, "lamp", "k1")
    IdempotencyRecord.update(body=sealing.seal("another purpose", b"{}")).execute()
    assert_error(post(owner, "lamp", "k1", status=409), 409, "IDEMPOTENCY_CONFLICT")
