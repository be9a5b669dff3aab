"""The Mossos d'Esquadra's codes, one table each, as the portal's manual (v8, May 2025,
"CODIFICACIÓ") gives them. A detail the domain note marks unconfirmed is here or in a `[police]`
setting (docs/police-es-pt.md, "Catalonia"), so that correcting it is one line.
"""

from __future__ import annotations

# Document type (field 4): `D` NIF/DNI/TIE, `N` NIE, `P` passport, `O` other identifier. Keyed by
# the check-in's document type and whether the document is Spanish. The manual's text once says
# "OTRO" for the other identifiers while its code table says `O` (unconfirmed): `O` is sent.
DOCUMENT_TYPES = {
    ("id_card", True): "D",
    ("residence_permit", True): "N",
    ("passport", True): "P",
    ("passport", False): "P",
}
OTHER_DOCUMENT = "O"
# The types whose number goes in field 2 (the Spanish document number) when the document is
# Spanish; every other number goes in field 3 (the foreign document number).
SPANISH_NUMBER_TYPES = ("D", "P")
# The types filed with their support number (field 26, exactly 9 characters).
SUPPORT_NUMBER_TYPES = ("D", "N")

# Sex (field 9), from the check-in's values. The manual's codes are `M` male, `F` female, `O` other
# (confirmed by the manual and both implementations; an older note asked whether H/D were meant).
SEX = {"M": "M", "F": "F", "O": "O", "X": "O"}

# Kinship of a traveller under 18 with the adult responsible (field 24): the manual's list, and
# the check-in's `minor_relationship` choices mapped onto it.
KINSHIP = ("AB", "BA", "BN", "CD", "CY", "HJ", "HR", "NI", "OT", "PM", "SB", "SG", "TI", "TU",
           "YN")
KINSHIP_FROM_CHECKIN = {"parent": "PM", "legal_guardian": "TU", "grandparent": "AB",
                        "sibling": "HR", "other_relative": "OT", "other": "OT"}

# Payment type (field 22), and the booking's payment method mapped onto it.
PAYMENT_TYPES = ("DESTI", "EFECT", "MOVIL", "OTRO", "PLATF", "TARJT", "TRANS", "TREG")
PAYMENT_FROM_BOOKING = {"cash": "EFECT", "card": "TARJT", "platform": "PLATF",
                        "bank_transfer": "TRANS"}

# Countries (fields 11 and 31): ISO 3166-1 alpha-3, as the manual says and both implementations
# send. Were the portal to want another code, this names the one used ("alpha3" only, today).
COUNTRY_CODE = "alpha3"
SPAIN = "ESP"

# Contract type (field 17): `C` a contract running (the guests arrived), `R` a reservation. The
# traveller register is filed on arrival: `C`.
CONTRACT_RUNNING = "C"
# The last field of the establishment line: switches on the portal's checks of the 2024 fields.
FORMAT_VERSION = "V24"

# Ages the manual's checks turn on: the document, second surname and support number are checked
# only for a traveller over 14; the kinship is required under 18.
DOCUMENT_CHECK_AGE = 14
ADULT_AGE = 18
