"""Idempotency-Key on POST: a retry with the same key and the same body gets the first response.

The record is written in the same transaction as the change it guards, so a crash can never leave
a booking without its record (a retry would book twice) or a record without its booking. Keys are
per account and kept `retention.idempotency_hours` (24 by default). 5xx responses are not stored:
the client should be able to retry those for real. A replayed response carries
`Idempotent-Replayed: true`; the first one does not.

What is kept is never readable from the database alone: the answer is sealed (core/sealing.py,
AES-GCM under a key derived from the server secret), so a copy or a dump of the table, a replica
or the write-ahead log shows no guest data. An answer holding something shown only once (a
webhook's signing secret, a guest's check-in link) is kept without it: the route declares those
fields (`ShownOnce`) and they are null in the record, so no retry can show the secret twice. Its
replay says so (`Idempotent-Withheld` names the fields) and first asks whether the resource is
still there: once it is gone the replay is that resource's 404, never the old answer.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
import re
from typing import Callable

import peewee

from rentalcomply.core import clock, sealing
from rentalcomply.core.db import db
from rentalcomply.core.errors import IdempotencyConflict, ValidationError
from rentalcomply.core.models import IdempotencyRecord
from rentalcomply.web.json import dumps

RETENTION = dt.timedelta(hours=24)
REPLAYED_HEADER = "Idempotent-Replayed"
WITHHELD_HEADER = "Idempotent-Withheld"
SEALING_PURPOSE = "idempotency-answer"


@dataclasses.dataclass(frozen=True)
class ShownOnce:
    """A POST answer that shows something once: the fields of its `data` a replay withholds
    (null), and `still_there(account_id, data)`, which raises NotFound once the resource the
    answer describes is gone."""

    fields: tuple[str, ...]
    still_there: Callable[[str, dict], object]


def configure(hours: int) -> None:
    global RETENTION
    RETENTION = dt.timedelta(hours=hours)


def request_fingerprint(method: str, path: str, body: dict | None) -> str:
    canonical = json.dumps(body or {}, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{method} {path}\n{canonical}".encode("utf-8")).hexdigest()


def run(account_id: str, key: str, method: str, path: str, body: dict | None,
        call: Callable[[], tuple[int, bytes, dict]], *,
        hold_transaction: bool = True,
        shown_once: ShownOnce | None = None) -> tuple[int, bytes, dict]:
    """The stored answer to a replayed key, else `call()`'s answer, stored (unless 5xx).

    `hold_transaction=False` is for handlers that commit their own steps (they wait on a peer):
    the key is looked up, the call made outside any transaction, the answer stored afterwards.
    Two requests racing with one new key may then both run; the first answer stored stands."""
    key = key.strip()
    # The documented pattern: visible ASCII only, so the key is the same bytes for every client.
    if not re.fullmatch(r"[\x21-\x7e]{1,255}", key):
        raise ValidationError("Idempotency-Key", "must be 1 to 255 visible ASCII characters")
    fingerprint = request_fingerprint(method, path, body)
    if not hold_transaction:
        with db.atomic():
            stored = _stored_answer(account_id, key, fingerprint, shown_once)
        if stored is not None:
            return stored
        status, response_body, headers = call()
        if status < 500:
            try:
                with db.atomic():
                    _store(account_id, key, fingerprint, status, response_body, headers,
                           shown_once)
            except peewee.IntegrityError:
                pass  # the twin request stored its answer first
        return status, response_body, headers
    try:
        with db.atomic():
            stored = _stored_answer(account_id, key, fingerprint, shown_once)
            if stored is not None:
                return stored
            status, response_body, headers = call()
            if status < 500:
                _store(account_id, key, fingerprint, status, response_body, headers, shown_once)
            return status, response_body, headers
    except peewee.IntegrityError:
        # Another request with this key committed first (only possible where transactions do
        # not serialise writers, as on PostgreSQL): it owns the key.
        raise IdempotencyConflict("A request with this Idempotency-Key is being processed; retry shortly.") from None


def _stored_answer(account_id: str, key: str, fingerprint: str,
                   shown_once: ShownOnce | None) -> tuple[int, bytes, dict] | None:
    record = IdempotencyRecord.get_or_none(
        (IdempotencyRecord.account == account_id) & (IdempotencyRecord.key == key))
    if record is not None and record.created_at < clock.utcnow() - RETENTION:
        record.delete_instance()
        record = None
    if record is None:
        return None
    if record.request_hash != fingerprint:
        raise IdempotencyConflict("This Idempotency-Key was used with a different "
                                  "request (method, path or body).")
    try:
        body = sealing.unseal(SEALING_PURPOSE, record.body)
    except sealing.Unsealable:  # the server secret changed: the request may have run, say so
        raise IdempotencyConflict("The first answer to this Idempotency-Key cannot be read "
                                  "back; check the resource, then use a new key.") from None
    headers = dict(record.headers or {})
    if WITHHELD_HEADER in headers and shown_once is not None:
        # NotFound from here is the replay's answer: the resource it described is gone.
        shown_once.still_there(account_id, json.loads(body)["data"])
    # The stored response, saying that it is one (the header is never stored).
    return record.status, body, {**headers, REPLAYED_HEADER: "true"}


def _store(account_id: str, key: str, fingerprint: str, status: int, response_body: bytes,
           headers: dict, shown_once: ShownOnce | None) -> None:
    kept_headers = dict(headers)
    if shown_once is not None and 200 <= status < 300:
        response_body = _withheld(response_body, shown_once.fields)
        kept_headers[WITHHELD_HEADER] = ", ".join(shown_once.fields)
    IdempotencyRecord.create(account=account_id, key=key, request_hash=fingerprint,
                             status=status, body=sealing.seal(SEALING_PURPOSE, response_body),
                             headers=kept_headers, created_at=clock.utcnow())


def _withheld(response_body: bytes, fields: tuple[str, ...]) -> bytes:
    """The answer `{"data": {...}}` with each of `fields` null."""
    document = json.loads(response_body)
    document["data"] = {**document["data"], **{name: None for name in fields}}
    return dumps(document)
