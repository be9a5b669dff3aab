"""Models built from plain rows (core/db.py: row_reader, models_from_query) are the models
peewee's own SELECT builds: the same values, of the same types, nothing marked changed."""

from __future__ import annotations

import datetime as dt

from rentalcomply.core import clock
from rentalcomply.core.db import column_list, db, model_from_row, models_from_query
from rentalcomply.core.ids import new_id
from rentalcomply.core.models import Account, Booking, Property
from rentalcomply.webhooks.models import WebhookEndpoint


def types_of(values: dict) -> dict:
    return {name: type(value) for name, value in values.items()}


def test_rows_read_plainly_are_the_models_peewee_builds(settings):
    account = Account.create(id=new_id("acc"), name="Agency", created_at=clock.utcnow())
    prop = Property.create(id=new_id("prop"), account=account.id, name="Villa", address="Oia",
                           max_guests=None, created_at=clock.utcnow(), updated_at=clock.utcnow())
    Booking.create(id=new_id("book"), account=account.id, property=prop.id, guest_name="Maria",
                   arrival_date=dt.date(2027, 6, 10), departure_date=dt.date(2027, 6, 14),
                   guest_count=2, is_block=True, cancelled_at=clock.utcnow_precise(),
                   created_at=clock.utcnow(), updated_at=clock.utcnow())
    Booking.create(id=new_id("book"), account=account.id, property=prop.id, guest_name="Eleni",
                   arrival_date=dt.date(2027, 7, 1), departure_date=dt.date(2027, 7, 2),
                   guest_count=1, created_at=clock.utcnow(), updated_at=clock.utcnow())
    WebhookEndpoint.create(id=new_id("wh"), account=account.id, url="https://example.com/hook",
                           events=["booking.created"], secret_sealed="x",
                           created_at=clock.utcnow(), updated_at=clock.utcnow())
    for model in (Booking, Property, WebhookEndpoint):
        query = model.select().order_by(model.id)
        expected = [row.__data__ for row in query]
        plain = models_from_query(query)
        assert [row.__data__ for row in plain] == expected
        assert [types_of(row.__data__) for row in plain] == [types_of(data) for data in expected]
        assert all(not row.dirty_fields for row in plain)
    row = db.execute_sql(f"SELECT {column_list(Property)} FROM property").fetchone()
    assert model_from_row(Property, row).__data__ == Property.get_by_id(prop.id).__data__
