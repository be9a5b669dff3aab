"""Bookkeeping of API keys, done by the worker so that no request waits on a database write."""

from __future__ import annotations

import datetime as dt

from rentalcomply.core.models import ApiKey
from rentalcomply.core.queue import huey


@huey.task()
def record_key_use(key_id: str, used_at: str) -> None:
    """Set `last_used_at`, never moving it backwards (tasks may run out of order)."""
    when = dt.datetime.fromisoformat(used_at)
    (ApiKey.update(last_used_at=when)
     .where((ApiKey.id == key_id) & ((ApiKey.last_used_at.is_null()) | (ApiKey.last_used_at < when)))
     .execute())
