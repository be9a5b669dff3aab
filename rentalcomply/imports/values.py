"""Reading the values of an export: dates in the file's own order, amounts in the host's locale.

Dates: one format per file, fixed from every value of the date columns together (and the rule
that a stay ends after it starts), never from one row: `5/7/2026` is May in a US file and July in
a Spanish one. When every value fits two orders (all days up to 12), the order of the header's
language decides (US order for an English header, day first otherwise), and the report says so.

Amounts: `$412.50`, `"$1,020.00"`, `€100`, `-$50.00`, `$ 93,53` (non-breaking space, decimal
comma), `126.6314 EUR`, `1.020,50 €`: the currency from its symbol or ISO code, the sign, and the
decimal separator (the last of `,` and `.` when both appear; a lone `,` before one or two digits).
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

ISO = "%Y-%m-%d"
US = "%m/%d/%Y"
EUROPEAN = "%d/%m/%Y"
FORMAT_NAMES = {ISO: "YYYY-MM-DD", US: "MM/DD/YYYY", EUROPEAN: "DD/MM/YYYY",
                "%d.%m.%Y": "DD.MM.YYYY", "%d-%m-%Y": "DD-MM-YYYY"}
CANDIDATES = (ISO, US, EUROPEAN, "%d.%m.%Y", "%d-%m-%Y")
# Digits of an amount, cents included: far above any stay's price in any currency, far below
# what Decimal's 28-digit arithmetic keeps exactly.
MAX_AMOUNT_DIGITS = 15
SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP", "₺": "TRY", "kn": "HRK", "zł": "PLN", "Kč": "CZK",
           "CHF": "CHF", "R$": "BRL", "US$": "USD", "A$": "AUD", "C$": "CAD"}


class BadValue(ValueError):
    """A cell that cannot be read: what was expected, as an English template and its values
    (the dashboard translates it)."""

    def __init__(self, template: str, **values):
        super().__init__(template.format(**values))
        self.template, self.values = template, values


class BadDates(BadValue):
    """No one order reads every date; `likeliest` is the order most of them follow."""

    def __init__(self, likeliest: str):
        super().__init__("a real date as {format}, like the file's other dates",
                         format=FORMAT_NAMES[likeliest])
        self.likeliest = likeliest


def date_format(columns: list[list[str]], pairs: list[tuple[str, str]],
                day_first_language: bool) -> tuple[str, tuple[str, dict] | None]:
    """The one format that reads every value of the date columns, and a note when the order was
    ambiguous. `pairs`: (start, end) of each row, which must come in that order."""
    values = [_date_part(value) for column in columns for value in column if value.strip()]
    fitting = [fmt for fmt in CANDIDATES if all(_parses(value, fmt) for value in values)]
    fitting = [fmt for fmt in fitting
               if all(_parse(_date_part(end), fmt) > _parse(_date_part(start), fmt)
                      for start, end in pairs if start.strip() and end.strip())] or fitting
    if not fitting:
        # The order most cells follow; the refusal names the first cell that does not.
        likeliest = max(CANDIDATES, key=lambda fmt: sum(_parses(value, fmt) for value in values))
        raise BadDates(likeliest)
    if len(fitting) == 1:
        return fitting[0], None
    chosen = EUROPEAN if day_first_language and EUROPEAN in fitting else fitting[0]
    return chosen, ("every date fits more than one order; read as {format}, the usual order of "
                    "the file's language", {"format": FORMAT_NAMES[chosen]})


def parse_date(value: str, fmt: str) -> dt.date:
    try:
        return _parse(_date_part(value), fmt)
    except ValueError:
        raise BadValue("a date as {format}", format=FORMAT_NAMES.get(fmt, fmt)) from None


def _date_part(value: str) -> str:
    return value.strip().split(" ")[0].split("T")[0]


def _parse(value: str, fmt: str) -> dt.date:
    return dt.datetime.strptime(value, fmt).date()


def _parses(value: str, fmt: str) -> bool:
    try:
        _parse(value, fmt)
    except ValueError:
        return False
    return True


def parse_amount(value: str) -> tuple[int, str | None]:
    """(cents, ISO currency or None when the cell names none)."""
    text = value.replace("\xa0", " ").replace("\u202f", " ").strip()
    currency = None
    code = re.search(r"\b([A-Z]{3})\b", text)
    if code:
        currency = code.group(1)
        text = text.replace(code.group(1), "")
    else:
        for symbol in sorted(SYMBOLS, key=len, reverse=True):
            if symbol in text:
                currency = SYMBOLS[symbol]
                text = text.replace(symbol, "")
                break
    negative = "-" in text or "−" in text or (text.strip().startswith("(") and ")" in text)
    digits = re.sub(r"[^0-9.,]", "", text)
    if not re.search(r"[0-9]", digits) or re.search(r"[^0-9.,\s\-−()]", text):
        raise BadValue("an amount like 412.50, €1.020,50 or 126.6314 EUR")
    if len(re.sub(r"[^0-9]", "", digits)) > MAX_AMOUNT_DIGITS:
        # Decimal would round, then refuse to quantize, a number of 5,000 nines (issue 35: 500).
        raise BadValue("an amount of at most {digits} digits", digits=MAX_AMOUNT_DIGITS)
    try:
        amount = Decimal(_plain_number(digits))
    except InvalidOperation:
        raise BadValue("an amount like 412.50, €1.020,50 or 126.6314 EUR") from None
    cents = int((amount * 100).quantize(Decimal("1"), rounding=ROUND_HALF_UP))
    return (-cents if negative else cents), currency


def _plain_number(digits: str) -> str:
    if "," in digits and "." in digits:
        decimal = "," if digits.rfind(",") > digits.rfind(".") else "."
        thousands = "." if decimal == "," else ","
        return digits.replace(thousands, "").replace(decimal, ".")
    if "," in digits:
        if digits.count(",") == 1 and re.search(r",[0-9]{1,2}$", digits):
            return digits.replace(",", ".")
        return digits.replace(",", "")
    if digits.count(".") > 1:
        return digits.replace(".", "")
    return digits


def parse_count(value: str) -> int:
    text = value.strip()
    if not text:
        return 0
    try:
        number = Decimal(text.replace(",", "."))
    except InvalidOperation:
        raise BadValue("a whole number of people") from None
    if not number.is_finite() or number != number.to_integral_value() or not 0 <= number <= 100:
        raise BadValue("a whole number of people from 0 to 100")
    return int(number)
