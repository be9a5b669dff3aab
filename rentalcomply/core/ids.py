"""Identifiers: a type prefix and random base62, so ids say what they are and cannot be guessed."""

import secrets
import string

BASE62 = string.digits + string.ascii_letters


def random_base62(length: int) -> str:
    return "".join(secrets.choice(BASE62) for _ in range(length))


def new_id(prefix: str, length: int = 20) -> str:
    """`new_id("book")` -> `book_3kF9...` (20 base62 characters, about 119 bits)."""
    return f"{prefix}_{random_base62(length)}"


def encode_base62(number: int, width: int) -> str:
    digits = []
    for _ in range(width):
        number, remainder = divmod(number, 62)
        digits.append(BASE62[remainder])
    return "".join(reversed(digits))
