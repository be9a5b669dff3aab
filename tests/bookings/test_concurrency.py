"""Concurrent requests over real sockets: the overlap check holds when requests race.

On SQLite the write transactions (BEGIN IMMEDIATE) run one at a time. PostgreSQL runs them side by
side, so there the booking locks its property row first; the PostgreSQL variant of the race runs
when RENTALCOMPLY_TEST_POSTGRES_URL names a server it may create a scratch database on, e.g.
postgresql://postgres@127.0.0.1:5432/postgres (and psycopg2 is installed).
"""

import threading

import pytest

from rentalcomply.accounts import service as accounts
from rentalcomply.core.models import Booking, Event
from rentalcomply.properties import service as properties
from rentalcomply.runtime import bootstrap
from rentalcomply.web.app import create_app
from tests.bookings.conftest import booking_body
from tests.conftest import make_settings, scratch_postgres_database
from tests.serverutil import running_server

RACERS = 8


def race_for_the_same_nights(app, key: str, property_id: str) -> list[tuple[int, dict]]:
    """RACERS clients post the same nights at the same moment; their (status, body) answers."""
    start = threading.Barrier(RACERS)
    answers: list[tuple[int, dict]] = []
    lock = threading.Lock()
    with running_server(app, threads=RACERS) as server:
        def race(number: int) -> None:
            start.wait(timeout=10)
            status, parsed, _ = server.request(
                "POST", "/api/v1/bookings",
                booking_body(property_id, guest_name=f"Racer {number}"), key=key)
            with lock:
                answers.append((status, parsed))

        threads = [threading.Thread(target=race, args=(n,)) for n in range(RACERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    return answers


def assert_one_winner(answers) -> None:
    assert sorted(status for status, _ in answers) == [201] + [409] * (RACERS - 1), answers
    assert all(parsed["error"]["code"] == "BOOKING_CONFLICT"
               for status, parsed in answers if status == 409)
    assert Booking.select().count() == 1
    assert Event.select().where(Event.type == "booking.created").count() == 1


@pytest.mark.server
def test_eight_simultaneous_bookings_of_the_same_nights_give_one_201_and_seven_409(
        wsgi_app, owner, villa):
    assert_one_winner(race_for_the_same_nights(wsgi_app, owner.key, villa.id))


@pytest.mark.server
def test_simultaneous_bookings_of_different_nights_all_succeed(wsgi_app, owner, villa):
    start = threading.Barrier(RACERS)
    statuses: list[int] = []

    with running_server(wsgi_app, threads=RACERS) as server:
        def race(day: int) -> None:
            start.wait(timeout=10)
            status, _, _ = server.request("POST", "/api/v1/bookings", booking_body(
                villa.id, arrival_date=f"2026-09-{day:02d}", departure_date=f"2026-09-{day + 1:02d}"),
                key=owner.key)
            statuses.append(status)

        threads = [threading.Thread(target=race, args=(day,)) for day in range(1, RACERS + 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)

    assert statuses == [201] * RACERS
    assert Booking.select().count() == RACERS


@pytest.fixture
def postgres_settings(tmp_path):
    with scratch_postgres_database() as url:
        yield bootstrap(make_settings(tmp_path, RENTALCOMPLY_DATABASE_URL=url))
        accounts.forget_cached_keys()


@pytest.mark.server
def test_on_postgresql_simultaneous_bookings_of_the_same_nights_give_one_201(postgres_settings):
    account = accounts.create_account("Agency A").id
    _, key = accounts.create_key(account, ["read", "write"])
    villa = properties.create_property(account, name="Villa Anemoi", address="Oia")
    assert_one_winner(race_for_the_same_nights(create_app(postgres_settings), key, villa.id))


def race_to_patch_one_booking(app, key: str, booking_id: str) -> list[tuple[int, dict]]:
    """RACERS clients rename the same booking at the same moment; their (status, body) answers."""
    start = threading.Barrier(RACERS)
    answers: list[tuple[int, dict]] = []
    lock = threading.Lock()
    with running_server(app, threads=RACERS) as server:
        def race(number: int) -> None:
            start.wait(timeout=10)
            status, parsed, _ = server.request(
                "PATCH", f"/api/v1/bookings/{booking_id}", {"guest_name": f"Racer {number}"}, key=key)
            with lock:
                answers.append((status, parsed))

        threads = [threading.Thread(target=race, args=(n,)) for n in range(RACERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    return answers


def assert_one_version_per_change(answers, booking_id: str) -> None:
    assert [status for status, _ in answers] == [200] * RACERS, answers
    shown = {parsed["data"]["guest_name"]: parsed["data"]["version"] for _, parsed in answers}
    assert sorted(shown.values()) == list(range(2, RACERS + 2))
    announced = {event.data["guest_name"]: event.data["version"] for event in
                 Event.select().where(Event.type == "booking.updated")}
    assert announced == shown
    assert Booking.get_by_id(booking_id).version == RACERS + 1


@pytest.mark.server
def test_simultaneous_changes_of_one_booking_each_get_their_own_version(wsgi_app, owner, villa):
    made = owner.post_json("/api/v1/bookings", booking_body(villa.id), status=201).json["data"]
    assert_one_version_per_change(race_to_patch_one_booking(wsgi_app, owner.key, made["id"]),
                                  made["id"])


@pytest.mark.server
def test_on_postgresql_simultaneous_changes_of_one_booking_each_get_their_own_version(
        postgres_settings):
    from rentalcomply.bookings import service as bookings
    from rentalcomply.bookings.fees import FeeRates
    from rentalcomply.core.db import db
    assert "Postgres" in type(db.obj).__name__
    rates = FeeRates.from_settings(postgres_settings)
    account = accounts.create_account("Agency A").id
    _, key = accounts.create_key(account, ["read", "write"])
    villa = properties.create_property(account, name="Villa Anemoi", address="Oia")
    made = bookings.create_booking(account, rates=rates, property_id=villa.id,
                                   guest_name="Maria", arrival_date="2026-07-10",
                                   departure_date="2026-07-14", guest_count=2)
    assert_one_version_per_change(
        race_to_patch_one_booking(create_app(postgres_settings), key, made.id), made.id)
