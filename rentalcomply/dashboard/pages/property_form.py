"""The property form (a new property's page and the property page's details): the country chosen
first, from names in the page's language; then its time zones, its own fields, its regions and
the police authorities it takes.

Where scripts run, static/js/property-form.js shows what follows from the country at once, from
the data this module gives the form (`script_data`). Without scripts, the form's "Show this
country's fields" button sends it back here and the page comes back with the country's fields,
nothing saved (`step_values`).

A new property never starts on another country's fields: no country is chosen until the person
picks one. A property of a country whose guests are filed with the police (Italy, Spain,
Portugal) starts on the authority of its country and region (Alloggiati Web; SES.Hospedajes,
the Mossos d'Esquadra in Catalonia, the Ertzaintza in the Basque Country; SIBA), its set-up then
to complete on the property page. That default is the form's only: the API's `police_connector`
still defaults to `none` (decisions.md, "Property"), so API clients see what they always saw.
"""

from __future__ import annotations

import json

from rentalcomply.core.errors import ValidationError
from rentalcomply.dashboard import i18n
from rentalcomply.dashboard.pages import regions as region_pages
from rentalcomply.filings import registry
from rentalcomply.properties import countries, regions
from rentalcomply.properties import service as properties

PROPERTY_FIELDS = ("name", "address", "aade_property_id", "country", "timezone", "max_guests",
                   "climate_fee_category", "police_connector", "status", "cin", "region",
                   "rooms", "beds", "licence_number", "nrua")

# Fields that apply to some countries only: the form shows them for those (and keeps one of
# another country shown while it holds a value or an error, to be cleared).
COUNTRY_FIELDS = {"aade_property_id": ("GR",), "climate_fee_category": ("GR",),
                  "cin": ("IT",), "rooms": ("IT",), "beds": ("IT",),
                  "licence_number": ("ES",), "nrua": ("ES",), "region": ("IT", "ES")}

COUNTRY_NEEDED = "Choose the property’s country."


class ZoneNeeded(Exception):
    """The country has several time zones and the one chosen is not among them."""

    def __init__(self, values: dict, country: str):
        super().__init__(country)
        self.values = {**values, "timezone": None}


def zone_error(page, needed: ZoneNeeded) -> dict:
    name = countries.country_name(needed.values["country"], page.lang)
    return {"timezone": page._("{country} has several time zones: choose this property’s.",
                               country=name)}


def starting_connector(country: str, region: str | None) -> str:
    """The police connector a new property of `country` and `region` starts on: the authority
    its guests are filed with, or none where there is no such filing (Greece)."""
    owed = registry.for_region(country, region) if country else None
    return owed.name if owed is not None else "none"


def _typed(page) -> dict:
    values = {}
    for name in PROPERTY_FIELDS:
        typed = page.form(name, None)
        if typed is not None:
            values[name] = typed.strip()
    for name in ("aade_property_id", "max_guests", "cin", "region", "rooms", "beds",
                 "licence_number", "nrua", "timezone"):
        if values.get(name) == "":
            values[name] = None
    for name in ("max_guests", "rooms", "beds"):
        if isinstance(values.get(name), str) and values[name].isdigit():
            values[name] = int(values[name])
    return values


def _region_known(values: dict, country: str, prop) -> str | None:
    """The region the property will have: the one chosen, else the one its address says."""
    if values.get("region"):
        return values["region"]
    if prop is not None and "region" not in values and prop.country == country:
        return prop.region
    return regions.derive(country, values.get("address") or (prop.address if prop else None))


def form_values(page, prop=None) -> dict:
    """The form's values as the domain takes them. A field the form did not show (a Greek field
    of an Italian property) is left as it is. A time zone that is not the chosen country's (the
    country was just changed) becomes the country's only zone, or its region's (the Canary
    Islands: Atlantic/Canary); a country with several must be chosen again, never guessed. A new
    property left on the form's starting authority gets its region's (Catalonia: the Mossos)."""
    values = _typed(page)
    country = values.get("country") or (prop.country if prop else "")
    if not country:
        raise ValidationError("country", COUNTRY_NEEDED)
    region_pages.keep_derived_region(values, prop, country)
    region = _region_known(values, country, prop)
    zones = countries.zones_for(country)
    if zones and values.get("timezone") not in zones:
        by_region = countries.zone_of_region(region) if region else None
        values["timezone"] = zones[0] if len(zones) == 1 else (
            by_region if by_region in zones else None)
    if values.get("timezone") is None and len(zones) > 1:
        raise ZoneNeeded(values, country)
    if prop is None and values.get("police_connector") in (None, starting_connector(country,
                                                                                    None)):
        values["police_connector"] = starting_connector(country, region)
    return values


def create(account_id: str, values: dict):
    """Create the property the form describes, its authority with it: a regional one (the Mossos
    d'Esquadra) is judged by the region read from the address or chosen, as the API does."""
    return properties.create_property(account_id, **values)


def step_values(page, prop=None) -> dict:
    """The form sent back by its "Show this country's fields" button (no script): what was
    typed, with the chosen country's zone and authority where they follow from it."""
    values = _typed(page)
    country = values.get("country") or ""
    if not country:
        return values
    region = values.get("region")
    if region and not region.startswith(country + "-"):
        region = values["region"] = None
    zones = countries.zones_for(country)
    if values.get("timezone") not in zones:
        by_region = countries.zone_of_region(region)
        values["timezone"] = zones[0] if len(zones) == 1 else (
            by_region if by_region in zones else None)
    # The page was shown for another country (or none): the connector offered there is not a
    # choice made for this one.
    changed = page.form("shown_country") != country
    if prop is None and (changed or values.get("police_connector")
                         not in registry.fitting_names(country, region)):
        values["police_connector"] = starting_connector(country, region)
    return values


def not_filed(prop) -> dict | None:
    """Whether the property page says its guests are not being filed: an active property of a
    filing country with no police connector (filings.obligations.without_registration's rule),
    with the authority owed, when its region tells it, to choose in one click."""
    if prop.police_connector != "none" or prop.status != "active" \
            or prop.country not in registry.filing_countries():
        return None
    return {"authority": registry.for_region(prop.country, prop.region)}


def new_values(country: str) -> dict:
    """A new property's form: nothing chosen but what follows from `country`, if one is."""
    zones = countries.zones_for(country) if country else []
    return {**properties.DEFAULTS, "country": country,
            "timezone": zones[0] if len(zones) == 1 else None,
            "police_connector": starting_connector(country, None)}


def _connectors_for(country: str, current: str | None, region: str | None = None) -> list[str]:
    """None, a file, and the authority of the property's country (Alloggiati Web for Italy...):
    those with a format for the country (no file for Greece); a connector of another country
    already chosen stays shown, to be changed."""
    offered = registry.fitting_names(country, region) if country else []
    if current and current not in offered:
        offered.append(current)
    return offered


def choices(page, country: str, timezone: str | None = None, connector: str | None = None,
            prop=None, region: str | None = None) -> dict:
    """What the form's selects offer for `country` ("" while none is chosen)."""
    zones = [(z, countries.zone_label(z, page.lang)) for z in countries.zones_for(country)] \
        if country else []
    if timezone and timezone not in dict(zones):  # saved before, of another country: shown as such
        zones.insert(0, (timezone, page._("{zone} (not a time zone of this country)",
                                          zone=timezone)))
    region = prop.region if prop is not None else region
    return {"categories": properties.CLIMATE_FEE_CATEGORIES,
            "connectors": _connectors_for(country, connector, region),
            "statuses": properties.PROPERTY_STATUSES, "providers": properties.PROVIDERS,
            "countries": countries.country_choices(page.lang),
            "served_countries": countries.served_choices(page.lang),
            "zones": zones, "country_fields": COUNTRY_FIELDS,
            "greek_fields": country == "GR", "italian_fields": country == "IT",
            "spanish_fields": country == "ES", "licence_limit": properties.LICENCE_MAX,
            "nrua_limit": properties.NRUA_MAX,
            "cin_limit": properties.CIN_MAX,
            "form_data": script_data(page.lang),
            "not_filed_words": not_filed_words(page),
            **region_pages.region_choices(page, country, prop)}


def not_filed_words(page) -> str:
    return page._("Guests of a property in this country must be registered with the police: "
                  "with no connector, they are not being filed.")


def script_data(lang: str) -> str:
    """What property-form.js needs to follow a country without asking the server (the pages'
    Content-Security-Policy lets them fetch nothing): each country's zones, regions and police
    connectors in `lang`, and each region's zone and starting authority."""
    data: dict = {"zones": {}, "regions": {}, "connectors": {}, "start": {}, "regionZones": {}}
    for code, _name in countries.country_choices(lang):
        data["zones"][code] = [[z, countries.zone_label(z, lang)]
                               for z in countries.zones_for(code)]
    for code in registry.filing_countries():
        for region in (None, *regions.regions_of(code)):
            key = f"{code}/{region or ''}"
            data["connectors"][key] = [[name, i18n.translate(lang, name)]
                                       for name in registry.fitting_names(code, region)]
            data["start"][key] = starting_connector(code, region)
    data["noConnectors"] = [["none", i18n.translate(lang, "none")]]
    data["chooseZone"] = i18n.translate(lang, "Choose the time zone")
    for code in COUNTRY_FIELDS["region"]:
        data["regions"][code] = regions.choices(code, lang)
        for region in regions.regions_of(code):
            data["regionZones"][region] = countries.zone_of_region(region)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
