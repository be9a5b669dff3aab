"""The dashboard's tables: its users, their one-time password links and their sessions.

Nothing secret is stored in clear: passwords as scrypt hashes, link tokens and session ids as
HMACs under the server secret (core.secrets), so a copy of the database opens no session.
"""

from __future__ import annotations

import peewee as pw

from rentalcomply.core import clock
from rentalcomply.core.models import Account, BaseModel

USER_STATUSES = ("active", "disabled")


class DashboardUser(BaseModel):
    id = pw.CharField(primary_key=True, max_length=32)
    account = pw.ForeignKeyField(Account, backref="dashboard_users", on_delete="CASCADE")
    # Null until the person chooses it: the first user of the default account, created at the
    # first start, gives an address with the password.
    email = pw.CharField(max_length=254, null=True, unique=True)
    password_hash = pw.CharField(max_length=200, null=True)
    status = pw.CharField(max_length=16, default="active")
    created_at = pw.DateTimeField(default=clock.utcnow)
    password_set_at = pw.DateTimeField(null=True)
    last_sign_in_at = pw.DateTimeField(null=True)


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
