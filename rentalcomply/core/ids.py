"""Identifiers: a type prefix and random base62, so ids say what they are and cannot be guessed."""

import secrets
import string

BASE62 = string.digits + string.ascii_letters


# A random byte below this is a uniform base62 digit (byte % 62); the rest are left out.
_UNBIASED_BELOW = 62 * 4
# bytes.translate maps each byte to its digit and deletes the biased ones, in C.
_DIGIT_OF_BYTE = bytes(ord(BASE62[byte % 62]) if byte < _UNBIASED_BELOW else 0
                       for byte in range(256))
_BIASED_BYTES = bytes(range(_UNBIASED_BELOW, 256))


def random_base62(length: int) -> str:
    """`length` uniform base62 characters from the system's CSPRNG.

    Drawn from one `token_bytes` call, mapped by `bytes.translate`: a `secrets.choice` per
    character cost 70 µs an id, a Python loop over the bytes 6 µs, which showed when a sync
    imports thousands of bookings (and their events) at once."""
    digits = b""
    while len(digits) < length:
        digits += secrets.token_bytes(length + 8).translate(_DIGIT_OF_BYTE, _BIASED_BYTES)
    return digits[:length].decode("ascii")


def new_id(prefix: str, length: int = 20) -> str:
    """`new_id("book")` -> `book_3kF9...` (20 base62 characters, about 119 bits)."""
    return f"{prefix}_{random_base62(length)}"


def encode_base62(number: int, width: int) -> str:
    digits = []
    for _ in range(width):
        number, remainder = divmod(number, 62)
        digits.append(BASE62[remainder])
    return "".join(reversed(digits))
