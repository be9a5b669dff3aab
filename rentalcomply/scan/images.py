"""Which uploaded files the scanner takes: JPEG or PNG, within the size limits of `[scan]`.

HEIC (an iPhone's own format) is refused with advice rather than converted: the browsers of
iPhones already send a JPEG for an `accept="image/*"` file field, and the one well-kept converter
(pillow-heif) brings libheif and its codecs, larger than the rest of the scanner. The type is told
from the file's first bytes, never from its name or the browser's word.

The image's declared width and height are read from its header (JPEG's frame header, PNG's IHDR)
before anything decodes it: a decoder allocates what the header declares, so a 335-byte JPEG that
declares 30000×30000 pixels cost 1.7 GB in OpenCV (issue 35, H2). A file whose size cannot be
read from its header is refused, never handed to the decoder to find out.
"""

from __future__ import annotations

import dataclasses
import struct

MIB = 1024 * 1024
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# JPEG's start-of-frame markers (C0-CF but for DHT C4, JPG C8 and DAC CC): the frame's size.
SOF_MARKERS = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
# A progressive JPEG is decoded once per scan over the whole image: a phone's has about ten;
# thousands of tiny scans make a small file cost minutes of decoding.
MAX_SCANS = 100
# PNG's chunks are walked to check their lengths; encoders write a few hundred at most.
MAX_PNG_CHUNKS = 100_000


@dataclasses.dataclass(frozen=True)
class Limits:
    """The `[scan]` settings that bound one photo (config.py has their defaults and reasons)."""
    max_bytes: int = 10 * MIB
    max_side: int = 12_000
    max_pixels: int = 50_000_000

    @classmethod
    def from_settings(cls, scan_settings) -> "Limits":
        return cls(max_bytes=scan_settings.max_upload_mb * MIB,
                   max_side=scan_settings.max_image_side,
                   max_pixels=scan_settings.max_image_pixels)


class Refused(ValueError):
    """A file the scanner does not take; `key` is the guest page's message (scan/words.py),
    `setting` names the limit it passed (or "") and `limit` is that setting's value."""

    def __init__(self, key: str, setting: str = "", limit: int | None = None):
        super().__init__(key)
        self.key = key
        self.setting = setting
        self.limit = limit


@dataclasses.dataclass(frozen=True)
class Header:
    media_type: str
    width: int
    height: int


def media_type(data: bytes) -> str | None:
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith(PNG_SIGNATURE):
        return "image/png"
    if data[4:8] == b"ftyp" and data[8:12] in (b"heic", b"heix", b"heim", b"heis", b"hevc",
                                               b"hevx", b"mif1", b"msf1", b"avif"):
        return "image/heic"
    return None


def accept(data: bytes, limits: Limits = Limits()) -> Header:
    """The header of an image the scanner takes, or Refused with the reason (and the limit)."""
    if not data:
        raise Refused("scan.no_file")
    if len(data) > limits.max_bytes:
        raise Refused("scan.too_large", "scan.max_upload_mb", limits.max_bytes // MIB)
    kind = media_type(data)
    if kind == "image/heic":
        raise Refused("scan.heic")
    if kind is None:
        raise Refused("scan.not_image")
    size = _jpeg_size(data) if kind == "image/jpeg" else _png_size(data)
    if size is None:
        raise Refused("scan.not_image")
    width, height = size
    if max(width, height) > limits.max_side:
        raise Refused("scan.too_many_pixels", "scan.max_image_side", limits.max_side)
    if width * height > limits.max_pixels:
        raise Refused("scan.too_many_pixels", "scan.max_image_pixels", limits.max_pixels)
    return Header(kind, width, height)


def megabytes(count: int) -> str:
    """A byte count as the guest page says it: "10 MB" (in MiB, as the limit is set)."""
    return f"{count / MIB:g} MB"


def _png_size(data: bytes) -> tuple[int, int] | None:
    """IHDR's (width, height), when every chunk lies within the file: OpenCV's reader allocates
    what a chunk's length says before reading it, so a 175-byte PNG whose IDAT claims 400 MB
    took 400 MB. An animated PNG (acTL) is no photo of a document: refused too."""
    # IHDR must be the first chunk, 13 bytes long: anything else is not a PNG libpng would take.
    if len(data) < 33 or data[8:16] != b"\x00\x00\x00\x0dIHDR":
        return None
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    if not width or not height or depth not in (1, 2, 4, 8, 16) or colour not in (0, 2, 3, 4, 6):
        return None
    position, chunks = 8, 0
    while position + 12 <= len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        position += 12 + length
        chunks += 1
        if position > len(data) or kind == b"acTL" or chunks > MAX_PNG_CHUNKS:
            return None
        if kind == b"IEND":
            return width, height
    return None  # cut short before IEND


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """The frame's (width, height) from the segments before the first scan; None when there is
    no single frame header with a declared size before it (a height left to a DNL marker
    included), or when the file has more scans than any camera writes."""
    position, size = 2, None
    while True:
        # A marker is 0xFF (any number of them: fill bytes) and its code; anything else between
        # segments is damage, which decoders skip with a guess: refused instead.
        start = position
        while position < len(data) and data[position] == 0xFF:
            position += 1
        if position == start or position + 2 >= len(data):
            return None
        marker = data[position]
        position += 1
        if marker == 0x01 or 0xD0 <= marker <= 0xD7:  # TEM, RSTn: no length
            continue
        if marker in (0xD8, 0xD9):  # a second SOI, or EOI before any scan
            return None
        length = struct.unpack(">H", data[position:position + 2])[0]
        if length < 2 or position + length > len(data):
            return None
        if marker in SOF_MARKERS:
            if size is not None or length < 8:
                return None  # two frames: decoders disagree on which counts
            precision, height, width, components = struct.unpack(
                ">BHHB", data[position + 2:position + 8])
            # A camera writes 8 bits of grey or colour. CMYK and 12-bit files cost more a pixel
            # than the pixel limit was measured for (a progressive CMYK one 414 MB at 48 MP).
            if not width or not height or precision != 8 or components not in (1, 3):
                return None
            size = (width, height)
        if marker == 0xDA:  # start of scan: the entropy-coded data follows
            if size is None:
                return None
            # In the coded data, 0xFF is always followed by 0x00 or a restart marker, so any
            # further FF DA starts another scan.
            if data.count(b"\xff\xda", position) > MAX_SCANS:
                return None
            return size
        position += length
