"""A booking's police filing, from its page: file again, download the file, mark it filed; what
the pages say of filings (statuses and reasons as sentences in the page's language) and of a
property's police set-up."""

from __future__ import annotations

import urllib.parse

from rentalcomply.bookings import service as bookings
from rentalcomply.core.errors import ApiError, NotFound, ValidationError
from rentalcomply.dashboard.pages.bookings import render_booking
from rentalcomply.dashboard.web import Pages, Redirect, form_errors
from rentalcomply.filings import host as police
from rentalcomply.filings import receipts as day_receipts
from rentalcomply.filings import registry, setup, standing
from rentalcomply.dashboard.police_words import (KIND_WORDS, STATUS_WORDS, held_sentences,
                                                 reason_words)
from rentalcomply.filings.settings import police_views, shown_credentials

def police_setup_view(prop, typed: dict | None = None, errors: dict | None = None,
                      connection=None, not_kept: list[str] | None = None) -> dict:
    """What the property page shows of its police set-up: the authority's fields (credentials only
    as set or not set, but a user name as text), what is missing, the answer of a connection
    test. A refused form shows what was typed again, except the secrets: `not_kept` names those
    that had a value, which the page asks to type again."""
    fields = setup.fields_of(prop.police_connector)
    try:
        title = registry.get(prop.police_connector).title
    except KeyError:
        title = ""
    shown = police_views([prop.id])[prop.id]
    values = dict(shown["police_settings"])
    values.update(shown_credentials(prop))
    values.update(typed or {})
    try:  # a connector that only builds a file for the host has no service to ask (the Mossos)
        testable = not getattr(registry.connector(prop.police_connector), "uploaded_by_host", False)
    except (KeyError, ImportError):
        testable = True
    return {"fields": fields, "title": title, "values": values, "testable": testable,
            "credentials_set": set(shown["police_credentials_set"]),
            "missing": setup.missing(prop) if fields else [], "errors": errors or {},
            "connection": connection, "not_kept": set(not_kept or ())}


def filing_lines(page, booking, shown: dict) -> list[dict]:
    """The booking's filings as the page says them: kind, status and reason in words, the
    deadline, and where to fix what stops it."""
    lines = []
    for f in shown["filings"]:
        held_for_setup = f["status"] == "held" and setup.is_setup_hold(f["error"])
        # A code hold names the guest and the value (and links the set-up, where the tables load).
        held_values = held_sentences(page._, booking, f["error"]) if f["status"] == "held" else []
        # A reservation waiting for its holder says so, not "Waiting for check-in".
        holder = standing.holder_problem(f["kind"], f["status"], f["error"])
        if held_for_setup:
            status_words = page._("Held: set-up needed")
        elif holder:
            status_words = page._(STATUS_WORDS["waiting_holder"])
        else:
            status_words = page._(STATUS_WORDS.get(f["status"], f["status"]))
        if held_values:
            reason = " ".join(held_values)
        elif holder:  # the warning above the filings says what to do, once
            reason = None
        else:
            reason = page._(reason_words(f["status"], f["error"]) or "") or None
        lines.append({
            "kind": page._(KIND_WORDS.get(f["kind"], f["kind"])),
            "status": f["status"],
            "status_words": status_words,
            "reason": reason,
            "deadline": f["deadline"] if f["status"] not in ("submitted",) else None,
            # The authority's own words for each guest it refused (what to correct).
            "refused": [(g["index"] + 1, " ".join(p for p in (g.get("code"), g.get("message")) if p))
                        for g in f["guests"] if not g.get("accepted") and g.get("message")]
            if f["status"] == "rejected" else [],
            "setup_link": f"/dashboard/properties/{booking.property_id}#police-setup"
            if held_for_setup or held_values
            or (f["error"] or "").startswith(setup.REFUSED_CREDENTIALS) else None,
            "setup_words": "Open the police set-up" if held_values else "Complete the set-up",
        })
    return lines


def hand_entry_party(booking, shown: dict) -> list[dict] | None:
    """The party as a host types it into an authority's portal, when one of the booking's filings
    is held for that (the Ertzaintza's: registry.hand_entry_reason); else None. Each guest's
    values as check-in collected them, in the order the portal's form asks."""
    hand = registry.hand_entry_names()
    if not any(f["status"] == "held" and f["connector"] in hand for f in shown["filings"]):
        return None
    from rentalcomply.core import sealing
    from rentalcomply.filings.party import guests_of
    try:
        party = guests_of(booking, booking.property.country)
    except sealing.Unsealable:
        return []
    rows = []
    for guest in party:
        data = guest.data
        birth = data.get("birth_date")
        document = " ".join(str(v) for v in (data.get("document_type"), data.get("document_number"),
                                             data.get("document_country")) if v)
        address = ", ".join(str(v) for v in (data.get("address_street"), data.get("address_postcode"),
                                             data.get("address_city"), data.get("address_country"))
                            if v)
        rows.append({"name": data.get("first_name") or "",
                     "surnames": " ".join(v for v in (data.get("last_name"),
                                                      data.get("second_last_name")) if v),
                     "sex": data.get("sex") or "", "birth": birth.isoformat() if birth else "",
                     "nationality": data.get("nationality") or "", "document": document,
                     "support": data.get("document_support_number") or "",
                     "address": address, "kinship": data.get("minor_relationship") or "",
                     "contact": " ".join(v for v in (data.get("phone"), data.get("email")) if v)})
    return rows


def receipt_lines(page, booking) -> list[dict]:
    """The day receipts of the booking's filings as its page says them."""
    words = {"kept": "Receipt of {date}",
             "pending": "Receipt of {date}: asked for once the day has ended, not given yet",
             "failed": "Receipt of {date}: the authority gave none, download it from its site"}
    return [{"id": row.id, "status": row.status,
             "words": page._(words.get(row.status, words["pending"]),
                             date=page.fmt.date(row.day))}
            for row in day_receipts.of_booking(booking.id)]


def register(pages: Pages) -> None:

    @pages.get("/bookings/<booking_id>/police/receipts/<receipt_id>")
    def police_receipt(page, booking_id, receipt_id):
        # The booking must be the account's and the receipt one of its days': a receipt id of
        # another account, or of another booking, is a 404 like any missing page.
        booking = bookings.get_booking(page.account_id, booking_id)
        if receipt_id not in {row.id for row in day_receipts.of_booking(booking.id)}:
            raise NotFound("No such receipt is kept.")
        link = day_receipts.download_link(page.settings, page.account_id, receipt_id)
        parts = urllib.parse.urlsplit(link)
        raise Redirect(parts.path + "?" + parts.query)

    @pages.post("/bookings/<booking_id>/police/refile")
    def police_refile(page, booking_id):
        try:
            police.refile(page.account_id, booking_id)
        except NotFound:
            raise
        except ApiError as error:
            return render_booking(page, bookings.get_booking(page.account_id, booking_id),
                                  status=error.status, message=error.message)
        page.record("police.refile", booking_id)
        raise Redirect(page.url(f"/bookings/{booking_id}", done="refiled"))

    @pages.get("/bookings/<booking_id>/police/file")
    def police_file(page, booking_id):
        # Which file: the guests' (arrival) by default; Spain's reservation and its cancellation
        # are files too on the `file` connector.
        kind = page.arg("kind", "arrival")
        link = police.file_link(page.settings, page.account_id, booking_id,
                                kind if kind in KIND_WORDS else "arrival")
        parts = urllib.parse.urlsplit(link["download_url"])
        raise Redirect(parts.path + "?" + parts.query)

    @pages.post("/bookings/<booking_id>/police/filed")
    def police_filed(page, booking_id):
        try:
            kind = page.form("kind") or None
            police.mark_filed(page.account_id, booking_id, page.form("reference"),
                              kind if kind in KIND_WORDS else None)
        except ValidationError as error:
            return render_booking(page, bookings.get_booking(page.account_id, booking_id),
                                  status=400, errors=form_errors(error))
        except NotFound:
            raise
        except ApiError as error:
            return render_booking(page, bookings.get_booking(page.account_id, booking_id),
                                  status=error.status, message=error.message)
        page.record("police.filed", booking_id)
        raise Redirect(page.url(f"/bookings/{booking_id}", done="police_filed"))
