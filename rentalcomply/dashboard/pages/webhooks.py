"""The webhooks' pages (owners only): endpoints, their events and secret, their deliveries."""

from __future__ import annotations

from rentalcomply.core.errors import ValidationError
from rentalcomply.core.events import EVENT_TYPES
from rentalcomply.dashboard.pages.shared import confirm, confirmed
from rentalcomply.dashboard.web import Pages, Redirect, form_errors
from rentalcomply.webhooks import service as webhooks


def register(pages: Pages) -> None:
    def _list(page, status=200, errors=None, values=None):
        return page.render("webhooks", status=status, title=page._("Webhooks"),
                           endpoints=list(webhooks.list_endpoints(page.account_id)),
                           event_types=[e for e in EVENT_TYPES if e != webhooks.TEST_EVENT],
                           errors=errors or {}, done=page.arg("done"),
                           values=values or {"url": "", "description": "", "events": ["*"]})

    @pages.get("/settings/webhooks", owners=True)
    def webhook_list(page):
        return _list(page)

    @pages.post("/settings/webhooks", owners=True)
    def webhook_create(page):
        values = {"url": page.form("url").strip(), "description": page.form("description").strip(),
                  "events": page.form_list("events")}
        try:
            if len(values["description"]) > 200:
                raise ValidationError("description", "must be at most 200 characters")
            endpoint, secret = webhooks.create_endpoint(page.account_id, values["url"],
                                                        values["events"], values["description"])
        except ValidationError as error:
            return _list(page, status=400, errors=form_errors(error), values=values)
        page.record("webhook.create", endpoint.id)
        return page.render("secret_created", status=201, title=page._("Webhook secret"),
                           endpoint=endpoint, secret=secret)

    def _webhook(page, endpoint, status=200, errors=None):
        deliveries = list(webhooks.list_deliveries(page.account_id, endpoint.id).limit(50))
        return page.render("webhook", status=status, title=endpoint.url, endpoint=endpoint,
                           deliveries=deliveries, view=webhooks.endpoint_view(endpoint),
                           errors=errors or {},
                           event_types=[e for e in EVENT_TYPES if e != webhooks.TEST_EVENT])

    @pages.get("/settings/webhooks/<webhook_id>", owners=True)
    def webhook_page(page, webhook_id):
        return _webhook(page, webhooks.get_endpoint(page.account_id, webhook_id))

    @pages.post("/settings/webhooks/<webhook_id>/events", owners=True)
    def webhook_events(page, webhook_id):
        try:
            webhooks.update_endpoint(page.account_id, webhook_id,
                                     {"events": page.form_list("events")})
        except ValidationError as error:
            endpoint = webhooks.get_endpoint(page.account_id, webhook_id)
            return _webhook(page, endpoint, status=400, errors=form_errors(error))
        page.record("webhook.update", webhook_id)
        raise Redirect(page.url(f"/settings/webhooks/{webhook_id}", done="events_saved"))

    @pages.post("/settings/webhooks/<webhook_id>/test", owners=True)
    def webhook_test(page, webhook_id):
        webhooks.send_test(page.account_id, webhook_id)
        page.record("webhook.test", webhook_id)
        raise Redirect(page.url(f"/settings/webhooks/{webhook_id}", done="test_sent"))

    @pages.post("/settings/webhooks/<webhook_id>/rotate", owners=True)
    def webhook_rotate(page, webhook_id):
        endpoint, secret = webhooks.rotate_secret(page.account_id, webhook_id)
        page.record("webhook.rotate_secret", webhook_id)
        return page.render("secret_created", status=201, title=page._("Webhook secret"),
                           endpoint=endpoint, secret=secret)

    @pages.post("/settings/webhooks/<webhook_id>/status", owners=True)
    def webhook_status(page, webhook_id):
        wanted = "active" if page.form("status") == "active" else "disabled"
        webhooks.update_endpoint(page.account_id, webhook_id, {"status": wanted})
        page.record("webhook.enable" if wanted == "active" else "webhook.disable", webhook_id)
        raise Redirect(page.url(f"/settings/webhooks/{webhook_id}", done=wanted))

    @pages.post("/settings/webhooks/<webhook_id>/delete", owners=True)
    def webhook_delete(page, webhook_id):
        endpoint = webhooks.get_endpoint(page.account_id, webhook_id)
        if not confirmed(page):
            return confirm(
                page, title=page._("Delete this webhook endpoint?"), subject=endpoint.url,
                consequences=[page._("The program at this address receives no more events."),
                              page._("Deliveries waiting to be made are dropped, and the "
                                     "delivery history is deleted."),
                              page._("It cannot be undone: registering it again gives a new "
                                     "secret the receiver must be told.")],
                button=page._("Yes, delete the endpoint"),
                back=page.url(f"/settings/webhooks/{webhook_id}"))
        webhooks.delete_endpoint(page.account_id, webhook_id)
        page.record("webhook.delete", webhook_id)
        raise Redirect(page.url("/settings/webhooks", done="deleted"))

    @pages.post("/settings/webhooks/<webhook_id>/deliveries/<delivery_id>/resend", owners=True)
    def delivery_resend(page, webhook_id, delivery_id):
        from rentalcomply.webhooks import tasks
        try:
            webhooks.resend_delivery(page.account_id, webhook_id, delivery_id)
        except ValidationError as error:
            raise Redirect(page.url(f"/settings/webhooks/{webhook_id}",
                                    done="resend_refused")) from error
        page.record("webhook.resend", delivery_id)
        page.after_commit.append(lambda: tasks.deliver(delivery_id))
        raise Redirect(page.url(f"/settings/webhooks/{webhook_id}", done="resent"))
