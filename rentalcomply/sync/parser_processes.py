"""Where a fetched feed is parsed (sync/parse.py): in this process, or in parser processes
beside it; a parser process ends when the process that started it is gone."""

from __future__ import annotations

import concurrent.futures
import concurrent.futures.process
import contextlib
import logging
import multiprocessing
import os
import sys
import threading
import time

from rentalcomply.sync.parse import Feed, check_event_count, parse_feed

# Every part of a sync logs under the sync service's name: one name to filter the log on.
log = logging.getLogger("rentalcomply.sync.service")

# Parsing is pure Python (icalendar) and was two thirds of a large first sync: with many feeds to
# read, it runs in worker processes, so it uses the other cores while this process writes.
PARSER_POOL_MIN_FEEDS = 16


# A feed this large is parsed in a process of its own even alone: seconds of pure-Python parsing
# in the server's process would hold the interpreter lock against the API's requests (a 5,000-event
# feed parsed in-process slowed the API's writes beside it to 0.3 to 0.6 s, sometimes over 1 s).
LARGE_FEED_BYTES = 256_000


@contextlib.contextmanager
def parser_pool(feeds: int, workers: int = 2):
    """Up to `workers` (2) parser processes for a run of at least PARSER_POOL_MIN_FEEDS feeds, or
    None.

    Started with "spawn" (a fork of a process with threads can inherit a held lock); not in a
    frozen binary, whose executable is the whole application rather than Python."""
    cores = os.cpu_count() or 1
    if feeds < PARSER_POOL_MIN_FEEDS or cores < 2 or getattr(sys, "frozen", False):
        yield None
        return
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=min(workers, cores), mp_context=multiprocessing.get_context("spawn"),
        initializer=_follow_parent, initargs=(os.getpid(),))
    try:
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


# How often a parser process looks whether the process that started it is still there.
PARENT_CHECK_SECONDS = 0.5


def _follow_parent(parent_pid: int) -> None:
    """In each parser process: end when the process that started it is gone.

    A pool's processes wait on a queue whose writing end they hold themselves, so they never see
    the server die: after a kill -9 (or an OOM kill) of the server they lingered for minutes,
    each holding a feed's worth of memory. A daemon thread watches the parent (once it dies, the
    process is re-parented and os.getppid() changes) and exits at once."""
    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="follow-parent", daemon=True).start()


def parse_body(parser, body: bytes, provider: str, timezone: str, max_events: int) -> Feed:
    """The feed parsed in `parser` (a run's parser processes, or None), in a process of its own
    when it is large, else in this one."""
    check_event_count(body, max_events)  # a flood is refused before any process is started
    if parser is None and len(body) >= LARGE_FEED_BYTES:
        with parser_pool(PARSER_POOL_MIN_FEEDS, workers=1) as own:
            if own is not None:
                return parse_body(own, body, provider, timezone, max_events)
    if parser is not None:
        try:
            return parser.submit(parse_feed, body, provider, timezone, max_events).result()
        except concurrent.futures.process.BrokenProcessPool:
            log.warning("the parser processes stopped; parsing in this one")
    return parse_feed(body, provider, timezone, max_events)

