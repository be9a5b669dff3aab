"""Signing deliveries and verifying them: both halves, so that they cannot drift apart.

This module uses the standard library only (and the product's clock, itself only `datetime`):
receivers import `rentalcomply.webhooks.verify` without pulling in the server (no database, no
Bottle).

Two signatures travel with every delivery (decisions.md, section 5):

- `X-RentalComply-Signature: sha256=<hex>`: HMAC-SHA256 of the raw body keyed with the whole
  secret string (`whsec_...`) as UTF-8. The body carries `timestamp`, equal to
  `X-RentalComply-Timestamp`, so the signature binds the time.
- `webhook-signature: v1,<base64>` (Standard Webhooks): HMAC-SHA256 of `{id}.{timestamp}.{body}`
  keyed with the base64-decoded part of the secret after `whsec_`.

While a rotated secret is in its grace period, both secrets sign: the header values list the new
secret's signature first, then the old one's — comma-separated `sha256=` values in
`X-RentalComply-Signature`, space-separated `v1,` values in `webhook-signature` (as Standard
Webhooks specifies). A receiver accepts the delivery when any one of them matches.
"""

from __future__ import annotations

import base64
import binascii
import calendar
import hashlib
import hmac
import json
import secrets
from typing import Any, Mapping

from rentalcomply.core import clock

SECRET_PREFIX = "whsec_"
DEFAULT_TOLERANCE = 300


class InvalidSignature(ValueError):
    """The delivery is not authentic or not fresh: answer it with 400 or 401 and drop it."""


def generate_secret() -> str:
    """`whsec_` + base64 of 32 random bytes."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode("ascii")


def _secret_bytes(secret: str) -> bytes:
    """The key of the Standard Webhooks signature: the decoded part after `whsec_`."""
    encoded = secret[len(SECRET_PREFIX):] if secret.startswith(SECRET_PREFIX) else secret
    try:
        return base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("a webhook secret is 'whsec_' followed by base64") from None


def rentalcomply_signature(body: bytes, secret: str) -> str:
    """`sha256=<hex>` for X-RentalComply-Signature."""
    digest = hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()
    return "sha256=" + digest


def standard_signature(message_id: str, timestamp: int, body: bytes, secret: str) -> str:
    """`v1,<base64>` for webhook-signature (Standard Webhooks)."""
    signed = f"{message_id}.{timestamp}.".encode("utf-8") + body
    digest = hmac.new(_secret_bytes(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def signature_headers(body: bytes, event_id: str, timestamp: int, secrets_: list[str]) -> dict[str, str]:
    """The signature and timestamp headers of one attempt, signed with each secret in turn."""
    return {
        "X-RentalComply-Timestamp": str(timestamp),
        "X-RentalComply-Signature": ",".join(rentalcomply_signature(body, s) for s in secrets_),
        "webhook-id": event_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": " ".join(standard_signature(event_id, timestamp, body, s) for s in secrets_),
    }


def _header(headers: Mapping[str, str] | Any, name: str) -> str | None:
    """A header from any mapping (dict, WSGI/Flask/Django/aiohttp headers), by any case."""
    getter = getattr(headers, "get", None)
    if getter is not None:
        for candidate in (name, name.lower(), name.title()):
            value = getter(candidate)
            if value is not None:
                return value
    items = headers.items() if hasattr(headers, "items") else headers
    for key, value in items:
        if key.lower() == name.lower():
            return value
    return None


def verify(body: bytes | str, headers: Mapping[str, str], secret: str,
           tolerance: int = DEFAULT_TOLERANCE, *, now: float | None = None) -> dict:
    """Check a delivery and return the parsed event.

    `body` is the raw request body exactly as received (bytes, or str decoded as UTF-8): parse it
    only after it has been verified. `headers` is any mapping of the request's headers. `secret`
    is the `whsec_...` string shown when the endpoint was registered or its secret rotated.

    Raises InvalidSignature when no signature matches, when the timestamp is missing, further than
    `tolerance` seconds (default 300) from now either way, or differs from the body's `timestamp`.
    The X-RentalComply headers are checked when present, else the Standard Webhooks ones.
    """
    raw = body.encode("utf-8") if isinstance(body, str) else bytes(body)
    signature = _header(headers, "X-RentalComply-Signature")
    if signature is not None:
        timestamp_text = _header(headers, "X-RentalComply-Timestamp")
        expected = rentalcomply_signature(raw, secret)
        offered = [part.strip() for part in signature.split(",")]
    else:
        signature = _header(headers, "webhook-signature")
        timestamp_text = _header(headers, "webhook-timestamp")
        message_id = _header(headers, "webhook-id")
        if signature is None or message_id is None:
            raise InvalidSignature("no signature header")
        if timestamp_text is None or not timestamp_text.strip().isdigit():
            raise InvalidSignature("missing or malformed timestamp header")
        expected = standard_signature(message_id, int(timestamp_text), raw, secret)
        offered = signature.split()
    if timestamp_text is None or not timestamp_text.strip().isdigit():
        raise InvalidSignature("missing or malformed timestamp header")
    timestamp = int(timestamp_text)
    current = calendar.timegm(clock.utcnow().utctimetuple()) if now is None else now
    if abs(current - timestamp) > tolerance:
        raise InvalidSignature(f"timestamp {timestamp} is more than {tolerance} s from now")
    # Compare against every offered value (no early exit), in constant time each.
    matched = False
    for candidate in offered:
        matched |= hmac.compare_digest(candidate.encode("utf-8"), expected.encode("utf-8"))
    if not matched:
        raise InvalidSignature("no signature matches this secret")
    try:
        event = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise InvalidSignature("the body is not JSON") from None
    if not isinstance(event, dict) or event.get("timestamp") != timestamp:
        raise InvalidSignature("the body's timestamp differs from the header's")
    return event
