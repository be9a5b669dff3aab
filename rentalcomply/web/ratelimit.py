"""The general request limit: N requests per rolling minute per key (or per account).

A sliding log of request times in this process's memory: exact within one process and cheap (no
database write per request). With several server processes each counts on its own, so the
effective limit is N per process; scale-out deployments should put the limit in the proxy too.
"""

from __future__ import annotations

import collections
import math
import threading
import time

WINDOW_SECONDS = 60.0


class SlidingWindowLimiter:
    def __init__(self, limit: int, window: float = WINDOW_SECONDS, clock=time.monotonic):
        self.limit = limit
        self.window = window
        self.clock = clock
        self._hits: dict[str, collections.deque] = {}
        self._lock = threading.Lock()

    def hit(self, bucket: str) -> tuple[bool, int, int]:
        """Count a request. Returns (allowed, remaining, reset_seconds).

        A refused request is not counted. `reset_seconds` is how long until the oldest counted
        request leaves the window, i.e. until one more request would be allowed when none is.
        """
        now = self.clock()
        with self._lock:
            hits = self._hits.get(bucket)
            if hits is None:
                hits = self._hits[bucket] = collections.deque()
            cutoff = now - self.window
            while hits and hits[0] <= cutoff:
                hits.popleft()
            allowed = len(hits) < self.limit
            if allowed:
                hits.append(now)
            remaining = self.limit - len(hits)
            reset = math.ceil(hits[0] + self.window - now) if hits else 0
            if len(self._hits) > 10_000:  # forget idle buckets now and then
                self._forget_idle(cutoff)
        return allowed, remaining, max(reset, 0 if remaining else 1)

    def exhausted(self, bucket: str) -> bool:
        """Whether a request in `bucket` would be refused now (counting nothing)."""
        now = self.clock()
        with self._lock:
            hits = self._hits.get(bucket)
            return bool(hits) and sum(1 for t in hits if t > now - self.window) >= self.limit

    def _forget_idle(self, cutoff: float) -> None:
        for bucket in [b for b, h in self._hits.items() if not h or h[-1] <= cutoff]:
            del self._hits[bucket]
