"""Accounts and API keys.

Key format: `rc_` + 40 base62 characters; the last 6 are a checksum of the first 34, so a mistyped
key is refused before any database lookup, and secret scanners can recognise a key. Only an HMAC of
the key under the server secret is stored; lookups go by that hash (unique index), and the
comparison that follows is constant-time.
"""

from __future__ import annotations

import datetime as dt
import hmac
import time
import zlib

from peewee import fn

from rentalcomply.core import clock, secrets
from rentalcomply.core.commits import committed_read
from rentalcomply.core.db import atomic, db, startup_lock
from rentalcomply.core.errors import ValidationError
from rentalcomply.core.ids import encode_base62, new_id, random_base62
from rentalcomply.core.models import Account, ApiKey, ApiKeyChange

KEY_PREFIX = "rc_"
KEY_BODY_LENGTH = 40
CHECKSUM_LENGTH = 6
SCOPES = ("read", "write", "webhooks")
DEFAULT_ROTATION_GRACE_HOURS = 24
# A looked-up key is kept this long, and only while the key-change marker has not moved: the
# marker is what makes a revocation by another process (the command line) count at once; the
# time only bounds how long a key record is kept at all.
KEY_CACHE_SECONDS = 60.0
NAME_LIMIT = 200  # Account.name's column
_key_cache: dict[str, tuple[float, str | None, ApiKey]] = {}


class KeyError_(ValueError):
    """A key operation the admin asked for cannot be done (unknown key, bad scope)."""


def _checksum(random_part: str) -> str:
    return encode_base62(zlib.crc32(random_part.encode("ascii")), CHECKSUM_LENGTH)


def generate_key() -> str:
    random_part = random_base62(KEY_BODY_LENGTH - CHECKSUM_LENGTH)
    return KEY_PREFIX + random_part + _checksum(random_part)


def key_is_well_formed(key: str) -> bool:
    if not key.startswith(KEY_PREFIX) or len(key) != len(KEY_PREFIX) + KEY_BODY_LENGTH:
        return False
    body = key[len(KEY_PREFIX):]
    if not body.isascii() or not body.isalnum():
        return False
    return hmac.compare_digest(_checksum(body[:-CHECKSUM_LENGTH]), body[-CHECKSUM_LENGTH:])


def hash_key(key: str) -> str:
    return secrets.sign("api-key", key)


# --- accounts --------------------------------------------------------------------------------

def create_account(name: str) -> Account:
    """An account named `name`, which no other account has (letter case aside): commands name
    accounts by name (`--account default`), and two of one name would make that name useless."""
    name = name.strip()
    if not name:
        raise ValueError("an account needs a name")
    with atomic():
        same = Account.get_or_none(fn.LOWER(Account.name) == name.lower())
        if same is not None:
            raise ValueError(f"an account named {same.name!r} exists already ({same.id}); "
                             "choose another name")
        return Account.create(id=new_id("acc"), name=name, created_at=clock.utcnow())


def rename_account(account_id: str, name: str) -> Account:
    """The account called `name` from now on: e-mails, the dashboard's header and the commands'
    `--account NAME` use it. Refused like a new account's name (empty, too long, another
    account's), as a field error so the dashboard and the command line say it the same way."""
    name = " ".join((name or "").split())
    if not name:
        raise ValidationError("name", "must not be empty")
    if len(name) > NAME_LIMIT:
        raise ValidationError("name", f"must be at most {NAME_LIMIT} characters")
    with atomic():
        account = get_account(account_id)
        same = Account.get_or_none((fn.LOWER(Account.name) == name.lower())
                                   & (Account.id != account_id))
        if same is not None:
            raise ValidationError("name", "is another account's name already; choose another")
        account.name = name
        account.save(only=[Account.name])
    return account


def list_accounts() -> list[Account]:
    return list(Account.select().order_by(Account.created_at, Account.id))


def get_account(account_id: str) -> Account:
    account = Account.get_or_none(Account.id == account_id)
    if account is None:
        raise KeyError_(f"no account {account_id!r}")
    return account


# --- keys ------------------------------------------------------------------------------------

def create_key(account_id: str, scopes: list[str] | tuple[str, ...], name: str = "",
               expires_in_days: int | None = None) -> tuple[ApiKey, str]:
    """Return the stored key record and the key itself, which is shown once and never again."""
    get_account(account_id)
    scopes = sorted(set(scopes), key=SCOPES.index) if all(s in SCOPES for s in scopes) else None
    if not scopes:
        raise KeyError_("choose at least one scope of: " + ", ".join(SCOPES))
    now = clock.utcnow()
    expires_at = None
    if expires_in_days is not None:
        if expires_in_days < 1:
            raise KeyError_("--expires-in-days must be at least 1")
        expires_at = now + dt.timedelta(days=expires_in_days)
    key = generate_key()
    record = ApiKey.create(
        id=new_id("key"), account=account_id, name=name, key_hash=hash_key(key),
        key_hint=key[:8], scopes=" ".join(scopes), created_at=now, expires_at=expires_at,
    )
    return record, key


def list_keys(account_id: str | None = None) -> list[ApiKey]:
    query = ApiKey.select().order_by(ApiKey.created_at, ApiKey.id)
    if account_id:
        query = query.where(ApiKey.account == account_id)
    return list(query)


def _get_key(key_id: str) -> ApiKey:
    record = ApiKey.get_or_none(ApiKey.id == key_id)
    if record is None:
        raise KeyError_(f"no API key {key_id!r}")
    return record


def revoke_key(key_id: str) -> ApiKey:
    """Revoke a key: refused by the next request of every process once this returns."""
    with atomic():
        record = _get_key(key_id)
        if record.revoked_at is None:
            record.revoked_at = clock.utcnow()
            record.save()
            _keys_changed()
    forget_cached_keys()
    return record


def rotate_key(key_id: str, grace_hours: int = DEFAULT_ROTATION_GRACE_HOURS) -> tuple[ApiKey, str]:
    """Issue a new key with the same account, name and scopes; the old one keeps working for
    `grace_hours` (0: revoked now), so the tools using it can be switched over without downtime."""
    if grace_hours < 0:
        raise KeyError_("--grace-hours cannot be negative")
    with atomic():
        old = _get_key(key_id)
        if not key_is_usable(old):
            raise KeyError_(f"API key {key_id!r} is revoked or expired; create a new one")
        new_record, key = create_key(old.account_id, old.scopes.split(), old.name)
        now = clock.utcnow()
        if grace_hours == 0:
            old.revoked_at = now
        else:
            grace_end = now + dt.timedelta(hours=grace_hours)
            old.expires_at = min(old.expires_at, grace_end) if old.expires_at else grace_end
        old.save()
        _keys_changed()
    forget_cached_keys()
    return new_record, key


def key_is_usable(record: ApiKey, now: dt.datetime | None = None) -> bool:
    if record.revoked_at is not None:
        return False
    # The clock is read only for a key that expires: this runs on every request.
    return record.expires_at is None or record.expires_at > (now or clock.utcnow())


def find_key(key: str) -> ApiKey | None:
    """The usable key record for a presented key, or None. Mistyped keys cost no lookup.

    Records are cached (a key lookup per request adds up under load), each with the key-change
    marker read before it was looked up. Every request reads the marker, one primary-key lookup of
    a one-row table; a cached record counts only while the marker is the same, so a revocation or
    rotation committed by any process (the command line beside the server) is seen by the very
    next request.
    """
    if not key_is_well_formed(key):
        return None
    return find_well_formed_key(key)


def find_well_formed_key(key: str) -> ApiKey | None:
    """`find_key` for a key already found well formed (the gate checks that first)."""
    digest = hash_key(key)
    marker = _key_change_marker()
    now = time.monotonic()
    cached = _key_cache.get(digest)
    if cached is not None and cached[1] == marker and now - cached[0] < KEY_CACHE_SECONDS:
        record = cached[2]
    else:
        record = ApiKey.select(ApiKey).where(ApiKey.key_hash == digest).first()
        if record is None or not hmac.compare_digest(record.key_hash, digest):
            return None
        if len(_key_cache) > 10_000:
            _key_cache.clear()
        # Tagged with the marker read before the lookup: a record read just before a change
        # committed carries the old marker, so it is never used after the change.
        _key_cache[digest] = (now, marker, record)
    return record if key_is_usable(record) else None


_MARKER_SQL = "SELECT marker FROM api_key_change WHERE id = 1"


def _key_change_marker() -> str | None:
    return committed_read(("api-key-change-marker",), _read_key_change_marker)


def _read_key_change_marker() -> str | None:
    row = db.execute_sql(_MARKER_SQL).fetchone()
    return row[0] if row else None


def _keys_changed() -> None:
    """Move the key-change marker; call inside the transaction that changes a key."""
    marker = random_base62(16)
    if not ApiKeyChange.update(marker=marker).where(ApiKeyChange.id == 1).execute():
        ApiKeyChange.create(id=1, marker=marker)  # the row went missing: bring it back


def forget_cached_keys() -> None:
    _key_cache.clear()


def key_view(record: ApiKey) -> dict:
    return {
        "id": record.id,
        "account_id": record.account_id,
        "name": record.name,
        "key_hint": record.key_hint + "…",
        "scopes": record.scopes.split(),
        "created_at": clock.iso(record.created_at),
        "last_used_at": clock.iso(record.last_used_at),
        "expires_at": clock.iso(record.expires_at),
        "revoked_at": clock.iso(record.revoked_at),
        "status": "revoked" if record.revoked_at else (
            "expired" if not key_is_usable(record) else "active"),
    }


def account_view(account: Account) -> dict:
    return {"id": account.id, "name": account.name, "created_at": clock.iso(account.created_at)}


def ensure_first_account() -> tuple[Account, str] | None:
    """On a database with no account, create `default` and a key with all scopes.

    Returns (account, key) when it did so: the caller prints the key, once. Under the start-up
    lock, since on PostgreSQL two transactions could each see no account and create one."""
    with startup_lock(db.obj), atomic():
        if Account.select().exists():
            return None
        account = create_account("default")
        _, key = create_key(account.id, list(SCOPES), name="first key")
    return account, key

