"""Routes of webhooks: parse, call the service, shape the answer. Every route needs `webhooks`."""

from __future__ import annotations

from rentalcomply.core.events import EVENT_TYPES
from rentalcomply.web import openapi
from rentalcomply.web.idempotency import ShownOnce
from rentalcomply.web.openapi import NULLABLE_TIMESTAMP, TIMESTAMP, VERSION
from rentalcomply.web.routing import PAGINATION_QUERY, Reply, paginate
from rentalcomply.web.validation import Field
from rentalcomply.webhooks import service

TAGS = ["webhooks"]
EVENT_NAMES = list(EVENT_TYPES) + [service.ALL_EVENTS]

_ENDPOINT_PROPERTIES = {
    "id": {"type": "string", "pattern": "^wh_", "examples": ["wh_4Vb8tqXk2LmN9pQr7sTu"]},
    "url": {"type": "string", "format": "uri"},
    "description": {"type": "string"},
    "events": {"type": "array", "items": {"type": "string", "enum": EVENT_NAMES}},
    "status": {"type": "string", "enum": ["active", "disabled"],
               "description": "`disabled` after a 410 Gone, after every attempt failed for "
                              "`webhooks.disable_after_days` days, or through PATCH; "
                              "`disabled_reason` says which."},
    "disabled_reason": {"type": ["string", "null"]},
    "disabled_at": NULLABLE_TIMESTAMP,
    "failing_since": {**NULLABLE_TIMESTAMP,
                      "description": "First failed attempt since the last success."},
    "last_success_at": {**NULLABLE_TIMESTAMP,
                        "description": "Last successful delivery, to within a minute."},
    "previous_secret_expires_at": {**NULLABLE_TIMESTAMP,
                                   "description": "Until then the secret replaced by the last "
                                                  "rotation signs deliveries too."},
    "created_at": TIMESTAMP,
    "updated_at": TIMESTAMP,
    "version": VERSION,
}
openapi.schema("WebhookEndpoint", {
    "type": "object", "required": list(_ENDPOINT_PROPERTIES), "properties": _ENDPOINT_PROPERTIES,
})
openapi.schema("WebhookEndpointWithSecret", {
    "type": "object", "required": list(_ENDPOINT_PROPERTIES) + ["secret"],
    "properties": {**_ENDPOINT_PROPERTIES, "secret": {
        "type": ["string", "null"], "pattern": "^whsec_[A-Za-z0-9+/]{43}=$",
        "description": "Signing secret, shown only here, once: at creation and at rotation. "
                       "null in a replay to the same Idempotency-Key (`Idempotent-Withheld: "
                       "secret`): it is never kept in clear, so no retry shows it again."}},
})
openapi.schema("WebhookDelivery", {
    "type": "object",
    "required": ["id", "webhook_id", "event_id", "event_type", "status", "attempts",
                 "last_status_code", "last_error", "last_attempt_at", "next_attempt_at",
                 "created_at", "completed_at", "attempt_log"],
    "properties": {
        "id": {"type": "string", "pattern": "^dlv_"},
        "webhook_id": {"type": "string", "pattern": "^wh_"},
        "event_id": {"type": "string", "pattern": "^evt_"},
        "event_type": {"type": "string", "enum": list(EVENT_TYPES)},
        "status": {"type": "string", "enum": ["pending", "succeeded", "failed"]},
        "attempts": {"type": "integer", "minimum": 0},
        "last_status_code": {"type": ["integer", "null"]},
        "last_error": {"type": ["string", "null"]},
        "last_attempt_at": NULLABLE_TIMESTAMP,
        "next_attempt_at": {**NULLABLE_TIMESTAMP, "description": "While `pending`."},
        "created_at": TIMESTAMP,
        "completed_at": NULLABLE_TIMESTAMP,
        "attempt_log": {"type": "array", "items": {
            "type": "object",
            "required": ["number", "attempted_at", "duration_ms", "status_code", "error",
                         "response_excerpt"],
            "properties": {
                "number": {"type": "integer", "minimum": 1},
                "attempted_at": TIMESTAMP,
                "duration_ms": {"type": "integer", "minimum": 0},
                "status_code": {"type": ["integer", "null"]},
                "error": {"type": ["string", "null"]},
                "response_excerpt": {"type": ["string", "null"],
                                     "description": "The start of the receiver's answer."},
            }}},
    },
})
openapi.schema("WebhookTest", {
    "type": "object", "required": ["event_id", "webhook_id", "type", "status"],
    "properties": {"event_id": {"type": "string", "pattern": "^evt_"},
                   "webhook_id": {"type": "string", "pattern": "^wh_"},
                   "type": {"type": "string", "enum": [service.TEST_EVENT]},
                   "status": {"type": "string", "enum": ["queued"]}},
})

URL_FIELD = Field("url", required=True, max_length=service.MAX_URL_LENGTH,
                  description="Where deliveries are POSTed. `https` unless `webhooks.allow_http`; "
                              "no user name or password; loopback, private, link-local and "
                              "metadata destinations refused unless "
                              "`webhooks.allow_private_addresses`.",
                  example="https://tools.example-agency.gr/rentalcomply")
EVENTS_FIELD = Field("array", required=True, min_items=1, max_items=len(EVENT_NAMES),
                     items=Field("string", max_length=64, choices=EVENT_NAMES),
                     description='Event names to receive, or `["*"]` for all.',
                     example=["booking.created", "booking.cancelled"])
DESCRIPTION_FIELD = Field("string", max_length=200, default="", multiline=True,
                          description="A note for people: what this endpoint feeds. It may hold "
                                      "line breaks and tabs; no other control characters.")
DELIVERY_HEADERS = (
    "Each delivery is a POST of `{id, type, created_at, timestamp, account_id, data}` with "
    "`X-RentalComply-Signature: sha256=<hex HMAC-SHA256 of the body keyed with the secret>`, "
    "`X-RentalComply-Timestamp`, `X-RentalComply-Event`, `X-RentalComply-Delivery` and the "
    "Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature`. "
    "See docs/webhooks.md.")
# The secret is shown once: a replay to the same Idempotency-Key answers without it (null, and
# `Idempotent-Withheld: secret`), and 404 once the endpoint is deleted.
SECRET_SHOWN_ONCE = ShownOnce(
    ("secret",), lambda account_id, data: service.get_endpoint(account_id, data["id"]))
REPLAY_WITHOUT_SECRET = (
    " A replay to the same `Idempotency-Key` answers the same status and endpoint with `secret` "
    "null and the header `Idempotent-Withheld: secret` (the secret is never kept in clear), or "
    "404 NOT_FOUND once the endpoint is deleted.")


def register(api) -> None:
    def allowances(ctx) -> dict:
        return {"allow_http": ctx.settings.webhooks.allow_http,
                "allow_private": ctx.settings.webhooks.allow_private_addresses}

    @api.post("/webhooks", scope="webhooks", tags=TAGS, status=201,
              summary="Register a webhook endpoint",
              description="Returns the endpoint with its signing `secret`, shown only this once. "
                          + DELIVERY_HEADERS + REPLAY_WITHOUT_SECRET,
              body={"url": URL_FIELD, "events": EVENTS_FIELD, "description": DESCRIPTION_FIELD},
              response="WebhookEndpointWithSecret", shown_once=SECRET_SHOWN_ONCE)
    def create_webhook(ctx):
        endpoint, secret = service.create_endpoint(
            ctx.account_id, ctx.body["url"], ctx.body["events"], ctx.body["description"],
            **allowances(ctx))
        return Reply(service.endpoint_view(endpoint, secret), status=201,
                     headers={"Location": f"/api/v1/webhooks/{endpoint.id}"})

    @api.get("/webhooks", scope="webhooks", tags=TAGS, summary="List webhook endpoints",
             query=PAGINATION_QUERY, paginated=True, response="WebhookEndpoint")
    def list_webhooks(ctx):
        return paginate(service.list_endpoints(ctx.account_id), ctx.query["page"],
                        ctx.query["limit"], service.endpoint_view)

    @api.get("/webhooks/<webhook_id>", scope="webhooks", tags=TAGS,
             summary="Get a webhook endpoint", response="WebhookEndpoint",
             description="A disabled endpoint says why in `disabled_reason`.")
    def get_webhook(ctx, webhook_id):
        return service.endpoint_view(service.get_endpoint(ctx.account_id, webhook_id))

    @api.patch("/webhooks/<webhook_id>", scope="webhooks", tags=TAGS,
               summary="Change a webhook endpoint, or enable or disable it",
               description="Setting `status` to `active` re-enables a disabled endpoint and "
                           "clears its failure record. Deliveries that failed while it was "
                           "disabled are not resent.",
               body={"url": URL_FIELD, "events": EVENTS_FIELD,
                     "description": DESCRIPTION_FIELD,
                     "status": Field("string", choices=("active", "disabled"))},
               response="WebhookEndpoint")
    def update_webhook(ctx, webhook_id):
        endpoint = service.update_endpoint(ctx.account_id, webhook_id, ctx.body, **allowances(ctx))
        return service.endpoint_view(endpoint)

    @api.delete("/webhooks/<webhook_id>", scope="webhooks", tags=TAGS, status=204,
                summary="Delete a webhook endpoint",
                description="Its delivery log goes with it; deliveries still pending are dropped.")
    def delete_webhook(ctx, webhook_id):
        service.delete_endpoint(ctx.account_id, webhook_id)
        return Reply(None, status=204)

    @api.post("/webhooks/<webhook_id>/rotate-secret", scope="webhooks", tags=TAGS,
              summary="Replace the signing secret",
              description="Returns the new `secret`, shown only this once. For 24 hours the "
                          "old secret signs each delivery too, so receivers can switch over: "
                          "`X-RentalComply-Signature` then carries two comma-separated "
                          "`sha256=` values and `webhook-signature` two space-separated `v1,` "
                          "values, the new secret's first." + REPLAY_WITHOUT_SECRET,
              response="WebhookEndpointWithSecret", shown_once=SECRET_SHOWN_ONCE)
    def rotate_webhook_secret(ctx, webhook_id):
        endpoint, secret = service.rotate_secret(ctx.account_id, webhook_id)
        return service.endpoint_view(endpoint, secret)

    @api.get("/webhooks/<webhook_id>/deliveries", scope="webhooks", tags=TAGS,
             summary="The delivery log of a webhook endpoint",
             description="Newest first: each delivery's status, attempts, last response code, "
                         "next attempt and the log of its attempts.",
             query={"status": Field("string", choices=("pending", "succeeded", "failed")),
                    **PAGINATION_QUERY},
             paginated=True, response="WebhookDelivery")
    def list_webhook_deliveries(ctx, webhook_id):
        query = service.list_deliveries(ctx.account_id, webhook_id, ctx.query.get("status"))
        reply = paginate(query, ctx.query["page"], ctx.query["limit"], lambda row: row)
        attempts = service.attempts_of(row.id for row in reply.data)
        reply.data = [service.delivery_view(row, attempts.get(row.id, [])) for row in reply.data]
        return reply

    @api.post("/webhooks/<webhook_id>/test", scope="webhooks", tags=TAGS, status=202,
              summary="Send a webhook.test event to this endpoint",
              description="Queues a signed `webhook.test` delivery to this endpoint alone "
                          "(also while it is disabled); its outcome appears in the delivery log.",
              response="WebhookTest")
    def test_webhook(ctx, webhook_id):
        event = service.send_test(ctx.account_id, webhook_id)
        return Reply({"event_id": event.id, "webhook_id": webhook_id, "type": event.type,
                      "status": "queued"}, status=202)
