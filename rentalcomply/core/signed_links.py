"""Signed, expiring links: a URL that is its own credential, for files served without an API key.

    query = mint("report-file", {"account": ..., "report": ..., "format": "pdf"}, lifetime=3600)
    ...
    check("report-file", {"account": ..., "report": ..., "format": "pdf"}, query)

The signature is an HMAC under the server secret (core/secrets.py) over the purpose, the fields
the link stands for, a random nonce and the expiry, so every request mints a new link, a link
cannot be moved to another file, account or format, and its expiry cannot be stretched. An
altered link is `InvalidSignature` (403) whatever its age; a genuine one past its expiry is
`LinkExpired` (410). Times come from core/clock, so tests step past an expiry.
"""

from __future__ import annotations

import calendar
import datetime as dt
import hmac
import secrets as _random

from rentalcomply.core import clock, secrets
from rentalcomply.core.errors import InvalidSignature, LinkExpired

QUERY_FIELDS = ("nonce", "expires", "signature")


def _message(fields: dict[str, str], nonce: str, expires: int) -> str:
    # Unambiguous: each value is length-prefixed, so no value can run into the next.
    parts = [f"{name}={len(str(value))}:{value}" for name, value in sorted(fields.items())]
    return "|".join(parts + [f"nonce={nonce}", f"expires={expires}"])


def mint(purpose: str, fields: dict[str, str], lifetime_seconds: int) -> tuple[dict[str, str], dt.datetime]:
    """The query parameters of a new link, and when it expires (naive UTC)."""
    expires_at = clock.utcnow() + dt.timedelta(seconds=lifetime_seconds)
    expires = calendar.timegm(expires_at.timetuple())
    nonce = _random.token_urlsafe(12)
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
