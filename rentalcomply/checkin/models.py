"""The check-in of a booking: its link (hashed) and its guest party (sealed)."""

from __future__ import annotations

import peewee as pw

from rentalcomply.core import clock
from rentalcomply.core.models import Account, BaseModel, Booking, JSONField, Versioned


class Checkin(Versioned):
    booking = pw.ForeignKeyField(Booking, primary_key=True, on_delete="CASCADE")
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    # HMAC of the link's token under the server secret; the token itself is never stored.
    token_hash = pw.CharField(max_length=64, unique=True)
    # The whole party as JSON, sealed with AES-GCM (core/sealing.py) for this booking alone.
    guests_sealed = pw.TextField(null=True)
    # Kept in clear, and kept after the purge: the tax report names the lead guest.
    lead_guest_name = pw.CharField(max_length=200, null=True)
    consent_at = pw.DateTimeField(null=True)
    invited_at = pw.DateTimeField(null=True)
    # The automatic invitation before arrival goes out once.
    auto_invited = pw.BooleanField(default=False)
    # Times of recent invitations (ISO strings), for the limit of 5 an hour.
    sends = JSONField(default=list)
    completed_at = pw.DateTimeField(null=True)
    # When the e-mail with the property's access instructions went out: claimed by a conditional
    # UPDATE before it is sent, so it goes once per booking whatever the number of workers.
    access_sent_at = pw.DateTimeField(null=True)
    # The access e-mail did not go (access.py): when, and why in a word (`address`: the guest's
    # address was refused, not tried again; `mail`: the mail server failed, tried again). Shown
    # on the booking and in Today's "Needs a person"; cleared when one goes. Indexed by account
    # for the failed ones only (migration 0051's partial index): a new row has no entry to write.
    access_failed_at = pw.DateTimeField(null=True)
    access_problem = pw.CharField(max_length=16, null=True)
    # The property's local date of the last reminder (reminders.py): claimed by a conditional
    # UPDATE before it is sent, so at most one a day whatever the number of workers.
    reminded_on = pw.DateField(null=True)
    purged_at = pw.DateTimeField(null=True)
    created_at = pw.DateTimeField(default=clock.utcnow)
    updated_at = pw.DateTimeField(default=clock.utcnow)


class MessageTemplate(BaseModel):
    """An account's own text of a guest e-mail (templates.py): per kind and language."""
    account = pw.ForeignKeyField(Account, on_delete="CASCADE")
    kind = pw.CharField(max_length=32)
    lang = pw.CharField(max_length=8)
    subject = pw.CharField(max_length=200)
    body = pw.TextField()
    updated_at = pw.DateTimeField(default=clock.utcnow)

    class Meta:
        table_name = "message_template"
        primary_key = pw.CompositeKey("account", "kind", "lang")
