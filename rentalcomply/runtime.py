"""Start-up shared by the server, the worker, the command line and the tests."""

from __future__ import annotations

import os

from rentalcomply import locale as catalogues
from rentalcomply.checkin import booking_links
from rentalcomply.core import db as database
from rentalcomply.core import queue, secrets
from rentalcomply.core.modules import optional_modules
from rentalcomply.web import idempotency, ratelimit


def bootstrap(settings, migrate: bool = True):
    """Load the server secret, open and migrate the database, configure the queue.

    Everything here is idempotent, so `init`, `serve` and the CLI commands can all call it.
    """
    # Guests' personal data lives here: nothing this process creates is for other local users.
    os.umask(0o077)
    settings.data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    secrets.load_server_secret(settings)
    database.init_database(settings, migrate=migrate)
    queue.configure_queue(settings)
    ratelimit.configure(settings)
    idempotency.configure(settings.retention.idempotency_hours)
    catalogues.use_directory(settings.i18n.catalogue_dir or None)
    _import_tasks(settings)
    if migrate:
        _ensure_checkin_links()
    return settings


def _ensure_checkin_links() -> None:
    """Bookings made before check-in links worked from a booking's creation get theirs: their
    hashes need the server secret, which no migration knows (checkin/booking_links.py)."""
    with database.db.connection_context():
        booking_links.ensure_links()


# Task modules register themselves with the Huey instance on import; a consumer must know every
# task before it dequeues one. A capability not (yet) in this build is skipped.
TASK_MODULES = (
    # The authorities first: importing them registers them with the filing engine.
    "rentalcomply.authorities",
    "rentalcomply.accounts.tasks", "rentalcomply.webhooks.tasks",
    "rentalcomply.checkin.tasks", "rentalcomply.reports.tasks", "rentalcomply.sync.tasks",
    "rentalcomply.filings.tasks", "rentalcomply.ops.tasks", "rentalcomply.dashboard.tasks",
    "rentalcomply.dashboard.police_alerts",
)


def _import_tasks(settings) -> None:
    # A task module may define configure(settings) to learn the settings its tasks need (a worker
    # has no web app to hand them over).
    for imported in optional_modules(TASK_MODULES):
        configure = getattr(imported, "configure", None)
        if configure is not None:
            configure(settings)


def configure_logging(level: str = "info", fmt: str = "text", access: bool = True) -> None:
    """Log lines on stderr, as text or JSON lines, each naming the request it belongs to; with
    `access`, one line per request (web/access_log.py)."""
    from rentalcomply.core import logs
    logs.configure(level, fmt, access)
