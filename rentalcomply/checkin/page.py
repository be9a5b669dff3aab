"""The guest's page: `/checkin/{token}`, public, HTML, the token in the address is the credential.

- `GET /checkin/{token}[?lang=xx]`: the form (or the confirmation once complete).
- `POST /checkin/{token}/progress` (JSON, from the page's script): keeps what was typed so far;
  with `"check": true` (the page's Next button) it also answers what the final answer would
  still lack, so a step is checked by the server's own rules before the guest moves on.
- `POST /checkin/{token}/submit` (JSON): the final answer; 422 with the problems per field.
- `POST /checkin/{token}` (an ordinary form post): the same without JavaScript.
- `GET|POST /checkin/p/{property token}`: a property's link (links.py): the guest names their
  booking (reference, and arrival date or phone's last four digits) and is sent to its link;
  wrong answers are limited per client address and per property (429, the same page); a right
  answer is never refused by the property's cap, which wrong ones from anywhere fill.
Unknown links get a friendly 404 page, expired ones 410; an address that tries too many unknown
links is refused for a minute (429), whatever it asks next.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import logging

import functools

import bottle
import peewee

from rentalcomply.checkin import booking_links, confirmation, i18n, links, privacy, service
from rentalcomply.checkin.names import split_name
from rentalcomply.checkin import guests as party_rules
from rentalcomply.checkin import residence
from rentalcomply.checkin import tourist_tax
from rentalcomply.core import events
from rentalcomply.core.errors import CheckinAlreadyCompleted, LinkExpired, NotFound
from rentalcomply.core.models import Property
from rentalcomply.properties import service as properties
from rentalcomply.scan import api as scan_api
from rentalcomply.web import pages
from rentalcomply.web.json import DuplicateKeys, loads_request
from rentalcomply.web.ratelimit import SlidingWindowLimiter

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 1024 * 1024
# Wrong answers on a property's link are counted over this window (checkin.find_attempts_*).
FIND_WINDOW_SECONDS = 600

AUTOCOMPLETE = {"first_name": "given-name", "last_name": "family-name", "birth_date": "bday",
                "email": "email", "phone": "tel", "address_street": "street-address",
                "address_city": "address-level2", "address_postcode": "postal-code",
                "address_country": "country", "nationality": "off"}
# Fields shown only in a case, for the page's script: (field, value) or an age bound.
ALSO_WHEN = {"document_support_number": ("document_type", "id_card residence_permit")}
SHOWN_WHEN = {"birth_municipality": ("birth_country", "IT"),
              "birth_province": ("birth_country", "IT"),
              "residence_comune": ("residence_country", "IT"),
              "residence_province": ("residence_country", "IT"),
              "second_last_name": ("nationality", "ES"),
              "document_support_number": ("document_country", "ES")}
# Fields hidden in a case, all of whose (field, value) pairs hold: a Spanish DNI is itself the
# holder's NIF, so the NIF is not asked beside it.
HIDDEN_WHEN = {"tax_id": (("document_type", "id_card"), ("document_country", "ES"))}
SECTIONS = ("person", "document", "address", "contact", "signature")
# Short fields paired two to a row even on a phone (each pair follows each other on every form,
# and shows or hides together), so that a guest's step needs less scrolling.
HALF_WIDTH = ("sex", "birth_date", "birth_municipality", "birth_province", "document_type",
              "document_number", "address_city", "address_postcode", "residence_comune",
              "residence_province")
# Italian places are picked from the police code tables (rentalcomply/codes).
PICK_LISTS = {"birth_municipality": "it-municipalities", "document_issue_place": "it-municipalities",
              "birth_province": "it-provinces", "residence_comune": "it-municipalities",
              "residence_province": "it-provinces"}
# The country a guest reading the page in a language most likely comes from, offered first in
# every country list beside the property's own (a long list is slow to scroll on a phone).
LANGUAGE_COUNTRY = {"en": "GB", "el": "GR", "it": "IT", "es": "ES", "de": "DE", "fr": "FR",
                    "pt": "PT"}


def _guarded(handler):
    """No trace ever reaches a guest: an unexpected error is logged and answered with a page."""
    @functools.wraps(handler)
    def guarded(*args, **kwargs):
        try:
            return handler(*args, **kwargs)
        except bottle.HTTPResponse:
            raise
        except Exception as exc:
            request_id = bottle.request.environ.get("rentalcomply.request_id")
            busy = isinstance(exc, peewee.OperationalError) and (
                "locked" in str(exc) or "busy" in str(exc))
            if busy:
                log.warning("database busy (request %s): %s", request_id, exc)
            else:
                log.exception("unhandled error on the check-in page (request %s)", request_id)
            lang = _requested_language() or _accepted_language()
            body = pages.render("message", lang=lang, title="RentalComply",
                                text=f"Something went wrong; please try again in a minute. "
                                     f"({request_id})", tone="warning")
            return pages.html_response(body, status=503 if busy else 500)
    return guarded


def register(api) -> None:
    settings = api.settings
    app = api.app
    limiter = SlidingWindowLimiter(settings.checkin.page_attempts_per_minute, name="checkin-guess")
    trusted = [ipaddress.ip_network(p, strict=False) for p in settings.server.trusted_proxies]
    pages.register_static(app)

    def open_link(token: str, lang_hint: str | None):
        """(booking, row) or an HTML/JSON refusal raised as bottle.HTTPResponse."""
        address = _client_address(bottle.request.environ, trusted)
        if limiter.exhausted(address):
            raise _refusal(429, "page.limited_title", "page.limited", lang_hint,
                           headers={"Retry-After": "60"})
        try:
            return service.find_by_token(token)
        except NotFound:
            limiter.hit(address)
            raise _refusal(404, "page.not_found_title", "page.not_found", lang_hint)
        except LinkExpired:
            raise _refusal(410, "page.expired_title", "page.expired", lang_hint)

    # The property's link (links.py): wrong answers count per client address and per property.
    find_by_address = SlidingWindowLimiter(settings.checkin.find_attempts_per_address,
                                           window=FIND_WINDOW_SECONDS, name="checkin-find")
    find_by_property = SlidingWindowLimiter(settings.checkin.find_attempts_per_property,
                                            window=FIND_WINDOW_SECONDS, name="checkin-find-property")

    def open_property(token: str, lang: str):
        address = _client_address(bottle.request.environ, trusted)
        if limiter.exhausted(address):
            raise _refusal(429, "page.limited_title", "page.limited", lang,
                           headers={"Retry-After": "60"})
        try:
            return links.property_for_token(token), address
        except NotFound:
            limiter.hit(address)
            raise _refusal(404, "page.not_found_title", "page.not_found", lang)

    @app.get("/checkin/p/<token>", page=True)
    @_guarded
    def find_form(token):
        lang = _requested_language() or _accepted_language()
        prop, _ = open_property(token, lang)
        return pages.html_response(_find_page(token, prop, lang, {}, None))

    @app.post("/checkin/p/<token>", page=True)
    @_guarded
    def find_post(token):
        lang = _requested_language() or _accepted_language()
        prop, address = open_property(token, lang)
        wait = find_by_address.blocked(address)  # this address's own wrong answers
        if wait:
            raise _refusal(429, "page.limited_title", "find.limited", lang,
                           headers={"Retry-After": str(wait)})
        forms = bottle.request.forms
        typed = {name: (forms.getunicode(name) or "").strip()[:64]
                 for name in ("reference", "arrival", "phone_last4")}
        arrival = _date_or_none(typed["arrival"])
        if not typed["reference"] or (arrival is None and not typed["phone_last4"]):
            return pages.html_response(
                _find_page(token, prop, lang, typed, i18n.text(lang, "find.missing")), status=422)
        booking = links.find_stay(prop, typed["reference"], arrival=arrival,
                                  phone_last4=typed["phone_last4"])
        if booking is None:  # the same answer whichever part was wrong
            find_by_address.hit(address)
            # The property's cap is judged only once the answer is known to be wrong: wrong
            # answers from anywhere must not lock the link for the guests who know their
            # booking (they are never refused by it; their own address's limit still holds).
            allowed, remaining, reset = find_by_property.hit(prop.id)
            if allowed and remaining == 0:
                log.warning("property %s: %d wrong answers on its check-in link within %d "
                            "minutes; further wrong ones are refused (if this goes on, rotate "
                            "the property's link)", prop.id, find_by_property.limit,
                            FIND_WINDOW_SECONDS // 60)
            if not allowed:
                raise _refusal(429, "page.limited_title", "find.limited", lang,
                               headers={"Retry-After": str(reset)})
            return pages.html_response(
                _find_page(token, prop, lang, typed, i18n.text(lang, "find.no_match")), status=422)
        booking_links.ensure_links([booking.id])
        return bottle.HTTPResponse(
            status=303, Location=f"/checkin/{service.token_for(booking.id)}?lang={lang}",
            **pages.SECURITY_HEADERS)

    @app.get("/checkin/<token>", page=True)
    @_guarded
    def show(token):
        lang_hint = _requested_language()
        booking, row = open_link(token, lang_hint)
        lang = service.page_language(lang_hint, booking)
        if booking.checkin_status == "COMPLETED":
            values = confirmation.values(settings, booking, row, lang)
            return pages.html_response(pages.render(
                "checkin_done", **values, token=token,
                tourist_tax=_tax_section(booking, lang, values["names"])))
        party = service.load_party(row)
        consent = row.consent_at is not None
        return pages.html_response(_form(settings, token, booking, lang, party.get("guests", []),
                                         consent, {}))

    @app.post("/checkin/<token>", page=True)
    @_guarded
    def form_post(token):
        lang_hint = _requested_language()
        booking, row = open_link(token, lang_hint)
        lang = service.page_language(lang_hint, booking)
        forms = bottle.request.forms
        submitted = _guests_from_form({key: forms.getunicode(key) or "" for key in forms.keys()},
                                      booking.guest_count)
        consent = forms.getunicode("consent") == "yes"
        try:
            problems = service.submit(booking, row, submitted, consent=consent, lang=lang)
        except CheckinAlreadyCompleted:
            problems = []
        events.notify_committed()
        if not problems:
            return bottle.HTTPResponse(status=303, Location=f"/checkin/{token}?lang={lang}",
                                       **pages.SECURITY_HEADERS)
        errors = {p.path: p.message(lang) for p in problems}
        return pages.html_response(_form(settings, token, booking, lang, submitted, consent,
                                         errors), status=422)

    @app.post("/checkin/<token>/tourist-tax", page=True)
    @_guarded
    def tax_claim(token):
        """The guests' tourist tax exemptions (checkin/tourist_tax.py), then the page again."""
        lang_hint = _requested_language()
        booking, _ = open_link(token, lang_hint)
        lang = service.page_language(lang_hint, booking)
        forms = bottle.request.forms
        outcome = tourist_tax.claim(booking, {key: forms.getunicode(key) or ""
                                              for key in forms.keys()})
        return bottle.HTTPResponse(
            status=303, Location=f"/checkin/{token}?lang={lang}&tax={outcome}#tourist-tax",
            **pages.SECURITY_HEADERS)

    def read_json(token):
        lang_hint = _requested_language()
        try:
            booking, row = open_link(token, lang_hint)
        except bottle.HTTPResponse as refusal:
            code, message = {404: ("NOT_FOUND", "No such check-in link."),
                             410: ("LINK_EXPIRED", "This check-in link has expired."),
                             429: ("RATE_LIMITED", "Too many attempts; wait a minute.")
                             }[refusal.status_code]
            raise _json_error(refusal.status_code, code, message)
        raw = bottle.request.environ["wsgi.input"].read(MAX_BODY_BYTES + 1) \
            if bottle.request.content_length != 0 else b""
        media = (bottle.request.content_type or "").split(";")[0].strip().lower()
        if media != "application/json":
            raise _json_error(415, "UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json.")
        if len(raw) > MAX_BODY_BYTES:
            raise _json_error(413, "PAYLOAD_TOO_LARGE", "The request body is larger than 1 MiB.")
        try:
            body = loads_request(raw.decode("utf-8"))
        except DuplicateKeys as duplicate:
            raise _json_error(400, "VALIDATION_ERROR", "A key appears more than once.",
                              [{"field": key, "message": "appears more than once in the body"}
                               for key in duplicate.keys]) from None
        except (ValueError, UnicodeDecodeError, RecursionError):
            body = None
        if not isinstance(body, dict) or not isinstance(body.get("guests"), list):
            raise _json_error(400, "INVALID_JSON", 'Send {"guests": [...]} as JSON.')
        lang = service.page_language(body.get("lang"), booking)
        return booking, row, body, lang

    @app.post("/checkin/<token>/progress", page=True)
    @_guarded
    def progress(token):
        booking, row, body, lang = read_json(token)
        try:
            problems = service.save_progress(booking, row, body["guests"],
                                             consent=body.get("consent") is True, lang=lang)
        except CheckinAlreadyCompleted:
            return pages.json_response({"status": "COMPLETED", "errors": []})
        if body.get("check") is True:
            _, problems = party_rules.validate_party(
                Property.get_by_id(booking.property_id).country, body["guests"],
                guest_count=booking.guest_count, arrival=booking.arrival_date, complete=True)
        return pages.json_response({"status": "IN_PROGRESS", "errors": _errors(problems, lang)})

    @app.post("/checkin/<token>/submit", page=True)
    @_guarded
    def submit(token):
        booking, row, body, lang = read_json(token)
        try:
            problems = service.submit(booking, row, body["guests"],
                                      consent=body.get("consent") is True, lang=lang)
        except CheckinAlreadyCompleted:
            problems = []
        events.notify_committed()
        if problems:
            return pages.json_response({"status": "IN_PROGRESS", "errors": _errors(problems, lang),
                                        "summary": i18n.text(lang, "msg.summary")}, status=422)
        return pages.json_response({"status": "COMPLETED",
                                    "next": f"/checkin/{token}?lang={lang}"})


# --- helpers -------------------------------------------------------------------------------------

def _find_page(token: str, prop, lang: str, typed: dict, error: str | None) -> str:
    return pages.render(
        "checkin_find", lang=lang, token=token, property_name=prop.name, error=error,
        cin=properties.cin_shown(prop), licence=properties.licence_line(prop),
        reference=typed.get("reference", ""), arrival=typed.get("arrival", ""),
        phone_last4=typed.get("phone_last4", ""),
        languages=[(code, i18n.LANGUAGE_NAMES[code]) for code in i18n.LANGUAGES],
        t=lambda key, **values: i18n.text(lang, key, **values))


def _date_or_none(text: str):
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def _requested_language() -> str | None:
    asked = bottle.request.query.get("lang")
    if asked in i18n.LANGUAGES:
        return asked
    return None


def _accepted_language() -> str:
    header = bottle.request.environ.get("HTTP_ACCEPT_LANGUAGE", "")
    for part in header.split(","):
        code = part.split(";")[0].strip().split("-")[0].lower()
        if code in i18n.LANGUAGES:
            return code
    return "en"


def _client_address(environ, trusted) -> str:
    peer = environ.get("REMOTE_ADDR") or ""
    try:
        peer_ip = ipaddress.ip_address(peer)
    except ValueError:
        return peer
    if any(peer_ip in network for network in trusted):
        for hop in reversed([h.strip() for h in environ.get("HTTP_X_FORWARDED_FOR", "").split(",")
                             if h.strip()]):
            try:
                hop_ip = ipaddress.ip_address(hop)
            except ValueError:
                break
            if not any(hop_ip in network for network in trusted):
                return hop
    return peer


def _refusal(status: int, title_key: str, text_key: str, lang: str | None,
             headers: dict | None = None) -> bottle.HTTPResponse:
    lang = lang or _accepted_language()
    body = pages.render("message", lang=lang, title=i18n.text(lang, title_key),
                        text=i18n.text(lang, text_key), tone="warning")
    return pages.html_response(body, status=status, headers=headers)


def _json_error(status: int, code: str, message: str,
                details: list[dict] | None = None) -> bottle.HTTPResponse:
    """An error of the page's JSON endpoints, in the API's shape."""
    return pages.json_response({"error": {
        "code": code, "message": message, **({"details": details} if details else {}),
        "request_id": bottle.request.environ.get("rentalcomply.request_id")}}, status=status)


def _errors(problems, lang: str) -> list[dict]:
    # The key lets the page's script clear a "please fill this in" the moment the field is filled.
    return [{"field": p.path, "message": p.message(lang), "code": p.key} for p in problems]


def _guests_from_form(values: dict[str, str], guest_count: int) -> list[dict]:
    """`g0.first_name=...` form fields as the party's list of guests (empty fields left out)."""
    party: list[dict] = [{} for _ in range(guest_count)]
    for key, value in values.items():
        prefix, _, name = key.partition(".")
        if not prefix.startswith("g") or not prefix[1:].isdigit() or not value.strip():
            continue
        index = int(prefix[1:])
        if index < guest_count and name in party_rules.FIELDS:
            party[index][name] = value
    return party


def _tax_section(booking, lang: str, names: list[str]) -> dict | None:
    return tourist_tax.section(booking, lang, names,
                               tourist_tax.notice(lang, bottle.request.query.get("tax")))


def _stay(booking, lang: str) -> dict:
    return i18n.stay(lang, booking.arrival_date, booking.departure_date, booking.guest_count)


def _form(settings, token: str, booking, lang: str, guests: list, consent: bool,
          errors: dict[str, str]) -> str:
    prop = Property.get_by_id(booking.property_id)
    country = prop.country
    countries = party_rules.codable_countries(country, party_rules.country_choices(lang))
    country_names = dict(countries)
    top = [(code, country_names[code]) for code in dict.fromkeys((country, LANGUAGE_COUNTRY[lang]))
           if code in country_names]
    blocks = []
    for index in range(party_rules.pages_guests(country, booking.guest_count)):
        values = guests[index] if index < len(guests) and isinstance(guests[index], dict) else {}
        if index == 0 and not values:  # the lead guest as the booking names them
            values = {"email": booking.guest_email or "", "phone": booking.guest_phone or "",
                      **split_name(booking.guest_name, country, booking.guest_language)}
        sections = {name: [] for name in SECTIONS}
        for name in party_rules.page_fields(country, index):
            if country == "IT" and index > 0 and name in party_rules.MEMBER_DOCUMENT_FIELDS:
                continue  # every later guest is a family or group member: no document (guests.py)
            definition = party_rules.FIELDS[name]
            field_id = f"g{index}-{name}"
            value = values.get(name) or ""
            if name == "residence_comune":  # kept as the Polizia's code: shown by its name
                value = residence.comune_name(value)
            field = {
                "id": field_id, "name": f"g{index}.{name}", "kind": definition.kind,
                "label": i18n.text(lang, _label(country, name)), "value": value,
                "error": errors.get(f"guests[{index}].{name}"),
                "hint": _hint(lang, country, name),
                "autocomplete": AUTOCOMPLETE.get(name, "off"),
                "half": name in HALF_WIDTH and country != "GR",  # a Greek lead: no pairs
                "when": _shown_when(name, value, country), "also": ALSO_WHEN.get(name),
                "unless": HIDDEN_WHEN.get(name) if country == "ES" else None,
                "optional": name == "sex" and country not in ("IT", "ES", "PT"),
                "min_age": None, "max_age": None, "options": [],
                "list": PICK_LISTS.get(name) if country == "IT" else None,
            }
            if definition.kind == "country":
                field["options"], field["top"] = countries, top
            elif definition.choices:
                choices = definition.choices
                if name == "document_type":
                    choices = party_rules.document_types(country)
                if name == "relationship":
                    choices = party_rules.LEAD_RELATIONSHIPS if index == 0 \
                        else party_rules.MEMBER_RELATIONSHIPS
                field["options"] = [(c, i18n.text(lang, f"choice.{name}.{c}")) for c in choices]
            if name == "minor_relationship":
                field["max_age"] = party_rules.ADULT_AGE - 1
            if name == "signature":
                field["min_age"] = 14
            if definition.group == "document" and index > 0:
                field["min_age"] = party_rules.document_age(country)
            if country == "ES" and index > 0 and definition.group in ("address", "contact"):
                field["min_age"] = party_rules.ADULT_AGE  # a minor's are the lead guest's
            sections[definition.group].append(field)
        blocks.append({"index": index, "number": index + 1,
                       "title": i18n.text(lang, "page.lead") if index == 0
                       else i18n.text(lang, "page.guest", n=index + 1),
                       "error": errors.get(f"guests[{index}]"),
                       "minor_documents_hint": index > 0 and country != "IT",
                       # An Italian family or group member gives no document: their tax number
                       # stands without a "Document" heading over nothing.
                       "document_asked": any(f["id"].endswith("-document_number")
                                             for f in sections["document"]),
                       # A scan fills a document's fields: none asked, no scan offered.
                       "scannable": "document_number" in party_rules.page_fields(country, index),
                       "sections": [(name, sections[name]) for name in SECTIONS if sections[name]]})
    # Said under the form (the layout's footnote) when the host has access instructions to give.
    footnote = (i18n.text(lang, "access.after_checkin")
                if prop.access_instructions_sealed is not None else "")
    return pages.render(
        "checkin", lang=lang, token=token, property_name=prop.name, stay=_stay(booking, lang),
        cin=properties.cin_shown(prop), licence=properties.licence_line(prop),
        footnote=footnote,
        tourist_tax=_tax_section(booking, lang, [
            " ".join(part for part in (g.get("first_name"), g.get("last_name")) if part)
            if isinstance(g, dict) else "" for g in guests]),
        arrival_iso=booking.arrival_date.isoformat(), blocks=blocks, consent=consent,
        consent_error=errors.get("consent"), party_error=errors.get("guests"),
        summary=i18n.text(lang, "msg.summary") if errors else "",
        languages=[(code, i18n.LANGUAGE_NAMES[code]) for code in i18n.LANGUAGES],
        t=lambda key, **values: i18n.text(lang, key, **values),
        intro=i18n.text(lang, "page.intro." + (
            country if country in ("GR", "PT")
            else "police" if country in party_rules.POLICE_COUNTRIES else "other")),
        privacy=privacy.notice(settings, prop, lang), resume=_resume_step(booking, guests),
        document_age=party_rules.document_age(country),
        scan=scan_api.page_context(booking, lang, bottle.request.query,  # _scan.tpl
                                  settings.scan),
        pick_lists=_pick_lists(country),
        messages={key: i18n.text(lang, key) for key in
                  ("page.saved", "page.saving", "page.offline", "msg.summary", "page.step_guest",
                   "page.step_confirm", "page.step_sign", "page.progress", "page.next",
                   "page.back", "page.checking", "page.review_title", "page.review_intro",
                   "page.edit")})


def _shown_when(name: str, value: str, country: str = ""):
    """The field's (field, value) condition ("!IT": any value but IT, once one is chosen); none
    for a second surname already filled in (the booking's name gave it: shown at once, so the
    guest sees it is there before the nationality, and the draft, which keeps only shown fields,
    keeps it)."""
    if name == "second_last_name" and value:
        return None
    if name == "residence_place" and country == "IT":
        # An Italian property's guest resident abroad names their town (the statistics' place of
        # residence); a resident of Italy picks a comune instead.
        return ("residence_country", "!IT")
    return SHOWN_WHEN.get(name)


def _label(country: str, name: str) -> str:
    """A field's label key: a Greek stay's lead gives a passport number, if any (guests.py)."""
    return "label.passport_number" if country == "GR" and name == "document_number" \
        else "label." + name


def _hint(lang: str, country: str, name: str) -> str:
    for key in (f"hint.{name}.{country}", "hint." + name):
        if i18n.has(key):
            return i18n.text(lang, key)
    return ""


def _resume_step(booking, guests: list) -> int:
    """Where a page opened again resumes: the first guest the final answer would still find
    something missing or wrong in, or the last step (the review) when none; the first guest
    when nothing was saved yet."""
    if not any(isinstance(guest, dict) and guest for guest in guests):
        return 0
    country = Property.get_by_id(booking.property_id).country
    _, problems = party_rules.validate_party(country, guests, guest_count=booking.guest_count,
                                             arrival=booking.arrival_date, complete=True)
    # Signatures are given on the last step: a party that lacks only them resumes there, not
    # at the first guest (a reload at the signature step once went back to guest 1).
    unfinished = [int(p.path[len("guests["):].split("]")[0]) for p in problems
                  if p.path.startswith("guests[") and not p.path.endswith("].signature")]
    return min(unfinished) if unfinished else booking.guest_count


def _pick_lists(country: str) -> dict[str, list[str]]:
    if country != "IT":
        return {}
    from rentalcomply import codes
    return {"it-municipalities": codes.it_municipality_names(),
            "it-provinces": codes.it_province_codes()}
