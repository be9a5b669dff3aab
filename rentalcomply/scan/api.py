"""The guest page's "Scan the document" (static/templates/_scan.tpl, static/js/scan.js).

- `POST /checkin/{token}/scan/{guest}` (multipart, the photo in `scan-{guest}`):
  - from the page's form without JavaScript (the partial's button posts the whole form): what the
    guest typed is kept, the fields read from the document replace theirs for that guest, and the
    page comes back (303 to the form) with the outcome said above the guest's fields;
  - from scan.js (`Accept: application/json`): `{"status", "values", "tone", "lines"}`, and the
    script fills the fields itself.
A file over `scan.max_upload_mb`, one that is no JPEG or PNG, or one whose header declares more
pixels than `scan.max_image_side` and `scan.max_image_pixels` allow is refused with a clear
message (the page states the limits as set); each link takes `checkin.scans_per_link` photos an
hour. The server takes a scan's request up to `body_limit()` (server.py), every other request up
to 1 MiB; a larger scan is refused there, before the application, as the page or the JSON below
(`too_large_answer`). The photo is never written anywhere but, when the owner keeps document
images, sealed in the database (keeping.py, the guest's latest only); nothing of it is logged.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import urllib.parse

import bottle

from rentalcomply.checkin import guests as party_rules
from rentalcomply.checkin import i18n, service as checkin
from rentalcomply.core.errors import CheckinAlreadyCompleted, LinkExpired, NotFound
from rentalcomply.core.models import Property
from rentalcomply.scan import images, keeping, prefill, service
from rentalcomply.web import pages
from rentalcomply.web.ratelimit import SlidingWindowLimiter

HOUR = 3600
# Without a script the whole guest form comes with the photo: its fields, and a signature drawn
# as a PNG (checkin/guests.py takes up to 200 KB of it), fit in this beside the photo.
FORM_BYTES = 1024 * 1024
SCAN_PATH = re.compile(r"/checkin/[^/]+/scan/[0-9]+")
REFUSAL_STATUS = {"scan.too_large": 413, "scan.too_many_pixels": 413, "scan.not_image": 415,
                  "scan.heic": 415, "scan.no_file": 400, "scan.busy": 503}
ERROR_CODES = {400: "VALIDATION_ERROR", 404: "NOT_FOUND", 413: "PAYLOAD_TOO_LARGE",
               415: "UNSUPPORTED_MEDIA_TYPE", 429: "RATE_LIMITED", 503: "SERVICE_UNAVAILABLE"}


def body_limit(settings) -> int:
    """The largest request body a scan takes: the photo at its limit and the rest of the form."""
    return images.Limits.from_settings(settings.scan).max_bytes + FORM_BYTES


def is_scan(path: str) -> bool:
    """Whether a request's path is a scan's, which takes a larger body than any other."""
    return SCAN_PATH.fullmatch(path) is not None


def words(lang: str, key: str, limits: images.Limits) -> str:
    """A scan's message in the guest's language, its limits as set (so the page states them)."""
    return i18n.text(lang, key, tip=i18n.text(lang, "scan.tip"),
                     size=images.megabytes(limits.max_bytes), side=limits.max_side,
                     megapixels=f"{limits.max_pixels / 1_000_000:g}")


def register(api) -> None:
    app = api.app
    per_link = SlidingWindowLimiter(api.settings.checkin.scans_per_link, window=HOUR,
                                    name="scan-link")
    limits = images.Limits.from_settings(api.settings.scan)
    gate = service.ReadGate(api.settings.scan.concurrent_reads)
    max_body = body_limit(api.settings)

    @app.post("/checkin/<token>/scan/<guest:int>", page=True)
    def scan(token, guest):
        lang_hint = bottle.request.query.get("lang")
        wants_json = "application/json" in bottle.request.headers.get("Accept", "")
        try:
            booking, row = checkin.find_by_token(token)
        except (NotFound, LinkExpired):
            return _answer(wants_json, token, lang_hint or "en", 404, None, "page.not_found",
                           limits)
        lang = checkin.page_language(lang_hint, booking)
        if booking.checkin_status == "COMPLETED" or not 0 <= guest < booking.guest_count:
            return bottle.HTTPResponse(status=303, Location=f"/checkin/{token}?lang={lang}",
                                       **pages.SECURITY_HEADERS)
        if not service.enabled():
            return _answer(wants_json, token, lang, 404, guest, "scan.not_found", limits)
        if (bottle.request.content_length or 0) > max_body:
            return _answer(wants_json, token, lang, 413, guest, "scan.too_large", limits,
                           images.Refused("scan.too_large", "scan.max_upload_mb",
                                          limits.max_bytes // images.MIB))
        allowed, _, _ = per_link.hit(booking.id)
        if not allowed:
            return _answer(wants_json, token, lang, 429, guest, "scan.limited", limits)
        upload = bottle.request.files.get(f"scan-{guest}")
        data = upload.file.read(limits.max_bytes + 1) if upload is not None else b""
        outcome = service.scan_document(booking, guest, data, limits, gate)
        del data, upload  # the photo goes no further than this request (unless kept, sealed)
        if outcome.status == "refused" and wants_json:
            return _answer(True, token, lang, REFUSAL_STATUS[outcome.message], guest,
                           outcome.message, limits, outcome.refusal)
        if wants_json:
            note = note_lines(outcome.message, outcome.warning, outcome.expiry, lang,
                              _asked(booking, guest), prefill.two_surnames(outcome.values),
                              filled=outcome.values, limits=limits)
            return pages.json_response({"status": outcome.status, "values": outcome.values,
                                        **note})
        # What the guest typed before pressing the button is kept, read or not.
        _keep_typed_with(booking, row, guest, outcome.values, lang)
        query = {"lang": lang, "scan": guest, "said": outcome.message}
        if prefill.two_surnames(outcome.values):
            query["surnames"] = "2"
        if "document_support_number" in outcome.values:  # a Spanish DNI gives it
            query["support"] = "1"
        if outcome.warning:
            query.update(warn=outcome.warning, expiry=outcome.expiry.isoformat())
        return bottle.HTTPResponse(
            status=303, Location=f"/checkin/{token}?{urllib.parse.urlencode(query)}"
                                 f"#guest-{guest}", **pages.SECURITY_HEADERS)


def _keep_typed_with(booking, row, guest: int, values: dict, lang: str) -> None:
    """What the guest typed in the form, with what the document says for `guest`, kept as the
    page's draft (the page's own autosave does the same)."""
    forms = bottle.request.forms
    party: list[dict] = [{} for _ in range(booking.guest_count)]
    for key in forms.keys():
        prefix, _, name = key.partition(".")
        value = (forms.getunicode(key) or "").strip()
        if prefix[:1] == "g" and prefix[1:].isdigit() and int(prefix[1:]) < booking.guest_count \
                and name in party_rules.FIELDS and value:
            party[int(prefix[1:])][name] = value
    party[guest].update(values)
    if not any(party):
        return
    try:
        checkin.save_progress(booking, row, party, consent=forms.getunicode("consent") == "yes",
                              lang=lang)
    except CheckinAlreadyCompleted:
        pass


def _asked(booking, guest: int) -> list[str]:
    return party_rules.asked_fields(Property.get_by_id(booking.property_id).country, guest)


def note_lines(message: str, warning: str, expiry, lang: str, asked: list[str],
               two_surnames: bool = False, filled=(), limits: images.Limits = images.Limits()
               ) -> dict:
    """A scan's outcome as the guest reads it: {"tone", "lines"}; the fields the zone does not
    hold and the form asks are named as still to type."""
    lines = [words(lang, message, limits)]
    tone = "ok" if message == "scan.read" else "warning"
    if message == "scan.read":
        to_type = [i18n.text(lang, "label." + name) for name in service.NOT_IN_THE_ZONE
                   if name in asked and name not in filled and i18n.has("label." + name)]
        if to_type:
            lines.append(i18n.text(lang, "scan.still_to_type", fields=", ".join(to_type)))
        if two_surnames and "second_last_name" in asked:
            lines.append(i18n.text(lang, "scan.two_surnames"))
    if warning and expiry is not None:
        tone = "warning"
        lines.insert(0, i18n.text(lang, warning, date=i18n.format_date(lang, expiry)))
    return {"tone": tone, "lines": lines}


def _answer(wants_json: bool, token: str, lang: str, status: int, guest, key: str,
            limits: images.Limits, refusal: images.Refused | None = None):
    """A refusal: for scan.js the shared error shape with the guest's words beside it; without
    a script the page again, saying why (or the message page for a link that is no more)."""
    if wants_json:
        return refusal_json(status, key, lang, limits, refusal, guest)
    if guest is None:
        body = pages.render("message", lang=lang, title="RentalComply",
                            text=i18n.text(lang, key), tone="warning")
        return pages.html_response(body, status=status)
    query = urllib.parse.urlencode({"lang": lang, "scan": guest, "said": key})
    return bottle.HTTPResponse(status=303, Location=f"/checkin/{token}?{query}#guest-{guest}",
                               **pages.SECURITY_HEADERS)


def refusal_json(status: int, key: str, lang: str, limits: images.Limits,
                 refusal: images.Refused | None = None, guest=None) -> bottle.HTTPResponse:
    return pages.json_response(
        refusal_document(status, key, lang, limits, refusal, guest,
                         bottle.request.environ.get("rentalcomply.request_id")),
        status=status, headers=_retry(status))


def refusal_document(status: int, key: str, lang: str, limits: images.Limits,
                     refusal: images.Refused | None, guest, request_id: str | None) -> dict:
    """The shared error shape (in English, naming the limit and its setting when a limit was
    passed), and the guest's words for scan.js beside it."""
    english = words("en", key, limits) if key.startswith("scan.") else i18n.text("en", key)
    error = {"code": ERROR_CODES[status], "message": english, "request_id": request_id}
    if refusal is not None and refusal.setting:
        error["details"] = [{"field": f"scan-{guest}" if guest is not None else "scan",
                             "message": english, "setting": refusal.setting,
                             "limit": refusal.limit}]
    lines = [words(lang, key, limits) if key.startswith("scan.") else i18n.text(lang, key)]
    return {"error": error, "status": "refused", "values": {}, "tone": "warning",
            "lines": lines}


def too_large_answer(settings, path: str, query: str, accept: str,
                     request_id: str) -> tuple[int, list[tuple[str, str]], bytes]:
    """The server's answer to a scan whose body passed `body_limit()` before the application
    saw it (server.py): for scan.js the JSON of any other refusal; without a script the form
    again, saying in the guest's language that the photo is too large (not the API's JSON).
    (status, headers, body)."""
    limits = images.Limits.from_settings(settings.scan)
    lang = urllib.parse.parse_qs(query).get("lang", ["en"])[0]
    lang = lang if lang in i18n.LANGUAGES else "en"
    token, guest = path.split("/")[2], int(path.rsplit("/", 1)[1])
    refusal = images.Refused("scan.too_large", "scan.max_upload_mb", limits.max_bytes // images.MIB)
    if "application/json" in accept:
        document = refusal_document(413, "scan.too_large", lang, limits, refusal, guest, request_id)
        return 413, [("Content-Type", "application/json")], json.dumps(
            document, ensure_ascii=False).encode("utf-8")
    target = urllib.parse.urlencode({"lang": lang, "scan": guest, "said": "scan.too_large"})
    location = f"/checkin/{urllib.parse.quote(token)}?{target}#guest-{guest}"
    return 303, [("Location", location), *pages.SECURITY_HEADERS.items()], b""


def _retry(status: int) -> dict:
    return {"Retry-After": "60"} if status == 503 else {}


def page_context(booking, lang: str, query, scan_settings) -> dict:
    """What _scan.tpl needs on the guest form: whether scanning is on, what the guest is told
    about the photo, and the outcome of the scan just made (from the redirect's query: only
    words of the catalogue and a date are taken from it)."""
    notes = {}
    said, guest = query.get("said", ""), query.get("scan", "")
    if said.startswith("scan.") and said in service.MESSAGES and guest.isdigit():
        warning = query.get("warn", "")
        try:
            expiry = dt.date.fromisoformat(query.get("expiry", ""))
        except ValueError:
            expiry = None
        if warning not in ("scan.expired", "scan.expires_during_stay"):
            warning = ""
        filled = ("document_support_number",) if query.get("support") == "1" else ()
        notes[int(guest)] = note_lines(said, warning, expiry, lang, _asked(booking, int(guest)),
                                       query.get("surnames") == "2", filled,
                                       images.Limits.from_settings(scan_settings))
    limits = images.Limits.from_settings(scan_settings)
    return {"enabled": service.enabled(),
            # The limit the server holds to (server.py takes a scan's body up to it), as set.
            "formats": i18n.text(lang, "scan.formats", size=images.megabytes(limits.max_bytes)),
            "privacy": i18n.text(lang, "scan.privacy_kept" if keeping.keeps_images(
                booking.account_id) else "scan.privacy"),
            "notes": notes}
