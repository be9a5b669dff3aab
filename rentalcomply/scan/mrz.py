"""The machine-readable zone of a passport or identity card (ICAO 9303, TD1, TD2 and TD3): its
layout, its check digits, and the look-alike correction that lets the check digits choose.

Pure: lines of text in (with, optionally, the reader's other candidates for each character),
fields and the result of every check out. Knows nothing of images or of the web. The layouts and
the rules are in shared/domain/id-documents.md.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools

FILLER = "<"
ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ<"
LINE_LENGTHS = {"TD1": (30, 30, 30), "TD2": (36, 36), "TD3": (44, 44)}

# Characters OCR-B makes alike, both ways: where the layout wants a digit, a letter read there is
# the digit it resembles, and the other way round.
LETTER_FOR_DIGIT = {"0": "O", "1": "I", "2": "Z", "5": "S", "6": "G", "8": "B", "4": "A", "7": "T"}
DIGIT_FOR_LETTER = {"O": "0", "Q": "0", "D": "0", "U": "0", "I": "1", "L": "1", "Z": "2",
                    "S": "5", "G": "6", "B": "8", "A": "4", "T": "7"}
# Pairs the check digits may have to settle inside a field that holds both digits and letters.
LOOK_ALIKES = {"0": "OD", "O": "0D", "D": "0O", "1": "I", "I": "1", "8": "B", "B": "8",
               "5": "S", "S": "5", "2": "Z", "Z": "2", "<": "K", "K": "<", "6": "G", "G": "6"}


def check_digit(text: str) -> str:
    """ICAO 9303 Part 3: weights 7, 3, 1 over the values (0-9, A=10 ... Z=35, < = 0), mod 10."""
    total = 0
    for position, char in enumerate(text):
        if char.isdigit():
            value = int(char)
        elif "A" <= char <= "Z":
            value = ord(char) - 55
        elif char == FILLER:
            value = 0
        else:
            raise ValueError(f"not a machine-readable zone character: {char!r}")
        total += value * (7, 3, 1)[position % 3]
    return str(total % 10)


# --- layouts ---------------------------------------------------------------------------------------
# A field: (name, line, start, end) with 0-based, end-exclusive positions; its kind says which
# characters belong: "digits", "letters" (and the filler), "mixed", or "check" (a digit, or the
# filler where the layout allows an empty field's check to be one).

@dataclasses.dataclass(frozen=True)
class Field:
    name: str
    line: int
    start: int
    end: int
    kind: str


@dataclasses.dataclass(frozen=True)
class Check:
    """A check digit at (line, position) over `parts` (line, start, end), guarding `guards`."""
    name: str
    line: int
    position: int
    parts: tuple[tuple[int, int, int], ...]
    empty_may_be_filler: bool = False


def _td3_like(length: int, optional_end: int) -> tuple[list[Field], list[Check]]:
    fields = [
        Field("document_code", 0, 0, 2, "letters"), Field("issuing_country", 0, 2, 5, "letters"),
        Field("name", 0, 5, length, "letters"),
        Field("number", 1, 0, 9, "mixed"), Field("nationality", 1, 10, 13, "letters"),
        Field("birth_date", 1, 13, 19, "digits"), Field("sex", 1, 20, 21, "letters"),
        Field("expiry_date", 1, 21, 27, "digits"), Field("optional", 1, 28, optional_end, "mixed"),
    ]
    checks = [Check("number", 1, 9, ((1, 0, 9),)), Check("birth_date", 1, 19, ((1, 13, 19),)),
              Check("expiry_date", 1, 27, ((1, 21, 27),))]
    if length == 44:
        checks.append(Check("optional", 1, 42, ((1, 28, 42),), empty_may_be_filler=True))
    checks.append(Check("composite", 1, length - 1,
                        ((1, 0, 10), (1, 13, 20), (1, 21, length - 1))))
    return fields, checks


def _td1() -> tuple[list[Field], list[Check]]:
    fields = [
        Field("document_code", 0, 0, 2, "letters"), Field("issuing_country", 0, 2, 5, "letters"),
        Field("number", 0, 5, 14, "mixed"), Field("optional", 0, 15, 30, "mixed"),
        Field("birth_date", 1, 0, 6, "digits"), Field("sex", 1, 7, 8, "letters"),
        Field("expiry_date", 1, 8, 14, "digits"), Field("nationality", 1, 15, 18, "letters"),
        Field("optional_2", 1, 18, 29, "mixed"), Field("name", 2, 0, 30, "letters"),
    ]
    checks = [Check("number", 0, 14, ((0, 5, 14),)), Check("birth_date", 1, 6, ((1, 0, 6),)),
              Check("expiry_date", 1, 14, ((1, 8, 14),)),
              Check("composite", 1, 29, ((0, 5, 30), (1, 0, 7), (1, 8, 15), (1, 18, 29)))]
    return fields, checks


LAYOUTS = {"TD1": _td1(), "TD2": _td3_like(36, 35), "TD3": _td3_like(44, 42)}


def kinds(layout: str) -> list[list[str]]:
    """Per line and position, the kind of character the layout wants there."""
    fields, checks = LAYOUTS[layout]
    grid = [["mixed"] * length for length in LINE_LENGTHS[layout]]
    for field in fields:
        for position in range(field.start, field.end):
            grid[field.line][position] = field.kind
    for check in checks:
        grid[check.line][check.position] = "check"
    return grid


def fits(char: str, kind: str) -> bool:
    if kind == "digits":
        return char.isdigit()
    if kind == "check":
        return char.isdigit() or char == FILLER
    if kind == "letters":
        return char.isalpha() or char == FILLER
    return True


def as_kind(char: str, kind: str) -> str:
    """The character the layout means when `char` is read where `kind` belongs."""
    if fits(char, kind):
        return char
    if kind in ("digits", "check"):
        return DIGIT_FOR_LETTER.get(char, char)
    if kind == "letters":
        return LETTER_FOR_DIGIT.get(char, char)
    return char


# --- reading ---------------------------------------------------------------------------------------

@dataclasses.dataclass
class Reading:
    """What a zone says: the fields, each check's result, and whether all of them passed."""
    layout: str
    lines: list[str]
    fields: dict[str, str]
    checks: dict[str, bool]

    @property
    def valid(self) -> bool:
        return all(self.checks.values())

    @property
    def failed_checks(self) -> list[str]:
        return [name for name, passed in self.checks.items() if not passed]


def layout_of(lines: list[str]) -> str | None:
    lengths = tuple(len(line) for line in lines)
    for layout, expected in LINE_LENGTHS.items():
        if lengths == expected:
            return layout
    return None


def _check_passes(lines: list[str], check: Check) -> bool:
    digit = lines[check.line][check.position]
    text = "".join(lines[line][start:end] for line, start, end in check.parts)
    if check.empty_may_be_filler and set(text) <= {FILLER} and digit in (FILLER, "0"):
        return True
    if any(char not in ALPHABET for char in text):
        return False
    return digit == check_digit(text)


def read(lines: list[str], candidates: list[list[str]] | None = None,
         today: dt.date | None = None) -> Reading:
    """Parse a zone (TD1 three lines of 30, TD2 two of 36, TD3 two of 44). `candidates` holds, per
    line, a string per position: the reader's other guesses for that character, best first; the
    check digits pick among them and among the look-alikes. Raises ValueError for a shape that is
    no zone."""
    lines = [line.strip().upper().replace(" ", "") for line in lines]
    layout = layout_of(lines)
    if layout is None:
        raise ValueError("the lines have no machine-readable zone's shape (3 lines of 30, "
                         "2 of 36 or 2 of 44 characters)")
    options = _options(lines, layout, candidates)
    chosen = [[choices[0] for choices in line] for line in options]
    fields, checks = LAYOUTS[layout]
    _fill_tails(chosen, fields)
    for check in checks:
        _settle(chosen, options, check, checks)
    corrected = ["".join(line) for line in chosen]
    results = {check.name: _check_passes(corrected, check) for check in checks}
    return Reading(layout, corrected, _fields(corrected, layout, today), results)


def _options(lines, layout, candidates) -> list[list[list[str]]]:
    """Per position, the characters that may stand there, most likely first: the read one and the
    reader's candidates made to fit the layout, then their look-alikes."""
    grid = kinds(layout)
    options = []
    for line_index, line in enumerate(lines):
        row = []
        for position, char in enumerate(line):
            kind = grid[line_index][position]
            seen = [char]
            if candidates is not None:
                # Only what the reader itself found close: every change the check digits are
                # asked to choose spends some of their power to catch a misreading.
                seen += list(candidates[line_index][position])
            else:
                seen += list(LOOK_ALIKES.get(char, ""))
            choices: list[str] = []
            for guess in seen:
                meant = as_kind(guess, kind)
                if fits(meant, kind) and meant in ALPHABET and meant not in choices:
                    choices.append(meant)
            row.append(choices or [char])
        options.append(row)
    return options


def _fill_tails(chosen, fields: list[Field]) -> None:
    """A field's text is written from its start and padded with fillers: once the padding has
    begun (two fillers in a mixed field, three in a name, where one separates words and two the
    surname), a K there is a filler misread. The check digits cannot tell: K is 20, which a
    weight of 1 leaves unchanged modulo 10."""
    for field in fields:
        if field.kind == "digits" or field.end - field.start < 4:
            continue
        row = chosen[field.line]
        text = "".join(row[field.start:field.end]).replace("K", "k")
        padding = "<<<" if field.name == "name" else "<<"
        begins = text.find(padding)
        while begins != -1:
            tail = text[begins:]
            if set(tail) <= {"<", "k"}:
                for position in range(field.start + begins, field.end):
                    row[position] = FILLER
                break
            begins = text.find(padding, begins + 1)


def _settle(chosen, options, check: Check, checks: list[Check]) -> None:
    """If `check` fails, try the alternatives of the positions it covers (its own digit too),
    fewest changes first, keeping positions an earlier passing check already vouched for."""
    lines = ["".join(line) for line in chosen]
    if _check_passes(lines, check):
        return
    vouched = set()
    for other in checks:
        if other is check or other.name == "composite" or not _check_passes(lines, other):
            continue
        vouched |= {(line, p) for line, start, end in other.parts for p in range(start, end)}
        vouched.add((other.line, other.position))
    positions = [(line, p) for line, start, end in check.parts for p in range(start, end)]
    positions.append((check.line, check.position))
    open_positions = [(line, p) for line, p in positions
                      if (line, p) not in vouched and len(options[line][p]) > 1]
    for changes in range(1, 4):
        tried = 0
        for where in itertools.combinations(open_positions, changes):
            for picks in itertools.product(*(options[line][p][1:] for line, p in where)):
                trial = [list(row) for row in chosen]
                for (line, p), char in zip(where, picks):
                    trial[line][p] = char
                tried += 1
                if _check_passes(["".join(row) for row in trial], check):
                    for (line, p), char in zip(where, picks):
                        chosen[line][p] = char
                    return
                if tried > 20000:  # a zone this unsure is for the guest to type
                    return


def _fields(lines: list[str], layout: str, today: dt.date | None) -> dict[str, str]:
    field_list, _ = LAYOUTS[layout]
    raw = {f.name: lines[f.line][f.start:f.end] for f in field_list}
    surname, _, given = raw["name"].partition("<<")
    number = raw["number"]
    if layout == "TD1" and lines[0][14] == FILLER and raw["optional"].strip(FILLER):
        # A number longer than 9: it goes on in the optional data, then its own check digit.
        rest = raw["optional"].split(FILLER)[0]
        number = number + rest[:-1]
    optional = (raw["optional"] + raw.get("optional_2", "")).strip(FILLER)
    today = today or dt.date.today()
    return {
        "layout": layout,
        "document_code": raw["document_code"].rstrip(FILLER),
        "issuing_country": raw["issuing_country"].replace(FILLER, ""),
        "surname": surname.strip(FILLER).replace(FILLER, " "),
        "given_names": given.strip(FILLER).replace(FILLER, " ").strip(),
        "number": number.replace(FILLER, ""),
        "nationality": raw["nationality"].replace(FILLER, ""),
        "birth_date": _date(raw["birth_date"], today, birth=True),
        "sex": {"M": "M", "F": "F"}.get(raw["sex"], ""),
        "expiry_date": _date(raw["expiry_date"], today, birth=False),
        "optional_data": optional.replace(FILLER, " ").strip(),
    }


def _date(yymmdd: str, today: dt.date, *, birth: bool) -> str:
    """ISO date, or "" when it is not one. No century in the zone: a birth date takes the one that
    does not put it in the future, an expiry 20YY (id-documents.md, "Dates and sex")."""
    if not yymmdd.isdigit():
        return ""
    year, month, day = int(yymmdd[:2]), int(yymmdd[2:4]), int(yymmdd[4:])
    century = 2000
    if birth and 2000 + year > today.year:
        century = 1900
    try:
        return dt.date(century + year, month, day).isoformat()
    except ValueError:
        return ""


def compose(layout: str, **values: str) -> list[str]:
    """The zone's lines for the given raw values (generator and tests): document_code,
    issuing_country, name (already in MRZ form), number, nationality, birth_date, sex,
    expiry_date (YYMMDD), optional; check digits computed."""
    def pad(text: str, length: int) -> str:
        return (text + FILLER * length)[:length]
    code, issuer = pad(values["document_code"], 2), pad(values["issuing_country"], 3)
    number, nationality = pad(values["number"], 9), pad(values["nationality"], 3)
    birth, sex, expiry = values["birth_date"], values["sex"], values["expiry_date"]
    if layout == "TD1":
        line1 = code + issuer + number + check_digit(number) + pad(values.get("optional", ""), 15)
        optional_2 = pad(values.get("optional_2", ""), 11)
        line2 = birth + check_digit(birth) + sex + expiry + check_digit(expiry) + nationality
        line2 += optional_2
        line2 += check_digit(line1[5:30] + line2[0:7] + line2[8:15] + line2[18:29])
        return [line1, line2, pad(values["name"], 30)]
    length = LINE_LENGTHS[layout][0]
    line1 = code + issuer + pad(values["name"], length - 5)
    optional = pad(values.get("optional", ""), 14 if layout == "TD3" else 7)
    line2 = number + check_digit(number) + nationality + birth + check_digit(birth) + sex
    line2 += expiry + check_digit(expiry) + optional
    if layout == "TD3":
        line2 += check_digit(optional) if optional.strip(FILLER) else FILLER
    line2 += check_digit(line2[0:10] + line2[13:20] + line2[21:])
    return [line1, line2]
