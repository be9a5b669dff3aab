"""The previous release's data upgraded (migration 0027 and the start-up): every booking's
check-in link works, the property's link exists, and the property table keeps its triggers."""

from __future__ import annotations

import shutil

from rentalcomply.checkin import booking_links, service
from rentalcomply.checkin.models import Checkin
from rentalcomply.core.db import db
from rentalcomply.core.models import Booking, Property
from rentalcomply.runtime import bootstrap
from rentalcomply.web import answer_cache
from tests.conftest import ON_POSTGRES, make_settings
from tests.upgrade.test_filing_engine_upgrade import ANSWERS, PREVIOUS, restore_sqlite

import pytest

pytestmark = pytest.mark.skipif(ON_POSTGRES, reason="the SQLite copy of the previous release")


def test_every_booking_of_the_previous_release_gets_a_working_link(tmp_path):
    previous = tmp_path / "previous-release.db"
    restore_sqlite(previous)
    data_dir = tmp_path / "data"
    data_dir.mkdir(mode=0o700)
    shutil.copyfile(PREVIOUS / "secret.key", data_dir / "secret.key")
    (data_dir / "secret.key").chmod(0o600)
    shutil.copyfile(previous, data_dir / "rentalcomply.db")
    settings = make_settings(tmp_path, RENTALCOMPLY_SERVER_PUBLIC_URL=ANSWERS["public_url"])
    try:
        bootstrap(settings)
        bookings = list(Booking.select().where(Booking.is_block == False))  # noqa: E712
        assert bookings
        rows = {row.booking_id: row for row in Checkin.select()}
        for booking in bookings:
            assert rows[booking.id].token_hash == service.token_hash(service.token_for(booking.id))
        assert booking_links.ensure_links() == 0  # a second start finds nothing to do
        prop = Property.select().first()
        assert prop.checkin_link_generation == 0
        before = answer_cache._read_version(prop.account_id)
        prop.name = prop.name + " "
        prop.save()
        assert answer_cache._read_version(prop.account_id) == before + 1  # the trigger is kept
    finally:
        db.close()
