"""What one connection's sync did (`SyncResult`), and how a connection's sync state is shown: in
`GET /sync/status` and in the `sync.completed` and `sync.error` events."""

from __future__ import annotations

import dataclasses

from rentalcomply.core import clock
from rentalcomply.core.models import ChannelConnection


@dataclasses.dataclass
class SyncResult:
    connection_id: str
    account_id: str | None = None
    property_id: str | None = None
    provider: str | None = None
    status: str = "ok"  # ok | error | skipped | deferred (its host busy: try again shortly)
    error: str | None = None
    not_modified: bool = False
    created: int = 0  # new stays: bookings and blocks
    blocks: int = 0  # of them, blocks (a channel closing nights; not a booking)
    updated: int = 0
    cancelled: int = 0

    @property
    def new_bookings(self) -> int:
        return self.created - self.blocks

    @property
    def failed(self) -> bool:
        return self.status == "error"


def status_view(connection: ChannelConnection) -> dict:
    return {
        "id": connection.id,
        "property_id": connection.property_id,
        "provider": connection.provider,
        "last_sync_success": clock.iso(connection.last_sync_success),
        "last_sync_attempt": clock.iso(connection.last_sync_attempt),
        "status": connection.status,
        "last_error": connection.last_error,
        "version": connection.version,
    }


def sync_event_view(connection: ChannelConnection, result: SyncResult | None) -> dict:
    view = status_view(connection)
    if result is not None:
        view["changes"] = {"created": result.created, "blocks": result.blocks,
                           "updated": result.updated,
                           "cancelled": result.cancelled, "not_modified": result.not_modified}
    return view
