"""Idempotency-Key on POST: a retry with the same key and the same body gets the first response.

The record is written in the same transaction as the change it guards, so a crash can never leave
a booking without its record (a retry would book twice) or a record without its booking. Keys are
per account and kept `retention.idempotency_hours` (24 by default). 5xx responses are not stored:
the client should be able to retry those for real. A replayed response carries
`Idempotent-Replayed: true`; the first one does not.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from typing import Callable

import peewee

from rentalcomply.core import clock
from rentalcomply.core.db import db
from rentalcomply.core.errors import IdempotencyConflict, ValidationError
from rentalcomply.core.models import IdempotencyRecord

RETENTION = dt.timedelta(hours=24)
REPLAYED_HEADER = "Idempotent-Replayed"


def configure(hours: int) -> None:
    global RETENTION
    RETENTION = dt.timedelta(hours=hours)


def request_fingerprint(method: str, path: str, body: dict | None) -> str:
    canonical = json.dumps(body or {}, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{method} {path}\n{canonical}".encode("utf-8")).hexdigest()


def run(account_id: str, key: str, method: str, path: str, body: dict | None,
        call: Callable[[], tuple[int, bytes, dict]], *,
        hold_transaction: bool = True) -> tuple[int, bytes, dict]:
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
            stored = _stored_answer(account_id, key, fingerprint)
        if stored is not None:
            return stored
        status, response_body, headers = call()
        if status < 500:
            try:
                with db.atomic():
                    _store(account_id, key, fingerprint, status, response_body, headers)
            except peewee.IntegrityError:
                pass  # the twin request stored its answer first
        return status, response_body, headers
    try:
        with db.atomic():
            stored = _stored_answer(account_id, key, fingerprint)
            if stored is not None:
                return stored
            status, response_body, headers = call()
            if status < 500:
                _store(account_id, key, fingerprint, status, response_body, headers)
            return status, response_body, headers
    except peewee.IntegrityError:
        # Another request with this key committed first (only possible where transactions do
        # not serialise writers, as on PostgreSQL): it owns the key.
        raise IdempotencyConflict("A request with this Idempotency-Key is being processed; retry shortly.") from None


def _stored_answer(account_id: str, key: str, fingerprint: str) -> tuple[int, bytes, dict] | None:
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
    # The stored response, saying that it is one (the header is never stored).
    return record.status, record.body.encode("utf-8"), {
        **dict(record.headers or {}), REPLAYED_HEADER: "true"}


def _store(account_id: str, key: str, fingerprint: str, status: int, response_body: bytes,
           headers: dict) -> None:
    IdempotencyRecord.create(account=account_id, key=key, request_hash=fingerprint,
                             status=status, body=response_body.decode("utf-8"),
                             headers=headers, created_at=clock.utcnow())


def purge_expired() -> int:
    cutoff = clock.utcnow() - RETENTION
    return IdempotencyRecord.delete().where(IdempotencyRecord.created_at < cutoff).execute()
