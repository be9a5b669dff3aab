"""Signed, expiring links: a URL that is its own credential, for files served without an API key.

    query = mint("report-file", {"account": ..., "report": ..., "format": "pdf"}, lifetime=3600)
    ...
    check("report-file", {"account": ..., "report": ..., "format": "pdf"}, query)

The signature is an HMAC under the server secret (core/secrets.py) over the purpose, the fields
the link stands for, a random nonce and the expiry, so every request mints a new link, a link
cannot be moved to another file, account or format, and its expiry cannot be stretched. An
altered link is `InvalidSignature` (403) whatever its age; a genuine one past its expiry is
`LinkExpired` (410). Times come from core/clock, so tests step past an expiry.

A link minted during an API request names the key that asked for it: the key id leads the
nonce (`key_...` + "." + random), so the signature covers it and no query parameter is added.
Such a link works only while that key does: once the key is revoked (or expired, or past its
rotation's grace), its links answer `LinkExpired` (410) too, so revoking a leaked key also ends the
download links it handed out. Links minted without a key (dashboard sessions, the `report.ready`
event) live their hour. The web layer says which key is minting (`minted_by`).
"""

from __future__ import annotations

import calendar
import contextlib
import contextvars
import datetime as dt
import hmac
import secrets as _random

from rentalcomply.core import clock, secrets
from rentalcomply.core.errors import InvalidSignature, LinkExpired

QUERY_FIELDS = ("nonce", "expires", "signature")
KEY_SEPARATOR = "."  # never in token_urlsafe's alphabet, nor in a key id
_minting_key: contextvars.ContextVar[str | None] = contextvars.ContextVar("minting_key",
                                                                         default=None)


@contextlib.contextmanager
def minted_by(key_id: str | None):
    """Links minted inside this block name `key_id` and die with it (None: no key)."""
    token = mint_as(key_id)
    try:
        yield
    finally:
        mint_as_before(token)


def mint_as(key_id: str | None) -> contextvars.Token:
    """`minted_by` without the generator, for the request path: links minted from now on name
    `key_id`, until `mint_as_before(token)` with what this returned."""
    return _minting_key.set(key_id)


def mint_as_before(token: contextvars.Token) -> None:
    _minting_key.reset(token)


def _message(fields: dict[str, str], nonce: str, expires: int) -> str:
    # Unambiguous: each value is length-prefixed, so no value can run into the next.
    parts = [f"{name}={len(str(value))}:{value}" for name, value in sorted(fields.items())]
    return "|".join(parts + [f"nonce={nonce}", f"expires={expires}"])


def mint(purpose: str, fields: dict[str, str], lifetime_seconds: int) -> tuple[dict[str, str], dt.datetime]:
    """The query parameters of a new link, and when it expires (naive UTC)."""
    expires_at = clock.utcnow() + dt.timedelta(seconds=lifetime_seconds)
    expires = calendar.timegm(expires_at.timetuple())
    nonce = _random.token_urlsafe(12)
    key_id = _minting_key.get()
    if key_id:
        nonce = key_id + KEY_SEPARATOR + nonce
    signature = secrets.sign(purpose, _message(fields, nonce, expires))
    return {"nonce": nonce, "expires": str(expires), "signature": signature}, expires_at


def check(purpose: str, fields: dict[str, str], query: dict[str, str]) -> None:
    """Raise InvalidSignature or LinkExpired unless `query` is a genuine, live link to `fields`."""
    nonce, expires, signature = (query.get(name) or "" for name in QUERY_FIELDS)
    if not (nonce and signature and expires.isdigit() and len(expires) <= 12):
        raise InvalidSignature()
    expected = secrets.sign(purpose, _message(fields, nonce, int(expires)))
    if not hmac.compare_digest(expected.encode(), signature.encode("utf-8", "replace")):
        raise InvalidSignature()
    if calendar.timegm(clock.utcnow().timetuple()) >= int(expires):
        raise LinkExpired("The download link has expired; ask for a new one.")
    if KEY_SEPARATOR in nonce and not _key_in_force(nonce.split(KEY_SEPARATOR, 1)[0]):
        raise LinkExpired("The API key that asked for this download link has been revoked or "
                          "has expired; ask for a new link.")


def _key_in_force(key_id: str) -> bool:
    from rentalcomply.core.models import ApiKey
    found = (ApiKey.select(ApiKey.revoked_at, ApiKey.expires_at)
             .where(ApiKey.id == key_id).first())
    if found is None or found.revoked_at is not None:
        return False
    return found.expires_at is None or found.expires_at > clock.utcnow()
