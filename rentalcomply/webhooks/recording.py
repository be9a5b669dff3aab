"""Successful attempts written down: one on its own, or a batch's together.

A batch of deliveries to one receiver (`delivery.attempt_each`) keeps its successes in hand and
writes them in one transaction: up to RECORD_TOGETHER of them, or those of the last RECORD_WITHIN.
A transaction per success was about a third of a delivering worker's time, half of it waiting
for the other worker's turn to write (bench/webhooks.py under py-spy).

What is in hand is written before anything that must see it:
- a delivery claimed on its own (it may wait for one in hand, its resource's earlier version);
- a failure's record (the endpoint's failing clock then moves in the order the attempts ended);
- a hold renewed, and every attempt that starts more than RECORD_WITHIN after the first in hand
  (so nothing in hand outlives its hold: an attempt lasts at most the timeout, the hold 30 s more);
- `delivery.released_by` finding the next in line of one in hand (queued for another worker,
  whose claim must see its turn come);
- the end of the batch, also when it is cut.
Killed in between, the deliveries in hand are sent again once their hold is over, with the same
event id: the at-least-once that a crash between an answer and its record always meant, for a
tenth of a second of a batch rather than one attempt.

Kept per thread: each worker runs one batch at a time, and only its own batch reads them.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from dataclasses import dataclass

import peewee

from rentalcomply.core.db import db, insert_rows
from rentalcomply.webhooks.models import WebhookAttempt, WebhookEndpoint

log = logging.getLogger(__name__)

RECORD_TOGETHER = 25
RECORD_WITHIN = dt.timedelta(seconds=0.1)
# An endpoint's last success is written when it moved by more than this (or the endpoint was
# failing): every delivery to it succeeds, and the row is shared by all of them.
LAST_SUCCESS_EVERY = dt.timedelta(seconds=60)


@dataclass
class Success:
    delivery_id: str
    endpoint: WebhookEndpoint  # as the attempt's claim read it
    number: int
    started: dt.datetime
    finished: dt.datetime
    status_code: int
    excerpt: str | None


_per_thread = threading.local()


def _in_hand() -> list[Success]:
    successes = getattr(_per_thread, "successes", None)
    if successes is None:
        successes = _per_thread.successes = []
    return successes


def is_in_hand(delivery_id: str) -> bool:
    return any(success.delivery_id == delivery_id for success in _in_hand())


def keep(success: Success) -> None:
    """Hold a batch's success to be written with others (see the module's text)."""
    successes = _in_hand()
    successes.append(success)
    if len(successes) >= RECORD_TOGETHER:
        write_in_hand()


def write_if_kept_since(now: dt.datetime) -> None:
    """Before an attempt: write what has been in hand for more than RECORD_WITHIN."""
    successes = _in_hand()
    if successes and now - successes[0].finished >= RECORD_WITHIN:
        write_in_hand()


def write_in_hand() -> None:
    successes = _in_hand()
    if not successes:
        return
    taken = list(successes)
    successes.clear()  # written, or lost with the database: never twice
    try:
        write(taken)
    except (peewee.DatabaseError, peewee.InterfaceError):
        # Their holds end and the sweep sends them again, with the same event.
        log.warning("webhook deliveries %s: answered but not recorded; sent again after their hold",
                    ", ".join(success.delivery_id for success in taken))
        raise


def write(successes: list[Success]) -> None:
    """Mark the deliveries succeeded and log their attempts, in one transaction. By id alone: a
    success counts even if the endpoint was disabled meanwhile; one whose endpoint was deleted
    meanwhile (its row gone) is left out."""
    with db.atomic():
        recorded = [success for success in successes if db.execute_sql(
            _SUCCEEDED_SQL.replace("?", db.param),
            ("succeeded", success.number, success.started, success.status_code, success.finished,
             success.delivery_id)).rowcount]
        insert_rows(WebhookAttempt, [{
            "delivery": success.delivery_id, "number": success.number,
            "attempted_at": success.started,
            "duration_ms": int((success.finished - success.started).total_seconds() * 1000),
            "status_code": success.status_code, "error": None,
            "response_excerpt": success.excerpt} for success in recorded])
        latest_by_endpoint = {success.endpoint.id: success for success in recorded}
        for success in latest_by_endpoint.values():
            endpoint = success.endpoint
            if endpoint.failing_since is not None or endpoint.last_success_at is None \
                    or success.finished - endpoint.last_success_at > LAST_SUCCESS_EVERY:
                (WebhookEndpoint.update(failing_since=None, last_success_at=success.finished)
                 .where(WebhookEndpoint.id == endpoint.id).execute())


# Written out once: the success of every delivery goes here.
_SUCCEEDED_SQL = (
    'UPDATE "webhook_delivery" SET "status" = ?, "attempts" = ?, "last_attempt_at" = ?, '
    '"last_status_code" = ?, "last_error" = NULL, "completed_at" = ?, "next_attempt_at" = NULL, '
    '"locked_until" = NULL WHERE "id" = ?')
