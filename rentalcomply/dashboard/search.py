"""Finding a booking from the header's search box: by any guest's name, e-mail or phone, the
channel's confirmation code or the booking's own reference.

What a person types is compared as `fold` makes it: accents and case dropped ("Lucía" is "lucia",
"Ά" is "α"), words in any order (every word must be found, each at the start of a word of the
booking), a phone by its digits whatever the spaces, dashes or country code.

The terms live in `dashboard_search_term`, one row per word, so a search is an indexed lookup
however many bookings the account holds, not a pass over them:
- what the booking row holds in clear (the lead guest's name, e-mail and phone, the channel's
  code, the reference) is kept as folded text, and found by its beginning ("ferr" finds Ferrari);
- the other guests' names, e-mail addresses and phones come from the check-in's party, which is
  sealed at rest (checkin/service.py): they are kept only as HMACs under the server secret, so the
  index gives none of them away to a copy of the database, and are found by the whole word.
  Opening every party on every search was the other way; it costs a decryption per booking and
  grows with the account, where the index costs one per change.

The terms of a booking are made again when its version or its check-in's has changed since they
were made (`dashboard_search_stamp`): every way a booking changes (the API, a channel's sync, an
import, the guest's page) bumps one of them, so nothing has to call this module when it writes.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata

import peewee as pw

from rentalcomply.bookings.reference import short_reference
from rentalcomply.checkin import service as checkin
from rentalcomply.checkin.models import Checkin
from rentalcomply.core import secrets
from rentalcomply.core.db import atomic, db
from rentalcomply.core.models import Booking, Property
from rentalcomply.dashboard.models import DashboardSearchStamp, DashboardSearchTerm

RESULTS = 50
TERM_MAX = 100
# A phone is known by its last nine digits: "+39 333 123 4567", "0039 3331234567" and
# "333 1234567" are the same number, and nine digits do not collide within an account.
PHONE_DIGITS = 9
PHONE_MIN = 6  # fewer digits than this are a word (a channel's code), not a phone
HASHED = "h:"
PHONE = "t:"
# Letters that Unicode does not decompose into a base letter and an accent.
_LETTERS = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "æ": "ae",
                          "œ": "oe", "ı": "i", "ħ": "h"})
_WORD = re.compile(r"[^\W_]+")
_PHONE_FORMATTING = re.compile(r"[\s\-‐‑–—().+/]")


def fold(text: str | None) -> str:
    """The text as searches compare it: no accents, no case."""
    decomposed = unicodedata.normalize("NFKD", (text or "").casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return plain.translate(_LETTERS)


def words(text: str | None) -> list[str]:
    """The folded words of a text: "Lucía D'Angelo-Rossi" is lucia, d, angelo, rossi."""
    return _WORD.findall(fold(text))


def phone_digits(text: str | None) -> str | None:
    """The digits of what looks like a phone number (at least 6 digits and only formatting
    besides), without an international prefix's 00; else None."""
    compact = _PHONE_FORMATTING.sub("", text or "")
    if len(compact) < PHONE_MIN or not compact.isdigit():
        return None
    return compact[2:] if compact.startswith("00") else compact


def text_terms(text: str | None) -> set[str]:
    """The terms of a name, an address or a code: its words, and each run of text between spaces
    without its punctuation ("d'angelo" as dangelo, "K7MP-Q42X" as k7mpq42x)."""
    terms = set(words(text))
    for chunk in fold(text).split():
        joined = "".join(_WORD.findall(chunk))
        if joined:
            terms.add(joined)
    return {term[:TERM_MAX] for term in terms}


def phone_term(text: str | None) -> str | None:
    """A phone's term: its digits reversed, so that a number is found by its ending (the part
    that stays the same with or without the country code) with an indexed prefix lookup."""
    digits = re.sub(r"\D", "", text or "")
    return PHONE + digits[::-1][:TERM_MAX] if len(digits) >= PHONE_MIN else None


def hashed(term: str) -> str:
    return HASHED + secrets.sign("dashboard-search", term)[:40]


def booking_terms(booking, party: dict) -> set[str]:
    """Every term a booking is found by: the booking row's in clear, the party's hashed.
    `booking`: a Booking, or any object with its guest_* fields, external_ref and id."""
    clear = set()
    for text in (booking.guest_name, booking.guest_email, booking.external_ref,
                 short_reference(booking.id)):
        clear |= text_terms(text)
    if phone_term(booking.guest_phone):
        clear.add(phone_term(booking.guest_phone))
    sealed = set()
    for guest in party.get("guests", []):
        for name in ("first_name", "last_name", "second_last_name", "email"):
            sealed |= text_terms(guest.get(name))
        digits = re.sub(r"\D", "", guest.get("phone") or "")
        if len(digits) >= PHONE_MIN:
            sealed.add(PHONE + digits[-PHONE_DIGITS:])
    return clear | {hashed(term) for term in sealed - clear}


# --- keeping the terms up to date ---------------------------------------------------------------

@dataclasses.dataclass
class _Row:
    """What a booking's terms are made of, read as plain values (thousands at a first search)."""
    id: str
    version: int
    guest_name: str
    guest_email: str | None
    guest_phone: str | None
    external_ref: str | None
    checkin_version: int


def refresh(account_id: str) -> int:
    """Make the terms of the account's bookings that changed since theirs were made; returns how
    many. The first search of an account makes them all."""
    if _up_to_date(account_id):
        return 0
    checkin_version = pw.fn.COALESCE(Checkin.version, 0)
    stale = [_Row(*values) for values in
             Booking.select(Booking.id, Booking.version, Booking.guest_name, Booking.guest_email,
                            Booking.guest_phone, Booking.external_ref, checkin_version)
             .join(Checkin, pw.JOIN.LEFT_OUTER, on=(Checkin.booking == Booking.id))
             .join(DashboardSearchStamp, pw.JOIN.LEFT_OUTER,
                   on=(DashboardSearchStamp.booking == Booking.id))
             .where((Booking.account == account_id) & (Booking.is_block == False)  # noqa: E712
                    & (DashboardSearchStamp.booking.is_null()
                       | (DashboardSearchStamp.booking_version != Booking.version)
                       | (DashboardSearchStamp.checkin_version != checkin_version)))
             .tuples()]
    for start in range(0, len(stale), 500):  # short transactions: others write meanwhile
        try:
            with atomic():
                _remake(stale[start:start + 500], account_id)
        except pw.IntegrityError:
            pass  # another search made these at the same moment: theirs stand
    return len(stale)


def _up_to_date(account_id: str) -> bool:
    """Whether every booking's terms were made from its present versions, read from two sums
    rather than a join of every booking with its stamp: versions only grow and a stamp only
    records one that was, so the sums are equal only when nothing changed."""
    live = (Booking.account == account_id) & (Booking.is_block == False)  # noqa: E712
    count, versions = (Booking.select(pw.fn.COUNT(Booking.id), pw.fn.SUM(Booking.version))
                       .where(live).tuples().get())
    checkins = (Checkin.select(pw.fn.SUM(Checkin.version))
                .join(Booking, on=(Checkin.booking == Booking.id)).where(live).scalar())
    stamps, stamped = (DashboardSearchStamp.select(
        pw.fn.COUNT(DashboardSearchStamp.booking),
        pw.fn.SUM(DashboardSearchStamp.booking_version + DashboardSearchStamp.checkin_version))
        .where(DashboardSearchStamp.account == account_id).tuples().get())
    return count == stamps and (versions or 0) + (checkins or 0) == (stamped or 0)


def _remake(rows: list[_Row], account_id: str) -> None:
    ids = [row.id for row in rows]
    sealed = dict(Checkin.select(Checkin.booking, Checkin.guests_sealed)
                  .where(Checkin.booking.in_(ids) & Checkin.guests_sealed.is_null(False)).tuples())
    DashboardSearchTerm.delete().where(DashboardSearchTerm.booking.in_(ids)).execute()
    DashboardSearchStamp.delete().where(DashboardSearchStamp.booking.in_(ids)).execute()
    terms = []
    for row in rows:
        party = _party(row.id, sealed.get(row.id))
        terms += [(account_id, row.id, term) for term in sorted(booking_terms(row, party))]
    # Plain parameters: peewee's building of an INSERT of thousands of rows cost more than the
    # database's work.
    mark = db.param
    cursor = db.cursor()
    cursor.executemany('INSERT INTO "dashboard_search_term" ("account_id", "booking_id", "term") '
                       f"VALUES ({mark}, {mark}, {mark})", terms)
    cursor.executemany('INSERT INTO "dashboard_search_stamp" ("booking_id", "account_id", '
                       '"booking_version", "checkin_version") '
                       f"VALUES ({mark}, {mark}, {mark}, {mark})",
                       [(row.id, account_id, row.version, row.checkin_version) for row in rows])


def _party(booking_id: str, sealed: str | None) -> dict:
    """The party of a check-in, or none when it cannot be opened (the server secret changed):
    the booking is still found by what its row holds."""
    if not sealed:
        return {"guests": []}
    try:
        return checkin.load_party(Checkin(booking=booking_id, guests_sealed=sealed))
    except Exception:
        return {"guests": []}


# --- searching ----------------------------------------------------------------------------------

@dataclasses.dataclass
class Found:
    booking: Booking
    property_name: str
    guests: list[str]  # every guest's name, the lead guest first
    reference: str


def matching(account_id: str, text: str) -> list[Booking]:
    """The account's bookings every word of `text` finds, the latest arrival first."""
    query = Booking.select().where((Booking.account == account_id)
                                   & (Booking.is_block == False))  # noqa: E712
    found = narrowed(query, account_id, text)
    if found is None:
        return []
    return list(found.order_by(Booking.arrival_date.desc(), Booking.id).limit(RESULTS))


def narrowed(query, account_id: str, text: str):
    """`query` (of the account's bookings) narrowed to those every word of `text` finds, as the
    header's search finds them; None when `text` has nothing to look for."""
    conditions = _conditions(text)
    if not conditions:
        return None
    refresh(account_id)
    for alternatives in conditions:
        # A UNION of one lookup per alternative rather than an OR: each is a range of the
        # (account, term) index, where an OR made the planner read every term of the account.
        found = None
        for condition in alternatives:
            lookup = DashboardSearchTerm.select(DashboardSearchTerm.booking).where(
                (DashboardSearchTerm.account == account_id) & condition)
            found = lookup if found is None else found | lookup
        query = query.where(Booking.id.in_(found))
    return query


def _conditions(text: str) -> list[list]:
    """For each thing typed (a phone number as a whole, else each word) the conditions on a term
    that find it, any of them."""
    term = DashboardSearchTerm.term
    digits = phone_digits(text)
    if digits is not None:
        ending = digits[-PHONE_DIGITS:]
        found = [_starts_with(PHONE + ending[::-1]), _starts_with(digits)]
        if len(ending) == PHONE_DIGITS:
            found.append(term == hashed(PHONE + ending))
        return [found]
    return [[_starts_with(word[:TERM_MAX]), term == hashed(word[:TERM_MAX])]
            for word in sorted(set(words(text)))]


def _starts_with(prefix: str):
    """Terms beginning with `prefix`, as a range of the (account, term) index rather than a LIKE
    (which SQLite's index serves only for a case-insensitive column): from the prefix up to the
    next one in code-point order, which PostgreSQL's "C" collation and SQLite's compare by."""
    term = DashboardSearchTerm.term
    if isinstance(getattr(db, "obj", db), pw.PostgresqlDatabase):
        term = pw.NodeList((term, pw.SQL('COLLATE "C"')))
    following = prefix[:-1] + chr(ord(prefix[-1]) + 1)
    return (term >= prefix) & (term < following)


def search(account_id: str, text: str) -> list[Found]:
    """What the results page shows of each booking found."""
    found = matching(account_id, text)
    names = {p.id: p.name for p in Property.select(Property.id, Property.name)
             .where(Property.id.in_({b.property_id for b in found}))}
    sealed = dict(Checkin.select(Checkin.booking, Checkin.guests_sealed)
                  .where(Checkin.booking.in_([b.id for b in found])).tuples())
    return [Found(booking, names.get(booking.property_id, ""),
                  _guest_names(booking, _party(booking.id, sealed.get(booking.id))),
                  short_reference(booking.id)) for booking in found]


def _guest_names(booking: Booking, party: dict) -> list[str]:
    names = [booking.guest_name]
    for guest in party.get("guests", []):
        name = " ".join(part for part in (guest.get("first_name"), guest.get("last_name"),
                                          guest.get("second_last_name")) if part)
        if name and fold(name) not in {fold(known) for known in names}:
            names.append(name)
    return names

