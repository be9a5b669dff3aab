"""Tourist taxes in the dashboard: the rule sets (list, create, edit, delete: an owner's; the
shipped ones read-only) and a booking's tax marked collected from its page (_booking_tax.tpl).

The rule set form is the API's body in fields: the rates as rows (from, to, amount, months,
source), the ages that pay less as rows, the reasons a guest may declare one a line ("code:
words"); taxes/rules.checked_body judges it whole and each refusal is shown by its field."""

from __future__ import annotations

from rentalcomply.bookings import service as bookings
from rentalcomply.core.checks import control_character_problem
from rentalcomply.core.errors import TaxNotCollectable, ValidationError
from rentalcomply.dashboard.pages.shared import confirm, confirmed
from rentalcomply.dashboard.web import Pages, Redirect, form_errors
from rentalcomply.taxes import rules
from rentalcomply.taxes import service as taxes

BLANK_RATES = 2   # empty rate rows under the set's own, for a new rate
BLANK_AGES = 1
EMPTY = {"name": "", "authority": "", "country": "", "currency": "EUR", "basis": "person_night",
         "rates": [], "max_nights": None, "max_nights_per": "stay", "age_rates": [],
         "exemption_reasons": [], "rounding_cents": 1, "rounding_mode": "half_up",
         "platform_channels": [], "stacks_on": None, "free_stays_exempt": False, "source": "",
         "returns": None}


def _number(text: str):
    """A typed number as the API's body holds it (a wrong one is kept as text, for the rules'
    words on it)."""
    text = text.strip().replace(",", ".")
    if not text:
        return None
    try:
        return int(text) if text.lstrip("-").isdigit() else float(text)
    except ValueError:
        return text


def body_from_form(page) -> dict:
    """The rule set's body from the editor's fields."""
    rates = []
    for starts, ends, amount, months, category, source in zip(
            page.form_list("rate_from"), page.form_list("rate_to"), page.form_list("rate_amount"),
            page.form_list("rate_months"), page.form_list("rate_category"),
            page.form_list("rate_source")):
        if not (starts.strip() or amount.strip()):
            continue  # a blank row
        rates.append({"from": starts.strip(), "to": ends.strip() or None,
                      "amount": _number(amount),
                      "months": [_number(m) for m in months.replace(",", " ").split()] or None,
                      "category": category.strip() or None, "source": source.strip()})
    ages = [{"below": _number(below), "percent": _number(percent)}
            for below, percent in zip(page.form_list("age_below"), page.form_list("age_percent"))
            if below.strip()]
    reasons = []
    # A line a reason: line breaks are the field's own (page.form refuses them on one line).
    text = (page.form_list("exemption_reasons") or [""])[0]
    problem = control_character_problem(text, multiline=True)
    if problem:
        raise ValidationError("exemption_reasons", problem)
    for line in text.splitlines():
        code, _, label = line.partition(":")
        if line.strip():
            reasons.append({"code": code.strip(), "label": label.strip()})
    every = page.form("returns_every")
    returns = None if not every else {
        "every": every, "due_day": _number(page.form("returns_due_day")),
        "due_months_after": _number(page.form("returns_due_months_after", "1"))}
    return {"name": page.form("name"), "authority": page.form("authority"),
            "country": page.form("country").strip().upper(), "currency": "EUR",
            "basis": page.form("basis"), "rates": rates,
            "max_nights": _number(page.form("max_nights")),
            "max_nights_per": page.form("max_nights_per"), "age_rates": ages,
            "exemption_reasons": reasons, "rounding_cents": _number(page.form("rounding_cents")),
            "rounding_mode": page.form("rounding_mode"),
            "platform_channels": page.form_list("platform_channels"),
            "stacks_on": page.form("stacks_on") or None,
            "free_stays_exempt": page.form("free_stays_exempt") == "yes",
            "source": page.form("source"), "returns": returns}


def form_values(body: dict) -> dict:
    """A body as the editor shows it: the rates and ages with blank rows to add one."""
    values = {**EMPTY, **body}
    values["rate_rows"] = list(values["rates"] or []) + [{}] * BLANK_RATES
    values["age_rows"] = list(values["age_rates"] or []) + [{}] * BLANK_AGES
    values["reasons_text"] = "\n".join(f"{r['code']}: {r['label']}"
                                       for r in values["exemption_reasons"] or [])
    return values


def register(pages: Pages) -> None:
    def _list(page, status=200, errors=None, values=None):
        sets = taxes.list_rule_sets(page.account_id)
        return page.render("taxes", status=status, title=page._("Tourist taxes"), sets=sets,
                           errors=errors or {}, values=form_values(values or {}),
                           done=page.arg("done"), choices=_choices(sets))

    def _choices(sets):
        return {"bases": rules.BASES, "per": rules.MAX_NIGHTS_PER,
                "rounding": rules.ROUNDING_STEPS, "modes": tuple(rules.ROUNDING_MODES),
                "channels": rules.CHANNELS, "periods": rules.RETURN_PERIODS,
                "stacks": [(one["id"], one["name"]) for one in sets]}

    @pages.get("/taxes")
    def rule_set_list(page):
        return _list(page)

    @pages.post("/taxes", owners=True)
    def rule_set_create(page):
        body = {}
        try:
            body = body_from_form(page)
            made = taxes.create_rule_set(page.account_id, body)
        except ValidationError as error:
            return _list(page, status=400, errors=form_errors(error), values=body)
        page.record("POST /tax-rules", made["id"])
        raise Redirect(page.url(f"/taxes/{made['id']}", done="tax_rules_saved"))

    def _one(page, set_id, status=200, errors=None, values=None):
        shown = taxes.get_rule_set(page.account_id, set_id)
        sets = taxes.list_rule_sets(page.account_id)
        return page.render("tax_rule", status=status, title=shown["name"], rule=shown,
                           values=form_values(values or shown), errors=errors or {},
                           done=page.arg("done"),
                           choices=_choices([one for one in sets if one["id"] != set_id]))

    @pages.get("/taxes/<set_id>")
    def rule_set_page(page, set_id):
        return _one(page, set_id)

    @pages.post("/taxes/<set_id>", owners=True)
    def rule_set_save(page, set_id):
        body = None
        try:
            body = body_from_form(page)
            taxes.replace_rule_set(page.account_id, set_id, body)
        except ValidationError as error:
            return _one(page, set_id, status=400, errors=form_errors(error), values=body)
        page.record("PUT /tax-rules/{}", set_id)
        raise Redirect(page.url(f"/taxes/{set_id}", done="tax_rules_saved"))

    @pages.post("/taxes/<set_id>/delete", owners=True)
    def rule_set_delete(page, set_id):
        shown = taxes.get_rule_set(page.account_id, set_id)
        if not confirmed(page):
            return confirm(
                page, title=page._("Delete this tax rule set?"), subject=shown["name"],
                consequences=[page._("Its rates are gone from this account; the stays already "
                                     "charged keep their amounts.")],
                button=page._("Yes, delete the rule set"), back=page.url(f"/taxes/{set_id}"))
        taxes.delete_rule_set(page.account_id, set_id)  # 409 while a property names it
        page.record("DELETE /tax-rules/{}", set_id)
        raise Redirect(page.url("/taxes", done="tax_rules_deleted"))

    @pages.post("/bookings/<booking_id>/tourist-tax/collected")
    def tax_collected(page, booking_id):
        booking = bookings.get_booking(page.account_id, booking_id)
        try:
            taxes.mark_collected(page.account_id, booking, page.form("method"))
        except (ValidationError, TaxNotCollectable):
            raise Redirect(page.url(f"/bookings/{booking_id}", done="tax_not_collectable")
                           + "#tourist-tax")
        page.record("POST /bookings/{}/tourist-tax/collected", booking_id)
        raise Redirect(page.url(f"/bookings/{booking_id}", done="tax_collected") + "#tourist-tax")
