"""The test month, March 2026, for account A, with every figure worked out by hand.

Rates (the defaults of [climate_fee]): standard 2.00 a night in winter (November to March) and
8.00 in summer (April to October); detached house over 80 m² 4.00 winter, 15.00 summer.

Properties
- Studio Plaka: standard, AMA 00000000001
- Villa Oia: detached over 80 m², AMA 00000000002
- Loft Psyrri: standard, no AMA
- Casa Roma: Italy (never in an AADE report)

Bookings
- B1 Studio, 26 Feb -> 3 Mar, 500.00 cash, Eleni Georgiou. Departs in March: a March stay of 5
  nights, stay fee 5 x 2.00 = 10.00, net 490.00. Its nights in March: 1 and 2 March = 4.00.
- B2 Studio, 30 Mar -> 2 Apr, 300.00 via Airbnb (HMABC123), Kostas Ioannou. Departs in April: no
  March stay. Nights 30 and 31 March at 2.00 = 4.00 in March; 1 April at 8.00 = 8.00 in April.
  In April's report: a stay of 3 nights, fee 12.00, net 288.00.
- B3 Villa, 10 -> 15 Mar, 1000.00 bank transfer via Booking.com (BK-4455), John Smith: 5 nights
  x 4.00 = 20.00, net 980.00.
- B4 Studio, 5 -> 8 Mar, free (0.00), no payment method, Maria Free: a stay of 3 nights, no fee.
- B5 Studio, 20 -> 25 Mar, 400.00 cash, Nikos Cancel: cancelled on 18 March keeping 150.00:
  declared in March as a cancellation that pays; no fee (no night was stayed).
- B6 Studio, 12 -> 14 Mar, no price, cash, Anna Noprice: needs attention, in no total.
- B7 Loft (no AMA), 1 -> 4 Mar, 200.00 cash, Petros Noama: needs attention, in no total.
- B8 Casa Roma (Italy), 10 -> 12 Mar, 300.00 cash: nowhere.
- B9 Villa, 20 -> 22 Mar, 500.00 cash, cancelled on 18 March keeping nothing: nowhere.

March 2026, account-wide
- stays (booking_count) 3 (B1, B3, B4); nights 5 + 5 + 3 = 13
- total_revenue 500.00 + 1000.00 + 0.00 = 1500.00
- fee of these stays 10.00 + 20.00 + 0.00 = 30.00; net_revenue 1500.00 - 30.00 = 1470.00
- climate_fee_total (March nights): standard 4 nights (B1: 1, 2 Mar; B2: 30, 31 Mar) x 2.00 =
  8.00; detached 5 nights (B3) x 4.00 = 20.00; total 28.00
- cancellations that pay 1 (B5), 150.00
- needs attention 2 (B6 no price, B7 no AMA)
- per property: Studio gross 500.00, stay fee 10.00, net 490.00, March fee 8.00 (4 nights),
  cancellation 150.00; Villa gross 1000.00, fee 20.00, net 980.00, March fee 20.00 (5 nights)
- due 20 April 2026 (stays), 30 April 2026 (fee)
"""

from __future__ import annotations

import datetime as dt

import pytest

from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core.models import Booking
from rentalcomply.properties import service as properties

MARCH = {"booking_count": 3, "nights": 13, "total_revenue": 1500.0, "net_revenue": 1470.0,
         "climate_fee_total": 28.0, "cancellation_count": 1, "amount_kept": 150.0,
         "needs_attention_count": 2}


@pytest.fixture
def rates(settings):
    return FeeRates.from_settings(settings)


@pytest.fixture
def month(settings, account_a, rates):
    """Account A's properties and bookings of the test month; ids by name."""
    studio = properties.create_property(account_a, name="Studio Plaka", address="Adrianou 12, Athens",
                                        aade_property_id="00000000001")
    villa = properties.create_property(account_a, name="Villa Oia", address="Oia, Santorini",
                                       aade_property_id="00000000002",
                                       climate_fee_category="detached_over_80m2")
    loft = properties.create_property(account_a, name="Loft Psyrri", address="Psyrri, Athens")
    roma = properties.create_property(account_a, name="Casa Roma", address="Trastevere, Roma",
                                      country="IT", timezone="Europe/Rome",
                                      aade_property_id="00000000099")  # no Greek report

    def book(prop, name, arrival, departure, price, method, **stored):
        booking = bookings.create_booking(account_a, rates=rates, property_id=prop.id,
                                          guest_name=name, arrival_date=arrival,
                                          departure_date=departure, guest_count=2,
                                          total_price=price, payment_method=method)
        if stored:
            Booking.update(**stored).where(Booking.id == booking.id).execute()
        return booking.id

    def cancel(booking_id, kept, on):
        bookings.cancel_booking(account_a, booking_id, amount_kept=kept)
        Booking.update(cancelled_at=on).where(Booking.id == booking_id).execute()

    ids = {
        "B1": book(studio, "Eleni Georgiou", "2026-02-26", "2026-03-03", 500, "cash"),
        "B2": book(studio, "Kostas Ioannou", "2026-03-30", "2026-04-02", 300, "platform",
                   channel="airbnb", external_ref="HMABC123"),
        "B3": book(villa, "John Smith", "2026-03-10", "2026-03-15", 1000, "bank_transfer",
                   channel="booking", external_ref="BK-4455"),
        "B4": book(studio, "Maria Free", "2026-03-05", "2026-03-08", 0, None),
        "B5": book(studio, "Nikos Cancel", "2026-03-20", "2026-03-25", 400, "cash"),
        "B6": book(studio, "Anna Noprice", "2026-03-12", "2026-03-14", None, "cash"),
        "B7": book(loft, "Petros Noama", "2026-03-01", "2026-03-04", 200, "cash"),
        "B8": book(roma, "Giulia Rossi", "2026-03-10", "2026-03-12", 300, "cash"),
        "B9": book(villa, "Late Cancel", "2026-03-20", "2026-03-22", 500, "cash"),
    }
    cancel(ids["B5"], 150, dt.datetime(2026, 3, 18, 10, 0))
    cancel(ids["B9"], None, dt.datetime(2026, 3, 18, 11, 0))
    ids.update(studio=studio.id, villa=villa.id, loft=loft.id, roma=roma.id)
    return ids
