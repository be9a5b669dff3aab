"""A booking's events carry its `tourist_tax` as the booking's answer does: created, updated (the
party of a new guest count charged again), cancelled (owing nothing); null where the property
names no tax rule set, and for a batch of bookings created at once."""

from rentalcomply.bookings import batch
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core.db import atomic
from rentalcomply.core.models import Event
from rentalcomply.properties import service as properties


def events_of(booking_id: str) -> list[tuple[str, dict]]:
    return [(event.type, event.data) for event in Event.select().order_by(Event.created_at, Event.id)
            if event.type.startswith("booking.") and event.data.get("id") == booking_id]


def test_the_booking_events_carry_the_stays_tourist_tax(owner, lisbon, book):
    booking = book(lisbon, "2026-07-01", "2026-07-04", guests=2)
    owner.patch_json(f"/api/v1/bookings/{booking['id']}", {"guest_count": 3})
    answer = owner.post_json(f"/api/v1/bookings/{booking['id']}/cancel", {}).json["data"]
    (created, first), (updated, second), (cancelled, third) = events_of(booking["id"])
    assert (created, updated, cancelled) == ("booking.created", "booking.updated",
                                             "booking.cancelled")
    assert first["tourist_tax"] == booking["tourist_tax"]
    assert (first["tourist_tax"]["status"], first["tourist_tax"]["amount"]) == ("due", 24.0)
    assert second["tourist_tax"]["amount"] == 36.0  # 3 guests × 3 nights × €4
    assert third["tourist_tax"] == answer["tourist_tax"]
    assert (third["tourist_tax"]["status"], third["tourist_tax"]["amount"]) == ("exempt", 0)


def test_a_stay_without_tax_rules_carries_null_and_a_batch_carries_each_stays_tax(owner, lisbon,
                                                                                 book):
    athens = properties.create_property(owner.account_id, name="Villa", address="Athens",
                                        country="GR")
    plain = book(athens, "2026-07-01", "2026-07-03", guests=2)
    assert events_of(plain["id"])[0][1]["tourist_tax"] is None
    with atomic():
        made = batch.create_channel_bookings(owner.account_id, [
            {"property_id": lisbon.id, "channel": "booking", "guest_name": "Ana",
             "arrival_date": "2026-08-01", "departure_date": "2026-08-03", "guest_count": 1},
            {"property_id": lisbon.id, "channel": "booking", "guest_name": "Rui",
             "arrival_date": "2026-08-05", "departure_date": "2026-08-06", "guest_count": 2}],
            rates=FeeRates(800, 200, 1500, 400, frozenset(range(4, 11))))
    assert [events_of(booking.id)[0][1]["tourist_tax"]["amount"] for booking in made] == [
        8.0, 8.0]
