"""The authorities the engine files with: each plugs in from its own folder
(`rentalcomply/authorities/<name>/__init__.py` registers an `Authority`; the list of folders is
`rentalcomply/authorities/__init__.py`). The engine only ever asks this registry, so it never
imports an authority: adding one touches its folder and one registration line.

An `Authority` says what it owes and when (`deadline`, `side_kinds`), how it names guests
(`guest_role`), how it builds and sends (its connector, imported when first used: the SOAP
connectors pull in zeep only where a property uses them) and, through optional hooks with no-op
defaults, what it adds to the common lifecycle (Spain's reservations, Portugal's departures)."""

from __future__ import annotations

import datetime as dt
import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rentalcomply.core.models import Booking, Property
    from rentalcomply.filings.connector import Connector, Guest
    from rentalcomply.filings.models import Filing


class Authority:
    """What one authority adds to the engine. Subclass it in the authority's folder; override
    what applies (every hook has a default that does nothing)."""

    name = ""                # the connector's name, stored on its filings ("alloggiati")
    country = ""             # the ISO country whose properties file with it ("IT")
    # What the property owes it: "registration" (the police: the property's `police_connector`),
    # "statistics" or "tax" (obligations of their own, set up per property: filings/obligations.py).
    purpose = "registration"
    regions: tuple[str, ...] = ()
    # A period authority (its filings' subject is a property and a period, filings/periods.py):
    # "month", "quarter" or "year"; "" for an authority filed per booking.
    period_kind = ""
    title = ""               # what a person calls it ("Alloggiati Web (Polizia di Stato)")
    connector_module = ""    # exposes CONNECTOR (imported when first used)
    file_module = ""         # exposes build_file(settings, stay, guests, filing), for a host who
                             # uploads by hand (the `file` connector); default: the connector
    # Filings beside the guests' registration (Spain's reservation communications): they show on
    # the booking while the registration has not started, and are filed before check-in.
    side_kinds: tuple[str, ...] = ()
    cancellation_kinds: tuple[str, ...] = ()  # filings that cancel what it took before
    code_tables: tuple[str, ...] = ()  # the code tables it loads through its connector (codes/)
    endpoint_setting = ""    # the `[police]` setting holding its service's address
    receipt_years_setting = ""  # the `[retention]` setting: how many years its receipts are kept
    # The time zone of the authority's day, for one whose connector gives a receipt per day
    # (`fetch_receipt(credentials, settings, day, timeout)`, filings/receipts.py); "" for none.
    daily_receipt_zone = ""
    # The words a filing is held with where no connector files it yet: the host files it in the
    # authority's portal by hand and marks it filed (the Basque Country's Ertzaintza); "" for none.
    hand_entry_reason = ""
    # What a property must set before the service can be asked (filings/setup.py: SetupField);
    # a filing without it is held, nothing sent, until it is set.
    setup_fields: tuple = ()

    def refresh_code_tables(self, connector, credentials: dict, settings: dict,
                            timeout: float) -> dict[str, int]:
        """Load `code_tables` from the authority's service (filings/code_refresh.py). An
        authority that names tables says how; without that, the refresh says so and loads none."""
        raise LookupError(f"{self.title or self.name} names code tables but no way to load them")

    def connector(self) -> "Connector":
        return importlib.import_module(self.connector_module).CONNECTOR

    def file_builder(self):
        if self.file_module:
            return importlib.import_module(self.file_module)
        return self.connector()

    def deadline(self, prop: "Property", booking: "Booking", kind: str,
                 arrival_hour: int) -> dt.datetime | None:
        """When the filing of `kind` is due (naive UTC); None: 24 hours from the arrival, at
        `arrival_hour` local time (filings/deadlines.py)."""
        return None

    def guest_role(self, index: int, data: dict, lead: dict) -> str:
        """The guest's role in the authority's words (`lead`: the first guest's values)."""
        return "holder" if index == 0 else "traveller"

    def adapt_guest(self, data: dict) -> None:
        """Rename or complete a guest's check-in values for this authority's format."""
        if data.get("minor_relationship"):
            data["relationship"] = data["minor_relationship"]

    def hold_reason(self, error: Exception) -> str | None:
        """Why a filing waits rather than fails (a value with no code in a table that is not the
        authority's whole one, such as INE's shipped list)."""
        return None

    def nothing_to_file(self, guests: list["Guest"]) -> bool:
        """A party the authority does not want (Portugal: its own citizens)."""
        return False

    # --- hooks into the lifecycle ---------------------------------------------------------------
    def booking_created(self, booking: "Booking", prop: "Property") -> None:
        """In the transaction that creates the booking."""

    def dates_changed(self, booking: "Booking", prop: "Property") -> None:
        """In the transaction that moves the booking's dates."""

    def party_for(self, row: "Filing", booking: "Booking") -> tuple[list | None, str | None] | None:
        """The guests a side filing sends, or (None, why it waits); None: the checked-in party."""
        return None

    def cancelled_reference(self, row: "Filing", booking: "Booking") -> str | None:
        """What a cancellation filing cancels (the authority's codes), or None."""
        return None

    def accepted(self, booking: "Booking", prop: "Property", row: "Filing") -> None:
        """After the authority took `row` (a departure to queue, a reservation to send again)."""

    def queue_work(self) -> list[str]:
        """Filings this authority queues on each run, counted as queued (reservations)."""
        return []

    def follow_ups(self) -> list[str]:
        """Filings that follow an outcome (a cancellation of what the authority took): made at
        the start of each run and again after its attempts."""
        return []

    def work_waiting(self) -> bool:
        """Whether queue_work or follow_ups has something to do (cheap: it runs after commits)."""
        return False

    def at_risk(self, now: dt.datetime) -> list[str]:
        """Its own filings announced at risk (side filings); booking ids."""
        return []

    # --- a period authority (purpose statistics or tax; filings/periods.py) ----------------------
    # `regions` (ISO 3166-2, above) is where it is owed; empty: the whole country.
    def owed_by(self, prop: "Property") -> bool:
        """Whether the property owes it (its country, and its region where the authority names
        regions; a property whose region is unknown owes no regional authority yet)."""
        if prop.country != self.country:
            return False
        return not self.regions or (prop.region or "") in self.regions

    def obligation_title(self, prop: "Property") -> str:
        """What a person calls the obligation of this property (the region's system)."""
        return self.title or self.name

    def periods_owed(self, prop: "Property", today: dt.date) -> list[str]:
        """The periods ("2026-11") the property owes a filing of, as of `today` (its local date):
        the current one, from its first day, and past ones the authority's rule names."""
        return []

    # Required of every period authority (one whose `period_kind` is set): the engine calls them
    # for each of its filings. An authority filed per booking never reaches them.
    def period_deadline(self, prop: "Property", period: str, settings: dict) -> dt.datetime:
        """When the period's filing is due (naive UTC)."""
        raise NotImplementedError(f"{self.name} names a period_kind but no period_deadline")

    def build_period(self, prop: "Property", period: str, settings: dict):
        """The period's file with the figures so far (filings/periods.py: PeriodFile)."""
        raise NotImplementedError(f"{self.name} names a period_kind but no build_period")

    def sends_online(self, prop: "Property", settings: dict, credential_names: list[str]) -> bool:
        """Whether the period's file goes to the authority's service (else it is `ready` for
        the host to upload or type in, and mark filed)."""
        return False

    def send_period(self, prop: "Property", period: str, settings: dict, credentials: dict,
                    data: bytes, timeout: float):
        """Send the period's file: a filings.connector.Outcome (per guest where the authority
        answers so); AuthError, TransientError, PermanentError as a connector raises them.
        Required only of an authority whose `sends_online` can answer True."""
        raise NotImplementedError(f"{self.name} says it sends online but has no send_period")


_authorities: dict[str, Authority] = {}
_special: dict[str, str] = {"file": "rentalcomply.filings.file_connector"}


def register(authority: Authority) -> Authority:
    _authorities[authority.name] = authority
    return authority


def authorities() -> list[Authority]:
    """The registration (police) authorities: those whose hooks the booking filings run and
    whose file a property's `file` connector builds. Period authorities: period_authorities."""
    return [a for a in _authorities.values() if a.purpose == "registration"]


def get(name: str) -> Authority:
    """The registered authority called `name` (KeyError when absent)."""
    return _authorities[name]


def for_country(country: str) -> Authority | None:
    """The country's own authority (not a regional one: Spain's is SES.Hospedajes)."""
    return for_region(country, None)


def registrations() -> list[Authority]:
    """The authorities a property's `police_connector` may name."""
    return authorities()


def period_authorities() -> list[Authority]:
    """The authorities owed a filing per period (statistics, tax): obligations of their own."""
    return [a for a in _authorities.values() if a.period_kind]


def filing_countries() -> tuple[str, ...]:
    """The countries whose properties owe a registration to an authority registered here."""
    return tuple(dict.fromkeys(a.country for a in registrations()))


def of_country(country: str) -> Authority:
    """The authority of `country`, whose hooks apply whatever the property's connector (the
    `file` connector builds that authority's file); where none is registered, a plain Authority
    whose hooks do nothing."""
    return for_country(country) or Authority()


def names() -> tuple[str, ...]:
    """Every connector a property may choose: none, file, then the authorities."""
    return ("none", *_special, *(a.name for a in registrations()))


def all_names() -> tuple[str, ...]:
    """Every name a filing's `authority` may hold: the connectors and the period authorities."""
    return (*names(), *(a.name for a in period_authorities()))


def for_region(country: str, region: str | None) -> Authority | None:
    """The authority owed by a property in `region` (ISO 3166-2, e.g. "ES-CT") of `country`: the
    one naming that region in its `regions`, else the country's (whose `regions` are empty)."""
    if region:
        for authority in registrations():
            if authority.country == country and region in authority.regions:
                return authority
    for authority in registrations():
        if authority.country == country and not authority.regions:
            return authority
    return None


def of_region(country: str, region: str | None) -> Authority:
    """for_region, or a plain Authority whose hooks do nothing."""
    return for_region(country, region) or Authority()


def connector_problem(name: str, country: str, region: str | None = None, *,
                      _words: bool = True) -> str | None:
    """Why a property in `country` (and `region`, where known) cannot take connector `name` (an
    error detail's message), or None. An authority's service takes its own country's properties,
    and a regional one (`regions`) only its regions' while the others of the country do not take
    those (Catalonia files with the Mossos d'Esquadra, not SES.Hospedajes); a property whose
    region is unknown is judged by its country alone. `file` builds the file of the property's
    authority, so it needs one that builds files (Greece has none: AADE's reports are the reports
    capability's; a Greek property once took `file` and every filing then failed)."""
    if name == "file":
        countries = list(filing_countries())
    elif name in _authorities and _authorities[name].purpose == "registration":
        countries = [_authorities[name].country]
    else:  # none files nothing, anywhere; an unknown name is refused as such elsewhere
        return None
    if country not in countries:
        takes = ["none", *(["file"] if for_country(country) else []),
                 *(a.name for a in registrations() if a.country == country)]
        return (f"has no police format for country {country} ({name} files for "
                f"{', '.join(countries)}); a property in {country} takes: {', '.join(takes)}")
    owed = for_region(country, region)
    chosen = _authorities.get(name)

    def fitting() -> str:
        return ", ".join(fitting_names(country, region)) if _words else ""

    if chosen is not None and chosen.regions and region not in chosen.regions:
        if not region:
            return (f"files only for properties in {', '.join(chosen.regions)}; this property's "
                    f"region is not known yet: set it first")
        return (f"files only for properties in {', '.join(chosen.regions)}; this property is in "
                f"region {region}" + (f": it takes {owed.name}" if owed is not None else ""))
    if region and owed is not None and owed.regions:
        if chosen is not None and chosen is not owed:
            return (f"is not the authority of region {region}: its guests are registered with "
                    f"{owed.title or owed.name}; the property takes: {fitting()}")
        if name == "file" and owed.hand_entry_reason:
            return (f"builds no file for region {region}: {owed.title or owed.name} is filed by "
                    f"hand; the property takes: {fitting()}")
    return None


def fitting_names(country: str, region: str | None = None) -> list[str]:
    """The connectors a property in `country` and `region` may take (the property page's
    choices; an error's words)."""
    return [name for name in names()
            if not connector_problem(name, country, region, _words=False)]


def on_wrong_authority(prop: "Property") -> Authority | None:
    """The authority a property should file with when the connector it has is another's (a
    Catalan property still on SES.Hospedajes): it is not moved silently; the host confirms the
    move. None when its connector fits (or files nothing)."""
    if not connector_problem(prop.police_connector, prop.country, prop.region):
        return None
    return for_region(prop.country, prop.region)


def hand_entry_reason(name: str) -> str:
    """The words a filing of connector `name` is held with, filed by hand in the authority's
    portal (Authority.hand_entry_reason); "" for a connector that files or builds a file."""
    authority = _authorities.get(name)
    return authority.hand_entry_reason if authority is not None else ""


def hand_entry_names() -> tuple[str, ...]:
    return tuple(a.name for a in registrations() if a.hand_entry_reason)


def connector(name: str) -> "Connector":
    """The connector for `name` (KeyError for "none" or an unknown name)."""
    if name in _special:
        return importlib.import_module(_special[name]).CONNECTOR
    return _authorities[name].connector()


def side_kinds() -> tuple[str, ...]:
    return tuple(kind for a in _authorities.values() for kind in a.side_kinds)


def period_kinds() -> tuple[str, ...]:
    return tuple(dict.fromkeys(a.period_kind for a in period_authorities()))
