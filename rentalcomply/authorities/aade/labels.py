"""The words of the human-readable files, in Greek (the default) and English (`reports.language`).

The words are the gettext catalogue `report` (rentalcomply/locale/{el,en}/LC_MESSAGES/report.po),
each named by its key as msgctxt (`title_month`, `month:3`, `payment:cash`). The figures keep their
own writing below (`money`, `date`), as the report has always printed them.
"""

from __future__ import annotations

from rentalcomply import locale as catalogues

LANGUAGES = ("el", "en")

DOMAIN = "report"


def text(key: str, language: str) -> str:
    """A word of the report by its key (the msgctxt of its entry in the catalogue `report`)."""
    return catalogues.catalogue(DOMAIN, language).text(key)


def period_name(year: int, month: int | None, language: str) -> str:
    return str(year) if month is None else f"{text(f'month:{month}', language)} {year}"


def money(cents: int, language: str) -> str:
    """`1.234,56 €` in Greek, `€1,234.56` in English."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    grouped = f"{whole:,}"
    if language == "el":
        return f"{sign}{grouped.replace(',', '.')},{part:02d} €"
    return f"{sign}€{grouped}.{part:02d}"


def date(day, language: str) -> str:
    return day.strftime("%d/%m/%Y") if language == "el" else day.isoformat()
