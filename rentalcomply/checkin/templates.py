"""The messages a host owns: the invitation, reminder and access e-mails, per guest language,
which the account's owner may rewrite (subject and body) on the dashboard, with placeholders for
what changes from guest to guest. Without a text of the account's own, the product's default
(checkin/i18n.py) is used, and a reset goes back to it.

A placeholder is a name in braces, `{guest_name}`, and nothing else: no format spec
(`{guest_name:>400000000}` would build a string of that width), no conversion (`!r`), no
attribute or index (`.x`, `[0]`). A text naming a placeholder that does not exist, or using any
of these, is refused, naming it, so that no guest ever receives a brace. Braces meant as text are
doubled. The subject holds at most SUBJECT_MAX characters and the text BODY_MAX.

A text saved before these rules (or written into the database by other means) that breaks them is
not used: the guest receives the default, a warning is logged and the dashboard's page of that
message says so; filling a text never raises out of a send.
"""

from __future__ import annotations

import datetime as dt
import logging
import string

from rentalcomply.checkin import i18n
from rentalcomply.checkin.models import MessageTemplate
from rentalcomply.core import clock
from rentalcomply.core.checks import control_character_problem
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import NotFound, ValidationError

log = logging.getLogger(__name__)

KINDS = ("invitation", "reminder", "access")
COMMON = ("guest_name", "property", "arrival", "departure", "link", "host_name", "host_phone",
          "host_email")
PLACEHOLDERS = {"invitation": COMMON + ("expires",), "reminder": COMMON + ("expires",),
                "access": COMMON + ("instructions",)}
# Characters; a guest's e-mail is read on a phone, and a longer text is a mistake, not a message.
SUBJECT_MAX, BODY_MAX = 200, 5000
# What the preview fills the placeholders with.
SAMPLE = {"guest_name": "Maria Papadopoulou", "property": "Villa Anemoi",
          "arrival": dt.date(2030, 6, 10), "departure": dt.date(2030, 6, 14),
          "link": "https://stay.example.org/checkin/0123456789abcdef0123456789abcdef",
          "host_name": "Eleni Markou", "host_phone": "+30 694 123 4567",
          "host_email": "eleni@example.com", "expires": dt.date(2030, 6, 16),
          "instructions": "Key box left of the door, code 4812.\nWi-Fi: Anemoi / sunset2030"}


def _check_kind(kind: str, lang: str) -> None:
    if kind not in KINDS or lang not in i18n.LANGUAGES:
        raise NotFound("No such message.")


def default(kind: str, lang: str) -> tuple[str, str]:
    """The product's text, written with the placeholders."""
    _check_kind(kind, lang)
    p = {name: "{" + name + "}" for name in PLACEHOLDERS[kind]}
    values = {"host": p["property"], "arrival": p["arrival"], "departure": p["departure"]}
    t = lambda key, **extra: i18n.text(lang, key, **{**values, **extra})  # noqa: E731
    contact = t("mail.contact", contact="{host_name} · {host_phone} · {host_email}")
    ending = f"{contact}\n\n{t('mail.signoff')}\n{p['property']}"
    greeting = t("mail.greeting", name=p["guest_name"])
    if kind == "access":
        return t("access.mail_subject"), "\n\n".join([
            greeting, t("access.mail_body"), p["instructions"], t("access.mail_page"), p["link"],
            ending])
    subject, body = (("reminder.subject", "reminder.body") if kind == "reminder"
                     else ("mail.subject", "mail.body"))
    return t(subject), "\n\n".join([greeting, t(body), p["link"],
                                    t("mail.valid", expires=p["expires"]), ending])


def current(account_id: str, kind: str, lang: str) -> tuple[str, str, bool]:
    """(subject, body, the account's own?)"""
    _check_kind(kind, lang)
    own = MessageTemplate.get_or_none((MessageTemplate.account == account_id)
                                      & (MessageTemplate.kind == kind)
                                      & (MessageTemplate.lang == lang))
    if own is None:
        return (*default(kind, lang), False)
    return own.subject, own.body, True


def own_template(account_id: str, kind: str, lang: str) -> tuple[str, str] | None:
    """The account's own text, or None (the default is then written by mail.py itself); None
    too for a saved text that breaks today's rules, so that the guest still gets an e-mail."""
    subject, body, own = current(account_id, kind, lang)
    if not own:
        return None
    if problems(kind, subject, body):
        log.warning("the account's own %s text (%s) breaks the template rules: the default "
                    "is sent instead", kind, lang)
        return None
    return subject, body


def validate(kind: str, subject: str, body: str) -> None:
    found = problems(kind, subject, body)
    if found:
        raise ValidationError(found)


def problems(kind: str, subject: str, body: str) -> list[dict]:
    """What is wrong with this subject and text, as the shared error's details; [] for none."""
    problems = []
    for field, text, longest in (("subject", subject, SUBJECT_MAX), ("body", body, BODY_MAX)):
        if not text.strip():
            problems.append({"field": field, "message": "must not be empty"})
            continue
        if len(text) > longest:
            problems.append({"field": field, "message": f"at most {longest} characters"})
        control = control_character_problem(text, multiline=field == "body")
        if control:
            problems.append({"field": field, "message": control})
            continue
        problem = _placeholder_problem(kind, text)
        if problem:
            problems.append({"field": field, "message": problem})
    return problems


def _fields(text: str) -> list[tuple[str, str | None, str | None, str | None]]:
    """The text as (literal, name, spec, conversion) pieces; ValueError for a stray brace."""
    return list(string.Formatter().parse(text))


def _placeholder_problem(kind: str, text: str) -> str | None:
    known = PLACEHOLDERS[kind]
    try:
        fields = [(name, spec, conversion) for _, name, spec, conversion in _fields(text)
                  if name is not None]
    except ValueError:
        return ("has a brace that opens no placeholder: write a placeholder like {guest_name}, "
                "or double a brace meant as text ({{ or }})")
    for name, spec, conversion in fields:
        shown = "{" + name + ("!" + conversion if conversion else "") \
            + (":" + spec if spec else "") + "}"
        if spec or conversion is not None:
            return (f"{shown[:40]} is not a plain placeholder: write the name alone in braces, "
                    "like {guest_name}, without ':' or '!'")
        if name not in known:
            plain = name.split(".")[0].split("[")[0]
            if plain in known:
                return (f"{shown[:40]} is not a plain placeholder: write the name alone in "
                        "braces, like {guest_name}, without '.' or '[]'")
            return (f"{shown[:40] if name else '{}'} is not a placeholder of this message; "
                    "the placeholders are " + ", ".join("{" + k + "}" for k in known))
    return None


def save(account_id: str, kind: str, lang: str, subject: str, body: str) -> None:
    _check_kind(kind, lang)
    subject, body = subject.strip(), body.replace("\r\n", "\n").strip()
    validate(kind, subject, body)
    now = clock.utcnow()
    with atomic():
        (MessageTemplate.insert(account=account_id, kind=kind, lang=lang, subject=subject,
                                body=body, updated_at=now)
         .on_conflict(conflict_target=[MessageTemplate.account, MessageTemplate.kind,
                                       MessageTemplate.lang],
                      update={MessageTemplate.subject: subject, MessageTemplate.body: body,
                              MessageTemplate.updated_at: now}).execute())


def reset(account_id: str, kind: str, lang: str) -> None:
    _check_kind(kind, lang)
    with atomic():
        MessageTemplate.delete().where((MessageTemplate.account == account_id)
                                       & (MessageTemplate.kind == kind)
                                       & (MessageTemplate.lang == lang)).execute()


def render(lang: str, subject: str, body: str, values: dict) -> tuple[str, str]:
    """The text with its placeholders filled (dates written as the language writes them).

    Each placeholder is replaced by its value and nothing else: str.format would obey a format
    spec or a conversion, which validate() refuses but a text already in the database may hold.
    Raises TemplateBroken for a text that breaks the rules."""
    shown = {name: i18n.format_date(lang, value) if isinstance(value, dt.date) else (value or "")
             for name, value in values.items()}
    return _fill(subject, shown), _fill(body, shown)


class TemplateBroken(ValueError):
    """A text with something other than known, plain placeholders: not sent."""


def _fill(text: str, values: dict) -> str:
    try:
        pieces = _fields(text)
    except ValueError:
        raise TemplateBroken("a stray brace") from None
    out = []
    for literal, name, spec, conversion in pieces:
        out.append(literal)
        if name is None:
            continue
        if spec or conversion is not None or name not in values:
            raise TemplateBroken("not a plain placeholder of this message")
        out.append(str(values[name]))
    return "".join(out)


def preview(kind: str, lang: str, subject: str, body: str) -> tuple[str, str]:
    validate(kind, subject, body)
    return render(lang, subject, body, {k: SAMPLE[k] for k in PLACEHOLDERS[kind]})
