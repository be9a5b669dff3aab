"""Concurrent requests over real sockets: the overlap check holds when requests race."""

import threading

import pytest

from rentalcomply.core.models import Booking, Event
from tests.bookings.conftest import booking_body
from tests.serverutil import running_server

RACERS = 8


@pytest.mark.server
def test_eight_simultaneous_bookings_of_the_same_nights_give_one_201_and_seven_409(
        wsgi_app, owner, villa):
    body = booking_body(villa.id)
    start = threading.Barrier(RACERS)
    answers: list[tuple[int, dict]] = []
    lock = threading.Lock()

    with running_server(wsgi_app, threads=RACERS) as server:
        def race(number: int) -> None:
            start.wait(timeout=10)
            status, parsed, _ = server.request("POST", "/api/v1/bookings",
                                               dict(body, guest_name=f"Racer {number}"),
                                               key=owner.key)
            with lock:
                answers.append((status, parsed))

        threads = [threading.Thread(target=race, args=(n,)) for n in range(RACERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)

    statuses = sorted(status for status, _ in answers)
    assert statuses == [201] + [409] * (RACERS - 1), answers
    assert all(parsed["error"]["code"] == "BOOKING_CONFLICT"
               for status, parsed in answers if status == 409)
    assert Booking.select().count() == 1
    assert Event.select().where(Event.type == "booking.created").count() == 1


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
