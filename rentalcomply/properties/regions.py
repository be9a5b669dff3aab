"""Each country's regions, as data, and a property's region read from its address where that is
certain.

A property's `region` is an ISO 3166-2 code: which statistics system and which police authority
it owes depend on it (Lombardy's ROSS 1000 deadline, Catalonia's Mossos d'Esquadra). Only Italy
and Spain have regions here; a Portuguese or Greek property's region stays null and is not asked.

Italy: the 19 regions and, instead of Trentino-Alto Adige (IT-32), the two autonomous provinces
IT-TN Trento and IT-BZ Bolzano, each of which keeps its own tourism statistics. Spain: the 17
autonomous communities and the autonomous cities of Ceuta and Melilla.

Derivation never guesses (the product never files a guess):
- Italy, from the province's abbreviation written as the address writes it: "(MI)", or after the
  postcode and town, "50125 Firenze FI". A province decides its region. Else from the town that
  follows a five-digit postcode ("00184 Roma"), only when every municipality of that name in force
  in the Polizia's table (rentalcomply/codes/it/comuni.csv) lies in one region. A postcode alone
  decides nothing: no published table of Italian postcodes with their provinces is shipped (the
  authorities' reference data hold none), and a prefix is not a province (47890-47899 are San
  Marino's). Two different answers in one address: null.
- Spain, from the postcode: its first two digits are INE's province code, and a province lies in
  one autonomous community (INE's list of provinces, checked against its list of municipalities
  in rentalcomply/codes/es), or from an INE municipality code. Postcodes of two communities in one address: null.
"""

from __future__ import annotations

import csv
import dataclasses
import functools
import io
import re
import unicodedata
from importlib import resources


@dataclasses.dataclass(frozen=True)
class Region:
    code: str      # ISO 3166-2
    name: str      # as the region calls itself
    english: str
    greek: str

    @property
    def country(self) -> str:
        return self.code[:2]


def _regions(*rows: tuple[str, str, str, str]) -> dict[str, Region]:
    return {code: Region(code, name, english, greek) for code, name, english, greek in rows}


REGIONS: dict[str, dict[str, Region]] = {
    "IT": _regions(
        ("IT-65", "Abruzzo", "Abruzzo", "Αμπρούτσο"),
        ("IT-77", "Basilicata", "Basilicata", "Βασιλικάτα"),
        ("IT-78", "Calabria", "Calabria", "Καλαβρία"),
        ("IT-72", "Campania", "Campania", "Καμπανία"),
        ("IT-45", "Emilia-Romagna", "Emilia-Romagna", "Εμίλια-Ρομάνια"),
        ("IT-36", "Friuli Venezia Giulia", "Friuli Venezia Giulia", "Φρίουλι-Βενέτσια Τζούλια"),
        ("IT-62", "Lazio", "Lazio", "Λάτσιο"),
        ("IT-42", "Liguria", "Liguria", "Λιγουρία"),
        ("IT-25", "Lombardia", "Lombardy", "Λομβαρδία"),
        ("IT-57", "Marche", "Marche", "Μάρκε"),
        ("IT-67", "Molise", "Molise", "Μολίζε"),
        ("IT-21", "Piemonte", "Piedmont", "Πιεμόντε"),
        ("IT-75", "Puglia", "Apulia", "Απουλία"),
        ("IT-88", "Sardegna", "Sardinia", "Σαρδηνία"),
        ("IT-82", "Sicilia", "Sicily", "Σικελία"),
        ("IT-52", "Toscana", "Tuscany", "Τοσκάνη"),
        ("IT-TN", "Provincia autonoma di Trento", "Autonomous Province of Trento",
         "Αυτόνομη Επαρχία του Τρέντο"),
        ("IT-BZ", "Provincia autonoma di Bolzano – Alto Adige / Autonome Provinz Bozen – Südtirol",
         "Autonomous Province of Bolzano – South Tyrol", "Αυτόνομη Επαρχία του Μπολτσάνο"),
        ("IT-55", "Umbria", "Umbria", "Ούμπρια"),
        ("IT-23", "Valle d'Aosta / Vallée d'Aoste", "Aosta Valley", "Κοιλάδα της Αόστης"),
        ("IT-34", "Veneto", "Veneto", "Βένετο"),
    ),
    "ES": _regions(
        ("ES-AN", "Andalucía", "Andalusia", "Ανδαλουσία"),
        ("ES-AR", "Aragón", "Aragon", "Αραγονία"),
        ("ES-AS", "Principado de Asturias", "Asturias", "Αστούριες"),
        ("ES-IB", "Illes Balears", "Balearic Islands", "Βαλεαρίδες Νήσοι"),
        ("ES-CN", "Canarias", "Canary Islands", "Κανάριοι Νήσοι"),
        ("ES-CB", "Cantabria", "Cantabria", "Κανταβρία"),
        ("ES-CL", "Castilla y León", "Castile and León", "Καστίλη και Λεόν"),
        ("ES-CM", "Castilla-La Mancha", "Castilla-La Mancha", "Καστίλη-Λα Μάντσα"),
        ("ES-CT", "Catalunya", "Catalonia", "Καταλονία"),
        ("ES-VC", "Comunitat Valenciana", "Valencian Community", "Βαλένθια"),
        ("ES-EX", "Extremadura", "Extremadura", "Εξτρεμαδούρα"),
        ("ES-GA", "Galicia", "Galicia", "Γαλικία"),
        ("ES-MD", "Comunidad de Madrid", "Community of Madrid", "Κοινότητα της Μαδρίτης"),
        ("ES-MC", "Región de Murcia", "Region of Murcia", "Μούρθια"),
        ("ES-NC", "Comunidad Foral de Navarra / Nafarroako Foru Komunitatea", "Navarre",
         "Ναβάρρα"),
        ("ES-PV", "Euskadi / País Vasco", "Basque Country", "Χώρα των Βάσκων"),
        ("ES-RI", "La Rioja", "La Rioja", "Λα Ριόχα"),
        ("ES-CE", "Ceuta", "Ceuta", "Θέουτα"),
        ("ES-ML", "Melilla", "Melilla", "Μελίγια"),
    ),
}

# Italy's provinces (the abbreviation, "sigla", the Polizia's comuni table writes) and their
# region. Source: ISTAT, "Codici statistici delle unità amministrative territoriali" (the list of
# provinces and their regions in force since the Sardinian reorganisation of 2016, with its
# abbreviations, checked in November 2026), plus the abbreviations of provinces since renamed whose
# towns the table still holds (FO, PS). tests/properties/test_regions.py checks that every province
# of a municipality in force in rentalcomply/codes/it/comuni.csv is here.
_IT_PROVINCES = {
    "IT-65": "AQ CH PE TE",
    "IT-77": "MT PZ",
    "IT-78": "CS CZ KR RC VV",
    "IT-72": "AV BN CE NA SA",
    "IT-45": "BO FC FE FO MO PC PR RA RE RN",
    "IT-36": "GO PN TS UD",
    "IT-62": "FR LT RI RM VT",
    "IT-42": "GE IM SP SV",
    "IT-25": "BG BS CO CR LC LO MB MI MN PV SO VA",
    "IT-57": "AN AP FM MC PS PU",
    "IT-67": "CB IS",
    "IT-21": "AL AT BI CN NO TO VB VC",
    "IT-75": "BA BR BT FG LE TA",
    "IT-88": "CA NU OR SS SU",
    "IT-82": "AG CL CT EN ME PA RG SR TP",
    "IT-52": "AR FI GR LI LU MS PI PO PT SI",
    "IT-TN": "TN",
    "IT-BZ": "BZ",
    "IT-55": "PG TR",
    "IT-23": "AO",
    "IT-34": "BL PD RO TV VE VI VR",
}
IT_PROVINCE_REGION: dict[str, str] = {province: region for region, provinces in
                                      _IT_PROVINCES.items() for province in provinces.split()}

# INE's autonomous community codes (CCAA, the `community_code` of codes/es/municipios.csv) and
# their ISO 3166-2 codes.
ES_COMMUNITY_REGION = {
    "01": "ES-AN", "02": "ES-AR", "03": "ES-AS", "04": "ES-IB", "05": "ES-CN", "06": "ES-CB",
    "07": "ES-CL", "08": "ES-CM", "09": "ES-CT", "10": "ES-VC", "11": "ES-EX", "12": "ES-GA",
    "13": "ES-MD", "14": "ES-MC", "15": "ES-NC", "16": "ES-PV", "17": "ES-RI", "18": "ES-CE",
    "19": "ES-ML",
}

# INE's province codes (the first two digits of a postcode and of a municipality code) and their
# autonomous community. Source: INE, "Relación de provincias con sus códigos" (unchanged since
# 1833's provinces were numbered; checked in November 2026). tests/properties/test_regions.py
# checks it against every municipality of INE's list (rentalcomply/codes/es/municipios.csv),
# which lacks Melilla's (52), hence a table of its own rather than one read from that list.
_ES_PROVINCES = {
    "ES-AN": "04 11 14 18 21 23 29 41", "ES-AR": "22 44 50", "ES-AS": "33", "ES-IB": "07",
    "ES-CN": "35 38", "ES-CB": "39", "ES-CL": "05 09 24 34 37 40 42 47 49",
    "ES-CM": "02 13 16 19 45", "ES-CT": "08 17 25 43", "ES-VC": "03 12 46", "ES-EX": "06 10",
    "ES-GA": "15 27 32 36", "ES-MD": "28", "ES-MC": "30", "ES-NC": "31", "ES-PV": "01 20 48",
    "ES-RI": "26", "ES-CE": "51", "ES-ML": "52",
}
ES_PROVINCE_REGION: dict[str, str] = {province: region for region, provinces in
                                      _ES_PROVINCES.items() for province in provinces.split()}

# What the page and the API say a region's source is.
FROM_ADDRESS = "address"
FROM_HOST = "host"

_PROVINCE_IN_BRACKETS = re.compile(r"\(\s*([A-Za-z]{2})\s*\)")
# "50125 Firenze FI" (a town after a postcode, then the abbreviation, at the end of a part).
_PROVINCE_AFTER_TOWN = re.compile(r"\b\d{5}\s+[^\d,;()]+?\s+([A-Z]{2})\s*(?=$|[,;])")
# The town after a postcode, to the end of its part of the address: "00184 Roma".
_TOWN_AFTER_POSTCODE = re.compile(r"\b\d{5}\s+([^\d,;()]+?)\s*(?=$|[,;(])")
_POSTCODE = re.compile(r"(?<!\d)(\d{5})(?!\d)")
_SPANISH_POSTCODE = re.compile(r"^(0[1-9]|[1-4][0-9]|5[0-2])[0-9]{3}$")


def has_regions(country: str | None) -> bool:
    return country in REGIONS


def regions_of(country: str | None) -> dict[str, Region]:
    return REGIONS.get(country or "", {})


def region(code: str | None) -> Region | None:
    return REGIONS.get((code or "")[:2], {}).get(code or "")


def region_name(code: str | None, lang: str = "en") -> str:
    """The region's own name, with the page's language's after it when different:
    "Lombardia (Lombardy)", "Catalunya (Καταλονία)"; the code itself when unknown."""
    found = region(code)
    if found is None:
        return code or ""
    # Italian, Spanish and Portuguese readers know the regions by their own names: no English
    # gloss beside them.
    translated = {"en": found.english, "el": found.greek}.get(lang, found.name)
    return found.name if translated == found.name else f"{found.name} ({translated})"


def choices(country: str | None, lang: str = "en") -> list[tuple[str, str]]:
    """(code, name) of the country's regions, by their own names."""
    return sorted(((code, region_name(code, lang)) for code in regions_of(country)),
                  key=lambda pair: _fold(pair[1]))


def problem(country: str | None, code: str | None) -> str | None:
    """Why `code` cannot be the region of a property in `country`, or None."""
    if code is None:
        return None
    if not has_regions(country):
        return (f"is not asked for a property in {country}: only Italian and Spanish properties "
                "have a region here; leave it null")
    if code not in REGIONS[country]:
        return (f"{code} is not a region of {country}; one of: "
                + ", ".join(sorted(REGIONS[country])))
    return None


def derive(country: str | None, address: str | None) -> str | None:
    """The region the address says for certain, or None (unknown: a person is asked)."""
    if not address:
        return None
    if country == "IT":
        return _italian_region(address)
    if country == "ES":
        return _spanish_region(address)
    return None


def _one(found: set[str]) -> str | None:
    return next(iter(found)) if len(found) == 1 else None


def _italian_region(address: str) -> str | None:
    provinces = {match.upper() for match in _PROVINCE_IN_BRACKETS.findall(address)}
    provinces |= set(_PROVINCE_AFTER_TOWN.findall(address))
    by_province = {IT_PROVINCE_REGION.get(province) for province in provinces}
    if provinces:
        # An abbreviation that is no province ("(XX)") makes the address unsure, as two do.
        return _one(by_province) if None not in by_province else None
    by_town: set[str | None] = set()
    for town in _TOWN_AFTER_POSTCODE.findall(address):
        by_town.add(italian_town_region(town))
    return _one(by_town) if None not in by_town else None


def italian_town_region(town: str) -> str | None:
    """The region of every municipality in force called `town`, when they are all in one."""
    found = {IT_PROVINCE_REGION.get(province) for province in _italian_towns().get(_fold(town), ())}
    return _one(found) if found and None not in found else None


def province_region(province: str | None) -> str | None:
    """An Italian province's region (its abbreviation, "MI"), or None."""
    return IT_PROVINCE_REGION.get((province or "").upper())


@functools.lru_cache(maxsize=1)
def _italian_towns() -> dict[str, frozenset[str]]:
    """Folded name -> the provinces of the municipalities of that name in force (no end date),
    from the shipped Polizia table."""
    text = resources.files("rentalcomply.codes").joinpath("it/comuni.csv").read_text("utf-8")
    towns: dict[str, set[str]] = {}
    for row in csv.DictReader(io.StringIO(text)):
        if not (row.get("DataFineVal") or "").strip():
            towns.setdefault(_fold(row["Descrizione"]), set()).add(row["Provincia"].strip())
    return {name: frozenset(found) for name, found in towns.items()}


def _spanish_region(address: str) -> str | None:
    found = {spanish_postcode_region(code) for code in _POSTCODE.findall(address)}
    found.discard(None)
    return _one(found)


def spanish_postcode_region(postcode: str | None) -> str | None:
    """A Spanish postcode's autonomous community: its first two digits are INE's province."""
    postcode = (postcode or "").strip()
    if not _SPANISH_POSTCODE.match(postcode):
        return None
    return _spanish_provinces().get(postcode[:2])


def spanish_municipality_region(ine_code: str | None) -> str | None:
    """The community of an INE municipality code (PPMMM, or PPMMMD with its check digit)."""
    code = (ine_code or "").strip()
    if not re.fullmatch(r"\d{5,6}", code):
        return None
    return _spanish_provinces().get(code[:2])


def _spanish_provinces() -> dict[str, str]:
    return ES_PROVINCE_REGION


def _fold(text: str) -> str:
    """Case, accents and apostrophes' forms do not matter: "Forlì" is "FORLI'" of the table."""
    text = unicodedata.normalize("NFD", text.casefold().replace("’", "'"))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(text.replace("'", " ").replace("-", " ").split())
