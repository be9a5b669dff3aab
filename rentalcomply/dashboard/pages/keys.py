"""The API keys' page (owners only): make, rotate with a grace period, revoke."""

from __future__ import annotations

from rentalcomply.accounts import service as accounts
from rentalcomply.core.errors import ValidationError
from rentalcomply.dashboard import service
from rentalcomply.dashboard.pages.shared import confirm, confirmed
from rentalcomply.dashboard.web import Pages, Redirect, form_errors

GRACE_CHOICES = (0, 1, 24, 72, 168)


def register(pages: Pages) -> None:
    def _list(page, status=200, errors=None, values=None):
        return page.render("keys", status=status, title=page._("API keys"),
                           keys=service.list_keys(page.account_id), scopes=accounts.SCOPES,
                           grace_choices=GRACE_CHOICES, errors=errors or {},
                           values=values or {"name": "", "scopes": ["read"], "expires": ""},
                           usable=accounts.key_is_usable, done=page.arg("done"))

    @pages.get("/settings/keys", owners=True)
    def key_list(page):
        return _list(page)

    @pages.post("/settings/keys", owners=True)
    def key_create(page):
        values = {"name": page.form("name"), "scopes": page.form_list("scopes"),
                  "expires": page.form("expires_in_days").strip()}
        try:
            record, key = service.create_key(page.account_id, values["name"], values["scopes"],
                                             values["expires"])
        except ValidationError as error:
            return _list(page, status=400, errors=form_errors(error), values=values)
        page.record("api_key.create", record.id)
        return page.render("key_created", status=201, title=page._("Your new API key"),
                           record=record, key=key, replaces=None)

    @pages.post("/settings/keys/<key_id>/rotate", owners=True)
    def key_rotate(page, key_id):
        grace = page.form("grace_hours", "24")
        try:
            record, key = service.rotate_key(page.account_id, key_id,
                                             int(grace) if grace.isdigit() else -1)
        except ValidationError as error:
            return _list(page, status=400, errors=form_errors(error))
        page.record("api_key.rotate", key_id)
        return page.render("key_created", status=201, title=page._("Your new API key"),
                           record=record, key=key, replaces=key_id)

    @pages.post("/settings/keys/<key_id>/revoke", owners=True)
    def key_revoke(page, key_id):
        record = service.get_key(page.account_id, key_id)
        if not confirmed(page):
            last = (page.fmt.datetime(record.last_used_at) if record.last_used_at
                    else page._("never"))
            return confirm(
                page, title=page._("Revoke this API key?"),
                subject=page._("{name} ({hint}…), last used {when}",
                               name=record.name or page._("no name"), hint=record.key_hint,
                               when=last),
                consequences=[page._("Every program that uses this key is refused from its next "
                                     "request (401): a channel manager or an accounting tool "
                                     "using it stops syncing."),
                              page._("It cannot be undone: a new key would have to be made and "
                                     "given to each program.")],
                button=page._("Yes, revoke the key"), back=page.url("/settings/keys"))
        service.revoke_key(page.account_id, key_id)
        page.record("api_key.revoke", key_id)
        raise Redirect(page.url("/settings/keys", done="revoked"))
