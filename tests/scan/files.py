"""Files for the scanner's limits: small images whose header declares another size (the bombs of
issue 35, H2), a photo padded to a phone photo's size, and the fuzz run's mutations."""

from __future__ import annotations

import io
import random
import struct
import zlib

from PIL import Image

MIB = 1024 * 1024


def small_jpeg(size=(64, 48), mode: str = "L", **save) -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, size, 128).save(buffer, "JPEG", **save)
    return buffer.getvalue()


def small_png(size=(64, 48), mode: str = "L") -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, size, 128).save(buffer, "PNG")
    return buffer.getvalue()


def frame_offset(data: bytes) -> int:
    """Where a JPEG's frame header (SOF0/1/2) starts: its marker's 0xFF."""
    position = 2
    while True:
        marker = data[position + 1]
        if marker in (0xC0, 0xC1, 0xC2):
            return position
        position += 2 + struct.unpack(">H", data[position + 2:position + 4])[0]


def jpeg_declaring(width: int, height: int, **save) -> bytes:
    """A valid small JPEG whose frame header says width × height (the 335-byte bomb)."""
    data = bytearray(small_jpeg(**save))
    at = frame_offset(bytes(data))
    data[at + 5:at + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_grey(width: int, height: int) -> bytes:
    """A whole, valid grey PNG of any shape (PIL is slow at 12000×1's like)."""
    body = zlib.compress(b"".join(b"\x00" + b"\x80" * width for _ in range(height)), 6)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", body)
            + _chunk(b"IEND", b""))


def png_declaring(width: int, height: int) -> bytes:
    """A PNG whose IHDR says width × height (grey, 8 bits), with a few rows of data."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = zlib.compress(b"\x00" * (min(width, 100_000) + 1) * 4, 9)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", rows)
            + _chunk(b"IEND", b""))


def padded_jpeg(photo: bytes, size: int, seed: int = 1) -> bytes:
    """`photo` (a JPEG) grown to `size` bytes by application segments of noise after its start,
    as a phone's EXIF, maker notes and preview images make a photo of a few MB."""
    rng = random.Random(seed)
    segments = []
    room = size - len(photo)
    while room > 0:
        body = rng.randbytes(min(65_533, max(room - 4, 1)))
        segments.append(b"\xff\xef" + struct.pack(">H", len(body) + 2) + body)  # APP15
        room -= len(body) + 4
    return photo[:2] + b"".join(segments) + photo[2:]


def mutations(seeds: list[bytes], count: int, rng: random.Random):
    """`count` files: the seeds with their headers' bytes changed, cut short, with markers
    repeated or dropped, a segment's or chunk's length changed, and plain random bytes (some
    behind a JPEG or PNG signature)."""
    for index in range(count):
        kind = index % 7
        base = bytearray(rng.choice(seeds))
        if kind == 0:  # a few bytes of the first 200 changed
            for _ in range(rng.randint(1, 8)):
                base[rng.randrange(min(len(base), 200))] = rng.randrange(256)
        elif kind == 1:  # truncated anywhere
            base = base[:rng.randrange(1, len(base))]
        elif kind == 2:  # a declared size changed to anything a 16- or 32-bit field holds
            if base.startswith(b"\xff\xd8"):
                at = frame_offset(bytes(base)) + 5
                base[at:at + 4] = struct.pack(">HH", rng.randrange(65536), rng.randrange(65536))
            else:
                base[16:24] = struct.pack(">II", rng.randrange(1, 70_000), rng.randrange(1, 70_000))
        elif kind == 3:  # bytes anywhere changed
            for _ in range(rng.randint(1, 30)):
                base[rng.randrange(len(base))] = rng.randrange(256)
        elif kind == 4:  # a slice repeated or removed
            start = rng.randrange(len(base))
            end = min(len(base), start + rng.randint(1, 400))
            base = base[:start] + (base[start:end] * rng.randint(0, 3)) + base[end:]
        elif kind == 5:  # a JPEG segment's or PNG chunk's length changed
            offsets = _length_offsets(bytes(base))
            at = rng.choice(offsets)
            width = 2 if base.startswith(b"\xff\xd8") else 4
            base[at:at + width] = rng.randbytes(width)
        else:  # random bytes, after a signature or not
            prefix = rng.choice([b"", b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n",
                                 b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"])
            base = bytearray(prefix + rng.randbytes(rng.randint(0, 3000)))
        yield bytes(base)


def _length_offsets(data: bytes) -> list[int]:
    """Where the length fields of a JPEG's segments (before its scan) or a PNG's chunks are."""
    found = []
    if data.startswith(b"\xff\xd8"):
        position = 2
        while position + 4 <= len(data) and data[position + 1] != 0xDA:
            found.append(position + 2)
            position += 2 + struct.unpack(">H", data[position + 2:position + 4])[0]
        return found or [2]
    position = 8
    while position + 8 <= len(data):
        found.append(position)
        position += 12 + struct.unpack(">I", data[position:position + 4])[0]
    return found or [8]
