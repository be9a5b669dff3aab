"""A booking's own short reference, for a guest to quote (the property's check-in link asks for
it when the booking has no channel code): eight characters from an alphabet without look-alikes
(no 0/O, 1/I/L), shown as `ABCD-EF23`.

Derived from the booking id, so nothing is stored and every booking has one from its creation;
it is matched only among one property's current stays, where eight characters (about 40 bits)
never collide, and only together with the arrival date or the phone's last digits.
"""

from __future__ import annotations

import hashlib
import re

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
LENGTH = 8
_SEPARATORS = re.compile(r"[\s\-‐‑‒–—_./#]+")


def short_reference(booking_id: str) -> str:
    number = int.from_bytes(hashlib.sha256(b"booking-reference:" + booking_id.encode()).digest()[:8],
                            "big")
    characters = []
    for _ in range(LENGTH):
        number, index = divmod(number, len(ALPHABET))
        characters.append(ALPHABET[index])
    text = "".join(characters)
    return f"{text[:4]}-{text[4:]}"


def normalized(reference: str | None) -> str:
    """A reference as compared: capitals, without spaces, dashes or dots."""
    return _SEPARATORS.sub("", reference or "").upper()
