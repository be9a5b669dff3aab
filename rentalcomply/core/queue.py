"""The task queue: one Huey instance, configured at start-up.

Default: SQLite in its own file (`queue.db` in the data directory). Huey's table names (`task`,
`kv`, `schedule`) are generic and it dequeues with BEGIN EXCLUSIVE, so it never shares the
application's database. `redis://` uses Redis for scale-out; `memory://` runs each task at once in
the caller (tests that do not care about the queue itself).

Tasks are declared at import time against `huey`, so the instance exists from the start (in
immediate mode) and `configure_queue` swaps its storage in place.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from huey import Huey
from huey.consumer import Consumer
from huey.storage import MemoryStorage, SqliteStorage

log = logging.getLogger(__name__)

huey = Huey("rentalcomply", immediate=True, storage_class=MemoryStorage, results=False, utc=True)


def configure_queue(settings) -> Huey:
    url = settings.queue.url
    if url == "memory://":
        huey.immediate = True
        return huey
    if not url or url.startswith("sqlite:///"):
        path = Path(url[len("sqlite:///"):]) if url else Path(settings.data_dir) / "queue.db"
        path.parent.mkdir(parents=True, exist_ok=True)
        huey.storage_class = SqliteStorage
        huey.storage_kwargs = {"filename": str(path), "journal_mode": "wal", "timeout": 5}
    elif url.startswith(("redis://", "rediss://", "unix://")):
        from huey.storage import RedisStorage
        huey.storage_class = RedisStorage
        huey.storage_kwargs = {"url": url}
    else:
        raise ValueError(f"queue.url: unsupported scheme in {url!r} (sqlite:///, redis://, memory://)")
    huey._immediate = False
    huey.storage = huey.create_storage()
    return huey


class EmbeddedConsumer(Consumer):
    """A consumer that runs beside Waitress in the same process.

    Huey's own `start()` installs SIGINT/SIGTERM handlers (which would swallow Ctrl+C meant for the
    server) and only works in the main thread; the server owns the signals here and calls
    `stop(graceful=True)` itself, so running tasks finish and queued ones stay queued.
    """

    def _set_signal_handlers(self):
        pass


def start_embedded_consumer(workers: int) -> EmbeddedConsumer:
    # An idle worker polls every max_delay at most: 0.25 s keeps a webhook within about a
    # quarter second of its write while costing queue.db only four small reads a second.
    consumer = EmbeddedConsumer(huey, workers=workers, worker_type="thread", periodic=True,
                                initial_delay=0.05, backoff=1.5, max_delay=0.25,
                                check_worker_health=True)
    consumer.start()
    # Consumer.run() would also do health checks in a loop; a light thread keeps them going.
    consumer._health_thread = threading.Thread(target=_health_loop, args=(consumer,),
                                               name="huey-health", daemon=True)
    consumer._health_thread.start()
    return consumer


def _health_loop(consumer: EmbeddedConsumer) -> None:
    import time
    timestamp = time.monotonic()
    while not consumer.stop_flag.is_set():
        try:
            timestamp = consumer.loop(timestamp)
        except Exception:  # ConsumerStopped ends the loop as well
            return


def run_pending_tasks(limit: int = 1000) -> int:
    """Execute queued tasks in this thread, one by one (tests and `rentalcomply sync run`)."""
    count = 0
    while count < limit:
        task = huey.dequeue()
        if task is None:
            break
        huey.execute(task)
        count += 1
    return count
