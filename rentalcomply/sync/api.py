"""Routes of the channel sync and of each property's exported calendar: parse, call, shape."""

from __future__ import annotations

from rentalcomply.core import clock
from rentalcomply.core.errors import NotFound, RateLimited
from rentalcomply.core.queue import queue_after_commit
from rentalcomply.properties import service as properties
from rentalcomply.properties.api import LINK_KEPT_NOWHERE, with_checkin_link
from rentalcomply.sync import export, service, tasks
from rentalcomply.web import openapi
from rentalcomply.web.openapi import NULLABLE_TIMESTAMP, TIMESTAMP, VERSION, ref
from rentalcomply.web.routing import Reply
from rentalcomply.views import properties as composed

TAGS = ["sync"]

openapi.schema("SyncConnectionStatus", {
    "type": "object",
    "required": ["id", "property_id", "provider", "last_sync_success", "last_sync_attempt",
                 "status", "last_error", "version"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string", "pattern": "^ch_"},
        "property_id": {"type": "string", "pattern": "^prop_"},
        "provider": {"type": "string", "enum": list(properties.PROVIDERS)},
        "last_sync_success": NULLABLE_TIMESTAMP,
        "last_sync_attempt": NULLABLE_TIMESTAMP,
        "status": {"type": "string", "enum": list(properties.CHANNEL_STATUSES)},
        "last_error": {"type": ["string", "null"],
                       "description": "Why the last sync failed (HTTP status, timeout, size, not "
                                      "iCalendar, removals held back), or null."},
        "version": VERSION,
    },
})

openapi.schema("SyncStatus", {
    "type": "object",
    "required": ["last_sync_all", "connections"],
    "additionalProperties": False,
    "properties": {
        "last_sync_all": {**NULLABLE_TIMESTAMP,
                          "description": "When a sync of every connection of the account last "
                                         "finished; null before the first."},
        "connections": {"type": "array", "items": ref("SyncConnectionStatus")},
    },
})

openapi.schema("SyncTrigger", {
    "type": "object",
    "required": ["status", "connections", "next_allowed_at"],
    "additionalProperties": False,
    "properties": {
        "status": {"type": "string", "enum": ["queued"]},
        "connections": {"type": "integer", "minimum": 0,
                        "description": "How many connections the sync will fetch."},
        "next_allowed_at": TIMESTAMP,
    },
})


def register(api) -> None:
    @api.get("/sync/status", scope="read", tags=TAGS, summary="Sync status of every channel connection",
             description="Each connection's status (`pending` before its first sync, `ok`, "
                         "`error` with `last_error`, `disabled`) and when the account's "
                         "connections were last all synced. Feeds are fetched every "
                         "`sync.interval_minutes`.",
             response="SyncStatus")
    def sync_status(ctx):
        return service.status(ctx.account_id)

    @api.post("/sync/trigger", scope="write", tags=TAGS, summary="Sync every channel connection now",
              description="Queues a sync of all the account's connections and returns 202 at "
                          "once; watch `GET /sync/status`. Once per 5 minutes per account: "
                          "sooner is `429 RATE_LIMITED` with `Retry-After` (seconds). No body.",
              response="SyncTrigger", status=202, errors=[RateLimited])
    def sync_trigger(ctx):
        allowed, next_allowed_at = service.claim_trigger(ctx.account_id)
        if not allowed:
            wait = int((next_allowed_at - clock.utcnow()).total_seconds()) + 1
            raise RateLimited(wait, f"A sync was triggered less than 5 minutes ago; the next is "
                                    f"allowed at {clock.iso(next_allowed_at)} (in {wait} s).")
        count = len(service.connection_ids(ctx.account_id))
        # Once the request commits; should the queue not answer, the periodic sync runs the
        # trigger (its time is in the database) once it is back.
        queue_after_commit(tasks.sync_account_task, ctx.account_id, clock.utcnow().isoformat(),
                           what="queuing a sync trigger")
        return Reply({"status": "queued", "connections": count,
                      "next_allowed_at": clock.iso(next_allowed_at)}, status=202)

    @api.post("/properties/<property_id>/channels/<channel_id>/accept-removals", scope="write",
              tags=TAGS, summary="Accept the cancellations a sync held back",
              description="When a feed comes back empty or without more than half of its "
                          "future stays at once, the sync cancels nothing and the connection "
                          "turns `error`. This confirms that the channel really cancelled them: "
                          "the connection's next sync (queued now) applies the feed as it is. "
                          "Returns 202 with the connection. No body.",
              response="ChannelConnection", status=202, errors=[NotFound])
    def accept_removals(ctx, property_id, channel_id):
        connection = service.accept_removals(ctx.account_id, property_id, channel_id)
        # Once the request commits; the periodic sync applies the acceptance (kept in the
        # database) should the queue not answer.
        queue_after_commit(tasks.sync_connection_task, connection.id,
                           what="queuing a sync of accepted removals")
        return Reply(properties.channel_view(connection), status=202)

    @api.post("/properties/<property_id>/ical-token", scope="write", tags=["properties"],
              summary="Rotate the property's calendar export URL",
              description="Gives the property a new `ical_export_url`; the old one answers 404 "
                          "from now on (paste the new one into each channel). No body.",
              response="Property", errors=[NotFound], shown_once=LINK_KEPT_NOWHERE)
    def rotate_ical_token(ctx, property_id):
        prop = export.rotate_token(ctx.account_id, property_id)
        return with_checkin_link(ctx, composed.property_view(prop), prop)

    @api.get("/ical/<token>.ics", scope=None, public=True, prefix="", tags=TAGS,
             summary="A property's calendar (iCalendar), for the channels to import",
             description="No API key: the URL (`ical_export_url` of the property) is the "
                         "credential. All-day events (DTEND exclusive) for the confirmed "
                         "bookings of every channel and the channels' blocks that have not "
                         "ended, without guest data. Answers `ETag` and `304` to a matching "
                         "`If-None-Match`.",
             response=None, content_type="text/calendar", conditional=True,
             errors=[NotFound])
    def ical_feed(ctx, token):
        prop = export.property_for_token(token)
        body = export.calendar_bytes(prop)
        etag = export.etag_of(body)
        headers = {"ETag": etag, "Cache-Control": "private, max-age=300"}
        presented = ctx.headers.get("If-None-Match", "")
        if etag in [tag.strip() for tag in presented.split(",")] or presented.strip() == "*":
            return Reply(b"", status=304, headers=headers)
        return Reply(body, headers=headers)
