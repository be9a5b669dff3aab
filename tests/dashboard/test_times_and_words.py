"""Times in the property's or the account's time zone, named; dates, money and plural forms from
Babel in English and Greek; the account's time zone chosen by an owner."""

from __future__ import annotations

import datetime as dt

from rentalcomply.accounts import service as accounts
from rentalcomply.core.models import ApiKey
from rentalcomply.dashboard.i18n import Formatter
from rentalcomply.properties import service as properties


def test_plural_forms_come_from_the_language_rules():
    en, el = Formatter("en"), Formatter("el")
    assert f"{en.count('night', 1)} · {en.count('guest', 1)}" == "1 night · 1 guest"
    assert f"{en.count('night', 2)} · {en.count('guest', 3)}" == "2 nights · 3 guests"
    assert f"{el.count('night', 1)} · {el.count('guest', 1)}" == "1 νύχτα · 1 άτομο"
    assert f"{el.count('night', 2)} · {el.count('guest', 3)}" == "2 νύχτες · 3 άτομα"
    assert en.count("night", 1200) == "1,200 nights" and el.count("night", 1200) == "1.200 νύχτες"


def test_money_dates_and_times_in_each_language_and_zone():
    en, el = Formatter("en", "Europe/Athens"), Formatter("el", "Europe/Athens")
    assert en.money(123450) == "€1,234.50" and el.money(123450) == "1.234,50\xa0€"
    assert en.date(dt.date(2026, 11, 23)) == "Mon 23 Nov 2026"
    assert el.date(dt.date(2026, 11, 23)) == "Δευ 23 Νοε 2026"
    winter, summer = dt.datetime(2026, 11, 23, 19, 44), dt.datetime(2026, 7, 1, 19, 44)
    assert en.datetime(winter) == "Mon 23 Nov 2026, 21:44 EET"
    assert en.datetime(summer).endswith("22:44 EEST")
    assert en.datetime(winter, "Europe/Rome").endswith("20:44 CET")
    assert Formatter("en").datetime(winter).endswith("19:44 UTC")
    assert el.month(dt.date(2026, 5, 1)) == "Μάιος 2026"


def test_the_keys_page_shows_last_use_in_the_accounts_zone(anna, account_a):
    properties.create_property(account_a, name="Sea View", address="Akti 1")  # Europe/Athens
    record, _ = accounts.create_key(account_a, ["read"], name="tool")
    ApiKey.update(last_used_at=dt.datetime(2026, 11, 23, 19, 44)).where(
        ApiKey.id == record.id).execute()
    assert "21:44 EET" in anna.get("/dashboard/settings/keys").text


def test_an_owner_chooses_the_accounts_time_zone(anna, account_a):
    record, _ = accounts.create_key(account_a, ["read"], name="tool")
    ApiKey.update(last_used_at=dt.datetime(2026, 11, 23, 19, 44)).where(
        ApiKey.id == record.id).execute()
    assert "19:44 UTC" in anna.get("/dashboard/settings/keys").text  # no property, no choice
    page = anna.get("/dashboard/settings/account")
    bad = anna.post("/dashboard/settings/account/timezone",
                    {"csrf": anna.csrf(page), "timezone": "Mars/Olympus"}, status=400)
    assert 'id="timezone-error"' in bad.text
    anna.post("/dashboard/settings/account/timezone",
              {"csrf": anna.csrf(page), "timezone": "Europe/Lisbon"}, status=303)
    assert "19:44 WET" in anna.get("/dashboard/settings/keys").text
