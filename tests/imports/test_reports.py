"""The AADE declaration of a month carries the prices the channels' exports brought."""

from rentalcomply.authorities.aade.building import build_report
from rentalcomply.imports.service import import_export
from tests.imports.conftest import airbnb_english, booking_xls


def test_julys_report_shows_the_imported_prices_of_the_channel_bookings(account_a, places,
                                                                         feed_bookings, rates):
    before = build_report(account_a, 2026, 7, rates)
    assert before.total_revenue_cents == 0
    assert {a.booking_id for a in before.attention} >= {feed_bookings["jane"], feed_bookings["hans"]}

    import_export(account_a, airbnb_english(), rates=rates)
    import_export(account_a, booking_xls(), rates=rates)
    report = build_report(account_a, 2026, 7, rates)
    prices = {stay.booking_id: (stay.gross_cents, stay.guest_name) for stay in report.stays}
    assert prices[feed_bookings["jane"]] == (102000, "Jane Doe")
    assert prices[feed_bookings["ken"]] == (41250, "Ken Ito")
    assert prices[feed_bookings["hans"]] == (37863, "Müller, Hans")
    assert report.total_revenue_cents == 102000 + 41250 + 37863 + 61250
    assert not {a.booking_id for a in report.attention} & set(feed_bookings.values())
