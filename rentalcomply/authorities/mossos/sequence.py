"""The number of each Mossos file (`<establishment>.<001-999>.txt`): the portal keeps no history of
what was sent and numbers the files of an establishment in sequence, so the last number given is
kept per establishment code, taken and raised in the transaction that builds the file (a second
file the same day is the next number; after 999 it starts again at 001, as the manual says)."""

from __future__ import annotations

import peewee as pw

from rentalcomply.core import clock
from rentalcomply.core.db import db
from rentalcomply.core.models import BaseModel

LAST = 999


class MossosFileSequence(BaseModel):
    establishment = pw.CharField(max_length=10, primary_key=True)
    last_number = pw.IntegerField()
    updated_at = pw.DateTimeField()

    class Meta:
        table_name = "mossos_file_sequence"


def next_number(establishment: str) -> int:
    """The next file number of `establishment` (1 for its first file), recorded. Call inside the
    transaction that keeps the file (the engine's), so that a file not kept gives its number back."""
    establishment = establishment.strip().upper()
    query = MossosFileSequence.select().where(MossosFileSequence.establishment == establishment)
    if db.obj.for_update:
        query = query.for_update()
    row = query.first()
    now = clock.utcnow()
    if row is None:
        MossosFileSequence.create(establishment=establishment, last_number=1, updated_at=now)
        return 1
    number = row.last_number % LAST + 1
    (MossosFileSequence.update(last_number=number, updated_at=now)
     .where(MossosFileSequence.establishment == establishment).execute())
    return number
