"""The dashboard's tables: its users, their one-time password links and their sessions.

Nothing secret is stored in clear: passwords as scrypt hashes, link tokens and session ids as
HMACs under the server secret (core.secrets), so a copy of the database opens no session.
"""

from __future__ import annotations

import peewee as pw

from rentalcomply.core import clock
from rentalcomply.core.models import Account, BaseModel, Booking

USER_STATUSES = ("active", "disabled")
# An owner does everything; a member works with bookings, properties and reports but cannot
# manage API keys, webhooks or the people of the account.
ROLES = ("owner", "member")


class DashboardUser(BaseModel):
    id = pw.CharField(primary_key=True, max_length=32)
    account = pw.ForeignKeyField(Account, backref="dashboard_users", on_delete="CASCADE")
    # Null until the person chooses it: the first user of the default account, created at the
    # first start, gives an address with the password. Unique within the account, not across the
    # server: one person may be a user of several accounts, one user (and password) in each.
    email = pw.CharField(max_length=254, null=True, index=True)
    password_hash = pw.CharField(max_length=200, null=True)
    status = pw.CharField(max_length=16, default="active")
    created_at = pw.DateTimeField(default=clock.utcnow)
    password_set_at = pw.DateTimeField(null=True)
    last_sign_in_at = pw.DateTimeField(null=True)
    role = pw.CharField(max_length=16, default="owner")
    # The language of the pages the user last chose or signed in with (en, el): the e-mails the
    # server sends on its own (the morning e-mail) are written in it. Null: not known yet, English.
    lang = pw.CharField(max_length=8, null=True)

    class Meta:
        indexes = ((("account", "email"), True),)


class PasswordLink(BaseModel):
    id = pw.CharField(primary_key=True, max_length=32)
    user = pw.ForeignKeyField(DashboardUser, backref="password_links", on_delete="CASCADE")
    token_hash = pw.CharField(max_length=64, unique=True)
    created_at = pw.DateTimeField(default=clock.utcnow)
    expires_at = pw.DateTimeField()
    used_at = pw.DateTimeField(null=True)

    class Meta:
        table_name = "dashboard_password_link"


class DashboardSession(BaseModel):
    # HMAC of the random id the cookie holds: the cookie value itself is never stored.
    id_hash = pw.CharField(primary_key=True, max_length=64)
    user = pw.ForeignKeyField(DashboardUser, backref="sessions", on_delete="CASCADE")
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    created_at = pw.DateTimeField()
    last_seen_at = pw.DateTimeField()
    expires_at = pw.DateTimeField()  # the absolute end, whatever the activity
    # "Keep me signed in": 30 days on this device, with no end for being idle; revocable in Account.
    remembered = pw.BooleanField(default=False, constraints=[pw.SQL("DEFAULT FALSE")])
    device = pw.CharField(max_length=120, null=True)  # the browser, as Account lists it


class DashboardAccountSetting(BaseModel):
    """What an owner chose for the account's pages: the time zone of times that belong to no
    property (activity, deliveries, keys' last use, reports made; null: not chosen, the first
    property's), and whether the owners get the morning e-mail."""
    account = pw.ForeignKeyField(Account, primary_key=True, on_delete="CASCADE")
    timezone = pw.CharField(max_length=64, null=True)
    morning_email = pw.BooleanField(default=True)
    updated_at = pw.DateTimeField(default=clock.utcnow)

    class Meta:
        table_name = "dashboard_account_setting"


class DashboardBookingNote(BaseModel):
    """The team's note on a booking, kept by the dashboard: not in the API's booking or its events
    (so no guest-facing system sees it)."""
    booking = pw.ForeignKeyField(Booking, primary_key=True, on_delete="CASCADE")
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    text = pw.TextField()
    updated_at = pw.DateTimeField(default=clock.utcnow)

    class Meta:
        table_name = "dashboard_booking_note"


class DashboardMorningMail(BaseModel):
    """The account's morning e-mail of one local date, looked at once (morning.py): the row is
    inserted before any e-mail leaves, and its key lets only one worker insert it, so two workers
    never send the same morning twice. `items` 0: nothing needed a person, nothing was sent."""
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    local_date = pw.DateField()
    checked_at = pw.DateTimeField()
    items = pw.IntegerField()
    recipients = pw.IntegerField()

    class Meta:
        table_name = "dashboard_morning_mail"
        primary_key = pw.CompositeKey("account", "local_date")


class DashboardSearchTerm(BaseModel):
    """A term a booking is found by in the header's search (dashboard/search.py): normalised text
    for what the booking row holds in clear, an HMAC for what comes from the sealed party."""
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    booking = pw.ForeignKeyField(Booking, on_delete="CASCADE")
    term = pw.CharField(max_length=120)

    class Meta:
        table_name = "dashboard_search_term"
        indexes = ((("account", "term"), False), (("booking",), False))


class DashboardSearchStamp(BaseModel):
    """The versions of a booking and of its check-in its search terms were made from."""
    booking = pw.ForeignKeyField(Booking, primary_key=True, on_delete="CASCADE")
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    booking_version = pw.IntegerField()
    checkin_version = pw.IntegerField()

    class Meta:
        table_name = "dashboard_search_stamp"
