"""`rentalcomply demo`: an account to try the API on, with homes and stays in the coming weeks.

Everything is made through the domain functions, exactly as the API would make it (validation,
overlap checks, the climate fee, the events), in one transaction: a demo is there whole or not at
all. A second run finds the account by name and leaves it alone.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from rentalcomply.accounts import service as accounts
from rentalcomply.bookings import service as bookings
from rentalcomply.bookings.fees import FeeRates
from rentalcomply.core import clock
from rentalcomply.core.db import atomic
from rentalcomply.core.models import Account
from rentalcomply.properties import service as properties

DEMO_ACCOUNT = "Demo Agency"

# Greece: AADE's register number (AMA) and no police connector (Greek hosts report nothing to the
# police per stay). Italy: the Alloggiati Web connector, so those bookings wait for check-in.
PROPERTIES = [
    {"key": "studio", "name": "Seaside Studio", "address": "Akti Miaouli 12, 185 35 Piraeus",
     "aade_property_id": "00000912345", "country": "GR", "timezone": "Europe/Athens",
     "max_guests": 3},
    {"key": "villa", "name": "Villa Thalassa", "address": "Agios Prokopios, 843 00 Naxos",
     "aade_property_id": "00000954321", "country": "GR", "timezone": "Europe/Athens",
     "max_guests": 8, "climate_fee_category": "detached_over_80m2"},
    {"key": "casa", "name": "Casa sul Canale", "address": "Fondamenta dei Vetrai 8, 30141 Venezia",
     "country": "IT", "timezone": "Europe/Rome", "max_guests": 4,
     "police_connector": "alloggiati",
     # A made-up CIN (Venice's ISTAT code, then DEMO), so the guest page and the feed show one.
     "cin": "IT027042C2DEMO0001",
     # Its region (Veneto) is read from the address; the rooms and beds the statistics report.
     "rooms": 2, "beds": 4},
]

# (property, days from today to arrival, nights, guest, guests, e-mail, language, price, payment,
# source): no two stays of one property overlap.
BOOKINGS = [
    ("casa", 2, 3, "Giulia Bianchi", 2, "giulia.bianchi@example.it", "it", 420, "card", "direct"),
    ("studio", 3, 4, "Maria Papadopoulou", 2, "maria.p@example.gr", "el", 380, "bank_transfer", "phone"),
    ("villa", 5, 7, "Thomas Müller", 6, "t.mueller@example.de", "de", 2450, "bank_transfer", "email"),
    ("casa", 7, 7, "Emma Johnson", 3, "emma.johnson@example.com", "en", 1190, "card", "direct"),
    ("studio", 8, 3, "Lucas Martin", 1, "lucas.martin@example.fr", "fr", 285, "cash", "walk_in"),
    ("studio", 14, 5, "Sofia Georgiou", 3, None, "el", 450, "cash", "phone"),
    ("villa", 15, 6, "Anna Kowalska", 5, "anna.kowalska@example.pl", "en", 2100, "card", "direct"),
    ("casa", 18, 4, "Marco Rossi", 2, "marco.rossi@example.it", "it", 640, "bank_transfer", "email"),
    ("studio", 22, 2, "James Smith", 2, "james.smith@example.co.uk", "en", 190, "card", "direct"),
    ("villa", 28, 5, "Eleni Nikolaou", 4, "eleni.n@example.gr", "el", 1750, "bank_transfer", "other"),
]


DEMO_DASHBOARD_EMAIL = "owner@demo-agency.example"


@dataclasses.dataclass
class DemoResult:
    account: Account
    created: bool
    key: str | None = None
    property_ids: list[str] = dataclasses.field(default_factory=list)
    booking_ids: list[str] = dataclasses.field(default_factory=list)
    first_arrival: dt.date | None = None
    last_departure: dt.date | None = None
    dashboard_email: str | None = None
    dashboard_token: str | None = None  # a one-time link's token: the password is chosen there


def seed_demo(settings, today: dt.date | None = None) -> DemoResult:
    """Create the demo account, its properties, bookings and a key with every scope; or, when an
    account of that name exists, return it untouched (`created` False, no key)."""
    existing = Account.get_or_none(Account.name == DEMO_ACCOUNT)
    if existing is not None:
        return DemoResult(existing, created=False)
    today = today or clock.today()
    rates = FeeRates.from_settings(settings)
    with atomic():
        account = accounts.create_account(DEMO_ACCOUNT)
        result = DemoResult(account, created=True)
        ids = {}
        for spec in PROPERTIES:
            fields = {k: v for k, v in spec.items() if k != "key"}
            prop = properties.create_property(account.id, **fields)
            ids[spec["key"]] = prop.id
            result.property_ids.append(prop.id)
        for key, offset, nights, guest, count, email, language, price, payment, source in BOOKINGS:
            arrival = today + dt.timedelta(days=offset)
            departure = arrival + dt.timedelta(days=nights)
            booking = bookings.create_booking(
                account.id, rates=rates, property_id=ids[key], guest_name=guest,
                arrival_date=arrival, departure_date=departure, guest_count=count,
                guest_email=email, guest_language=language, total_price=price,
                payment_method=payment, source=source)
            result.booking_ids.append(booking.id)
            result.first_arrival = min(filter(None, [result.first_arrival, arrival]))
            result.last_departure = max(filter(None, [result.last_departure, departure]))
        _, result.key = accounts.create_key(account.id, list(accounts.SCOPES), name="demo key")
        # A dashboard owner, so that the demo can be looked at in the browser too.
        from rentalcomply.dashboard import users
        if not users.DashboardUser.select().where(
                (users.DashboardUser.account == account.id)
                & (users.DashboardUser.email == DEMO_DASHBOARD_EMAIL)).exists():
            _, result.dashboard_token = users.create_user(account.id, DEMO_DASHBOARD_EMAIL)
            result.dashboard_email = DEMO_DASHBOARD_EMAIL
    return result
