"""The dashboard's words, from the gettext catalogue `messages` (rentalcomply/locale/).

`translate("it", "Today")` gives "Oggi": the msgid is the English text, or a key (`done:…`,
`kind:…`, a status code) that is the msgctxt of an English msgid (rentalcomply/locale/__init__.py).
A text missing from a language's catalogue falls back to English; `{name}` placeholders are filled
after translation. The catalogues are read once per language and kept, so a lookup costs one dict
access, however many thousand a page makes.

Dates, numbers, money, month, weekday and country names come from CLDR (Babel) in the person's
language (LOCALES), in pages and e-mails; API payloads keep ISO values.
"""

from __future__ import annotations

import datetime as dt
import functools
import zoneinfo

import babel
import babel.dates
import babel.numbers

from rentalcomply import locale as catalogues
from rentalcomply.core import clock

DOMAIN = "messages"
# The dashboard's languages, as each names itself in the language menu.
LANGUAGES = ("en", "el", "it", "es", "pt")
LANGUAGE_NAMES = {"en": "English", "el": "Ελληνικά", "it": "Italiano", "es": "Español",
                  "pt": "Português"}
# Day before month, a 24-hour clock, as hosts expect; European Portuguese and Spanish of Spain.
LOCALES = {"en": "en_GB", "el": "el_GR", "it": "it_IT", "es": "es_ES", "pt": "pt_PT"}
# The channels' names: a brand stays itself; "Direct" and "Other" are words (msgctxt "channel").
CHANNELS = {"manual": "Direct", "airbnb": "Airbnb", "booking": "Booking.com", "vrbo": "Vrbo",
            "other": "Other"}


def language(value: str | None) -> str:
    """One of LANGUAGES for a stored or asked language (`it-IT`, `PT`, None...); else English."""
    base = (value or "").replace("_", "-").split("-")[0].strip().lower()
    return base if base in LANGUAGES else "en"


def accepted_language(header: str | None) -> str | None:
    """The first of LANGUAGES an Accept-Language header asks for, by its q weights, or None."""
    ranked = []
    for position, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        base = tag.strip().split("-")[0].lower()
        if base in LANGUAGES and quality > 0:
            ranked.append((-quality, position, base))
    return min(ranked)[2] if ranked else None


def catalogue(lang: str) -> catalogues.Catalogue:
    return catalogues.catalogue(DOMAIN, lang if lang in LANGUAGES else "en")


def translate(lang: str, text: str, **values) -> str:
    result = catalogue(lang).text(text)
    return result.format(**values) if values else result


def has_translation(lang: str, text: str) -> bool:
    """The language's own catalogue has the text (not only through the English fallback)."""
    return catalogue(lang).has(text)


def _zone(name: str | None) -> dt.tzinfo:
    try:
        return zoneinfo.ZoneInfo(name or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return dt.timezone.utc


def zone_label(local: dt.datetime) -> str:
    """EET / EEST / CET / UTC where the zone has a name; `+04` style offsets are shown as UTC+4."""
    label = local.strftime("%Z")
    if not label or label[0] in "+-":
        offset = local.utcoffset() or dt.timedelta(0)
        hours, rest = divmod(int(offset.total_seconds()), 3600)
        label = "UTC" + (f"{hours:+d}" if hours or rest else "") + (f":{rest // 60:02d}" if rest else "")
    return label


# Kept per value: a busy page (the calendar of every property) shows the same few dozen dates and
# counts thousands of times, and Babel's formatting of each was most of the page's time.
@functools.lru_cache(maxsize=4096)
def _formatted_date(value: dt.date, pattern: str, locale) -> str:
    return babel.dates.format_date(value, pattern, locale=locale)


@functools.lru_cache(maxsize=4096)
def _formatted_integer(value: int, locale) -> str:
    return babel.numbers.format_decimal(value, locale=locale)


class Formatter:
    """Dates, times, numbers, money and plural forms in the page's language, from Babel's CLDR
    data; every time shown in a time zone that is named beside it (the property's for what
    belongs to a property, else the account's)."""

    def __init__(self, lang: str, timezone: str = "UTC"):
        self.lang = lang if lang in LANGUAGES else "en"
        self.locale = babel.Locale.parse(LOCALES.get(lang, "en_GB"))
        self.timezone = _zone(timezone)

    def today(self) -> dt.date:
        """The date in this formatter's zone (the account's on its pages), not UTC's."""
        return self.local(clock.utcnow()).date()

    def date(self, value) -> str:
        if value is None:
            return "—"
        if isinstance(value, str):
            value = dt.date.fromisoformat(value)
        return _formatted_date(value, "EEE d MMM y", self.locale)

    def short_date(self, value) -> str:
        """Without the weekday, for ranges in lists and birth dates."""
        if value is None:
            return "—"
        if isinstance(value, str):
            value = dt.date.fromisoformat(value)
        return _formatted_date(value, "d MMM y", self.locale)

    def local(self, value: dt.datetime, timezone: str | None = None) -> dt.datetime:
        """A stored time (naive UTC) in the given zone, else the page's."""
        zone = _zone(timezone) if timezone else self.timezone
        if value.tzinfo is None:
            value = value.replace(tzinfo=dt.timezone.utc)
        return value.astimezone(zone)

    def datetime(self, value, timezone: str | None = None) -> str:
        """`Mon 23 Nov 2026, 21:44 EET`: the zone's abbreviation (or offset) names it."""
        if value is None:
            return "—"
        local = self.local(value, timezone)
        time = babel.dates.format_time(local, "HH:mm", locale=self.locale)
        return f"{self.date(local.date())}, {time} {zone_label(local)}"

    def country(self, code: str | None) -> str:
        """`IT` → `Italy`, `Ιταλία`: the country's name in the page's language, from CLDR."""
        if not code:
            return "—"
        return self.locale.territories.get(code.upper(), code)

    def document(self, kind: str | None, number: str | None, country: str | None) -> str:
        """`Passport ******567, Italy`: a guest's document as a person reads it."""
        name = translate(self.lang, "document:" + kind) if kind else ""
        text = " ".join(x for x in (name, number or "") if x)
        if country:
            text = f"{text}, {self.country(country)}" if text else self.country(country)
        return text or "—"

    def stay(self, arrival: dt.date, departure: dt.date) -> str:
        """`12–15 Mar 2027`, `30 Mar – 2 Apr 2027`: a stay's dates as the language writes a range."""
        return babel.dates.format_interval(arrival, departure, "yMMMd", locale=self.locale)

    def month(self, value: dt.date) -> str:
        return babel.dates.format_date(value, "LLLL y", locale=self.locale).capitalize()

    def weekdays(self) -> list[str]:
        names = self.locale.days["stand-alone"]["abbreviated"]
        return [names[i] for i in range(7)]  # Monday first

    def number(self, value) -> str:
        if isinstance(value, int):
            return _formatted_integer(value, self.locale)
        return babel.numbers.format_decimal(value, locale=self.locale)

    def count(self, word: str, n: int) -> str:
        """`1 night`, `2 nights`, `1 νύχτα`: the catalogue's entry named `word` (its msgctxt),
        the form chosen by the catalogue's Plural-Forms."""
        return catalogue(self.lang).plural(word, n).format(n=self.number(n))

    def money(self, cents) -> str:
        if cents is None:
            return "—"
        return babel.numbers.format_currency(int(cents) / 100, "EUR", locale=self.locale)

    def period(self, period) -> str:
        """A report's period, `{"year", "month"}` or its code's `YYYY-MM` / `YYYY`."""
        if isinstance(period, dict):
            year, month = period["year"], period.get("month")
        else:
            year, _, month = str(period).partition("-")
            month = int(month) if month else None
        return self.month(dt.date(int(year), int(month), 1)) if month else str(year)

    def euros(self, amount) -> str:
        return "—" if amount is None else self.money(round(float(amount) * 100))

    def iso_datetime(self, text: str | None, timezone: str | None = None) -> str:
        if not text:
            return "—"
        return self.datetime(dt.datetime.fromisoformat(text.replace("Z", "+00:00")), timezone)

    def status(self, code: str) -> str:
        return translate(self.lang, code)

    def channel(self, code: str) -> str:
        name = CHANNELS.get(code)
        return translate(self.lang, "channel:" + code) if name else code


