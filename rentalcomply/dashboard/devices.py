"""The devices a person stays signed in on ("Keep me signed in", users.start_session): named by
their browser, listed for the person, signed out one at a time or all at once."""

from __future__ import annotations

import hmac

from rentalcomply.core import activity, clock, secrets
from rentalcomply.core.db import atomic
from rentalcomply.dashboard.models import DashboardSession, DashboardUser


# In this order: Edge and Opera say Chrome too, Chrome says Safari; on an iPhone every browser is
# Safari's engine and names itself apart (CriOS, FxiOS).
_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("CriOS/", "Chrome"), ("FxiOS/", "Firefox"),
             ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Safari/", "Safari"))
_SYSTEMS = (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Windows", "Windows"),
            ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux"))


def device_name(user_agent: str | None) -> str:
    """`Chrome · Android`, `Safari · iPhone`: enough for a person to tell their devices apart."""
    agent = user_agent or ""
    browser = next((name for mark, name in _BROWSERS if mark in agent), "")
    system = next((name for mark, name in _SYSTEMS if mark in agent), "")
    if browser and system:
        return f"{browser} · {system}"
    return browser or system or ""


def device_key(session: DashboardSession) -> str:
    """A session's name in the devices' forms: derived from its hash, so the page shows neither
    the cookie nor what the table keeps of it."""
    return secrets.sign("dashboard-device", session.id_hash)[:24]


def remembered_devices(user_id: str) -> list[DashboardSession]:
    """The user's live sessions kept signed in ("Keep me signed in"), the latest used first."""
    now = clock.utcnow()
    return list(DashboardSession.select().where(
        (DashboardSession.user == user_id) & (DashboardSession.remembered == True)  # noqa: E712
        & (DashboardSession.expires_at > now)).order_by(DashboardSession.last_seen_at.desc()))


def sign_out_device(user_id: str, key: str) -> bool:
    """End one of the user's remembered sessions, named by `device_key`; False if none is."""
    with atomic():
        for session in remembered_devices(user_id):
            if hmac.compare_digest(device_key(session), key or ""):
                _record(session.user)  # a sign-out, from another device
                session.delete_instance()
                return True
    return False


def sign_out_everywhere(user_id: str) -> int:
    """End every session of the user, this browser's included."""
    with atomic():
        user = DashboardUser.get_by_id(user_id)
        _record(user)
        return DashboardSession.delete().where(DashboardSession.user == user_id).execute()


def _record(user: DashboardUser) -> None:
    """A sign-out in the account's activity log, as the header's button records it."""
    activity.record(user.account_id, "user", user.id, user.email or "", "session.sign_out", None)
