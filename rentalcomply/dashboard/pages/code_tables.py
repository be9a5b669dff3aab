"""The police code tables on the account's page (templates/_code_tables.tpl): each country's
tables in use, with their source, date and rows, and "Refresh code tables", which loads them
from the authorities now (filings/code_refresh.py) and says per country what came of it."""

from __future__ import annotations

from rentalcomply import codes
from rentalcomply.core.db import atomic
from rentalcomply.dashboard.web import Pages, Redirect
from rentalcomply.filings import code_refresh

COUNTRY_NAMES = {"IT": "Italy", "ES": "Spain", code_refresh.INE: "Spain’s municipalities"}
# The authority's service may take its time; the page waits at most this long per country.
REFRESH_TIMEOUT_SECONDS = 20.0


def account_values(outcomes: str = "") -> dict:
    """What the account page's partial shows: the tables in use per country, and the result of
    a refresh just asked (the query's `codes`, like `IT:refreshed,ES:no_credentials`)."""
    countries = []
    for country in codes.TABLES:  # INE's municipalities are among Spain's tables
        tables = [t for t in codes.status(country) if t.name != "from_checkin"]
        countries.append({"country": country, "name": COUNTRY_NAMES.get(country, country),
                          "tables": tables,
                          "partial": [t.name for t in tables if not t.complete]})
    results = []
    for part in outcomes.split(","):
        country, _, outcome = part.partition(":")
        if country in COUNTRY_NAMES and outcome in _OUTCOMES:
            results.append({"country": COUNTRY_NAMES[country], "outcome": outcome,
                            "authority": _AUTHORITIES.get(country, "")})
    return {"code_tables": countries, "code_results": results}


_OUTCOMES = (code_refresh.REFRESHED, code_refresh.NO_CREDENTIALS, code_refresh.REFUSED,
             code_refresh.UNREACHABLE, code_refresh.UNREADABLE, code_refresh.NOT_SET)
_AUTHORITIES = {"IT": "Alloggiati Web", "ES": "SES.Hospedajes", code_refresh.INE: "INE"}


def register(pages: Pages) -> None:
    # transaction=False: the authorities' answers are awaited without holding the database; each
    # table is loaded in its own transaction (codes.load).
    @pages.post("/settings/account/code-tables", owners=True, transaction=False)
    def refresh_code_tables(page):
        done = code_refresh.refresh_now(timeout=REFRESH_TIMEOUT_SECONDS)
        with atomic():  # the log's row in a transaction of its own, as the log wants
            page.record("account.code_tables_refreshed")
        raise Redirect(page.url("/settings/account", done="code_tables",
                                codes=",".join(f"{c}:{o}" for c, (_, o) in done.items()))
                       + "#code-tables")
