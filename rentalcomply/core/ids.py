"""Identifiers: a type prefix and random base62, so ids say what they are and cannot be guessed."""

import secrets
import string

BASE62 = string.digits + string.ascii_letters


# A random byte below this is a uniform base62 digit (byte % 62); the rest are drawn again.
_UNBIASED_BELOW = 62 * 4


def random_base62(length: int) -> str:
    """`length` uniform base62 characters from the system's CSPRNG.

    Drawn from one `token_bytes` call rather than a `secrets.choice` per character, which cost
    70 µs an id and showed when a sync imports thousands of bookings at once."""
    digits: list[str] = []
    while len(digits) < length:
        for byte in secrets.token_bytes(length + 8):
            if byte < _UNBIASED_BELOW:
                digits.append(BASE62[byte % 62])
                if len(digits) == length:
                    break
    return "".join(digits)


def new_id(prefix: str, length: int = 20) -> str:
    """`new_id("book")` -> `book_3kF9...` (20 base62 characters, about 119 bits)."""
    return f"{prefix}_{random_base62(length)}"


def encode_base62(number: int, width: int) -> str:
    digits = []
    for _ in range(width):
        number, remainder = divmod(number, 62)
        digits.append(BASE62[remainder])
    return "".join(reversed(digits))
