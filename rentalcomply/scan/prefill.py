"""From a zone's reading to the guest form's fields, and what the guest and the host must be told
about the document (expired, or expiring before departure).

The zone never holds the birthplace, the Spanish support number, the address or the accents of a
name (id-documents.md, "What the MRZ does not give the forms"): those stay for the guest to type.
The name is offered as the zone writes it (without accents); the guest corrects it.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
from importlib import resources

from rentalcomply.scan.mrz import Reading

# ICAO codes that are not ISO 3166-1 alpha-3 (id-documents.md, "Codes"), as ISO alpha-2. The
# others with no country (XXA stateless, refugees, UN) are left for the guest to choose.
ICAO_SPECIAL = {"D": "DE", "GBD": "GB", "GBN": "GB", "GBO": "GB", "GBP": "GB", "GBS": "GB",
                "RKS": "XK"}


@functools.lru_cache(maxsize=1)
def _alpha2_of_alpha3() -> dict[str, str]:
    # The same ISO table the police formats use (alpha-2 -> alpha-3), read as data.
    raw = resources.files("rentalcomply.filings").joinpath("iso3166_alpha3.json").read_text("utf-8")
    return {three: two for two, three in json.loads(raw).items()}


def country(code: str) -> str:
    """ISO alpha-2 for an ICAO state code, or "" when it names no country."""
    code = code.replace("<", "").upper()
    return ICAO_SPECIAL.get(code) or _alpha2_of_alpha3().get(code, "")


def document_type(code: str) -> str:
    """The guest form's document type for the zone's document code."""
    if code.startswith("P"):
        return "passport"
    if code[:1] in ("I", "A", "C"):
        # Residence cards are often "IR", "AR", "CR": the second letter is the issuer's choice.
        return "residence_permit" if code[1:2] == "R" else "id_card"
    return ""


def form_values(reading: Reading) -> dict[str, str]:
    """The guest form's fields this reading fills (empty ones left out)."""
    fields = reading.fields
    values = {
        "last_name": fields["surname"].title(),
        "first_name": fields["given_names"].title(),
        "sex": fields["sex"],
        "birth_date": fields["birth_date"],
        "nationality": country(fields["nationality"]),
        "document_type": document_type(fields["document_code"]),
        "document_number": fields["number"],
        "document_country": country(fields["issuing_country"]),
    }
    if fields["document_code"].startswith("I") and fields["issuing_country"] == "ESP":
        # A Spanish DNI: the zone's document number is the card's support number, and the DNI
        # number (8 digits and a letter) is the optional data (id-documents.md, "EU identity
        # cards"); SES wants both, each in its place.
        dni = fields["optional_data"].split(" ")[0]
        values["document_support_number"] = fields["number"]
        values["document_number"] = dni if re.fullmatch(r"[0-9]{8}[A-Z]", dni) else ""
    return {name: value for name, value in values.items() if value}


def two_surnames(values: dict[str, str]) -> bool:
    """Whether the surname the zone gives holds two words: a Spanish national's two surnames
    come as one (ESPANOLA<ESPANOLA), the same shape as a compound surname, so only the guest can
    say which part is the second surname."""
    return len(values.get("last_name", "").split()) > 1


def expiry_problem(reading: Reading, today: dt.date, departure: dt.date) -> str | None:
    """"expired", "expires_during_stay", or None: the document's expiry against the stay."""
    expiry = reading.fields.get("expiry_date")
    if not expiry:
        return None
    expires = dt.date.fromisoformat(expiry)
    if expires < today:
        return "expired"
    if expires < departure:
        return "expires_during_stay"
    return None
