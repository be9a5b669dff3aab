"""Italy: Alloggiati Web (Polizia di Stato). Every guest is registered within 24 hours of the
arrival (6 hours for a stay of one night or less), with the authority's codes for places and
documents (codes/: the authority's whole tables ship with the package; a value a table that is
not the whole one cannot code would hold the filing, docs/police.md)."""

from __future__ import annotations

import datetime as dt

from rentalcomply import codes
from rentalcomply.authorities.alloggiati.format import CODE_FIELDS, RecordError
from rentalcomply.filings.deadlines import as_date, local_to_utc
from rentalcomply.filings.registry import Authority, register
from rentalcomply.filings.setup import SetupField

# The check-in's relationships in the authority's words (its tipo_alloggiato).
ROLES = {"single": "single", "head_of_family": "head_of_family", "head_of_group": "group_leader",
         "family_member": "family_member", "group_member": "group_member"}


class Alloggiati(Authority):
    name = "alloggiati"
    country = "IT"
    title = "Alloggiati Web"
    connector_module = "rentalcomply.authorities.alloggiati.connector"
    endpoint_setting = "alloggiati_url"
    receipt_years_setting = "police_receipts_years_it"
    # Ricevuta gives the receipt of a calendar day of the service, which runs on Italian time.
    daily_receipt_zone = "Europe/Rome"
    code_tables = codes.IT_TABLES
    # The web-service account the Questura gives: its user (like RM012345), password and the
    # WSKEY generated in Alloggiati Web (a new one after each password change).
    setup_fields = (
        SetupField("user", "Alloggiati Web user", secret=True, shown=True, pattern=r"[A-Za-z0-9._-]{3,50}",
                   rule="The user is 3 to 50 letters or digits, like RM012345.",
                   hint="The user name the Questura gave you for Alloggiati Web, like RM012345."),
        SetupField("password", "Alloggiati Web password", secret=True, pattern=r"\S{1,100}",
                   rule="The password cannot contain spaces."),
        SetupField("wskey", "Web service key (WSKEY)", secret=True, pattern=r"[A-Za-z0-9+/=_-]{1,200}",
                   rule="The WSKEY is the long key Alloggiati Web shows under Web Service: letters, "
                        "digits and + / = only.",
                   hint="Generate it in Alloggiati Web, Profilo, Web Service; a new one is "
                        "needed after every password change."),
        SetupField("apartment_id", "Apartment code (property managers only)", required=False,
                   pattern=r"\d{1,6}", rule="The apartment code is up to 6 digits.",
                   hint="Only for a property-manager account of Alloggiati Web; leave empty "
                        "otherwise."),
    )

    def deadline(self, prop, booking, kind, arrival_hour):
        arrival, departure = as_date(booking.arrival_date), as_date(booking.departure_date)
        start = local_to_utc(arrival, arrival_hour, 0, prop.timezone)
        return start + dt.timedelta(hours=6 if (departure - arrival).days <= 1 else 24)

    def guest_role(self, index, data, lead):
        lead_role = ROLES.get(lead.get("relationship") or "", "single")
        if index == 0:
            return lead_role
        return ROLES.get(data.get("relationship") or "") or (
            "group_member" if lead_role == "group_leader" else
            "family_member" if lead_role == "head_of_family" else "single")

    def adapt_guest(self, data):
        """The Alloggiati record reads the check-in's relationship as it is."""

    def hold_reason(self, error):
        """Why a filing waits for the authority's whole code tables: a guest's value has no code
        in a table that is not the whole one, which is no verdict on it. None otherwise (the
        shipped tables are whole: what they cannot code is refused)."""
        if not isinstance(error, RecordError):
            return None
        uncodable = [(i, f, message) for i, f, message in error.problems if f in CODE_FIELDS]
        if not uncodable or codes.it_full():
            return None
        return codes.held_reason(uncodable)

    def refresh_code_tables(self, connector, credentials, settings, timeout):
        tables = connector.fetch_tables(credentials, settings, timeout)
        return codes.load("IT", tables, "Alloggiati Web, operation Tabella")


register(Alloggiati())
