"""The guest page's tourist tax section: what the stay owes the town and why, in the guest's
language, and the exemption each guest may claim (the reasons the property's rule sets offer).

A claim is kept with the stay's tax (`booking_tax.exemptions`, by the guest's place in the
check-in's party) and charges the stay again while the tax is not collected
(taxes/service.declare_exemption); once collected it is refused in words. The section is absent
where the property names no rule set."""

from __future__ import annotations

import babel.numbers

from rentalcomply.checkin import i18n
from rentalcomply.core.db import atomic
from rentalcomply.core.errors import TaxNotCollectable, ValidationError
from rentalcomply.taxes import service as taxes
from rentalcomply.taxes.models import BookingTax


def money(lang: str, amount: float, currency: str) -> str:
    """€56.00, 56,00 €: the language's way (CLDR)."""
    return babel.numbers.format_currency(amount, currency, locale=i18n.LOCALES.get(lang, "en_GB"))


def _guest_name(lang: str, number: int, names: list[str]) -> str:
    name = names[number - 1] if number <= len(names) and names[number - 1] else ""
    label = i18n.text(lang, "page.guest", n=number)
    return f"{label} ({name})" if name else label


def section(booking, lang: str, names: list[str], notice: str = "") -> dict | None:
    """The template's values (`_tourist_tax.tpl`), or None where no tax is charged. `names`: the
    party's names from the check-in so far, in order; `notice`: what a claim just did."""
    view = taxes.tax_views([booking.id]).get(booking.id)
    if not view:
        return None
    currency = view["currency"]
    sets = {one["id"]: one for one in taxes.list_rule_sets(booking.account_id)
            if one["id"] in {charged["id"] for charged in view["rule_sets"]}}
    status = view["status"]
    amount = money(lang, view["amount"] or 0, currency)
    headline = {"due": i18n.text(lang, "tax.due", amount=amount),
                "collected": i18n.text(lang, "tax.collected", amount=amount),
                "platform": i18n.text(lang, "tax.platform",
                                      amount=money(lang, view["platform_amount"], currency)),
                "exempt": i18n.text(lang, "tax.exempt"),
                "unknown": i18n.text(lang, "tax.unknown")}[status]
    lines = []
    for line in view["lines"]:
        values = {"guests": i18n.count(lang, "guest", line["persons"]),
                  "nights": i18n.count(lang, "night", line["nights"]),
                  "rate": money(lang, line["rate"], currency), "percent": line["percent"],
                  "amount": money(lang, line["amount"], currency)}
        lines.append(i18n.text(lang, "tax.line" if line["percent"] == 100 else "tax.line_share",
                               **values))
    labels = {reason["code"]: reason["label"] for one in sets.values()
              for reason in one.get("exemption_reasons") or []}
    exemptions = []
    for exemption in view["exemptions"]:
        guest = _guest_name(lang, exemption["guest"], names)
        if exemption["reason"] == "age":
            exemptions.append(i18n.text(lang, "tax.exempt_age", guest=guest, age=exemption["age"]))
        else:
            exemptions.append(i18n.text(lang, "tax.exempt_reason", guest=guest,
                                        reason=labels.get(exemption["reason"], exemption["reason"])))
    notes = []
    if any("counted as adults" in note for note in view["notes"]):
        notes.append(i18n.text(lang, "tax.before_checkin"))
    caps = sorted({one["max_nights"] for one in sets.values() if one.get("max_nights")})
    if caps and any("nights charged" in note for note in view["notes"]):
        notes.append(i18n.text(lang, "tax.nights_capped", n=caps[0]))
    party = max(booking.guest_count, len(names))
    declared = {item["guest"]: item["reason"] for item in view["declared_exemptions"]}
    authorities = ", ".join(dict.fromkeys(one["authority"] for one in sets.values()))
    return {"headline": headline, "status": status, "lines": lines, "exemptions": exemptions,
            "notes": notes, "intro": i18n.text(lang, "tax.intro", authority=authorities),
            "reasons": list(labels.items()), "claimable": bool(labels) and status != "collected"
            and view.get("collected") is None,
            "guests": [(number, _guest_name(lang, number, names), declared.get(number, ""))
                       for number in range(1, party + 1)],
            "notice": notice}


NOTICES = {"saved": "tax.claim_saved", "closed": "tax.claim_closed", "invalid": "tax.claim_invalid"}


def claim(booking, form: dict[str, str]) -> str:
    """The guests' claims from the page's form (`reason-<n>` per guest, "" for none): each that
    changed is declared (or withdrawn). The notice to show: saved, closed (the tax is collected)
    or invalid (a reason the rule sets do not offer)."""
    row = BookingTax.get_or_none(BookingTax.booking == booking.id)
    if row is None or row.status == taxes.NO_RULES:
        return "invalid"
    if row.collected_at is not None:
        return "closed"
    declared = {int(guest): reason for guest, reason in (row.exemptions or {}).items()}
    try:
        with atomic():
            for key, value in sorted(form.items()):
                if not key.startswith("reason-") or not key[len("reason-"):].isdigit():
                    continue
                guest, reason = int(key[len("reason-"):]), (value or "").strip()
                if reason != declared.get(guest, ""):
                    taxes.declare_exemption(booking.account_id, booking, guest, reason or None)
    except TaxNotCollectable:
        return "closed"
    except ValidationError:
        return "invalid"
    return "saved"


def notice(lang: str, outcome: str | None) -> str:
    key = NOTICES.get(outcome or "")
    return i18n.text(lang, key) if key else ""
