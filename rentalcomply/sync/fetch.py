"""Fetching one calendar feed, through the one way out (core/netguard.py).

A good client of the channels' servers: a `User-Agent` naming us, a timeout on the whole
exchange, a size cap (refused on `Content-Length` before reading, and cut past the cap when no
length is announced), and the validators of the last fetch (`If-None-Match`,
`If-Modified-Since`) so an unchanged feed costs a `304` and no parsing.

Redirects: followed, at most `sync.max_redirects` of them (3 by default), because channels move
their export hosts now and then; every hop is a new `netguard.fetch`, so each destination is
resolved and vetted again (a public feed redirecting to 127.0.0.1 or 169.254.169.254 is refused
exactly as if the host had entered that URL), and every hop draws on the same time budget.
"""

from __future__ import annotations

import dataclasses
import time
import urllib.parse

from rentalcomply import __version__
from rentalcomply.core import netguard

USER_AGENT = f"RentalComply/{__version__} (calendar sync; +https://github.com/rentalcomply)"
REDIRECT_STATUSES = (301, 302, 303, 307, 308)
PRIVATE_SETTING = "sync.allow_private_addresses"


class FeedError(Exception):
    """The feed could not be fetched or read; the message is for the host (`last_error`)."""


@dataclasses.dataclass(frozen=True)
class FetchOptions:
    timeout: float = 20.0
    max_bytes: int = 5_000_000
    allow_private: bool = False
    max_redirects: int = 3

    @classmethod
    def from_settings(cls, settings) -> "FetchOptions":
        sync = settings.sync
        return cls(timeout=float(sync.timeout_seconds), max_bytes=int(sync.max_bytes),
                   allow_private=bool(sync.allow_private_addresses),
                   max_redirects=int(sync.max_redirects))


@dataclasses.dataclass
class Fetched:
    not_modified: bool
    body: bytes = b""
    etag: str | None = None
    last_modified: str | None = None


def fetch_feed(url: str, options: FetchOptions, *, etag: str | None = None,
               last_modified: str | None = None) -> Fetched:
    """GET the feed; `Fetched(not_modified=True)` on 304. Raises FeedError with a reason."""
    headers = {"User-Agent": USER_AGENT, "Accept": "text/calendar, */*;q=0.5"}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    deadline = time.monotonic() + options.timeout
    current = url
    for hop in range(options.max_redirects + 1):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise FeedError(netguard.FetchTimeout.during("answer", options.timeout).args[0]
                            + " (sync.timeout_seconds)")
        try:
            response = netguard.fetch(current, headers=headers, timeout=remaining,
                                      allow_private=options.allow_private,
                                      max_bytes=options.max_bytes,
                                      private_setting=PRIVATE_SETTING)
        except netguard.ResponseTooLarge:
            raise FeedError(f"the feed is larger than sync.max_bytes ({options.max_bytes} "
                            "bytes)") from None
        except netguard.FetchTimeout as exc:
            # The budget is the whole fetch's, redirects included: say it, not this hop's share.
            raise FeedError(netguard.FetchTimeout.during(exc.phase, options.timeout).args[0]
                            + " (sync.timeout_seconds)") from None
        except netguard.FetchError as exc:
            raise FeedError(str(exc)) from None
        if response.status in REDIRECT_STATUSES:
            location = response.header("location")
            if not location:
                raise FeedError(f"the feed answered HTTP {response.status} without a Location")
            current = urllib.parse.urljoin(current, location.strip())
            continue
        if response.status == 304:
            return Fetched(True, etag=etag, last_modified=last_modified)
        if response.status != 200:
            raise FeedError(f"the feed answered HTTP {response.status}")
        return Fetched(False, response.body, response.header("etag"),
                       response.header("last-modified"))
    raise FeedError(f"the feed redirected more than {options.max_redirects} times "
                    "(sync.max_redirects)")
