"""The sync's settings (`sync.*` and the fetch's), read once at start-up by `configure`."""

from __future__ import annotations

import dataclasses

from rentalcomply.bookings.fees import FeeRates
from rentalcomply.sync.fetch import FetchOptions

LEASE_MARGIN_SECONDS = 120


@dataclasses.dataclass(frozen=True)
class SyncOptions:
    fetch: FetchOptions = FetchOptions()
    rates: FeeRates | None = None
    parallel: int = 8
    interval_minutes: int = 60
    max_per_host: int = 1
    max_events: int = 5000

    @classmethod
    def from_settings(cls, settings) -> "SyncOptions":
        return cls(fetch=FetchOptions.from_settings(settings),
                   rates=FeeRates.from_settings(settings),
                   parallel=int(settings.sync.parallel_fetches),
                   interval_minutes=int(settings.sync.interval_minutes),
                   max_per_host=int(settings.sync.max_fetches_per_host),
                   max_events=int(settings.sync.max_events))

    @property
    def lease_seconds(self) -> int:
        return int(self.fetch.timeout * (self.fetch.max_redirects + 1)) + LEASE_MARGIN_SECONDS


_configured: SyncOptions | None = None


def configure(settings) -> None:
    global _configured
    _configured = SyncOptions.from_settings(settings)


def configured_options() -> SyncOptions:
    if _configured is None:
        raise RuntimeError("sync is not configured; call sync.options.configure(settings)")
    return _configured
