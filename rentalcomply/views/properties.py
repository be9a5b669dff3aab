"""A property as the API shows it: its own fields, its police settings (filings) and its calendar
feeds, imported (properties) and exported (sync)."""

from __future__ import annotations

from rentalcomply.core import clock
from rentalcomply.core.models import ChannelConnection, Property
from rentalcomply.filings.obligations import obligations_of
from rentalcomply.filings.settings import police_views
from rentalcomply.properties import access
from rentalcomply.properties.service import channel_view, channels_of
from rentalcomply.sync.export import export_url
from rentalcomply.taxes.service import property_rule_ids


def property_view(prop: Property, channels: list[ChannelConnection] | None = None,
                  police: dict | None = None, tax_rules: list[str] | None = None) -> dict:
    if tax_rules is None:
        tax_rules = property_rule_ids([prop.id]).get(prop.id, [])
    if channels is None:
        channels = channels_of([prop.id])[prop.id]
    if police is None:
        police = police_views([prop.id])[prop.id]
    return {
        "id": prop.id,
        "name": prop.name,
        "address": prop.address,
        "aade_property_id": prop.aade_property_id,
        "status": prop.status,
        "country": prop.country,
        "timezone": prop.timezone,
        "max_guests": prop.max_guests,
        "climate_fee_category": prop.climate_fee_category,
        "police_connector": prop.police_connector,
        "cin": prop.cin,
        "region": prop.region,
        "region_source": prop.region_source,
        "rooms": prop.rooms,
        "beds": prop.beds,
        "licence_number": prop.licence_number,
        "nrua": prop.nrua,
        **police,
        # What it owes, each to its own authority: the police, then statistics (and later tax).
        "obligations": obligations_of(prop),
        "access_instructions_set": prop.access_instructions_sealed is not None,
        "access_instructions_languages": access.languages_of(prop),  # never the texts
        "access_instructions_hours_before": prop.access_instructions_hours_before,
        "checkout_hour": prop.checkout_hour,
        "channel_connections": [channel_view(connection) for connection in channels],
        "ical_export_url": export_url(prop),
        "created_at": clock.iso(prop.created_at),
        "updated_at": clock.iso(prop.updated_at),
        "version": prop.version,
        "tax_rules": tax_rules,
    }


def property_views(properties: list[Property]) -> list[dict]:
    """Views of several properties, their channel connections and settings fetched in one query
    each."""
    channels = channels_of(prop.id for prop in properties)
    police = police_views([prop.id for prop in properties])
    tax_rules = property_rule_ids(prop.id for prop in properties)
    return [property_view(prop, channels[prop.id], police[prop.id], tax_rules.get(prop.id, []))
            for prop in properties]
