"""How many exchanges this process has under way with each peer, and a limit per peer.

A feed URL or a webhook URL is chosen by an API client; one slow or hostile host could otherwise
hold every worker thread at once (each exchange ends by its deadline, but a queue full of them
keeps the workers busy for deadline after deadline). So an exchange first takes one of its host's
slots (`sync.max_fetches_per_host`, `webhooks.max_deliveries_per_host`; 1 by default), waiting
for one at most SLOT_WAIT_SECONDS: a healthy receiver's exchange lasts milliseconds, so a burst of
deliveries to it just takes turns, while a task that finds its host held longer (a slow or hostile
peer) is rescheduled a few seconds later instead of blocking a worker behind the other exchange.

The count is per process: the appliance's server and its embedded worker share it; separate
`rentalcomply worker` processes each keep their own.
"""

from __future__ import annotations

import threading
import urllib.parse

# How long a task whose peer is busy waits before it tries again.
BUSY_RETRY_SECONDS = 3.0
# How long an exchange waits for its peer's slot before giving up for now.
SLOT_WAIT_SECONDS = 0.5

_lock = threading.Condition()
_busy: dict[str, int] = {}


def peer_of(url: str) -> str:
    """The peer a URL talks to: its host name, lower-cased (ports of one host are one peer)."""
    try:
        host = urllib.parse.urlsplit(url).hostname
    except ValueError:
        host = None
    return (host or url).lower().rstrip(".")


class Slot:
    """One exchange's place with its peer; `taken` says whether it got one. Give it back with
    `release()` (idempotent) or by leaving the `with` block."""

    def __init__(self, peer: str, limit: int, wait: float = 0.0):
        self.peer = peer
        with _lock:
            self.taken = _lock.wait_for(lambda: _busy.get(peer, 0) < max(1, limit), wait)
            if self.taken:
                _busy[peer] = _busy.get(peer, 0) + 1

    def release(self) -> None:
        if not self.taken:
            return
        self.taken = False
        with _lock:
            left = _busy.get(self.peer, 1) - 1
            if left > 0:
                _busy[self.peer] = left
            else:
                _busy.pop(self.peer, None)
            _lock.notify_all()

    def __enter__(self) -> "Slot":
        return self

    def __exit__(self, *exc_info) -> None:
        self.release()


def try_slot(url_or_peer: str, limit: int, wait: float = SLOT_WAIT_SECONDS) -> Slot:
    """Take a slot with the URL's peer if one is free within `wait` seconds."""
    peer = peer_of(url_or_peer) if "://" in url_or_peer else url_or_peer.lower()
    return Slot(peer, limit, wait)


def busy(peer: str) -> int:
    """Exchanges under way with a peer (for tests and the doctor)."""
    with _lock:
        return _busy.get(peer.lower(), 0)
