"""The guest party: which fields a property's country asks, and their validation.

One set of rules for the guest page and the guests API, so both accept exactly the same party.
A guest is a flat dict of strings (dates `YYYY-MM-DD`, countries ISO 3166-1 alpha-2). Problems
are `Problem(path, key, values)`: `path` like `guests[1].document_number`, `key` a message of
`i18n` (`msg.*`), so the page shows them in the guest's language and the API in English.

What each country adds to the fields asked everywhere (see the police formats):
- IT: sex; municipality and province of birth when born in Italy; country of residence, and a
  resident of Italy's comune and province, a resident abroad's town (checkin/residence.py: the
  monthly statistics count Italians by province, foreigners by country); place of issue;
  each guest's role in the party (single, head of family or group, family or group member).
  Family and group members give no document: Alloggiati Web files them after their head with the
  document fields blank (guest types 19 and 20), so the page does not ask for one and the guests
  API accepts one from a member but drops it (it is neither kept nor filed). Members need their
  head: a party of several has a head of family or a group leader, whose members they are.
  Municipalities are taken by name with the 2-letter province code and coded from the police code
  tables (rentalcomply/codes).
- ES: sex; second surname for Spanish nationals; the support number of a Spanish DNI/NIE; the
  full address and a phone or e-mail of every adult (a minor's are the lead guest's: see
  authorities/ses/format.py); a signature from every guest aged 14 or over; documents from 14.
- PT: sex; country and place of residence.
Minors (under 18 on arrival day) give their relationship to the lead guest instead of needing a
document (in Spain from 14 they need one); the lead guest must be an adult.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import datetime as dt
import re
import unicodedata
from functools import lru_cache
from importlib import resources

from rentalcomply.checkin import residence
from rentalcomply.core import clock
from rentalcomply.core.checks import control_character_problem
from stdnum import exceptions as stdnum_errors
from stdnum.es import dni as es_dni
from stdnum.es import nie as es_nie
from stdnum.es import nif as es_nif
from stdnum.gr import vat as gr_afm
from stdnum.it import codicefiscale as it_codicefiscale
from stdnum.pt import cc as pt_cc
from stdnum.pt import nif as pt_nif

TEXT_MAX = 200
SIGNATURE_MAX_BYTES = 200_000
ADULT_AGE = 18
OLDEST_AGE = 120
SEXES = ("M", "F")
DOCUMENT_TYPES = ("passport", "id_card", "residence_permit", "driving_licence")
LEAD_RELATIONSHIPS = ("single", "head_of_family", "head_of_group")
MEMBER_RELATIONSHIPS = ("family_member", "group_member")
MINOR_RELATIONSHIPS = ("parent", "legal_guardian", "grandparent", "sibling", "other_relative",
                       "other")
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
PHONE_RE = re.compile(r"^\+?[0-9 ().-]{6,25}$")
PROVINCE_RE = re.compile(r"^[A-Z]{2}$")
DOCUMENT_RE = re.compile(r"^[A-Z0-9Α-Ω]{5,20}$")
SIGNATURE_PREFIX = "data:image/png;base64,"


@dataclasses.dataclass(frozen=True)
class FieldDef:
    name: str
    kind: str  # text, date, country, choice, email, phone, signature
    choices: tuple[str, ...] = ()
    group: str = "person"  # person, document, address, contact, signature
    hint: bool = False


FIELDS: dict[str, FieldDef] = {f.name: f for f in (
    FieldDef("first_name", "text"),
    FieldDef("last_name", "text"),
    FieldDef("second_last_name", "text"),
    FieldDef("sex", "choice", SEXES),
    FieldDef("birth_date", "date"),
    FieldDef("birth_country", "country"),
    FieldDef("birth_municipality", "text"),
    FieldDef("birth_province", "text", hint=True),
    FieldDef("nationality", "country"),
    FieldDef("relationship", "choice", LEAD_RELATIONSHIPS + MEMBER_RELATIONSHIPS),
    FieldDef("minor_relationship", "choice", MINOR_RELATIONSHIPS),
    FieldDef("document_type", "choice", DOCUMENT_TYPES, group="document"),
    FieldDef("document_number", "text", group="document", hint=True),
    FieldDef("document_country", "country", group="document"),
    FieldDef("document_issue_place", "text", group="document"),
    FieldDef("document_support_number", "text", group="document", hint=True),
    FieldDef("tax_id", "text", group="document"),
    FieldDef("address_street", "text", group="address"),
    FieldDef("address_city", "text", group="address"),
    FieldDef("address_postcode", "text", group="address"),
    FieldDef("address_country", "country", group="address"),
    FieldDef("residence_country", "country", group="address"),
    FieldDef("residence_place", "text", group="address"),
    FieldDef("residence_comune", "text", group="address"),
    FieldDef("residence_province", "text", group="address", hint=True),
    FieldDef("email", "email", group="contact", hint=True),
    FieldDef("phone", "phone", group="contact"),
    FieldDef("signature", "signature", group="signature", hint=True),
)}
# What the guests API reads back besides the fields (never written by a client).
READ_ONLY = ("role",)


@dataclasses.dataclass(frozen=True)
class Problem:
    path: str
    key: str
    values: tuple = ()

    def message(self, lang: str) -> str:
        from rentalcomply.checkin import i18n
        values = dict(self.values)
        if "choices" in values:  # the options, named as the page shows them in this language
            values["options"] = ", ".join(i18n.text(lang, f"choice.{values['field']}.{choice}")
                                          for choice in values["choices"])
        return i18n.text(lang, self.key, **values)


def choice_of(name: str, choices: tuple[str, ...]) -> tuple[str, tuple]:
    """The message key and values of "Choose one of: ...", naming the field's options."""
    return "msg.choice_of", (("field", name), ("choices", tuple(choices)))


@lru_cache(maxsize=1)
def country_codes() -> tuple[str, ...]:
    """The ISO 3166-1 alpha-2 codes a guest may name (shipped in the package)."""
    raw = resources.files("rentalcomply.checkin").joinpath("data/countries.txt").read_text("utf-8")
    return tuple(line.strip() for line in raw.splitlines()
                 if line.strip() and not line.startswith("#"))


def country_name(code: str, lang: str) -> str:
    """A country's name in the page's language, from CLDR through Babel (never hand-typed:
    "Argelia", "Túnez", "Surinam" in Spanish), or the code itself when CLDR has none."""
    from rentalcomply.checkin import i18n
    return i18n.territory_names(lang).get(code, code)


@lru_cache(maxsize=1)
def countries() -> dict[str, dict[str, str]]:
    """Every code a guest may name, with its name in each language of the page."""
    from rentalcomply.checkin import i18n
    return {code: {lang: country_name(code, lang) for lang in i18n.LANGUAGES}
            for code in country_codes()}


@lru_cache(maxsize=16)
def country_choices(lang: str) -> list[tuple[str, str]]:
    """(code, name) sorted as a reader of the language expects: accents do not move a name."""
    return sorted(((code, country_name(code, lang)) for code in country_codes()),
                  key=lambda pair: _sort_key(pair[1]))


@lru_cache(maxsize=1)
def _known_countries() -> frozenset[str]:
    return frozenset(country_codes())


def _sort_key(name: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", name.casefold())
                   if not unicodedata.combining(c))


# --- which fields a guest is asked ---------------------------------------------------------------

def document_age(country: str) -> int:
    return 14 if country == "ES" else ADULT_AGE


def asked_fields(country: str, index: int) -> list[str]:
    """Every field the page shows for guest `index` of a party in `country`, in page order.

    Some of them apply only in a case (born in Italy, a Spanish document, a minor): the page hides
    them until the case arises; `required_fields` says which a given guest must fill."""
    names = ["first_name", "last_name"]
    if country == "ES":
        names.append("second_last_name")
    names += ["sex", "birth_date"]
    if country == "IT":
        names += ["birth_country", "birth_municipality", "birth_province"]
    names.append("nationality")
    names.append("relationship" if country == "IT" else None)
    if index > 0:
        names.append("minor_relationship")
    names += ["document_type", "document_number", "document_country"]
    if country == "IT":
        names.append("document_issue_place")
    if country == "ES":
        names.append("document_support_number")
    if country in ("GR", "IT", "ES", "PT"):
        names.append("tax_id")
    if country == "ES":
        names += ["address_street", "address_city", "address_postcode", "address_country"]
    if country == "PT":
        names += ["residence_country", "residence_place"]
    if country == "IT":
        names += list(ITALIAN_RESIDENCE)
    if index == 0 or country == "ES":
        names += ["email", "phone"]
    if country == "ES":
        names.append("signature")
    return [name for name in names if name]


# Where an Italian property's guest lives (checkin/residence.py): the country; a resident of
# Italy's comune and province, a resident abroad's town (ROSS 1000 `luogoresidenza`).
ITALIAN_RESIDENCE = ("residence_country", "residence_comune", "residence_province",
                     "residence_place")
RESIDENCE_IN_ITALY = residence.RESIDENCE_IN_ITALY


# What a Greek stay's declaration to AADE needs (the only thing a Greek property files): the lead
# guest's name, and their Greek tax number (ΑΦΜ, for a Greek national) or else passport number;
# the booking's reference stands in when neither is given. The page asks nothing else, and
# nothing of the other guests; the guests API still takes what asked_fields lists.
GREEK_LEAD_FIELDS = ("first_name", "last_name", "nationality", "tax_id", "document_number",
                     "email", "phone")


# The countries whose police or immigration service the host registers every guest with.
POLICE_COUNTRIES = ("IT", "ES", "PT")
# The countries where this product files something about the guests: that registration, or the
# stay's declaration to AADE (Greece).
FILING_COUNTRIES = POLICE_COUNTRIES + ("GR",)

# A property anywhere else files nothing through this product: the page asks the lead guest's
# name and how to reach them, no document and nothing of the others (the guests API still takes
# what asked_fields lists, for a host who keeps more).
UNFILED_LEAD_FIELDS = ("first_name", "last_name", "email", "phone")


def page_fields(country: str, index: int) -> list[str]:
    """The fields the guest page shows for guest `index`: what the property's country files."""
    if country == "GR":
        return list(GREEK_LEAD_FIELDS) if index == 0 else []
    if country not in FILING_COUNTRIES:
        return list(UNFILED_LEAD_FIELDS) if index == 0 else []
    return asked_fields(country, index)


def pages_guests(country: str, guest_count: int) -> int:
    """How many guests the page asks about: a Greek stay declares its lead guest alone, and a
    stay where nothing is filed needs no more."""
    return guest_count if country in POLICE_COUNTRIES else 1


# Document fields an Italian family or group member is not asked: accepted, dropped, never filed.
MEMBER_DOCUMENT_FIELDS = ("document_type", "document_number", "document_country",
                          "document_issue_place")
HEADS = {"family_member": "head_of_family", "group_member": "head_of_group"}


def italian_member(country: str, index: int, guest: dict) -> bool:
    """A family or group member of an Italian stay (Alloggiati types 19 and 20): no document."""
    return country == "IT" and index > 0 and guest.get("relationship") in MEMBER_RELATIONSHIPS


def age_on(birth: dt.date, day: dt.date) -> int:
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def required_fields(country: str, index: int, guest: dict, arrival: dt.date) -> set[str]:
    if country == "GR":  # the declaration's renter (the ΑΦΜ or passport number may be left out)
        return {"first_name", "last_name", "nationality"} if index == 0 else set()
    if country not in FILING_COUNTRIES:  # nothing filed: the lead guest's name
        return {"first_name", "last_name"} if index == 0 else set()
    birth = _date(guest.get("birth_date"))
    age = age_on(birth, arrival) if birth else None
    required = {"first_name", "last_name", "birth_date", "nationality"}
    if country in ("IT", "ES", "PT"):
        required.add("sex")
    if country == "IT":
        required |= {"birth_country", "relationship"}
        if guest.get("birth_country") == "IT":
            required |= {"birth_municipality", "birth_province"}
        required.add("residence_country")
        if guest.get("residence_country") == "IT":
            required |= set(RESIDENCE_IN_ITALY)
        elif guest.get("residence_country"):
            required.add("residence_place")
    if country == "ES" and guest.get("nationality") == "ES":
        required.add("second_last_name")
    needs_document = index == 0 or age is None or age >= document_age(country)
    if needs_document and not italian_member(country, index, guest):
        required |= {"document_type", "document_number", "document_country"}
        if country == "IT":
            required.add("document_issue_place")
        if (country == "ES" and guest.get("document_country") == "ES"
                and guest.get("document_type") in ("id_card", "residence_permit")):
            required.add("document_support_number")
    if index > 0 and age is not None and age < ADULT_AGE:
        required.add("minor_relationship")
    if country == "ES" and (index == 0 or age is None or age >= ADULT_AGE):
        required |= {"address_street", "address_city", "address_postcode", "address_country"}
    if country == "PT":
        required |= {"residence_country", "residence_place"}
    if country == "ES" and (age is None or age >= 14):
        required.add("signature")
    return required


# --- validation ----------------------------------------------------------------------------------

def validate_party(country: str, guests: list, *, guest_count: int, arrival: dt.date,
                   complete: bool) -> tuple[list[dict], list[Problem]]:
    """Clean a party; return (guests, problems).

    `complete=False` (progress being saved) checks only what was filled in; `complete=True` (the
    final answer) also wants every required field and the whole party."""
    problems: list[Problem] = []
    cleaned: list[dict] = []
    if not isinstance(guests, list):
        return [], [Problem("guests", "msg.required")]
    if complete and len(guests) != guest_count and not (
            pages_guests(country, guest_count) <= len(guests) < guest_count):
        problems.append(Problem("guests", "msg.party_size", (("count", guest_count),)))
    for index, guest in enumerate(guests[:max(guest_count, 1)]):
        prefix = f"guests[{index}]."
        if not isinstance(guest, dict):
            problems.append(Problem(f"guests[{index}]", "msg.required"))
            cleaned.append({})
            continue
        asked = set(asked_fields(country, index))
        values: dict[str, str] = {}
        before = len(problems)
        for name, raw in guest.items():
            if name in READ_ONLY:
                continue
            if name not in FIELDS or name not in asked:
                problems.append(Problem(prefix + name, "msg.not_asked"))
                continue
            if raw is None or (isinstance(raw, str) and not raw.strip()):
                continue
            value, key = clean_value(FIELDS[name], raw)
            if key:
                problems.append(Problem(prefix + name, key[0], key[1]))
            else:
                values[name] = value
        if italian_member(country, index, values):
            for name in MEMBER_DOCUMENT_FIELDS:
                values.pop(name, None)
            problems[before:] = [p for p in problems[before:]
                                 if p.path[len(prefix):] not in MEMBER_DOCUMENT_FIELDS]
        refused = {p.path[len(prefix):] for p in problems[before:]}
        problems += _check_guest(country, index, values, arrival, complete, prefix, refused)
        cleaned.append(values)
    if country == "IT" and complete:
        problems += _check_italian_roles(cleaned)
    return cleaned, problems


def _check_italian_roles(party: list[dict]) -> list[Problem]:
    """Members follow their head: a family member needs a head of family as lead guest, a group
    member a group leader (Alloggiati refuses a member without one, and a member gives no
    document of their own)."""
    lead = (party[0] if party else {}).get("relationship")
    return [Problem(f"guests[{index}].relationship", "msg.member_without_head")
            for index, guest in enumerate(party[1:], start=1)
            if guest.get("relationship") in HEADS and lead and HEADS[guest["relationship"]] != lead]


def clean_value(field: FieldDef, raw) -> tuple[str | None, tuple | None]:
    """(value, None) or (None, (message key, values))."""
    if not isinstance(raw, str):
        return None, (choice_of(field.name, field.choices) if field.choices
                      else ("msg.required", ()))
    if field.kind == "signature":
        return _clean_signature(raw)
    # Before folding, which would turn U+001C..U+001F (whitespace to str.split) into spaces:
    # tabs and line breaks are folded below, every other control character is refused.
    if control_character_problem(raw, multiline=True):
        return None, ("msg.control", ())
    value = " ".join(raw.split())  # trims, and folds runs of spaces, tabs and newlines
    if len(value) > TEXT_MAX:
        return None, ("msg.too_long", (("max", TEXT_MAX),))
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in value):
        return None, ("msg.control", ())
    if field.kind == "text":
        if not any(c.isalpha() for c in value) and field.name not in (
                "document_number", "document_support_number", "tax_id", "address_postcode",
                "address_street", "residence_comune"):  # a comune may be sent as its code
            return None, ("msg.letters", ())
        if field.name in ("birth_province", "residence_province"):
            value = value.upper()
            if not PROVINCE_RE.match(value):
                return None, ("msg.province", ())
        return value, None
    if field.kind == "date":
        day = _date(value)
        return (value, None) if day else (None, ("msg.date", ()))
    if field.kind == "country":
        value = value.upper()
        return (value, None) if value in _known_countries() else (None, ("msg.country", ()))
    if field.kind == "choice":
        return (value, None) if value in field.choices else \
            (None, choice_of(field.name, field.choices))
    if field.kind == "email":
        return (value, None) if EMAIL_RE.match(value) else (None, ("msg.email", ()))
    if field.kind == "phone":
        return (value, None) if PHONE_RE.match(value) and sum(c.isdigit() for c in value) >= 6 \
            else (None, ("msg.phone", ()))
    raise AssertionError(field.kind)  # pragma: no cover


def _clean_signature(raw: str) -> tuple[str | None, tuple | None]:
    if not raw.startswith(SIGNATURE_PREFIX) or len(raw) > SIGNATURE_MAX_BYTES * 4 // 3 + 64:
        return None, ("msg.signature_bad", ())
    try:
        png = base64.b64decode(raw[len(SIGNATURE_PREFIX):], validate=True)
    except (binascii.Error, ValueError):
        return None, ("msg.signature_bad", ())
    if not png.startswith(b"\x89PNG\r\n\x1a\n") or len(png) > SIGNATURE_MAX_BYTES:
        return None, ("msg.signature_bad", ())
    return raw, None


def _check_guest(country: str, index: int, values: dict, arrival: dt.date, complete: bool,
                 prefix: str, refused: set[str]) -> list[Problem]:
    problems = []
    today = arrival if arrival < clock.today() else clock.today()
    birth = _date(values.get("birth_date"))
    if birth is not None:
        if birth > clock.today():
            problems.append(Problem(prefix + "birth_date", "msg.future"))
            values.pop("birth_date")
            birth = None
        elif age_on(birth, today) > OLDEST_AGE:
            problems.append(Problem(prefix + "birth_date", "msg.too_old"))
            values.pop("birth_date")
            birth = None
        elif index == 0 and age_on(birth, arrival) < ADULT_AGE:
            problems.append(Problem(prefix + "birth_date", "msg.lead_adult"))
    if country == "IT":
        problems += _check_italian_places(values, birth, prefix)
    if country == "ES":
        problems += _check_spanish_town(values, prefix)
    relationship = values.get("relationship")
    if relationship:
        allowed = LEAD_RELATIONSHIPS if index == 0 else MEMBER_RELATIONSHIPS
        if relationship not in allowed:
            problems.append(Problem(prefix + "relationship", "msg.lead_relationship" if index == 0
                                    else "msg.member_relationship"))
    number = values.get("document_number")
    if number and country == "GR" and not values.get("document_type"):
        values["document_type"] = "passport"  # the page asks a Greek stay's lead for a passport
    if number:
        normalized, key = _check_document(values.get("document_type"),
                                          values.get("document_country"), number)
        if key:
            problems.append(Problem(prefix + "document_number", key))
        else:
            values["document_number"] = normalized
    support = values.get("document_support_number")
    if support:
        compact = re.sub(r"[\s.-]", "", support).upper()
        if not re.fullmatch(r"[A-Z]{1,3}[0-9]{6,8}", compact):
            problems.append(Problem(prefix + "document_support_number", "msg.document_shape"))
        else:
            values["document_support_number"] = compact
    tax_id = values.get("tax_id")
    if tax_id:
        normalized, key = _check_tax_id(values.get("nationality"), tax_id)
        if key:
            problems.append(Problem(prefix + "tax_id", key))
        else:
            values["tax_id"] = normalized
    if complete:
        required = required_fields(country, index, values, arrival)
        failed = refused | {p.path[len(prefix):] for p in problems}
        for name in asked_fields(country, index):
            if name in required and name not in values and name not in failed:
                problems.append(Problem(prefix + name, "msg.signature" if name == "signature"
                                        else "msg.required"))
        needs_contact = index == 0 or (country == "ES" and "address_street" in required)
        if needs_contact and not values.get("email") and not values.get("phone") \
                and "email" not in failed and "phone" not in failed:
            problems.append(Problem(prefix + "email", "msg.contact"))
    return problems


def _check_italian_places(values: dict, birth: dt.date | None, prefix: str) -> list[Problem]:
    """Values the Alloggiati record codes from the police code tables (rentalcomply/codes)
    must have a code: countries and document types always (the package ships every state and
    maps every document type it asks); an Italian birthplace (on the birth date) and an Italian
    place of issue once the authority's tables are loaded. Before that an unknown place is kept,
    and its filing held until the tables are loaded: a table that is not the authority's whole one
    is no verdict on a name (the package ships the whole tables: codes/README.md)."""
    from rentalcomply import codes
    problems = []

    def refuse(name: str) -> None:
        problems.append(Problem(prefix + name, "msg.choice"))
        values.pop(name)
    for name in ("birth_country", "nationality", "document_country"):
        if values.get(name) and codes.it_state(values[name], birth if name == "birth_country"
                                               else None) is None:
            refuse(name)
    if values.get("document_type") and codes.it_document_type(values["document_type"]) is None:
        problems.append(Problem(prefix + "document_type",
                                *choice_of("document_type", document_types("IT"))))
        values.pop("document_type")
    full = codes.it_full()
    place = values.get("birth_municipality")
    if place and values.get("birth_country") == "IT" and full:
        if codes.it_municipality(place, values.get("birth_province"), birth) is None:
            refuse("birth_municipality")
    refused = residence.code_residence(values, full)
    if refused:
        problems.append(Problem(prefix + refused, "msg.choice"))
    issue = values.get("document_issue_place")
    if issue and values.get("document_country") == "IT" and full \
            and codes.fold(issue) not in ("ITALIA", "ITALY") \
            and codes.it_municipality(issue) is None:
        refuse("document_issue_place")
    return problems


def _check_spanish_town(values: dict, prefix: str) -> list[Problem]:
    """A town in Spain must be in INE's list once INE's whole list is loaded (codes/es); the
    shipped list lacks a few municipalities, so it is no verdict on a name: an unknown town
    holds the filing instead, with a reason naming it."""
    from rentalcomply import codes
    from rentalcomply.codes import es
    city = values.get("address_city")
    if city and values.get("address_country") == "ES" \
            and codes.table_info("ES", "municipios").complete \
            and es.municipality_code(city, values.get("address_postcode")) is None:
        values.pop("address_city")
        return [Problem(prefix + "address_city", "msg.choice")]
    return []


def document_types(country: str) -> tuple[str, ...]:
    """The document types a property's country takes: in Italy those the authority has a code
    for (no residence permit)."""
    if country == "IT":
        from rentalcomply import codes
        return tuple(t for t in DOCUMENT_TYPES if t in codes.IT_DOCUMENT_TYPES)
    return DOCUMENT_TYPES


def codable_countries(country: str, choices: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The countries a property's country can file: in Italy those with a state code."""
    if country != "IT":
        return choices
    from rentalcomply import codes
    return [(code, name) for code, name in choices if codes.it_state(code) is not None]


def _check_document(document_type: str | None, country: str | None,
                    number: str) -> tuple[str | None, str | None]:
    compact = re.sub(r"[\s.-]", "", number).upper()
    scheme = {("id_card", "ES"): es_dni, ("residence_permit", "ES"): es_nie,
              ("id_card", "PT"): pt_cc}.get((document_type, country))
    if scheme is not None:
        try:
            return scheme.validate(compact), None
        except stdnum_errors.InvalidChecksum:
            return None, "msg.check_digit"
        except stdnum_errors.ValidationError:
            return None, "msg.document_shape"
    # Passports and most cards carry no check digit outside their machine-readable zone: shape.
    if not DOCUMENT_RE.match(compact):
        return None, "msg.document_shape"
    return compact, None


def _check_tax_id(nationality: str | None, number: str) -> tuple[str | None, str | None]:
    scheme = {"GR": gr_afm, "IT": it_codicefiscale, "ES": es_nif, "PT": pt_nif}.get(nationality or "")
    compact = re.sub(r"[\s.-]", "", number).upper()
    if scheme is None:
        return (compact, None) if re.fullmatch(r"[A-Z0-9]{4,20}", compact) else (None, "msg.document_shape")
    try:
        return scheme.validate(compact), None
    except stdnum_errors.InvalidChecksum:
        return None, "msg.check_digit"
    except stdnum_errors.ValidationError:
        return None, "msg.document_shape"


def _date(value) -> dt.date | None:
    if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None


def mask(number: str | None) -> str | None:
    """A document number as shown outside the sealed party: its last 3 characters."""
    if not number:
        return number
    return "*" * max(len(number) - 3, 3) + number[-3:]
