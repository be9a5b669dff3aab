"""Dashboard users, their one-time password links, sign-in and sessions: the domain side.

- Passwords: `hashlib.scrypt` (memory-hard, in the standard library), a random salt each, the
  parameters stored with the hash so that they can be raised later without locking anyone out.
- One-time links: a random token; only its HMAC under the server secret is stored. Valid for
  `dashboard.password_link_hours`, once; setting a password ends the user's sessions.
- Sessions: a random id in the cookie, its HMAC in the table; ended by sign-out, by
  `dashboard.session_idle_minutes` without a request, by `dashboard.session_absolute_hours` after
  sign-in, and by disabling the user. The CSRF token is an HMAC of the cookie's value, so it is
  bound to the session and needs no storage.
- Sign-in: wrong passwords are counted per e-mail address and per client address; past the limit
  a minute, every attempt is refused (even a right password) until the oldest one leaves the window.
- One address, several accounts: an address is unique within an account only, so one person may
  be a user of several accounts, each user with its own password. Sign-in tries the password on
  each of the address's users and opens the account whose password it is; when it is the
  password of several, the browser that proved it chooses among those accounts (`account_choice`),
  and nobody learns an account's name before the password is proven.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime as dt
import hashlib
import hmac
import re
import secrets as _random

from rentalcomply.accounts import language
from rentalcomply.core import clock, secrets
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import LinkExpired, NotFound, ValidationError
from rentalcomply.core.ids import new_id, random_base62
from rentalcomply.core.models import Account
from rentalcomply.dashboard import devices
from rentalcomply.dashboard.models import ROLES, DashboardSession, DashboardUser, PasswordLink
from rentalcomply.web.ratelimit import SlidingWindowLimiter

# scrypt with N=2**15, r=8: 32 MiB and about 0.1 s per hash here; p=1.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 15, 8, 1
SCRYPT_MAXMEM = 64 * 1024 * 1024
PASSWORD_MIN = 10
PASSWORD_MAX = 200  # scrypt takes any length; a bound keeps a megabyte "password" from costing time
EMAIL_PATTERN = re.compile(r"^[^@\s]+@[^@\s]+$")
EMAIL_MAX = 254
TOKEN_LENGTH = 43
# Seen only when a session is used: the last-seen time is written at most this often.
TOUCH_RESOLUTION = dt.timedelta(seconds=60)
# "Keep me signed in": the device stays signed in this long whatever the idle time, until the
# person signs it out (Account's list of devices) or the user is disabled.
REMEMBERED = dt.timedelta(days=30)


class UserError(ValueError):
    """A user operation the administrator asked for cannot be done (unknown user, bad address)."""


@dataclasses.dataclass
class Policy:
    """The dashboard settings the sessions and links obey (`configure`)."""

    idle: dt.timedelta = dt.timedelta(minutes=30)
    absolute: dt.timedelta = dt.timedelta(hours=12)
    link_lifetime: dt.timedelta = dt.timedelta(hours=24)
    failures_per_user: int = 5
    failures_per_address: int = 20


policy = Policy()


def configure(settings) -> None:
    global policy, _user_failures, _address_failures
    section = settings.dashboard
    policy = Policy(idle=dt.timedelta(minutes=section.session_idle_minutes),
                    absolute=dt.timedelta(hours=section.session_absolute_hours),
                    link_lifetime=dt.timedelta(hours=section.password_link_hours),
                    failures_per_user=section.signin_failures_per_user,
                    failures_per_address=section.signin_failures_per_address)
    _user_failures = failure_counter(policy.failures_per_user, "user")
    _address_failures = failure_counter(policy.failures_per_address, "address")


# --- passwords ----------------------------------------------------------------------------------

def hash_password(password: str) -> str:
    salt = _random.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=SCRYPT_N, r=SCRYPT_R,
                            p=SCRYPT_P, maxmem=SCRYPT_MAXMEM, dklen=32)
    return "$".join(["scrypt", str(SCRYPT_N), str(SCRYPT_R), str(SCRYPT_P),
                     base64.b64encode(salt).decode(), base64.b64encode(digest).decode()])


def password_matches(password: str, stored: str | None) -> bool:
    if not stored:
        # Spend the same time as a real check, so that timing does not tell which addresses exist.
        hashlib.scrypt(b"x", salt=b"0" * 16, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P,
                       maxmem=SCRYPT_MAXMEM, dklen=32)
        return False
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        expected = base64.b64decode(digest)
        actual = hashlib.scrypt(password.encode("utf-8"), salt=base64.b64decode(salt), n=int(n),
                                r=int(r), p=int(p), maxmem=SCRYPT_MAXMEM, dklen=len(expected))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(actual, expected)


def password_problem(password: str) -> str | None:
    if len(password) < PASSWORD_MIN:
        return f"must be at least {PASSWORD_MIN} characters"
    if len(password) > PASSWORD_MAX:
        return f"must be at most {PASSWORD_MAX} characters"
    return None


# --- users --------------------------------------------------------------------------------------

def normal_email(email: str) -> str:
    return (email or "").strip().lower()


def _check_email(email: str, field: str = "email") -> str:
    email = normal_email(email)
    if not email or len(email) > EMAIL_MAX or not EMAIL_PATTERN.match(email):
        raise ValidationError(field, "must be an e-mail address")
    return email


def create_user(account_id: str, email: str | None, role: str = "owner") -> tuple[DashboardUser, str]:
    """A user of the account and a one-time link token to set the password. `email` may be None
    only for the first user made at the first start, who gives it on the link's page."""
    if Account.get_or_none(Account.id == account_id) is None:
        raise UserError(f"no account {account_id!r}")
    with atomic():
        if email is not None:
            try:
                email = _check_email(email)
            except ValidationError as exc:
                raise UserError(f"{email!r} is not an e-mail address") from exc
            if _in_account(account_id, email):
                raise UserError(f"a user with the e-mail address {email} exists already in "
                                f"account {account_id}")
        if role not in ROLES:
            raise UserError(f"the role must be one of: {', '.join(ROLES)}")
        user = DashboardUser.create(id=new_id("usr"), account=account_id, email=email,
                                    status="active", role=role, created_at=clock.utcnow())
        token = issue_link(user)
    return user, token


def issue_link(user: DashboardUser) -> str:
    """A new one-time link token for the user; earlier unused links stop working."""
    now = clock.utcnow()
    with atomic():
        (PasswordLink.update(used_at=now)
         .where((PasswordLink.user == user.id) & PasswordLink.used_at.is_null()).execute())
        token = random_base62(TOKEN_LENGTH)
        PasswordLink.create(id=new_id("pwl"), user=user.id, token_hash=_link_hash(token),
                            created_at=now, expires_at=now + policy.link_lifetime)
    return token


def new_link_for(user_id: str) -> tuple[DashboardUser, str]:
    """A fresh one-time link for an existing user (a forgotten password)."""
    user = get_user(user_id)
    return user, issue_link(user)


def link_url(public_url: str, token: str) -> str:
    return f"{public_url.rstrip('/')}/dashboard/password/{token}"


def list_users(account_id: str | None = None) -> list[DashboardUser]:
    query = DashboardUser.select().order_by(DashboardUser.created_at, DashboardUser.id)
    if account_id:
        query = query.where(DashboardUser.account == account_id)
    return list(query)


def get_user(user_id: str) -> DashboardUser:
    user = DashboardUser.get_or_none(DashboardUser.id == user_id)
    if user is None:
        raise UserError(f"no dashboard user {user_id!r}")
    return user


def disable_user(user_id: str) -> DashboardUser:
    """Refuse the user's sign-ins and end their sessions at once."""
    with atomic():
        user = get_user(user_id)
        user.status = "disabled"
        user.save()
        DashboardSession.delete().where(DashboardSession.user == user.id).execute()
        (PasswordLink.update(used_at=clock.utcnow())
         .where((PasswordLink.user == user.id) & PasswordLink.used_at.is_null()).execute())
    return user


def enable_user(user_id: str) -> DashboardUser:
    """Let a disabled user sign in again (with the password they had; a forgotten one is reset
    through a new link)."""
    with atomic():
        user = get_user(user_id)
        user.status = "active"
        user.save()
    return user


# --- the people of an account, managed by its owners in the pages -------------------------------

def account_user(account_id: str, user_id: str) -> DashboardUser:
    """A user of this account; another account's is NotFound, as everywhere."""
    user = DashboardUser.get_or_none((DashboardUser.id == user_id)
                                     & (DashboardUser.account == account_id))
    if user is None:
        raise NotFound("No such user.")
    return user


def _in_account(account_id: str, email: str) -> bool:
    return DashboardUser.select().where((DashboardUser.account == account_id)
                                        & (DashboardUser.email == email)).exists()


def invite(account_id: str, email: str, role: str) -> tuple[DashboardUser, str]:
    """A colleague of the account, with a one-time link to choose a password. ValidationError
    names the field (a bad address, one of this account's people already, an unknown role).

    An address that is a user of another account is invited like a new one, with the same
    answer: the inviter learns nothing of other accounts, and the invitee gets a user of this
    account, with a password of its own, beside the one they have."""
    email = _check_email(email)
    if role not in ROLES:
        raise ValidationError("role", "must be owner or member")
    if _in_account(account_id, email):
        raise ValidationError("email", "is one of this account's people already")
    return create_user(account_id, email, role=role)


def in_other_accounts(user: DashboardUser) -> bool:
    """Whether the user's address signs in to another account too (shown only on the page of
    the user's own one-time link, which only the address's owner holds)."""
    return bool(user.email) and DashboardUser.select().where(
        (DashboardUser.email == user.email) & (DashboardUser.account != user.account_id)).exists()


def account_language(account_id: str) -> str:
    """The account's usual language: the one most of its people chose (English when none did),
    for a person who has chosen none and whose browser asks for none of the dashboard's."""
    chosen = (DashboardUser.select(DashboardUser.lang)
              .where((DashboardUser.account == account_id) & DashboardUser.lang.is_null(False)))
    counts: dict[str, int] = {}
    for row in chosen:
        counts[row.lang] = counts.get(row.lang, 0) + 1
    return max(sorted(counts), key=counts.get) if counts else "en"


# The documents the layers below write for an account (the tax returns) ask its language there.
language.register(account_language)


def remember_language(user_id: str, lang: str) -> None:
    """The language the user's pages are in: the e-mails the server sends on its own (the morning
    e-mail) are written in it."""
    (DashboardUser.update(lang=lang)
     .where((DashboardUser.id == user_id)
            & (DashboardUser.lang.is_null() | (DashboardUser.lang != lang))).execute())


def _other_active_owner(account_id: str, user_id: str) -> bool:
    return DashboardUser.select().where(
        (DashboardUser.account == account_id) & (DashboardUser.id != user_id)
        & (DashboardUser.role == "owner") & (DashboardUser.status == "active")).exists()


def change_role(account_id: str, user_id: str, role: str) -> DashboardUser:
    with atomic():
        user = account_user(account_id, user_id)
        if role not in ROLES:
            raise ValidationError("role", "must be owner or member")
        if role != "owner" and user.role == "owner" and not _other_active_owner(account_id, user.id):
            raise ValidationError("role", "the account keeps at least one active owner")
        user.role = role
        user.save()
    return user


def set_status(account_id: str, user_id: str, active: bool) -> DashboardUser:
    """Disable (sessions end at once) or enable a user of the account; the last active owner
    cannot be disabled, so that someone can always manage the account."""
    with atomic():
        user = account_user(account_id, user_id)
        if not active and user.role == "owner" and not _other_active_owner(account_id, user.id):
            raise ValidationError("status", "the account keeps at least one active owner")
        return enable_user(user.id) if active else disable_user(user.id)


# --- a forgotten password -----------------------------------------------------------------------

_reset_per_email = SlidingWindowLimiter(3, window=3600, name="password-reset-email")
_reset_per_address = SlidingWindowLimiter(10, window=3600, name="password-reset-address")


class ResetThrottled(Exception):
    def __init__(self, retry_after: int):
        super().__init__(f"Too many requests; try again in {retry_after} s.")
        self.retry_after = retry_after


def request_reset(email: str, address: str) -> list[tuple[DashboardUser, str]]:
    """A one-time link for each active user with this address (one per account it is a user
    of), or none: the page answers the same either way, so it tells no one which addresses exist.
    At most 3 an hour per address and 10 an hour per client (ResetThrottled)."""
    email = normal_email(email)
    for limiter, bucket in ((_reset_per_address, "address:" + (address or "")),
                            (_reset_per_email, "email:" + email)):
        allowed, _, reset = limiter.hit(bucket)
        if not allowed:
            raise ResetThrottled(max(reset, 1))
    if not email:
        return []
    found = (DashboardUser.select()
             .where((DashboardUser.email == email) & (DashboardUser.status == "active"))
             .order_by(DashboardUser.created_at, DashboardUser.id))
    return [(user, issue_link(user)) for user in found]


def user_view(user: DashboardUser) -> dict:
    return {"id": user.id, "account_id": user.account_id, "email": user.email,
            "status": user.status, "role": user.role, "password_set": user.password_hash is not None,
            "created_at": clock.iso(user.created_at),
            "last_sign_in_at": clock.iso(user.last_sign_in_at)}


# --- one-time links -----------------------------------------------------------------------------

def _link_hash(token: str) -> str:
    return secrets.sign("dashboard-password-link", token)


# A used or old link: the ways to a new one, the command line's among them.
LINK_GONE = ("This link has expired or was used already. Ask for a new one: “Forgot your "
             "password?” on the sign-in page, an owner of the account, or the server's "
             "administrator (rentalcomply users link USER_ID).")


def open_link(token: str) -> tuple[PasswordLink, DashboardUser]:
    """The link and its user; NotFound for an unknown token, LinkExpired for a used or old one."""
    if not token or len(token) != TOKEN_LENGTH or not token.isalnum():
        raise NotFound("No such link.")
    link = PasswordLink.get_or_none(PasswordLink.token_hash == _link_hash(token))
    if link is None or not hmac.compare_digest(link.token_hash, _link_hash(token)):
        raise NotFound("No such link.")
    user = link.user
    if link.used_at is not None or link.expires_at <= clock.utcnow() or user.status != "active":
        raise LinkExpired(LINK_GONE)
    return link, user


def set_password(token: str, password: str, confirmation: str,
                 email: str | None = None) -> DashboardUser:
    """Use a one-time link: set the password (and the e-mail address when the user has none).
    Ends every session of the user. Raises ValidationError naming the fields."""
    with atomic():
        link, user = open_link(token)
        details = []
        if user.email is None:
            try:
                email = _check_email(email or "")
            except ValidationError as exc:
                details += exc.details
            else:
                if _in_account(user.account_id, email):
                    details.append({"field": "email", "message": "is used by another user"})
        problem = password_problem(password or "")
        if problem:
            details.append({"field": "password", "message": problem})
        elif password != confirmation:
            details.append({"field": "confirmation", "message": "does not match the password"})
        if details:
            raise ValidationError(details)
        now = clock.utcnow()
        if user.email is None:
            user.email = email
        user.password_hash = hash_password(password)
        user.password_set_at = now
        user.save()
        link.used_at = now
        link.save()
        DashboardSession.delete().where(DashboardSession.user == user.id).execute()
    return user


# --- sign-in ------------------------------------------------------------------------------------

def failure_counter(limit: int, bucket_kind: str) -> SlidingWindowLimiter:
    """Wrong passwords per bucket in a rolling minute: `hit` counts one, `blocked` asks without
    counting. Shared by every server process when the limits are on Redis."""
    return SlidingWindowLimiter(limit, name="signin-" + bucket_kind)


_user_failures = failure_counter(policy.failures_per_user, "user")
_address_failures = failure_counter(policy.failures_per_address, "address")


class SignInRefused(Exception):
    """Wrong address or password (one message for both), or a disabled user."""


class SignInThrottled(Exception):
    def __init__(self, retry_after: int):
        super().__init__(f"Too many attempts; try again in {retry_after} s.")
        self.retry_after = retry_after


def check_password(email: str, password: str, address: str) -> list[DashboardUser]:
    """The active users with this address whose password this is: one, or several when the
    person chose the same password in several accounts. SignInRefused when there is none (the
    failure counted for the address and the client, and written in the log of each account the
    address is a user of), SignInThrottled past the limits."""
    email = normal_email(email)
    user_bucket = "email:" + email
    address_bucket = "address:" + (address or "")
    wait = max(_user_failures.blocked(user_bucket), _address_failures.blocked(address_bucket))
    if wait:
        raise SignInThrottled(wait)
    candidates = list(DashboardUser.select().where(DashboardUser.email == email)
                      .order_by(DashboardUser.created_at, DashboardUser.id)) if email else []
    # Every user's hash is computed, a right one early or not; an unknown address costs one.
    matches = [password_matches(password or "", user.password_hash) for user in candidates] \
        or [password_matches(password or "", None)]
    proven = [user for user, match in zip(candidates, matches)
              if match and user.status == "active"]
    if not proven:
        _user_failures.hit(user_bucket)
        _address_failures.hit(address_bucket)
        with atomic():  # an unknown address belongs to no account's log
            for user in candidates:
                _record(user, "session.sign_in_failed")
        raise SignInRefused()
    return proven


def sign_in(email: str, password: str, address: str) -> tuple[DashboardSession, str]:
    """Check the password; start a session in the first account whose password it is. Returns
    the session and the cookie's value. (The pages ask which account when there are several.)"""
    return start_session(check_password(email, password, address)[0])


# --- one address in several accounts: which one, once the password is proven -----------------

CHOICE_LIFETIME = dt.timedelta(minutes=5)


def account_choice(cookie_value: str, proven: list[DashboardUser]) -> str:
    """A token naming the users whose password the browser has just given, for the page that
    asks which account to open. Signed, bound to the browser's cookie, valid for five minutes
    and only while those users are active with the same address and password: nothing is
    stored, and no other browser can use it."""
    expires = _epoch(clock.utcnow() + CHOICE_LIFETIME)
    ids = ",".join(user.id for user in proven)
    return f"{expires}.{ids}.{_choice_signature(cookie_value, expires, proven)}"


def _epoch(moment: dt.datetime) -> int:
    return int(moment.replace(tzinfo=dt.timezone.utc).timestamp())


def _choice_signature(cookie_value: str, expires: int, proven: list[DashboardUser]) -> str:
    held = "|".join(f"{u.id}:{u.email}:{u.status}:{u.password_hash}" for u in proven)
    return secrets.sign("dashboard-account-choice", f"{cookie_value}|{expires}|{held}")


def chosen_user(cookie_value: str, choice: str, user_id: str) -> DashboardUser:
    """The user the browser chose among those of its `account_choice` token. SignInRefused for
    a token that is not this browser's, has expired or no longer holds (a password changed, a
    user disabled), or a user it does not name."""
    try:
        expires_text, ids_text, signature = (choice or "").split(".")
        expires, ids = int(expires_text), ids_text.split(",")
    except ValueError:
        raise SignInRefused() from None
    if not cookie_value or expires <= _epoch(clock.utcnow()) or user_id not in ids:
        raise SignInRefused()
    found = {u.id: u for u in DashboardUser.select().where(DashboardUser.id.in_(ids))}
    proven = [found[i] for i in ids if i in found]
    expected = _choice_signature(cookie_value, expires, proven)
    if len(proven) != len(ids) or not hmac.compare_digest(expected, signature) \
            or found[user_id].status != "active":
        raise SignInRefused()
    return found[user_id]


def choices_view(proven: list[DashboardUser]) -> list[dict]:
    """The accounts to choose among, by name, for the page shown after the password."""
    names = {a.id: a.name for a in Account.select().where(
        Account.id.in_([u.account_id for u in proven]))}
    views = [{"user_id": u.id, "account": names.get(u.account_id, u.account_id), "role": u.role}
             for u in proven]
    return sorted(views, key=lambda view: (view["account"].casefold(), view["user_id"]))


def _record(user: DashboardUser, action: str) -> None:
    """Sign-ins, failed sign-ins and sign-outs in the account's activity log (in a transaction)."""
    from rentalcomply.core import activity
    activity.record(user.account_id, "user", user.id, user.email or "", action, None)


def start_session(user: DashboardUser, *, remember: bool = False,
                  device: str | None = None) -> tuple[DashboardSession, str]:
    """A new session; `remember`: kept 30 days on this device with no idle end ("Keep me signed
    in"), its browser (`device`, from the User-Agent) named in the user's list of devices."""
    raw = random_base62(TOKEN_LENGTH)
    now = clock.utcnow()
    with atomic():
        session = DashboardSession.create(
            id_hash=_session_hash(raw), user=user.id, account=user.account_id, created_at=now,
            last_seen_at=now, expires_at=now + (REMEMBERED if remember else policy.absolute),
            remembered=remember, device=devices.device_name(device) if remember else None)
        DashboardUser.update(last_sign_in_at=now).where(DashboardUser.id == user.id).execute()
        _record(user, "session.sign_in")
    return session, raw


def _session_hash(raw: str) -> str:
    return secrets.sign("dashboard-session", raw)


def find_session(raw: str | None) -> tuple[DashboardSession, DashboardUser] | None:
    """The live session for a cookie value, with its user; expired ones are removed."""
    if not raw or len(raw) != TOKEN_LENGTH or not raw.isalnum():
        return None
    found = (DashboardSession.select(DashboardSession, DashboardUser)
             .join(DashboardUser).where(DashboardSession.id_hash == _session_hash(raw)).first())
    if found is None:
        return None
    now = clock.utcnow()
    user = found.user
    idle = not found.remembered and found.last_seen_at + policy.idle <= now
    if found.expires_at <= now or idle or user.status != "active":
        DashboardSession.delete().where(DashboardSession.id_hash == found.id_hash).execute()
        return None
    if now - found.last_seen_at >= TOUCH_RESOLUTION:
        (DashboardSession.update(last_seen_at=now)
         .where(DashboardSession.id_hash == found.id_hash).execute())
    return found, user


def end_session(raw: str | None) -> None:
    if raw:
        with atomic():
            session = DashboardSession.get_or_none(DashboardSession.id_hash == _session_hash(raw))
            if session is not None:
                _record(session.user, "session.sign_out")
                session.delete_instance()


def csrf_token(cookie_value: str) -> str:
    """The form token of a browser: bound to its session (or pre-session) cookie."""
    return secrets.sign("dashboard-csrf", cookie_value)


def csrf_matches(cookie_value: str | None, token: str | None) -> bool:
    if not cookie_value or not token:
        return False
    return hmac.compare_digest(csrf_token(cookie_value), token)


def forget_failures() -> None:
    """Clear the sign-in failure counts (tests)."""
    global _user_failures, _address_failures, _reset_per_email, _reset_per_address
    _reset_per_email = SlidingWindowLimiter(3, window=3600, name="password-reset-email")
    _reset_per_address = SlidingWindowLimiter(10, window=3600, name="password-reset-address")
    _user_failures = failure_counter(policy.failures_per_user, "user")
    _address_failures = failure_counter(policy.failures_per_address, "address")


