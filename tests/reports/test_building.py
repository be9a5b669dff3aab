"""The report's figures, worked out by hand in conftest.py, from the domain function itself."""

import datetime as dt

from rentalcomply.authorities.aade.building import build_report, fee_due_date, stays_due_date


def test_march_holds_the_stays_that_departed_in_march_with_the_hand_computed_totals(month, rates, account_a):
    data = build_report(account_a, 2026, 3, rates)
    assert [s.booking_id for s in data.stays] == [month["B1"], month["B4"], month["B3"]]
    assert data.booking_count == 3 and data.nights == 13
    assert data.total_revenue_cents == 150000
    assert data.stay_fee_cents == 3000 and data.net_revenue_cents == 147000
    assert data.climate_fee_total_cents == 2800
    assert data.cancellation_count == 1 and data.amount_kept_cents == 15000
    assert data.due_date == dt.date(2026, 4, 20) and data.fee_due_date == dt.date(2026, 4, 30)


def test_each_property_appears_once_by_its_ama_and_italy_and_no_ama_do_not(month, rates, account_a):
    data = build_report(account_a, 2026, 3, rates)
    assert [(s.ama, s.name) for s in data.sections] == [("00000000001", "Studio Plaka"),
                                                        ("00000000002", "Villa Oia")]
    studio, villa = data.sections
    assert (studio.gross_cents, studio.stay_fee_cents, studio.net_cents) == (50000, 1000, 49000)
    assert (studio.fee_nights, studio.fee_in_period_cents) == (4, 800)
    assert studio.amount_kept_cents == 15000
    assert (villa.gross_cents, villa.stay_fee_cents, villa.fee_in_period_cents) == (100000, 2000, 2000)
    everything = {s.booking_id for s in data.stays} | {a.booking_id for a in data.attention}
    assert month["B8"] not in everything and month["B9"] not in everything


def test_a_stay_across_a_month_boundary_carries_every_field_of_the_declaration(month, rates, account_a):
    stay = build_report(account_a, 2026, 3, rates).stays[0]
    assert (stay.ama, stay.arrival, stay.departure, stay.nights) == (
        "00000000001", dt.date(2026, 2, 26), dt.date(2026, 3, 3), 5)
    assert (stay.gross_cents, stay.fee_cents, stay.net_cents) == (50000, 1000, 49000)
    assert (stay.payment_method, stay.platform, stay.guest_name) == ("cash", "direct", "Eleni Georgiou")


def test_the_fee_is_split_night_by_night_between_seasons_and_months(month, rates, account_a):
    march = build_report(account_a, 2026, 3, rates)
    assert [(l.month, l.category, l.nights, l.rate_cents, l.fee_cents, l.summer)
            for l in march.fee_lines] == [(3, "detached_over_80m2", 5, 400, 2000, False),
                                          (3, "standard", 4, 200, 800, False)]
    april = build_report(account_a, 2026, 4, rates)
    [stay] = april.stays  # 30 March -> 2 April: declared in April with its whole fee
    assert (stay.booking_id, stay.nights, stay.fee_cents, stay.net_cents, stay.platform,
            stay.renter_reference) == (month["B2"], 3, 1200, 28800, "airbnb", "HMABC123")
    assert [(l.month, l.nights, l.rate_cents, l.fee_cents, l.summer) for l in april.fee_lines] == [
        (4, 1, 800, 800, True)]


def test_bookings_that_fail_validation_are_listed_with_reasons_and_counted_nowhere(month, rates, account_a):
    data = build_report(account_a, 2026, 3, rates)
    reasons = {a.booking_id: [code for code, _ in a.reasons] for a in data.attention}
    assert reasons == {month["B6"]: ["no_price"], month["B7"]: ["no_ama"]}
    [loft] = [a for a in data.attention if a.booking_id == month["B7"]]
    assert "AADE registry number" in loft.texts("en")[0] and "ΑΜΑ" in loft.texts("el")[0]


def test_the_yearly_report_sums_the_year(month, rates, account_a):
    data = build_report(account_a, 2026, None, rates)
    # B1, B4, B3 (March) and B2 (April): 500 + 0 + 1000 + 300; fees of every 2026 night:
    # B1 10.00 (all five nights are in 2026) + B3 20.00 + B2 12.00 = 42.00.
    assert data.booking_count == 4 and data.total_revenue_cents == 180000
    assert data.climate_fee_total_cents == 4200 and data.stay_fee_cents == 4200
    assert data.amount_kept_cents == 15000 and data.due_date is None


def test_deadlines_roll_over_the_year():
    assert stays_due_date(2026, 12) == dt.date(2027, 1, 20)
    assert fee_due_date(2026, 12) == dt.date(2027, 1, 31)
    assert fee_due_date(2027, 1) == dt.date(2027, 2, 28)


def test_long_stays_placeholder_names_and_no_payment_method_need_attention(settings, account_a, rates):
    from rentalcomply.bookings import service as bookings
    from rentalcomply.core.models import Booking
    from rentalcomply.properties import service as properties
    prop = properties.create_property(account_a, name="Flat", address="Athens",
                                      aade_property_id="00000000003")

    def book(name, arrival, departure, price=100, method="cash"):
        return bookings.create_booking(account_a, rates=rates, property_id=prop.id,
                                       guest_name=name, arrival_date=arrival,
                                       departure_date=departure, guest_count=1,
                                       total_price=price, payment_method=method).id
    long_stay = book("Long Stay", "2026-01-10", "2026-03-11", price=3000)  # 60 nights
    placeholder = book("x", "2026-03-12", "2026-03-14")
    Booking.update(guest_name="Booking.com guest").where(Booking.id == placeholder).execute()
    no_method = book("No Method", "2026-03-15", "2026-03-16", method=None)
    cheap = book("Cheap Stay", "2026-03-20", "2026-03-23", price=5)     # fee 6.00 > 5.00
    data = build_report(account_a, 2026, 3, rates)
    reasons = {a.booking_id: a.reasons for a in data.attention}
    assert reasons[long_stay] == [("too_long", {"nights": 60})]
    assert reasons[placeholder] == [("placeholder_name", {"name": "Booking.com guest"})]
    assert reasons[no_method] == [("no_payment_method", {})]
    assert [code for code, _ in reasons[cheap]] == ["fee_over_price"]
    assert data.booking_count == 0 and data.climate_fee_total_cents == 0
    texts = [text for a in data.attention for text in a.texts("en")]
    assert "The stay is 60 nights: stays of 60 nights or more are not short-term rentals and are " \
           "declared differently." in texts


def test_an_account_without_greek_properties_gets_an_empty_report(settings, account_b, rates):
    data = build_report(account_b, 2026, 3, rates)
    assert data.sections == [] and data.attention == [] and data.booking_count == 0


def test_a_cancellation_late_on_the_last_evening_in_utc_belongs_to_the_next_athens_day(
        month, rates, account_a):
    from rentalcomply.core.models import Booking
    # 31 March 22:30 UTC is 1 April 01:30 in Athens (summer time): April's cancellation
    Booking.update(cancelled_at=dt.datetime(2026, 3, 31, 22, 30)).where(
        Booking.id == month["B5"]).execute()
    assert build_report(account_a, 2026, 3, rates).cancellation_count == 0
    [cancelled] = build_report(account_a, 2026, 4, rates).cancellations
    assert cancelled.cancelled_on == dt.date(2026, 4, 1)
