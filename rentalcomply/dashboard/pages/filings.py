"""The Filings page: every filing of the account, booking and period alike, the latest deadline
first, with filters that work without JavaScript (a GET form), its status and reason in words,
its file and receipt, and the actions where they apply: file again (refused or failed), mark as
filed with the authority's reference (a file awaiting its upload by hand). The work is
filings/listing.py's, as for `GET /api/v1/filings`."""

from __future__ import annotations

import datetime as dt
import re
import urllib.parse

from rentalcomply.core.errors import ApiError, NotFound, ValidationError
from rentalcomply.core.models import Booking
from rentalcomply.dashboard.pages.shared import page_number
from rentalcomply.dashboard.police_words import KIND_WORDS, STATUS_WORDS, reason_words
from rentalcomply.dashboard.web import Pages, Redirect, form_errors
from rentalcomply.filings import listing
from rentalcomply.filings.engine import FILING_STATUSES
from rentalcomply.properties import service as properties

PAGE_SIZE = 25
FILTERS = ("property", "authority", "status", "period")
# What a period filing's status says where a booking's says "Waiting for check-in".
PERIOD_WAITING = "Waiting for the period to end"
# The kinds only period filings have, in words (the booking filings' are police_words').
PERIOD_KIND_WORDS = {"month": "Guests’ movement of the month (statistics)",
                     "quarter": "Return of the quarter", "year": "Return of the year"}
# The actions of a row: file again what was refused or failed (a held filing goes by itself
# once what it waits for is there); mark filed a file awaiting its upload by hand.
REFILE_STATUSES = ("rejected", "failed")
# The status filter's choices: one name each (the rows' words join queued and sending).
FILTER_WORDS = {"waiting": "Waiting", "queued": "Queued", "sending": "Being sent",
                "polling": "Sent, awaiting the answer", "ready": "File ready to upload",
                "submitted": "Filed", "rejected": "Refused by the authority",
                "failed": "Not filed", "held": "Held"}


def _filters(page) -> tuple[dict[str, str], dict[str, str]]:
    """The form's filters as typed, and an error for each the list cannot take."""
    typed = {name: page.arg(name) for name in FILTERS}
    errors = {}
    if typed["period"] and not re.fullmatch(listing.PERIOD_PATTERN, typed["period"]):
        errors["period"] = "must be a month (2026-03), a quarter (2026-Q1) or a year (2026)"
    if typed["status"] and typed["status"] not in FILING_STATUSES:
        errors["status"] = "choose one of the list"
    return typed, errors


def period_words(page, period: str) -> str:
    """"March 2026", "Q1 2026", "2026": a period as a person says it."""
    if re.fullmatch(r"\d{4}-\d{2}", period):
        return page.fmt.month(dt.date(int(period[:4]), int(period[5:]), 1))
    if re.fullmatch(r"\d{4}-Q[1-4]", period):
        return page._("Quarter {quarter} of {year}", quarter=period[-1], year=period[:4])
    return period


def _line(page, view: dict, props: dict, stays: dict) -> dict:
    prop = props.get(view["property_id"])
    stay = stays.get(view["booking_id"]) if view["booking_id"] else None
    if view["booking_id"] is None and view["status"] == "waiting":
        status_words = page._(PERIOD_WAITING)
    else:
        status_words = page._(STATUS_WORDS.get(view["status"], view["status"]))
    kind = PERIOD_KIND_WORDS.get(view["kind"]) or KIND_WORDS.get(view["kind"], view["kind"])
    reason = reason_words(view["status"], view["error"])
    return {
        "id": view["id"], "status": view["status"], "status_words": status_words,
        "kind": page._(kind), "authority": page._(view["authority_title"]),
        "property": prop.name if prop else "", "property_id": view["property_id"],
        "timezone": prop.timezone if prop else None,
        "booking_id": view["booking_id"], "stay": stay,
        "period": period_words(page, view["period"]) if view["period"] else None,
        "deadline": view["deadline"], "at_risk": view["at_risk"], "reference": view["reference"],
        "reason": page._(reason) if reason else None,
        "refused": [(g["index"] + 1, " ".join(p for p in (g.get("code"), g.get("message")) if p))
                    for g in view["guests"] if not g.get("accepted") and g.get("message")]
        if view["status"] == "rejected" else [],
        "file": view["file"] is not None, "receipt": view["receipt"] is not None,
        "can_refile": view["status"] in REFILE_STATUSES,
        "can_mark_filed": view["status"] == "ready",
    }


def _stays(booking_ids: list[str]) -> dict[str, Booking]:
    """The bookings of a page's booking filings: their guest and dates, one query."""
    if not booking_ids:
        return {}
    return {b.id: b for b in Booking.select(Booking.id, Booking.guest_name, Booking.arrival_date,
                                            Booking.departure_date)
            .where(Booking.id.in_(booking_ids))}


def render_list(page, status: int = 200, message: str | None = None,
                errors: dict | None = None, reference_for: str | None = None):
    typed, filter_errors = _filters(page)
    number = page_number(page)
    props = {p.id: p for p in properties.list_properties(page.account_id)}
    lines, more, total = [], False, 0
    if not filter_errors:
        found = listing.filing_page(
            page.settings, page.account_id, limit=PAGE_SIZE, page=number, newest_first=True,
            property_id=typed["property"] or None, authority=typed["authority"] or None,
            status=typed["status"] or None, period=typed["period"] or None)
        stays = _stays([v["booking_id"] for v in found.views if v["booking_id"]])
        lines = [_line(page, view, props, stays) for view in found.views]
        more, total = found.has_more, found.total
    # The authorities the account files with, for the filter: those of its filings.
    authorities = sorted(listing.authorities_of(page.account_id),
                         key=lambda item: item[1].lower())
    return page.render("filings", status=status, title=page._("Filings"), lines=lines,
                       filters=typed, errors={**filter_errors, **(errors or {})},
                       number=number, more=more, total=total, message=message,
                       reference_for=reference_for, query=list_query(typed, number),
                       names={pid: p.name for pid, p in props.items()},
                       authorities=authorities, statuses=FILING_STATUSES,
                       status_words={s: page._(FILTER_WORDS.get(s, s)) for s in FILING_STATUSES})


def list_query(filters: dict, number: int) -> str:
    """The list's filters and page as a query: an action's form posts to its address with it,
    so that a refused action shows the list as it was and a done one goes back to it."""
    kept = {name: value for name, value in filters.items() if value}
    if number > 1:
        kept["page"] = number
    return urllib.parse.urlencode(kept)


def _back(page, done: str) -> str:
    typed = {name: page.arg(name) for name in FILTERS}
    return page.url("/filings", **typed, page=page.arg("page"), done=done)


def _fresh_link(page, filing_id: str, kind: str, missing: str):
    """To a fresh one-hour link of the filing's file or receipt, as the booking page's receipts:
    the signature is the credential, so the page never holds one."""
    link = listing.filing(page.settings, page.account_id, filing_id)[kind]
    if link is None:
        raise NotFound(missing)
    parts = urllib.parse.urlsplit(link["download_url"])
    raise Redirect(parts.path + "?" + parts.query)


def register(pages: Pages) -> None:
    @pages.get("/filings")
    def filing_list(page):
        return render_list(page)

    @pages.get("/filings/<filing_id>/file")
    def filing_file(page, filing_id):
        return _fresh_link(page, filing_id, "file", "No file is built for this filing yet.")

    @pages.get("/filings/<filing_id>/receipt")
    def filing_receipt(page, filing_id):
        return _fresh_link(page, filing_id, "receipt", "No receipt is kept for this filing.")

    @pages.post("/filings/<filing_id>/refile")
    def filing_refile(page, filing_id):
        try:
            listing.refile(page.settings, page.account_id, filing_id)
        except NotFound:
            raise
        except ApiError as error:
            return render_list(page, status=error.status, message=error.message)
        page.record("filing.refile", filing_id)
        raise Redirect(_back(page, "filing_refiled"))

    @pages.post("/filings/<filing_id>/filed")
    def filing_filed(page, filing_id):
        try:
            listing.mark_filed(page.settings, page.account_id, filing_id, page.form("reference"))
        except ValidationError as error:
            return render_list(page, status=400, errors=form_errors(error),
                               reference_for=filing_id)
        except NotFound:
            raise
        except ApiError as error:
            return render_list(page, status=error.status, message=error.message)
        page.record("filing.filed", filing_id)
        raise Redirect(_back(page, "filing_filed"))


