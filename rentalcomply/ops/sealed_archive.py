"""Backup archives encrypted with a passphrase: AES-256-GCM under a key derived with scrypt.

Both come from `cryptography` (OpenSSL): nothing here is a cipher of our own, only the layout of
the file, which names its parameters so that an archive stays readable when the defaults change:

    MAGIC (26 bytes) | scrypt n, r, p (3 x 4 bytes, big-endian) | salt (16) | nonce (12) |
    ciphertext and GCM tag

The header is authenticated as associated data, so a changed parameter is detected like a changed
byte of the archive. The archive is encrypted whole, in memory: a small agency's database is tens
of megabytes, and AES-GCM in one call is the construction the library offers.
"""

from __future__ import annotations

import os
import struct

# cryptography is imported by the functions that encrypt, as in core/sealing.py: the server
# imports this module at start (the backup task) and would map its Rust bindings for nothing.

MAGIC = b"RentalComply backup AES1\n\x00"
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 15, 8, 1  # about 32 MB and a tenth of a second
_HEADER = struct.Struct(">III16s12s")


class WrongPassphrase(Exception):
    """The passphrase does not open the archive (or the archive was altered)."""


def _key(passphrase: bytes, salt: bytes, n: int, r: int, p: int) -> bytes:
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt
    return Scrypt(salt=salt, length=32, n=n, r=r, p=p).derive(passphrase)


def is_sealed(head: bytes) -> bool:
    return head.startswith(MAGIC)


def seal(data: bytes, passphrase: bytes) -> bytes:
    if not passphrase:
        raise ValueError("an empty passphrase protects nothing")
    salt, nonce = os.urandom(16), os.urandom(12)
    header = MAGIC + _HEADER.pack(SCRYPT_N, SCRYPT_R, SCRYPT_P, salt, nonce)
    key = _key(passphrase, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    return header + AESGCM(key).encrypt(nonce, data, header)


def open_sealed(blob: bytes, passphrase: bytes) -> bytes:
    if not is_sealed(blob) or len(blob) < len(MAGIC) + _HEADER.size + 16:
        raise WrongPassphrase("not an encrypted RentalComply backup")
    header_end = len(MAGIC) + _HEADER.size
    n, r, p, salt, nonce = _HEADER.unpack(blob[len(MAGIC):header_end])
    if not (2 ** 10 <= n <= 2 ** 22 and n & (n - 1) == 0 and 1 <= r <= 32 and 1 <= p <= 16):
        raise WrongPassphrase("the archive's key parameters are not ones RentalComply writes")
    key = _key(passphrase, salt, n, r, p)
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    try:
        return AESGCM(key).decrypt(nonce, blob[header_end:], blob[:header_end])
    except InvalidTag:
        raise WrongPassphrase("the passphrase does not open this backup (or the file was "
                              "altered)") from None


def read_passphrase_file(path) -> bytes:
    """The passphrase in a file (its first line, without the line break)."""
    with open(path, "rb") as handle:
        text = handle.read().splitlines()
    passphrase = text[0] if text else b""
    if not passphrase:
        raise ValueError(f"{path} holds no passphrase")
    return passphrase
