"""Which uploaded files the scanner takes: JPEG or PNG, at most 10 MB.

HEIC (an iPhone's own format) is refused with advice rather than converted: the browsers of
iPhones already send a JPEG for an `accept="image/*"` file field, and the one well-kept converter
(pillow-heif) brings libheif and its codecs, larger than the rest of the scanner. The type is told
from the file's first bytes, never from its name or the browser's word.
"""

from __future__ import annotations

MAX_BYTES = 10 * 1024 * 1024


class Refused(ValueError):
    """A file the scanner does not take; `key` is the guest page's message (scan/words.py)."""

    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def media_type(data: bytes) -> str | None:
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data[4:8] == b"ftyp" and data[8:12] in (b"heic", b"heix", b"heim", b"heis", b"hevc",
                                               b"hevx", b"mif1", b"msf1", b"avif"):
        return "image/heic"
    return None


def accept(data: bytes) -> str:
    """The media type of an image the scanner takes, or Refused with the reason."""
    if not data:
        raise Refused("scan.no_file")
    if len(data) > MAX_BYTES:
        raise Refused("scan.too_large")
    kind = media_type(data)
    if kind == "image/heic":
        raise Refused("scan.heic")
    if kind is None:
        raise Refused("scan.not_image")
    return kind
