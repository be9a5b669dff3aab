"""Key bookkeeping done by the worker."""

import datetime as dt

from rentalcomply.accounts import service as accounts
from rentalcomply.accounts.tasks import record_key_use
from rentalcomply.core.models import ApiKey


def test_the_last_use_of_a_key_never_moves_backwards(settings, account_a):
    record, _ = accounts.create_key(account_a, ["read"])
    later, earlier = dt.datetime(2026, 11, 22, 9, 30), dt.datetime(2026, 11, 22, 9, 0)
    record_key_use.call_local(record.id, later.isoformat())
    record_key_use.call_local(record.id, earlier.isoformat())
    assert ApiKey.get_by_id(record.id).last_used_at == later
