"""Request limits: N events per rolling minute per bucket (a key, an address, a user).

A sliding log of event times. Without Redis it lives in this process's memory: exact within one
process and cheap (no database write per request). When the queue is on Redis (scale-out), every
limiter counts in Redis instead, one sorted set per bucket updated by one script, so that several
server processes share one limit (100 a minute per key means 100 across all of them). Redis' own
clock times the events, so processes with skewed clocks agree. If Redis does not answer, a limiter
counts in memory until it does: requests keep being served, each process then limiting on its
own, as it would without Redis.
"""

from __future__ import annotations

import collections
import hashlib
import logging
import math
import secrets as _random
import threading
import time

log = logging.getLogger(__name__)

WINDOW_SECONDS = 60.0

# KEYS[1]: the bucket. ARGV: window (ms), limit, 1 to count an event (0 to only look), a unique
# member. Returns {allowed (1|0), events in the window, ms until the oldest leaves it (-1: none)}.
_SLIDING_LOG = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
local allowed = 0
if n < tonumber(ARGV[2]) then
  allowed = 1
  if ARGV[3] == '1' then
    redis.call('ZADD', KEYS[1], now, ARGV[4])
    n = n + 1
  end
end
redis.call('PEXPIRE', KEYS[1], window)
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local wait = -1
if oldest[2] then wait = tonumber(oldest[2]) + window - now end
return {allowed, n, wait}
"""


class _SharedStore:
    """The Redis all limiters count in, when configured."""

    def __init__(self):
        self.client = None
        self.script = None
        self.prefix = ""
        self.failing_since: float | None = None

    def configure(self, redis_url: str | None, namespace: bytes = b"") -> None:
        if not redis_url:
            self.client = self.script = None
            return
        import redis
        self.client = redis.Redis.from_url(redis_url, socket_timeout=0.5, socket_connect_timeout=0.5)
        self.script = self.client.register_script(_SLIDING_LOG)
        # Two appliances on one Redis must not share limits: the namespace is derived from the
        # server secret, which every process of one appliance shares.
        self.prefix = "rentalcomply:limit:" + hashlib.sha256(b"limits" + namespace).hexdigest()[:16] + ":"
        self.failing_since = None

    def run(self, name: str, bucket: str, window: float, limit: int, count: bool):
        """(allowed, events, seconds until the oldest leaves) from Redis, or None if it fails."""
        if self.script is None:
            return None
        if self.failing_since is not None and time.monotonic() - self.failing_since < 5:
            return None  # do not wait on a dead Redis at every request: try again in 5 s
        try:
            allowed, events, wait_ms = self.script(
                keys=[f"{self.prefix}{name}:{bucket}"],
                args=[int(window * 1000), limit, 1 if count else 0, _random.token_hex(8)])
        except Exception as exc:  # redis.RedisError and socket errors alike
            if self.failing_since is None:
                log.warning("rate limits: Redis does not answer (%s); counting in this process", exc)
            self.failing_since = time.monotonic()
            return None
        if self.failing_since is not None:
            log.info("rate limits: Redis answers again; limits are shared again")
        self.failing_since = None
        return bool(allowed), int(events), (wait_ms / 1000.0 if wait_ms >= 0 else None)


shared = _SharedStore()


def configure(settings) -> None:
    """Share the limits through Redis when the queue is on Redis; otherwise count in memory."""
    from rentalcomply.core import secrets
    url = settings.queue.url or ""
    redis_url = url if url.startswith(("redis://", "rediss://", "unix://")) else None
    shared.configure(redis_url, secrets.server_secret() if redis_url else b"")


class SlidingWindowLimiter:
    def __init__(self, limit: int, window: float = WINDOW_SECONDS, clock=time.monotonic,
                 name: str = "requests"):
        self.limit = limit
        self.window = window
        self.clock = clock
        self.name = name
        self._hits: dict[str, collections.deque] = {}
        self._lock = threading.Lock()

    def hit(self, bucket: str) -> tuple[bool, int, int]:
        """Count an event. Returns (allowed, remaining, reset_seconds).

        A refused event is not counted. `reset_seconds` is how long until the oldest counted
        event leaves the window, i.e. until one more would be allowed when none is.
        """
        answer = shared.run(self.name, bucket, self.window, self.limit, count=True)
        if answer is not None:
            allowed, events, wait = answer
            remaining = max(self.limit - events, 0)
            reset = math.ceil(wait) if wait is not None else 0
            return allowed, remaining, max(reset, 0 if remaining else 1)
        now = self.clock()
        with self._lock:
            hits = self._live_hits(bucket, now)
            allowed = len(hits) < self.limit
            if allowed:
                hits.append(now)
            remaining = self.limit - len(hits)
            reset = math.ceil(hits[0] + self.window - now) if hits else 0
            if len(self._hits) > 10_000:  # forget idle buckets now and then
                self._forget_idle(now - self.window)
        return allowed, remaining, max(reset, 0 if remaining else 1)

    def exhausted(self, bucket: str) -> bool:
        """Whether an event in `bucket` would be refused now (counting nothing)."""
        return self.blocked(bucket) > 0

    def blocked(self, bucket: str) -> int:
        """Seconds until an event is allowed again; 0 when it is allowed now (counting nothing)."""
        answer = shared.run(self.name, bucket, self.window, self.limit, count=False)
        if answer is not None:
            allowed, _, wait = answer
            return 0 if allowed else max(1, int(wait or 0) + 1)
        now = self.clock()
        with self._lock:
            hits = self._live_hits(bucket, now)
            if len(hits) < self.limit:
                return 0
            return max(1, int(hits[0] + self.window - now) + 1)

    def _live_hits(self, bucket: str, now: float) -> collections.deque:
        hits = self._hits.get(bucket)
        if hits is None:
            hits = self._hits[bucket] = collections.deque()
        cutoff = now - self.window
        while hits and hits[0] <= cutoff:
            hits.popleft()
        return hits

    def _forget_idle(self, cutoff: float) -> None:
        for bucket in [b for b, h in self._hits.items() if not h or h[-1] <= cutoff]:
            del self._hits[bucket]
