"""Scanning a guest's document: a photo in, the guest form's fields (or the reason there are none)
out. What the guest page and its script call; knows nothing of the web.

The rule above all holds here too: nothing is filled in unless every check digit and the
composite agree. A zone that fails is said to fail, with a tip, and the form stays for typing.
The photo is read in memory and dropped; it is kept (sealed) only when the account's owner keeps
document images (keeping.py). It is never logged, nor any field read from it.

Decoding is what costs memory (a photo of N pixels takes several bytes a pixel while it is
read), so it is bounded three ways: the header's declared size against `[scan]`'s limits before
anything decodes (images.py), at most `scan.concurrent_reads` photos read at once (ReadGate),
and no database transaction open meanwhile (the writes come after, each in its own).
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import threading

from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.scan import images, keeping, prefill, reader
from rentalcomply.scan.models import DocumentFlag

# What the zone never holds: the guest types these (id-documents.md).
NOT_IN_THE_ZONE = ("birth_municipality", "birth_province", "birth_country",
                   "document_support_number", "document_issue_place", "address_street")

# The words (scan/words.py) an outcome may say.
MESSAGES = ("scan.read", "scan.failed", "scan.not_found", "scan.too_large", "scan.not_image",
            "scan.heic", "scan.no_file", "scan.limited", "scan.too_many_pixels", "scan.busy")
# How long a photo waits for a reader to be free before the guest is asked to try again: a
# read takes one to three seconds, and a waiting request holds one of the server's few threads
# (server.threads, 2), which every other page and API call needs too.
BUSY_WAIT_SECONDS = 10.0


class ReadGate:
    """At most `concurrent` photos decoded and read at once: two requests at a time must not
    double the memory one takes (issue 35, H2: two bombs at once peaked at 3.46 GB)."""

    def __init__(self, concurrent: int = 1, wait_seconds: float = BUSY_WAIT_SECONDS):
        self._slots = threading.BoundedSemaphore(concurrent)
        self.wait_seconds = wait_seconds

    @contextlib.contextmanager
    def turn(self):
        if not self._slots.acquire(timeout=self.wait_seconds):
            raise Busy()
        try:
            yield
        finally:
            self._slots.release()


class Busy(Exception):
    """Every reader was busy for BUSY_WAIT_SECONDS."""


_DEFAULT_GATE = ReadGate()


@dataclasses.dataclass
class Outcome:
    status: str                       # read, failed, refused
    values: dict[str, str] = dataclasses.field(default_factory=dict)
    message: str = ""                 # a key of scan/words.py
    warning: str = ""                 # scan.expired / scan.expires_during_stay, or ""
    expiry: dt.date | None = None
    kept: bool = False
    refusal: images.Refused | None = None  # what a refused file passed (the limit, its setting)


def enabled() -> bool:
    return reader.available()[0]


def scan_document(booking, guest_index: int, data: bytes, limits: images.Limits = images.Limits(),
                  gate: ReadGate = _DEFAULT_GATE) -> Outcome:
    """Read the document in `data` for guest `guest_index` of `booking`."""
    try:
        header = images.accept(data, limits)
    except images.Refused as refused:
        return Outcome("refused", message=refused.key, refusal=refused)
    try:
        with gate.turn():
            reading = reader.read_image(data, today=clock.today(), limits=limits)
    except Busy:
        return Outcome("refused", message="scan.busy")
    except reader.Unreadable:
        return Outcome("failed", message="scan.not_found")
    if not reading.valid:
        return Outcome("failed", message="scan.failed")
    outcome = Outcome("read", values=prefill.form_values(reading), message="scan.read")
    problem = prefill.expiry_problem(reading, clock.today(), booking.departure_date)
    if problem:
        outcome.warning = "scan." + problem
        outcome.expiry = dt.date.fromisoformat(reading.fields["expiry_date"])
    _flag(booking.id, guest_index, problem, outcome.expiry)
    outcome.kept = keeping.keep(booking, guest_index, data, header.media_type)
    return outcome


def _flag(booking_id: str, guest_index: int, problem: str | None, expiry: dt.date | None) -> None:
    """The host's line on the booking page: this scan's verdict replaces the guest's last."""
    with atomic():
        DocumentFlag.delete().where((DocumentFlag.booking == booking_id)
                                    & (DocumentFlag.guest_index == guest_index)).execute()
        if problem:
            DocumentFlag.create(booking=booking_id, guest_index=guest_index, problem=problem,
                                expiry_date=expiry)


def flags(booking_id: str) -> list[DocumentFlag]:
    """The booking's documents that expired or expire before departure, by guest."""
    return list(DocumentFlag.select().where(DocumentFlag.booking == booking_id)
                .order_by(DocumentFlag.guest_index))
