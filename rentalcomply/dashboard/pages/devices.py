"""The devices a person stays signed in on ("Keep me signed in", dashboard/users.py): listed in
Account (and on its own page for every user, members too), each with a button that signs it out,
and one that signs out everywhere."""

from __future__ import annotations

import bottle

from rentalcomply.dashboard import devices
from rentalcomply.dashboard.web import PREFIX, SESSION_COOKIE, Pages, Redirect, clear_cookie


def devices_view(page) -> list[dict]:
    """The signed-in user's remembered devices, this browser's marked."""
    current = page.session.id_hash if page.session is not None else None
    return [{"key": devices.device_key(s), "name": s.device or "", "since": s.created_at,
             "last_seen": s.last_seen_at, "until": s.expires_at, "this": s.id_hash == current}
            for s in devices.remembered_devices(page.user.id)]


def register(pages: Pages) -> None:
    @pages.get("/settings/devices")
    def devices_page(page):
        return page.render("devices", title=page._("Devices signed in"), devices=devices_view(page))

    @pages.post("/settings/devices/sign-out")
    def device_sign_out(page):
        key = page.form("device")
        this = any(d["this"] for d in devices_view(page) if d["key"] == key)
        devices.sign_out_device(page.user.id, key)
        if this:
            return _signed_out(page)
        raise Redirect(page.form("back") if page.form("back") == PREFIX + "/settings/account"
                       else page.url("/settings/devices", done="device_signed_out"))

    @pages.post("/settings/devices/sign-out-everywhere")
    def sign_out_everywhere(page):
        devices.sign_out_everywhere(page.user.id)
        return _signed_out(page)


def _signed_out(page) -> bottle.HTTPResponse:
    response = bottle.HTTPResponse(status=303, Location=PREFIX + "/sign-in?done=signed_out")
    clear_cookie(response, page, SESSION_COOKIE)
    return response
