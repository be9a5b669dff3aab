"""The server process: Waitress in front, the task consumer beside it, one clean way out.

Waitress returns from its loop on KeyboardInterrupt but ignores SIGTERM, which is what systemd,
Docker and `kill` send. Both signals are therefore routed to one handler that raises
KeyboardInterrupt in the main thread: Waitress leaves its loop and lets running requests finish,
the listening socket is closed, then the consumer stops gracefully (running tasks finish, queued
ones stay queued for the next start) and the process exits 0. A second signal during that
shutdown exits at once.
"""

from __future__ import annotations

import copy
import functools
import gc
import http
import io
import logging
import os
import signal
import sys
import threading
import time
import traceback
import uuid
from typing import Callable, TextIO

import waitress
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.receiver import FixedStreamReceiver
from waitress.task import ErrorTask
from waitress.utilities import RequestEntityTooLarge

from rentalcomply.accounts import service as accounts
from rentalcomply.core import logs, queue, scheduling, wal
from rentalcomply.core.db import db
from rentalcomply.core.errors import PayloadTooLarge
from rentalcomply.ops import datalock, listening
from rentalcomply.ops.datalock import DataDirectoryBusy
from rentalcomply.runtime import bootstrap, configure_logging
from rentalcomply.scan import api as scan_api
from rentalcomply.web.gate import status_line
from rentalcomply.web.json import error_body
from rentalcomply.web.routing import MAX_BODY_BYTES

log = logging.getLogger(__name__)

FORCED_EXIT_CODE = 1


def announce_first_key(out: TextIO, settings=None) -> bool:
    """Create the `default` account and its key on a database without accounts; print the key,
    and (given the settings) a one-time link to the dashboard for the account's first user.

    Returns whether it did so. The key is never stored in clear, so this is the only time it is
    shown.
    """
    created = accounts.ensure_first_account()
    if created is None:
        return False
    account, key = created
    print(f'Created account "{account.name}" ({account.id}) and an API key with the scopes '
          f'{", ".join(accounts.SCOPES)}:', file=out)
    print("", file=out)
    print(f"    {key}", file=out)
    print("", file=out)
    print("This key is shown once and never again: store it now. "
          "More keys: rentalcomply keys create.", file=out, flush=True)
    if settings is not None:
        from rentalcomply.dashboard import users
        users.configure(settings)
        _, token = users.create_user(account.id, None)
        hours = settings.dashboard.password_link_hours
        print(f"\nThe dashboard: choose your e-mail address and password within "
              f"{hours} hour{'' if hours == 1 else 's'} at (this link works once)\n\n"
              f"    {users.link_url(settings.server.public_url, token)}\n", file=out, flush=True)
        print("E-mail (check-in links, reminders, password links) is set up in the dashboard "
              "under Account → E-mail, or in config.toml's [smtp].", file=out, flush=True)
    return True


def writes_to_journal(out: TextIO) -> bool:
    """Whether `out` is systemd's journal (the stream named by JOURNAL_STREAM), which every
    reader of the system log can read: no key or link goes there."""
    stream = os.environ.get("JOURNAL_STREAM", "")
    try:
        device, inode = (int(part) for part in stream.split(":"))
        status = os.fstat(out.fileno())
    except (ValueError, OSError, AttributeError, io.UnsupportedOperation):
        return False
    return (status.st_dev, status.st_ino) == (device, inode)


def first_key_or_how_to_get_it(out: TextIO, settings) -> None:
    """On a database without accounts: the first key and link, or, where the output is the
    journal, the command that shows them on a terminal instead."""
    if not writes_to_journal(out):
        announce_first_key(out, settings)
        return
    if accounts.list_accounts():
        return
    print("No account yet. The first account, its API key and the dashboard link are shown on "
          "a terminal, never in this log: run `rentalcomply --data-dir "
          f"{settings.data_dir} init` as the service's user (sudo -u ...).", file=out, flush=True)


def _print_stacks(signum, frame) -> None:
    """Every thread's stack to stderr, most recent call first, the process running on."""
    names = {thread.ident: thread.name for thread in threading.enumerate()}
    lines = []
    for ident, stack in sys._current_frames().items():
        lines.append(f"Thread {names.get(ident, ident)} (most recent call first):\n")
        lines.extend(reversed(traceback.format_stack(stack)))
    print("".join(lines), file=sys.stderr, flush=True)


class _Shutdown:
    """Turns SIGINT and SIGTERM into KeyboardInterrupt once, and into an immediate exit after."""

    def __init__(self):
        self.requested = False
        self._previous: dict[int, object] = {}

    def install(self) -> None:
        for signum in (signal.SIGINT, signal.SIGTERM):
            self._previous[signum] = signal.signal(signum, self._handle)
        # `kill -USR1 PID` prints every thread's stack to stderr: what a process that will not
        # stop is waiting for, without stopping it (docs/operations.md).
        if hasattr(signal, "SIGUSR1"):
            # A Python handler, run by the main thread holding the GIL, so that no other thread
            # moves while its frames are read (faulthandler's C handler read them as they ran,
            # and once crashed the process).
            self._previous[signal.SIGUSR1] = signal.signal(signal.SIGUSR1, _print_stacks)

    def restore(self) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        self._previous.clear()

    def _handle(self, signum, frame):
        if self.requested:
            logs.flush_all()  # the lines still waiting (core/logs.py), as an exit would write
            print("RentalComply: second signal, exiting without waiting.", file=sys.stderr,
                  flush=True)
            os._exit(FORCED_EXIT_CODE)
        self.requested = True
        raise KeyboardInterrupt(signal.Signals(signum).name)


def listening_urls(server) -> list[str]:
    """The http:// address of each socket the server listens on (IPv6 in brackets)."""
    urls = []
    for host, port in _effective_addresses(server):
        shown = f"[{host}]" if ":" in host else host
        urls.append(f"http://{shown}:{port}")
    return urls


def _effective_addresses(server) -> list[tuple[str, int]]:
    # A host name that resolves to several addresses gives a MultiSocketServer.
    if hasattr(server, "effective_listen"):
        return [(str(host), int(port)) for host, port in server.effective_listen]
    return [(str(server.effective_host), int(server.effective_port))]


# Waitress reads a whole request body (spooling it to a temporary file past 512 KiB) before the
# application sees the request, so the 1 MiB body limit must be Waitress's own: a larger declared
# Content-Length is answered at once, before any of the body is kept, and a chunked body is cut
# where it passes the limit. The slack lets a chunked body of exactly 1 MiB through with its chunk
# framing; the routes refuse anything over 1 MiB themselves (the same JSON 413). A scan's POST
# alone has a larger limit (_BodyLimits), and its refusal is the guest page's (scan/api.py).
MAX_REQUEST_BODY_BYTES = MAX_BODY_BYTES + 64 * 1024
# After a 413, the rest of the refused body is read and thrown away, up to this much body in all,
# before the connection closes: a client that is still sending when the answer comes would
# otherwise find the connection reset (TCP resets a socket closed with unread data) and never
# read the 413. A body larger still is cut off there.
REFUSED_BODY_DRAIN_BYTES = 8 * 1024 * 1024
# The framing a chunked body may add over its content, within the limit.
CHUNK_SLACK_BYTES = 64 * 1024
# A guest's photo refused as too large is read to its end up to this much, so that their browser
# gets the page saying so rather than a reset connection: phones' full-size photos and the odd
# RAW file are well under it.
REFUSED_SCAN_DRAIN_BYTES = 64 * 1024 * 1024


class _BodyLimits:
    """The one path with a larger limit: a scan of a guest's document takes a photo up to
    scan.max_upload_mb (the limit the guest page states) with the rest of the form."""

    def __init__(self, adj, settings):
        self.settings = settings
        self.scan = copy.copy(adj)
        self.scan.max_request_body_size = scan_api.body_limit(settings) + CHUNK_SLACK_BYTES


def create_waitress_server(app, settings, **options):
    """The Waitress server of `serve`, with our body limit and our JSON 413."""
    server = waitress.create_server(
        app, host=options.pop("host", settings.server.host),
        port=options.pop("port", settings.server.port),
        threads=options.pop("threads", settings.server.threads), ident="RentalComply",
        max_request_body_size=MAX_REQUEST_BODY_BYTES,
        # Our gate judges X-Forwarded-Proto against server.trusted_proxies (a list, which
        # Waitress's single trusted_proxy cannot express); Waitress passes headers through.
        clear_untrusted_proxy_headers=False, **options)
    # A MultiSocketServer (a host name with several addresses) holds one server per socket.
    for listener in [server, *getattr(server, "map", {}).values()]:
        if hasattr(listener, "channel_class"):
            listener.channel_class = _JsonErrorChannel
            listener.body_limits = _BodyLimits(listener.adj, settings)
    return server


class _JsonErrorTask(ErrorTask):
    """Waitress's answer to a body over the limit, in the API's error shape (and, as every
    error answer of Waitress's, with `Connection: close`)."""

    def execute(self):
        if not isinstance(self.request.error, RequestEntityTooLarge):
            return super().execute()
        request_id = "req_" + uuid.uuid4().hex[:20]
        limits = getattr(self.channel.server, "body_limits", None)
        if limits is not None and scan_api.is_scan(self.request.path or ""):
            # The guest page's own answer (the form again without a script), in their language.
            status, headers, body = scan_api.too_large_answer(
                limits.settings, self.request.path, self.request.query or "",
                self.request.headers.get("ACCEPT", ""), request_id)
        else:
            status, headers = 413, [("Content-Type", "application/json")]
            body = error_body(PayloadTooLarge(), request_id)
        self.status = status_line(status) if status == 413 else \
            f"{status} {http.HTTPStatus(status).phrase}"
        self.response_headers.extend([*headers, ("X-Request-Id", request_id)])
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class _Discard:
    """A receiver's buffer that keeps nothing: where a refused body goes."""

    def append(self, data: bytes) -> None:
        pass

    def __len__(self) -> int:
        return 0

    def close(self) -> None:
        pass


class _RefusingParser(HTTPRequestParser):
    """Waitress's parser, which hands the rest of a body over the limit to its channel to read
    and throw away (instead of reading those bytes as the next request)."""

    def __init__(self, adj, channel: "_JsonErrorChannel"):
        super().__init__(adj)
        self.channel = channel
        self.drain_bytes = REFUSED_BODY_DRAIN_BYTES

    def parse_header(self, header_plus):
        super().parse_header(header_plus)
        # Waitress reads the limit from adj when it checks the body, after the headers.
        limits = getattr(self.channel.server, "body_limits", None)
        if limits is not None and self.command == "POST" and scan_api.is_scan(self.path or ""):
            self.adj = limits.scan
            self.drain_bytes = REFUSED_SCAN_DRAIN_BYTES

    def received(self, data: bytes) -> int:
        refused_before = isinstance(self.error, RequestEntityTooLarge)
        consumed = super().received(data)
        if refused_before or not isinstance(self.error, RequestEntityTooLarge):
            return consumed
        if self.expect_continue and not self.body_bytes_received:
            return consumed  # the client waits for "100 Continue" and sends no body: nothing to read
        if self.chunked:  # cut mid-body: the same receiver finds the end of the chunks
            receiver, read = self.body_rcv, self.body_bytes_received
            receiver.buf.close()
            receiver.buf = _Discard()
        else:
            receiver, read = FixedStreamReceiver(self.content_length, _Discard()), 0
        self.channel.discard_refused_body(receiver, read, data[consumed:], self.drain_bytes)
        return len(data)


class _JsonErrorChannel(HTTPChannel):
    """A connection of the server: our JSON 413, after which the refused body is read and
    discarded (up to REFUSED_BODY_DRAIN_BYTES of body) while the answer goes out, and the
    connection closes once the body has ended, the bound is reached or the client has gone."""

    error_task_class = _JsonErrorTask
    _refused_body = None  # the receiver of a refused body still arriving
    _drain_left = 0
    _refused = False  # a body was refused: nothing more is read as a request on this connection

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.parser_class = functools.partial(_RefusingParser, channel=self)

    def discard_refused_body(self, receiver, already_read: int, rest: bytes,
                             bound: int = REFUSED_BODY_DRAIN_BYTES) -> None:
        self._refused = True
        self._refused_body = receiver
        self._drain_left = max(0, bound - already_read)
        self._discard(rest)

    def _discard(self, data: bytes) -> None:
        receiver = self._refused_body
        if receiver is None or not data:
            return
        data = data[:self._drain_left]
        self._drain_left -= len(data)
        receiver.received(data)
        if receiver.completed or receiver.error or self._drain_left <= 0:
            self._refused_body = None  # read to its end, or past the bound: the close may come

    def received(self, data):
        if self._refused:  # a refused body, or bytes after it on a connection about to close
            self._discard(data)
            return True
        return super().received(data)

    def handle_read(self):
        super().handle_read()
        if not self.connected:  # the client has gone: there is nothing left to wait for
            self._refused_body = None

    def readable(self):
        if self._refused_body is not None:
            return not self.will_close
        return super().readable()

    def writable(self):
        if self._holding_close() and not self.total_outbufs_len:
            return False  # the answer is out; the close waits for the refused body
        return super().writable()

    def handle_write(self):
        if not self._holding_close():
            return super().handle_write()
        # Flush the answer, but do not let Waitress close the connection after it yet. The
        # task thread may set close_when_flushed meanwhile: what it set is kept.
        closing, self.close_when_flushed = self.close_when_flushed, False
        try:
            super().handle_write()
        finally:
            self.close_when_flushed = closing or self.close_when_flushed

    def _holding_close(self) -> bool:
        return self._refused_body is not None and self.connected and not self.will_close


def serve(settings, *, worker: bool = True, out: TextIO | None = None,
          on_ready: Callable[[object], None] | None = None) -> int:
    """Run the API until SIGINT or SIGTERM; return the process exit code."""
    from rentalcomply.web.app import create_app

    out = out or sys.stdout
    configure_logging(settings.server.log_level, settings.log.format, settings.log.access)
    shutdown = _Shutdown()
    if threading.current_thread() is threading.main_thread():
        shutdown.install()
    server = consumer = None
    stop_checkpoints = None
    try:
        holder = datalock.hold(settings.data_dir)
    except DataDirectoryBusy as exc:
        print(f"RentalComply cannot start: {exc}", file=sys.stderr, flush=True)
        shutdown.restore()
        return 1
    try:
        bootstrap(settings)
        # Before the request and task threads open their connections, which take its threshold.
        stop_checkpoints = wal.checkpoints_in_background()
        app = create_app(settings)
        try:
            server = create_waitress_server(app, settings)
        except OSError as exc:
            print(f"RentalComply cannot listen on {settings.server.host}:{settings.server.port}: "
                  f"{exc.strerror or exc}", file=sys.stderr, flush=True)
            return 1
        if worker and not queue.huey.immediate:
            consumer = queue.start_embedded_consumer(settings.queue.workers,
                                                     settings.queue.urgent_workers)
            log.debug("task worker started with %d threads, and %d for police filings and "
                      "reports", settings.queue.workers, settings.queue.urgent_workers)
        # After every start-up line, so that the one-time key and link stand alone on screen.
        first_key_or_how_to_get_it(out, settings)
        urls = listening_urls(server)
        listening.record_start(settings.data_dir, urls[0])
        print(f"RentalComply data directory: {settings.data_dir}", file=out, flush=True)
        for url in urls:
            print(f"RentalComply listening on {url}", file=out, flush=True)
        if on_ready is not None:
            on_ready(server)
        settle_start_up()
        # Returns after KeyboardInterrupt, having let running requests finish (up to 5 s).
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        if stop_checkpoints is not None:  # before _stop closes this thread's connection
            stop_checkpoints()
        _stop(server, consumer)
        if server is not None:
            listening.record_stop(settings.data_dir)
        holder.release()
        shutdown.restore()
    print("RentalComply stopped.", file=out, flush=True)
    return 0


def settle_start_up() -> None:
    """Take what start-up built out of the garbage collector's sight, once it is all built.

    Modules, routes, models and Babel's locale data live as long as the process; left in view, a
    full collection walks all of them in the middle of whichever request triggers it, which made
    the slowest of 20 dashboard pages twice the median (bench/dashboard.py). Objects made later
    are collected as before."""
    gc.collect()
    gc.freeze()


def _stop(server, consumer) -> None:
    if server is not None:
        # Stop accepting and drop idle connections; a MultiSocketServer closes every socket.
        from waitress import wasyncore
        try:
            server.task_dispatcher.shutdown()
            server.close()
            wasyncore.close_all(server.map if hasattr(server, "map") else server._map)
        except OSError:
            log.debug("error while closing the listening socket", exc_info=True)
    if consumer is not None:
        log.info("stopping the task worker; running tasks finish, queued ones stay queued")
        consumer.stop(graceful=True)
        scheduling.record_stop()
    if db.obj is not None:  # a database that could not be opened (database.url) has nothing to close
        db.close()


def run_worker(settings, out: TextIO | None = None) -> int:
    """Run the task consumer alone until SIGINT or SIGTERM (for scale-out); return the exit code."""
    out = out or sys.stdout
    configure_logging(settings.server.log_level, settings.log.format)
    try:
        holder = datalock.hold(settings.data_dir)
    except DataDirectoryBusy as exc:
        print(f"RentalComply worker cannot start: {exc}", file=sys.stderr, flush=True)
        return 1
    try:
        bootstrap(settings)
    except BaseException:
        holder.release()
        raise
    if queue.huey.immediate:
        holder.release()
        print("queue.url is memory://: tasks run inside the process that queues them, so there "
              "is nothing for a separate worker to do.", file=sys.stderr, flush=True)
        return 2
    shutdown = _Shutdown()
    shutdown.install()
    consumer = None
    stop_checkpoints = wal.checkpoints_in_background()
    try:
        consumer = queue.start_embedded_consumer(settings.queue.workers,
                                                 settings.queue.urgent_workers)
        print(f"RentalComply worker running with {settings.queue.workers} threads, and "
              f"{settings.queue.urgent_workers} for police filings and reports", file=out,
              flush=True)
        while True:
            time.sleep(3600)  # the signal handler raises KeyboardInterrupt out of here
    except KeyboardInterrupt:
        pass
    finally:
        if consumer is not None:
            consumer.stop(graceful=True)
            scheduling.record_stop()
        stop_checkpoints()
        db.close()
        holder.release()
        shutdown.restore()
    print("RentalComply worker stopped.", file=out, flush=True)
    return 0
