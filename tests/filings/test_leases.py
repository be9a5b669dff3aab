"""Leases on rows (filings/leases.py), on a model of the tests' own: any row with `lease_owner`
and `lease_expires_at` can be taken, kept alive by its heartbeat, and taken over once its lease
ran out or its process died."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import time

import peewee as pw
import pytest

from rentalcomply.core import clock
from rentalcomply.core.db import atomic, db
from rentalcomply.core.models import Versioned
from rentalcomply.filings import leases

LEASE_SECONDS = 3  # the heartbeat beats every second (its shortest interval)


class Chore(Versioned):
    """Work owed by some deadline: the least a row needs to hold a lease."""

    state = pw.CharField(max_length=16, default="waiting")
    lease_owner = pw.CharField(max_length=100, null=True)
    lease_expires_at = pw.DateTimeField(null=True)


@pytest.fixture
def chore(settings):
    db.create_tables([Chore])
    yield Chore.create()
    db.drop_tables([Chore])


def dead_pid() -> int:
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)
    return int(finished.stdout)


def take(row, owner: str) -> bool:
    with atomic():
        return leases.take(row, owner, clock.utcnow(), LEASE_SECONDS, state="working")


def wait_for(condition, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_a_lease_is_taken_once_of_two_takers_that_read_the_same_row(chore):
    first, second = leases.new_owner(), leases.new_owner()
    read_by_both = Chore.get_by_id(chore.id)
    assert take(read_by_both, first)
    assert not take(read_by_both, second)  # the lease changed since it was read
    row = Chore.get_by_id(chore.id)
    assert row.lease_owner == first and row.state == "working"
    assert row.lease_expires_at > clock.utcnow()
    assert leases.owner_is_alive(first) and not leases.can_take_over(row, clock.utcnow())


def test_a_claim_takes_the_row_its_query_finds_or_says_there_is_none(chore):
    owner = leases.new_owner()
    taken = leases.claim(Chore.select().where(Chore.id == chore.id),
                         lambda row, now: leases.take(row, owner, now, LEASE_SECONDS))
    assert taken and Chore.get_by_id(chore.id).lease_owner == owner
    with pytest.raises(leases.RowNotFound):
        leases.claim(Chore.select().where(Chore.id == chore.id + 1), lambda row, now: row)


def test_the_heartbeat_renews_the_lease_while_the_work_goes_on_without_a_new_version(chore):
    owner = leases.new_owner()
    assert take(Chore.get_by_id(chore.id), owner)
    taken = Chore.get_by_id(chore.id)
    with leases.Heartbeat(taken, owner, LEASE_SECONDS,
                          still_ours=Chore.state == "working") as heartbeat:
        assert wait_for(lambda: Chore.get_by_id(chore.id).lease_expires_at
                        > taken.lease_expires_at)
        heartbeat.check()  # still ours
    renewed = Chore.get_by_id(chore.id)
    assert renewed.lease_owner == owner and renewed.version == taken.version
    assert not leases.owner_is_alive(owner)  # its heartbeat stopped: no longer working


def test_a_lease_that_ran_out_is_taken_over_and_its_first_owner_hears_it_lost_it(chore):
    first, second = leases.new_owner(), leases.new_owner()
    assert take(Chore.get_by_id(chore.id), first)
    row = Chore.get_by_id(chore.id)
    clock.travel(dt.timedelta(seconds=LEASE_SECONDS + 1))  # the first owner stalled
    assert leases.can_take_over(row, clock.utcnow())
    assert take(row, second)
    with leases.Heartbeat(row, first, LEASE_SECONDS) as heartbeat:
        assert wait_for(heartbeat.lost.is_set)
        with pytest.raises(leases.LeaseLost):
            heartbeat.check()
    assert Chore.get_by_id(chore.id).lease_owner == second


def test_the_owner_of_a_process_that_died_on_this_machine_is_not_alive(chore):
    dead = f"{leases._HOST}:{dead_pid()}:0badcafe:abc123"
    assert not leases.owner_is_alive(dead)
    Chore.update(lease_owner=dead, state="working",
                 lease_expires_at=clock.utcnow() + dt.timedelta(minutes=5)).execute()
    assert leases.can_take_over(Chore.get_by_id(chore.id), clock.utcnow())  # before its lease ends
    # A process of this machine that runs, and owners elsewhere, count as alive.
    assert leases.owner_is_alive(f"{leases._HOST}:{os.getppid()}:0badcafe:abc123")
    assert leases.owner_is_alive(f"elsewhere:{dead_pid()}:0badcafe:abc123")
    # This process's own owner is alive only while it holds work.
    assert not leases.owner_is_alive(leases.new_owner())
