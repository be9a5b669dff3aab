"""The guest's privacy notice: who the controller is (the account's legal name, address and
contact, accounts/controller.py), why the details are asked (the law of the property's country,
named in a sentence of its own per country), how long they are kept (the retention settings, in
words), the guest's rights and the data-protection authority to complain to.
"""

from __future__ import annotations

from rentalcomply.accounts import controller
from rentalcomply.checkin import i18n
from rentalcomply.checkin.retention import Retention

# Countries whose law the notice names; any other gets the sentences without a law.
NAMED_COUNTRIES = ("IT", "ES", "PT", "GR")


def retention_period(settings, country: str, lang: str) -> str:
    """"1 year", "30 days": the country's own retention, in whole years when it is."""
    unit, count = Retention.from_settings(settings).period(country)
    if unit == "days" and count % 365 == 0:
        unit, count = "years", count // 365
    return i18n.count(lang, unit.removesuffix("s"), count)


def notice(settings, prop, lang: str) -> list[str]:
    """The notice's paragraphs, in the page's language."""
    country = prop.country if prop.country in NAMED_COUNTRIES else "other"
    named = controller.controller_of(prop.account_id)
    if named["legal_name"]:
        contact = " · ".join(part for part in (named["email"], named["phone"]) if part)
        who = i18n.text(lang, "privacy.controller", name=named["legal_name"],
                        address=named["address"], contact=contact)
    else:
        who = i18n.text(lang, "privacy.controller_host", host=prop.name)
    return [who,
            i18n.text(lang, f"privacy.purpose.{country}"),
            i18n.text(lang, "privacy.retention",
                      period=retention_period(settings, prop.country, lang)),
            i18n.text(lang, "privacy.rights") + " " + i18n.text(lang, f"privacy.complaint.{country}")]
