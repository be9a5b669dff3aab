"""Italy's regions and the statistics system each takes the monthly ISTAT movement through, as
data: ROSS 1000 and its published web-service endpoint, or another system's name, or "unknown".

Every fact has its source in a comment: `upd §1.5` is shared/domain/updates-2026-11.md §1.5
(newest, it wins), `old` is shared/domain/italy-statistics-and-tax.md; [C] confirmed, [U]
unconfirmed, as the notes mark them. Where the notes say nothing, the system is UNKNOWN and the
property is told so (`advice`): nothing is guessed, nothing is filed.

Each ROSS 1000 region's endpoint is a server setting, `[ross1000] <code>_url` (config.py), whose
default is the published address below; a test keeps the two equal. Tuscany's sources disagree
(upd §1.5): both addresses are kept here, and the setting is empty until the administrator puts
the one the tourism office gives.

The deadline is the 5th of the following month unless a source says otherwise (upd §1.6: "keep
it as a per-region setting with a default of the 5th"); Trento wants each arrival within 48 hours
(issue 37, old "Trentino ISPAT (C/59 web service, daily)").
"""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass

ROSS1000 = "ross1000"
UNKNOWN = "unknown"
# The default deadline: this day of the month after the one reported (upd §1.6).
DEFAULT_DEADLINE_DAY = 5
SETTINGS_SECTION = "ross1000"


def _ws(host_and_path: str, version: str = "checkinV2") -> str:
    """The service address: `https://HOST/ws/checkinV2`, the WSDL's address without `?wsdl`
    (old, VikBooking's list; upd §1.2)."""
    return f"https://{host_and_path}/ws/{version}"


@dataclass(frozen=True)
class Region:
    code: str  # ISO 3166-2
    name: str
    system: str  # ROSS1000, UNKNOWN or another system's short name
    system_title: str  # what a person calls the system
    endpoint: str = ""  # ROSS 1000's published web-service address; "" where none is settled
    other_endpoints: tuple[str, ...] = ()  # published addresses the sources disagree on
    endpoint_note: str = ""  # why there is no default address, in words
    deadline_day: int | None = DEFAULT_DEADLINE_DAY  # of the month after the one reported
    deadline_hours: int | None = None  # after each arrival, where the region counts so
    note: str = ""

    @property
    def on_ross1000(self) -> bool:
        return self.system == ROSS1000

    @property
    def setting(self) -> str:
        """The `[ross1000]` setting holding this region's address (ROSS 1000 regions only)."""
        return f"{self.code.lower().replace('-', '_')}_url"


def _ross(code, name, endpoint, **more) -> Region:
    return Region(code, name, ROSS1000, "ROSS 1000 (Turismo5)", endpoint, **more)


def _other(code, name, system, title, **more) -> Region:
    return Region(code, name, system, title, **more)


def _unknown(code, name) -> Region:
    return Region(code, name, UNKNOWN, "not known", note=(
        f"Which system {name} takes the monthly tourism statistics through is not known to this "
        "product: ask the region's tourism office, send the figures there yourself, and mark "
        "the month filed."))


REGIONS: dict[str, Region] = {r.code: r for r in (
    # old + upd §1.5: VikBooking's list and the tracciato v3 list agree [C]
    _ross("IT-21", "Piemonte", _ws("piemontedatiturismo.regione.piemonte.it")),
    # old, "other systems": "Valle d'Aosta VIT Albergatori" [U]
    _other("IT-23", "Valle d'Aosta", "vit", "VIT Albergatori"),
    # old + upd §1.5 [C]; deadline the 5th, closed days and "apertura senza movimento" must be
    # reported (upd §1.6, provincia di Lecco's pages [C])
    _ross("IT-25", "Lombardia", _ws("www.flussituristici.servizirl.it/Turismo5/app")),
    # old, "other systems": "Trentino ISPAT (C/59 web service, daily)"; 48 hours: issue 37 [U]
    _other("IT-TN", "Provincia autonoma di Trento", "ispat", "ISPAT", deadline_day=None,
           deadline_hours=48),
    # The notes say nothing of Bolzano/South Tyrol.
    _unknown("IT-BZ", "Provincia autonoma di Bolzano"),
    # old + upd §1.5 [C]; old also lists a "Veneto" system among the others, unnamed
    _ross("IT-34", "Veneto", _ws("flussituristici.regione.veneto.it")),
    # The notes say nothing of Friuli-Venezia Giulia.
    _unknown("IT-36", "Friuli-Venezia Giulia"),
    # old + upd §1.5 [C]
    _ross("IT-42", "Liguria", _ws("turismows.regione.liguria.it")),
    # upd §1.2: the official WSDL's own soap:address [C]
    _ross("IT-45", "Emilia-Romagna", _ws("datiturismo.regione.emilia-romagna.it")),
    # upd §1.5: the towns of the Città metropolitana di Firenze, Pistoia and Prato; the tracciato
    # v3 list and VikBooking disagree on the address [U]: both kept, no default.
    _ross("IT-52", "Toscana", "", other_endpoints=(
        "https://toscanaturismo.ross1000.it/turismo5-web/ws/checkinV2",
        _ws("turismo5firenze.regione.toscana.it"), _ws("turismo5pistoia.regione.toscana.it"),
        _ws("turismo5prato.regione.toscana.it")),
        endpoint_note=(
            "The published sources disagree on Tuscany's ROSS 1000 address "
            "(toscanaturismo.ross1000.it, or one per area: turismo5firenze, turismo5pistoia, "
            "turismo5prato.regione.toscana.it): the administrator sets the one the tourism "
            "office gives (setting ross1000.it_52_url). Until then the month's file is "
            "uploaded on the portal by hand."),
        note="ROSS 1000 covers the towns of Firenze, Pistoia and Prato (upd §1.5)."),
    # The notes say nothing of Umbria.
    _unknown("IT-55", "Umbria"),
    # old + upd §1.5 [C]
    _ross("IT-57", "Marche", _ws("istrice-ross1000.turismo.marche.it")),
    # upd §1.5: the only channel since 21 May 2025, replacing Radar [C]; the 5th [U]
    _ross("IT-62", "Lazio", _ws("lazioturismo.ross1000.it")),
    # old + upd §1.5 [C]; old also lists "Abruzzo SITRA" among the other systems
    _ross("IT-65", "Abruzzo", _ws("app.regione.abruzzo.it/Turismo5")),
    # upd §1.5: the tracciato v3 list, one secondary source [U]
    _ross("IT-67", "Molise", _ws("moliseturismo.ross1000.it")),
    # The notes say nothing of Campania.
    _unknown("IT-72", "Campania"),
    # upd §1.6: SPOT, not ROSS 1000, by the 10th [U]
    _other("IT-75", "Puglia", "spot", "SPOT (Sistema Puglia per l'Osservatorio Turistico)",
           deadline_day=10),
    # upd §1.5: the tracciato v3 list names a checkinV1 service [U]; the 5th (old, APT
    # Basilicata's page)
    _ross("IT-77", "Basilicata", _ws("sist-aptbasilicata.turitweb.it", "checkinV1"),
          note="The only source names version 1 of the service (checkinV1) [unconfirmed]."),
    # old + upd §1.5 [C]
    _ross("IT-78", "Calabria", _ws("sirdat.regione.calabria.it")),
    # old, "other systems": "Sicilia OTRS" [U]
    _other("IT-82", "Sicilia", "otrs", "OTRS (Osservatorio Turistico Regione Siciliana)"),
    # old + upd §1.5 [C]; old also lists "Sardegna SIRED" among the other systems
    _ross("IT-88", "Sardegna", _ws("sardegnaturismo.ross1000.it")),
)}


def get(code: str | None) -> Region | None:
    return REGIONS.get((code or "").upper())


def endpoint(region: Region, settings) -> str:
    """The address to send `region`'s months to: the setting (whose default is the published
    address), "" where none is settled (the month's file is then uploaded by hand)."""
    if not region.on_ross1000:
        return ""
    section = getattr(settings, SETTINGS_SECTION, None)
    return (getattr(section, region.setting, None) if section is not None else None) \
        or region.endpoint


def deadline(region: Region | None, year: int, month: int) -> dt.date | None:
    """The day a month's figures are due, or None where the region counts hours from each
    arrival (Trento) instead: the caller takes `deadline_hours` then."""
    day = DEFAULT_DEADLINE_DAY if region is None else region.deadline_day
    if day is None:
        return None
    following_year, following = (year + 1, 1) if month == 12 else (year, month + 1)
    return dt.date(following_year, following, min(day, calendar.monthrange(following_year,
                                                                          following)[1]))


def advice(region: Region | None) -> str:
    """What the property is told about its region's statistics, in words."""
    if region is None:
        return ("The property's region is not set: it decides which system takes the monthly "
                "tourism statistics. Set the region.")
    if region.system == UNKNOWN:
        return region.note
    if not region.on_ross1000:
        return (f"{region.name} takes the monthly tourism statistics through {region.system_title}"
                f", not ROSS 1000: this product gives the month's figures as a PDF and a CSV to "
                f"type into its portal; mark the month filed once done.")
    if not region.endpoint:
        return region.endpoint_note
    return (f"{region.name} takes the monthly tourism statistics through ROSS 1000: the month is "
            "sent with the tourism office's transmission credentials, or its file uploaded on "
            "the portal.")
