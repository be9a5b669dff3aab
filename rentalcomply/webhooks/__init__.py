"""Webhooks: endpoints that receive a signed notification for each event they chose.

For receivers written in Python, `verify(body, headers, secret, tolerance=300)` checks a delivery
and returns the event; it raises `InvalidSignature` (a ValueError) otherwise. Importing it loads
the standard library only. See docs/webhooks.md.
"""

from rentalcomply.webhooks.signing import InvalidSignature, verify

__all__ = ["InvalidSignature", "verify"]
