"""The settings registry.

Every setting is declared once here, with its type, default and help text. From this one list come:
the TOML file's validation, the `RENTALCOMPLY_<SECTION>_<KEY>` environment variables, the generated
`config.example.toml` (and the test that keeps it complete), and the command-line overrides.

Precedence, highest first: command-line option, environment, config file, default.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import os
import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

ENV_PREFIX = "RENTALCOMPLY_"


class ConfigError(Exception):
    """A setting has a value we cannot use; the message names the setting."""


# --- value parsers: strict, so that "yes please" is an error and not a silent false ---------------

def _parse_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        lowered = value.strip().lower()
        if lowered in ("true", "1"):
            return True
        if lowered in ("false", "0"):
            return False
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise ValueError("expected true or false (or 1 or 0)")


def _parse_int(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError("expected a whole number")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    raise ValueError("expected a whole number")


def _parse_float(value: Any) -> float:
    if isinstance(value, bool):
        raise ValueError("expected a number")
    if isinstance(value, (int, float)):
        return float(value)
    try:
        return float(str(value).strip())
    except ValueError:
        raise ValueError("expected a number") from None


def _parse_str(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("expected a string")
    return value


def _parse_str_list(value: Any) -> list[str]:
    # In the environment a list is comma-separated; in TOML it is an array of strings.
    if isinstance(value, str):
        return [item.strip() for item in value.split(",") if item.strip()]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return list(value)
    raise ValueError("expected a list of strings")


def _parse_int_list(value: Any) -> list[int]:
    items = _parse_str_list(value) if isinstance(value, str) else value
    if not isinstance(items, list):
        raise ValueError("expected a list of whole numbers")
    return [_parse_int(item) for item in items]


def _parse_networks(value: Any) -> list[str]:
    items = _parse_str_list(value)
    for item in items:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ValueError(f"{item!r} is not an IP address or CIDR range") from None
    return items


def _parse_host(value: Any) -> str:
    host = _parse_str(value).strip()
    if not host:
        raise ValueError("expected an address or host name to listen on, like 127.0.0.1")
    return host


def _parse_public_url(value: Any) -> str:
    from urllib.parse import urlsplit
    url = _parse_str(value).strip()
    if not url:
        return url
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError("expected an address like https://rentals.example.com (http or https, "
                         "a host, no query)")
    return url


def _range(low: int | float, high: int | float, parse: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def parse_in_range(value: Any) -> Any:
        parsed = parse(value)
        if not low <= parsed <= high:
            raise ValueError(f"expected a value from {low} to {high}")
        return parsed
    return parse_in_range


def _choice(*choices: str) -> Callable[[Any], str]:
    def parse_choice(value: Any) -> str:
        parsed = _parse_str(value)
        if parsed not in choices:
            raise ValueError("expected one of " + ", ".join(repr(c) for c in choices))
        return parsed
    return parse_choice


TOML_KIND = {
    _parse_bool: "boolean", _parse_int: "integer", _parse_float: "number", _parse_str: "string",
    _parse_str_list: "list", _parse_int_list: "list", _parse_networks: "list",
    _parse_host: "string", _parse_public_url: "string",
}


@dataclasses.dataclass(frozen=True)
class Setting:
    section: str
    key: str
    parse: Callable[[Any], Any]
    default: Any
    help: str
    secret: bool = False

    @property
    def env_name(self) -> str:
        return f"{ENV_PREFIX}{self.section}_{self.key}".upper()

    @property
    def dotted(self) -> str:
        return f"{self.section}.{self.key}"


S = Setting
SETTINGS: list[Setting] = [
    # server
    S("server", "host", _parse_host, "127.0.0.1", "Address Waitress listens on. Use 0.0.0.0 behind a reverse proxy on another machine."),
    S("server", "port", _range(1, 65535, _parse_int), 8080, "TCP port Waitress listens on."),
    S("server", "threads", _range(1, 64, _parse_int), 2, "Waitress worker threads. Requests are CPU-bound and share one interpreter lock, so more threads add no throughput; a kept GET answer reads nothing from the database and is served about as fast with 1, 2 or 4 (bench/api_throughput.py). 2 keeps one request waiting on the database lock from stalling all others."),
    S("server", "public_url", _parse_public_url, "", "Address clients use to reach this server (https://host), used in check-in and download links. Empty: where `serve` last listened (it records that in server.json in the data directory, so the links other commands print follow `serve --port`), else http://host:port."),
    S("server", "trusted_proxies", _parse_networks, ["127.0.0.1", "::1"], "Peers (addresses or CIDR ranges) whose X-Forwarded-Proto/-For headers are believed."),
    S("server", "allow_loopback_http", _parse_bool, True, "Accept plain HTTP from loopback clients (local tools, curl). Set false when the proxy is the only client."),
    S("server", "secret_key", _parse_str, "", "Server secret that keys API key hashes, check-in tokens and signed links. Empty: generated once into secret.key in the data directory.", secret=True),
    S("server", "log_level", _choice("debug", "info", "warning", "error"), "info", "Log level of the server and the worker."),
    S("log", "format", _choice("text", "json"), "text", "Log lines as text, or as one JSON object per line (time, level, logger, message, request_id) for a log collector. Either way each line of a request names its request id, and no line holds a secret or a guest's data."),
    S("log", "access", _parse_bool, True, "One access-log line per request (logger rentalcomply.access, whatever server.log_level says): method, route pattern (or the path without its query, where it holds no token), status, duration, request id and the API key's id; never a key, a token, a guest's link or data. In JSON the fields are keys of their own. false turns it off."),
    # database
    S("database", "url", _parse_str, "", "Database URL. Empty: SQLite file rentalcomply.db in the data directory. postgresql://user:pass@host/db for PostgreSQL (install the postgres extra).", secret=True),
    S("database", "timeout_seconds", _range(1, 120, _parse_int), 5, "How long a request waits for a busy database before answering 503 (SQLite's busy timeout; PostgreSQL's lock_timeout, with statement_timeout four times it)."),
    # queue
    S("queue", "url", _parse_str, "", "Task queue URL. Empty: SQLite file queue.db in the data directory. redis://host:6379/0 for Redis (install the redis extra). memory:// runs tasks at once, in the caller (tests).", secret=True),
    S("queue", "workers", _range(1, 32, _parse_int), 2, "Worker threads of the task consumer (webhook deliveries, calendar syncs, e-mails, housekeeping)."),
    S("queue", "urgent_workers", _range(1, 16, _parse_int), 2, "Worker threads kept for work with a legal deadline (police filings first, then tax reports), so that slow feeds or webhook receivers never delay it."),
    S("queue", "forget_workers_after_hours", _range(1, 8760, _parse_int), 24, "Hours after its last heartbeat that a worker which is gone (stopped, killed, its machine lost) is forgotten: `doctor` lists it no longer, and the hourly housekeeping deletes its heartbeat. Until then `doctor` shows it stopped or stale."),
    # rate_limit
    S("rate_limit", "per_minute", _range(1, 1_000_000, _parse_int), 100, "Requests allowed per rolling minute: per key (or account), and per client address for requests without a valid key."),
    S("rate_limit", "per", _choice("key", "account"), "key", "What the limit counts: each API key, or all keys of an account together."),
    # smtp
    S("smtp", "host", _parse_str, "localhost", "SMTP server for guest e-mails."),
    S("smtp", "port", _range(1, 65535, _parse_int), 25, "SMTP port."),
    S("smtp", "username", _parse_str, "", "SMTP user name; empty for no authentication."),
    S("smtp", "password", _parse_str, "", "SMTP password.", secret=True),
    S("smtp", "starttls", _parse_bool, False, "Upgrade the SMTP connection with STARTTLS."),
    S("smtp", "use_ssl", _parse_bool, False, "Connect with implicit TLS (usually port 465)."),
    S("smtp", "from_address", _parse_str, "RentalComply <no-reply@localhost>", "Sender of every e-mail (guests, the dashboard's people). An account's owner may set up its own mail server and sender on the dashboard's Account page, which then replaces every smtp setting for that account."),
    S("smtp", "allow_private_addresses", _parse_bool, False, "Allow the mail servers accounts' owners set up on the dashboard on loopback, private, link-local or metadata addresses (a relay on the LAN). Checked at every connection, as for webhooks. The smtp.host above is yours and always allowed."),
    S("smtp", "timeout_seconds", _range(1, 300, _parse_int), 20, "Time allowed for one whole SMTP conversation (connection, TLS, login, sending), however slowly the server answers."),
    # checkin
    S("checkin", "invite_days_before", _range(0, 365, _parse_int), 7, "Days before arrival that the check-in invitation is e-mailed, once, to bookings with a guest e-mail (0: on arrival day)."),
    S("checkin", "reminder_days", _parse_int_list, [7, 2, 0], "Days before arrival (0: the morning of arrival), in the property's local time, that a guest who has not completed check-in is reminded by e-mail, at most once a day. An account's owner may set its own schedule on the dashboard's Account page."),
    S("checkin", "reminder_hour", _range(0, 23, _parse_int), 9, "Local hour of the property from which the day's reminders are e-mailed."),
    S("checkin", "page_attempts_per_minute", _range(1, 10_000, _parse_int), 20, "Unknown check-in links one client address may try per minute before it is refused (guessing)."),
    S("checkin", "find_attempts_per_address", _range(1, 10_000, _parse_int), 9, "Wrong booking references (or dates) one client address may give on a property's check-in link within 10 minutes; the next try is refused (429) until the oldest leaves the window."),
    S("checkin", "find_attempts_per_property", _range(1, 100_000, _parse_int), 30, "Wrong booking references (or dates) a property's check-in link takes from all addresses together within 10 minutes before it refuses further wrong ones (429) and logs a warning: a guesser spread over many addresses. A right reference and date is never refused by it."),
    S("checkin", "scans_per_link", _range(1, 1000, _parse_int), 30, "Photos of documents a booking's check-in link may send to be read (Scan the document) per hour; further photos are refused until the hour has passed, and the guest types the details."),
    # scan
    S("scan", "max_upload_mb", _range(1, 100, _parse_int), 10, "The largest photo of a document (Scan the document) the guest page takes, in MB of 1,048,576 bytes. The page states it; the server takes a scan's request up to it plus 1 MB for the rest of the guest form, and every other request only up to 1 MB. A phone's 12-megapixel JPEG is 2 to 5 MB."),
    S("scan", "max_image_side", _range(100, 65_535, _parse_int), 12_000, "The widest or tallest photo of a document that is read, in pixels, as its header declares it before anything is decoded; a larger one is refused (413), as is one past scan.max_image_pixels. 12,000 is the long side of the largest phone photos (108 megapixels, 12,000 × 9,000)."),
    S("scan", "max_image_pixels", _range(10_000, 1_000_000_000, _parse_int), 50_000_000, "The most pixels (width times height, from the header) a photo of a document may have to be decoded; a larger one is refused (413). Measured at 48 megapixels: a read peaks at 93 MB for a baseline JPEG or a PNG, 322 MB for the worst, a progressive colour JPEG without chroma subsampling (the decoder keeps every coefficient); scan.concurrent_reads multiplies it. 50,000,000 takes a 50-megapixel phone's full-size photo."),
    S("scan", "concurrent_reads", _range(1, 16, _parse_int), 1, "Photos of documents decoded and read at once, so that their memory does not add up; a further photo waits up to 10 seconds for its turn, then the guest is asked to try again (503). A read takes one to three seconds of one core."),
    # sync
    S("sync", "interval_minutes", _range(15, 1440, _parse_int), 60, "How often calendar feeds are fetched. Channels refresh their exports every 1 to 6 hours."),
    S("sync", "timeout_seconds", _range(1, 300, _parse_int), 20, "Timeout for fetching one feed."),
    S("sync", "max_bytes", _range(1024, 100_000_000, _parse_int), 5_000_000, "Largest feed accepted."),
    S("sync", "allow_private_addresses", _parse_bool, False, "Allow feed URLs on loopback, private or link-local addresses (a channel manager on the LAN)."),
    S("sync", "parallel_fetches", _range(1, 64, _parse_int), 8, "How many feeds one sync run fetches at the same time."),
    S("sync", "max_fetches_per_host", _range(1, 32, _parse_int), 1, "Feeds fetched at once from one host (per process); a sync finding its host busy is tried again a few seconds later, so one slow feed server never takes every worker."),
    S("sync", "max_events", _range(1, 1_000_000, _parse_int), 5000, "Most future events one feed may list; a feed with more changes nothing and puts its connection in error with the reason."),
    S("sync", "max_redirects", _range(0, 10, _parse_int), 3, "Redirects followed when fetching a feed, each destination checked again (0: none)."),
    # imports
    S("imports", "max_rows", _range(1, 1_000_000, _parse_int), 20_000, "Most rows a channel's reservations export may have (the header included). A file with more, or whose rows are numbered further, is refused (422 EXPORT_TOO_LARGE naming this setting) before it is read further. 20,000: several years of a small agency's stays; a 1 MiB file of Airbnb's shortest rows holds about 20,000."),
    S("imports", "max_columns", _range(1, 16_384, _parse_int), 200, "Furthest column a cell of an export may be in (A is 1). The channels' exports have 13 (Airbnb) to 27 (Booking.com) columns; a cell beyond this is refused before any row is built (a spreadsheet program pads every row to its furthest cell)."),
    S("imports", "max_cells", _range(1, 100_000_000, _parse_int), 500_000, "Most cells an export may hold (and strings an XLSX's shared-strings table). Bounds the memory of reading a file: about 60 MB at this default."),
    S("imports", "max_unpacked_mb", _range(1, 1024, _parse_int), 32, "Most megabytes an XLSX (a zip) may unpack to, counted from the sizes its directory declares (no part is unpacked further). A 1 MiB export unpacks to about 10 MB."),
    # webhooks
    S("webhooks", "allow_http", _parse_bool, False, "Allow webhook URLs with plain http://."),
    S("webhooks", "allow_private_addresses", _parse_bool, False, "Allow webhook destinations on loopback, private, link-local or metadata addresses (the agency's own tools on its LAN)."),
    S("webhooks", "timeout_seconds", _range(1, 60, _parse_int), 10, "A delivery not answered with 2xx within this time is retried."),
    S("webhooks", "max_deliveries_per_host", _range(1, 32, _parse_int), 1, "Deliveries under way at once to one receiver host (per process); a delivery finding its host busy is tried again a few seconds later, so one slow receiver never takes every worker."),
    S("webhooks", "disable_after_days", _range(1, 30, _parse_int), 3, "An endpoint failing every attempt for this many days is disabled."),
    # reports
    S("reports", "link_lifetime_seconds", _range(60, 86400, _parse_int), 3600, "Lifetime of a signed report download link."),
    S("reports", "generate_hour", _range(0, 23, _parse_int), 3, "Local hour (Europe/Athens) on the 1st of the month when last month's report is generated."),
    S("reports", "language", _choice("el", "en"), "el", "Language of the headings and notes in report PDFs: el (Greek) or en (English)."),
    S("reports", "lease_seconds", _range(5, 3600, _parse_int), 30, "How long a report generation holds its lease without renewing it (it renews every third of that); a generation whose process died is taken over once its lease runs out."),
    S("reports", "sweep_interval_seconds", _range(1, 3600, _parse_int), 10, "How often the task worker looks for report generations that stopped (a crashed process) and queues them again; it also looks at start-up."),
    # police
    S("police", "alloggiati_url", _parse_str, "https://alloggiatiweb.poliziadistato.it/service/service.asmx", "Address of the Alloggiati Web SOAP service (Italy). A server setting, never API input."),
    S("police", "ses_url", _parse_str, "https://hospedajes.ses.mir.es/hospedajes-web/ws/v1/comunicacion", "Address of the SES.Hospedajes SOAP service (Spain)."),
    S("police", "siba_url", _parse_str, "https://siba.sef.pt/bawsdev/boletinsalojamento.asmx", "Address of the SIBA SOAP service (Portugal)."),
    S("police", "ine_municipalities_url", _parse_str, "https://www.ine.es/daco/daco42/codmun/diccionario26.xlsx", "Address of INE's list of Spain's municipalities (diccionarioYY.xlsx; INE publishes a new edition each January: change the year then), fetched by the dashboard's Refresh code tables. SES.Hospedajes serves no municipalities. Empty: never fetched (load INE's file with rentalcomply police refresh-codes --country ES)."),
    S("police", "timeout_seconds", _range(1, 300, _parse_int), 30, "Timeout of one call to a police service."),
    S("police", "arrival_hour", _range(0, 23, _parse_int), 14, "Local hour of arrival the filing deadlines count from (the property's check-in time)."),
    S("police", "max_attempts", _range(1, 50, _parse_int), 8, "Attempts of a filing before it is FAILED (fewer when its deadline comes first)."),
    S("police", "retry_seconds", _range(1, 86400, _parse_int), 120, "Wait before the first retry of a filing; doubled after each failed attempt."),
    S("police", "fail_before_deadline_minutes", _range(0, 1440, _parse_int), 60, "A filing still failing this long before its deadline is FAILED and announced, so a person can file by hand in time."),
    S("police", "mossos_encoding", _choice("iso-8859-1", "ascii"), "iso-8859-1", "Catalonia: the character set of the Mossos d'Esquadra's traveller file. The portal's manual names none: iso-8859-1 keeps accents (as one implementation does), ascii writes letters without them (as another does)."),
    S("police", "mossos_trailing_separator", _parse_bool, True, "Catalonia: end each traveller line of the Mossos file with a | (both known implementations do, 'as in the official example', which is an image)."),
    S("police", "mossos_final_line_break", _parse_bool, False, "Catalonia: end the Mossos file's last line with CR+LF too (the manual says every line but the last)."),
    S("police", "link_lifetime_seconds", _range(60, 86400, _parse_int), 3600, "Lifetime of a signed police file download link."),
    # ross1000: each Italian region's ROSS 1000 web-service address (authorities/ross1000/regions.py
    # holds the same published defaults with their sources; a test keeps them equal).
    S("ross1000", "timeout_seconds", _range(1, 600, _parse_int), 60, "Timeout of one ROSS 1000 call (a month's movement is sent in one)."),
    S("ross1000", "it_21_url", _parse_str, "https://piemontedatiturismo.regione.piemonte.it/ws/checkinV2", "Piemonte's ROSS 1000 web service (published address). A server setting, never API input."),
    S("ross1000", "it_25_url", _parse_str, "https://www.flussituristici.servizirl.it/Turismo5/app/ws/checkinV2", "Lombardia's ROSS 1000 web service (published address)."),
    S("ross1000", "it_34_url", _parse_str, "https://flussituristici.regione.veneto.it/ws/checkinV2", "Veneto's ROSS 1000 web service (published address)."),
    S("ross1000", "it_42_url", _parse_str, "https://turismows.regione.liguria.it/ws/checkinV2", "Liguria's ROSS 1000 web service (published address)."),
    S("ross1000", "it_45_url", _parse_str, "https://datiturismo.regione.emilia-romagna.it/ws/checkinV2", "Emilia-Romagna's ROSS 1000 web service (the official WSDL's address)."),
    S("ross1000", "it_52_url", _parse_str, "", "Toscana's ROSS 1000 web service. Empty: the published sources disagree (https://toscanaturismo.ross1000.it/turismo5-web/ws/checkinV2, or https://turismo5firenze.regione.toscana.it/ws/checkinV2 and the same for pistoia and prato); put the one your tourism office gives. Until then months are uploaded by hand."),
    S("ross1000", "it_57_url", _parse_str, "https://istrice-ross1000.turismo.marche.it/ws/checkinV2", "Marche's ROSS 1000 web service (published address)."),
    S("ross1000", "it_62_url", _parse_str, "https://lazioturismo.ross1000.it/ws/checkinV2", "Lazio's ROSS 1000 web service (published address; ROSS 1000 since 21 May 2025)."),
    S("ross1000", "it_65_url", _parse_str, "https://app.regione.abruzzo.it/Turismo5/ws/checkinV2", "Abruzzo's ROSS 1000 web service (published address)."),
    S("ross1000", "it_67_url", _parse_str, "https://moliseturismo.ross1000.it/ws/checkinV2", "Molise's ROSS 1000 web service (one secondary source: unconfirmed)."),
    S("ross1000", "it_77_url", _parse_str, "https://sist-aptbasilicata.turitweb.it/ws/checkinV1", "Basilicata's ROSS 1000 web service (one secondary source, version 1 of the service: unconfirmed)."),
    S("ross1000", "it_78_url", _parse_str, "https://sirdat.regione.calabria.it/ws/checkinV2", "Calabria's ROSS 1000 web service (published address)."),
    S("ross1000", "it_88_url", _parse_str, "https://sardegnaturismo.ross1000.it/ws/checkinV2", "Sardegna's ROSS 1000 web service (published address)."),
    # climate_fee
    S("climate_fee", "standard_summer", _parse_float, 8.00, "Climate fee per night, standard short-term rental, summer months (EUR)."),
    S("climate_fee", "standard_winter", _parse_float, 2.00, "Climate fee per night, standard short-term rental, winter months (EUR)."),
    S("climate_fee", "detached_summer", _parse_float, 15.00, "Climate fee per night, detached house over 80 m2, summer months (EUR)."),
    S("climate_fee", "detached_winter", _parse_float, 4.00, "Climate fee per night, detached house over 80 m2, winter months (EUR)."),
    S("climate_fee", "summer_months", _parse_int_list, [4, 5, 6, 7, 8, 9, 10], "Months (1-12) charged at the summer rate."),
    # retention
    S("retention", "guest_documents_days", _range(1, 3650, _parse_int), 1825, "Days after departure that the guest data of a stay (the check-in party, built police files) is kept, then erased, where the property's country has no setting of its own below. Greece among them: no police registration there; 1825 (five years) is the period the product kept for every country before the per-country settings (docs/checkin.md)."),
    S("retention", "guest_documents_years_it", _range(1, 10, _parse_int), 5, "Italy: years after departure the guest data is kept. 5: Alloggiati Web's receipts are kept five years (the service's manual), and the data they acknowledge with them."),
    S("retention", "guest_documents_years_es", _range(1, 10, _parse_int), 3, "Spain: years after departure the guest data is kept. 3: Real Decreto 933/2021, art. 5 (the records are kept three years from the end of the stay)."),
    S("retention", "guest_documents_years_pt", _range(1, 10, _parse_int), 5, "Portugal: years after departure the guest data is kept. 5: the period the product kept before the per-country settings (docs/checkin.md); Lei 23/2007, art. 15(5) keeps the accommodation bulletins one year after the departure is communicated, so 1 keeps no longer than that law asks."),
    S("retention", "events_days", _range(1, 3650, _parse_int), 30, "Days that delivered events and their delivery logs are kept."),
    S("retention", "idempotency_hours", _range(1, 720, _parse_int), 24, "Hours an Idempotency-Key and its first response are kept."),
    S("retention", "activity_days", _range(1, 3650, _parse_int), 365, "Days the activity log (who changed what, through the dashboard or with an API key) is kept; older lines are forgotten hourly, a few hundred at a time. About 0.2 KB a change: see the README's table of growth."),
    S("retention", "pending_tasks_days", _range(1, 365, _parse_int), 7, "Days a task owed (an e-mail still to send) may stay undone after it was due before it is given up with a warning: an invitation a week late no longer helps."),
    S("retention", "police_receipts_days", _range(1, 3650, _parse_int), 1825, "Days after departure that a police filing's receipt (the authority's acknowledgement) is kept, then erased, where the property's country has no setting of its own below; the filing's outcome and reference stay."),
    S("retention", "police_receipts_years_it", _range(5, 10, _parse_int), 5, "Italy: years after departure an Alloggiati Web receipt is kept. At least 5: the host must keep the receipts five years (the service's manual)."),
    S("retention", "police_receipts_years_es", _range(3, 10, _parse_int), 3, "Spain: years after departure an SES.Hospedajes receipt is kept. At least 3: Real Decreto 933/2021 keeps the records three years from the end of the stay."),
    S("retention", "police_receipts_years_pt", _range(1, 10, _parse_int), 5, "Portugal: years after departure a SIBA receipt is kept. 5: as the guest data (retention.guest_documents_years_pt); Lei 23/2007, art. 15(5) keeps the bulletins one year after the departure is communicated, so 1 keeps no longer than that law asks."),
    # dashboard
    S("dashboard", "session_idle_minutes", _range(1, 1440, _parse_int), 30, "A dashboard session not used for this many minutes ends; the user signs in again."),
    S("dashboard", "session_absolute_hours", _range(1, 720, _parse_int), 12, "A dashboard session ends this many hours after sign-in, however busy."),
    S("dashboard", "password_link_hours", _range(1, 168, _parse_int), 24, "Lifetime of the one-time link that sets a dashboard user's password."),
    S("dashboard", "signin_failures_per_user", _range(1, 1000, _parse_int), 5, "Wrong passwords allowed per e-mail address in a rolling minute; further attempts are refused until the minute passes."),
    S("dashboard", "signin_failures_per_address", _range(1, 10000, _parse_int), 20, "Wrong passwords allowed per client address in a rolling minute."),
    S("dashboard", "morning_email", _parse_bool, True, "Each morning, e-mail every account's owners what needs a person today (the Today page's list), only when something does. An owner can also turn it off for their account on the account page."),
    S("dashboard", "morning_email_hour", _range(0, 23, _parse_int), 7, "Local hour (the account's time zone) from which the morning e-mail is sent; the worker looks every 15 minutes."),
    S("i18n", "catalogue_dir", _parse_str, "", "A folder of gettext catalogues (<lang>/LC_MESSAGES/<domain>.po, like rentalcomply/locale/) read instead of the shipped ones: a translator's corrected copy shows in the pages after a restart, with no code changed (docs/translating.md). Empty: the shipped catalogues."),
    # backup
    S("doctor", "min_free_disk_mb", _range(0, 10_000_000, _parse_int), 1024, "`doctor` fails when the data directory's disk has less free space than this (MB): a full disk stops bookings, reports and backups."),
    S("backup", "directory", _parse_str, "", "Where `rentalcomply backup` writes. Empty: backups/ in the data directory."),
    S("backup", "keep", _range(1, 1000, _parse_int), 14, "How many backups to keep; older ones are deleted."),
    S("backup", "daily", _parse_bool, True, "The task worker writes a backup into backup.directory every day (SQLite installations; PostgreSQL is backed up with pg_dump)."),
    S("backup", "daily_hour_utc", _range(0, 23, _parse_int), 2, "The hour (UTC) of the daily backup."),
    S("backup", "passphrase_file", _parse_str, "", "A file whose first line is the passphrase that encrypts the daily backups (AES-256-GCM, key from scrypt). Empty: not encrypted; keep the backup directory as private as the data directory."),
    S("backup", "max_age_hours", _range(1, 10000, _parse_int), 36, "`doctor` fails when the newest backup in backup.directory is older than this."),
]
del S

SETTINGS_BY_NAME = {setting.dotted: setting for setting in SETTINGS}
SECTIONS = list(dict.fromkeys(setting.section for setting in SETTINGS))


class Settings(SimpleNamespace):
    """Settings as `settings.server.port`; `settings.data_dir` is the data directory."""

    def get(self, dotted: str) -> Any:
        section, key = dotted.split(".", 1)
        return getattr(getattr(self, section), key)


def default_data_dir() -> Path:
    import platformdirs
    return Path(platformdirs.user_data_dir("rentalcomply", appauthor=False))


def resolve_data_dir(option: str | os.PathLike | None = None, env: dict | None = None) -> Path:
    env = os.environ if env is None else env
    if option:
        return Path(option).expanduser()
    if env.get(ENV_PREFIX + "DATA_DIR"):
        return Path(env[ENV_PREFIX + "DATA_DIR"]).expanduser()
    return default_data_dir()


def _read_env_value(setting: Setting, env: dict) -> Any | None:
    if setting.env_name in env:
        return env[setting.env_name]
    file_var = setting.env_name + "_FILE"
    if setting.secret and file_var in env:
        try:
            return Path(env[file_var]).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise ConfigError(f"{file_var}: cannot read {env[file_var]!r}: {exc.strerror}") from None
    return None


def load_settings(
    data_dir: str | os.PathLike | None = None,
    config_file: str | os.PathLike | None = None,
    overrides: dict[str, Any] | None = None,
    env: dict | None = None,
) -> Settings:
    """Read every setting; raise ConfigError naming the first setting that is wrong.

    `overrides` maps dotted names (`server.port`) to command-line values; None means not given.
    Without `config_file`, `config.toml` in the data directory is read if it exists.
    """
    env = dict(os.environ) if env is None else env
    resolved_dir = resolve_data_dir(data_dir, env)
    file_values: dict[str, Any] = {}
    if config_file is None and env.get(ENV_PREFIX + "CONFIG"):
        config_file = env[ENV_PREFIX + "CONFIG"]
    path = Path(config_file) if config_file else resolved_dir / "config.toml"
    if config_file and not path.is_file():
        raise ConfigError(f"config file {str(path)!r} does not exist")
    if path.is_file():
        file_values = _read_toml(path)

    _refuse_unknown_env(env)
    values: dict[str, dict[str, Any]] = {section: {} for section in SECTIONS}
    for setting in SETTINGS:
        raw, origin = setting.default, "default"
        if setting.key in file_values.get(setting.section, {}):
            raw, origin = file_values[setting.section][setting.key], f"{path}"
        env_value = _read_env_value(setting, env)
        if env_value is not None:
            raw, origin = env_value, setting.env_name
        override = (overrides or {}).get(setting.dotted)
        if override is not None:
            raw, origin = override, "command line"
        try:
            values[setting.section][setting.key] = setting.parse(raw)
        except ValueError as exc:
            raise ConfigError(f"setting {setting.dotted} (from {origin}): {exc}, got {raw!r}") from None

    settings = Settings(**{section: SimpleNamespace(**keys) for section, keys in values.items()})
    settings.data_dir = resolved_dir
    settings.config_file = path if path.is_file() else None
    # Made from host and port, a running server's recorded address may replace it
    # (ops/listening.py); a configured one is kept.
    settings.server.public_url_derived = not settings.server.public_url
    if not settings.server.public_url:
        host = settings.server.host
        shown_host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
        if ":" in shown_host:
            shown_host = f"[{shown_host}]"
        settings.server.public_url = f"http://{shown_host}:{settings.server.port}"
    settings.server.public_url = settings.server.public_url.rstrip("/")
    return settings


def _refuse_unknown_env(env: dict) -> None:
    """A variable in a known section's namespace that names no setting is a typo, refused the
    same way as an unknown key in the file. Other RENTALCOMPLY_ variables are left alone."""
    known = {setting.env_name for setting in SETTINGS}
    known |= {setting.env_name + "_FILE" for setting in SETTINGS if setting.secret}
    for name in env:
        if not name.startswith(ENV_PREFIX) or name in known:
            continue
        rest = name[len(ENV_PREFIX):]
        for section in SECTIONS:
            if rest.startswith(section.upper() + "_"):
                raise ConfigError(f"environment variable {name} names no setting of [{section}] "
                                  "(see config.example.toml)")


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            document = tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {str(path)!r} is not valid TOML: {exc}") from None
    for section, keys in document.items():
        if section not in SECTIONS:
            raise ConfigError(f"config file {str(path)!r}: unknown section [{section}]")
        if not isinstance(keys, dict):
            raise ConfigError(f"config file {str(path)!r}: [{section}] must be a table")
        for key in keys:
            if f"{section}.{key}" not in SETTINGS_BY_NAME:
                raise ConfigError(f"config file {str(path)!r}: unknown setting {section}.{key}")
    return document


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def example_toml() -> str:
    """The text of config.example.toml: every setting, commented, with its default."""
    lines = [
        "# RentalComply configuration. Every setting, with its default.",
        "# Put this file at <data dir>/config.toml or pass --config FILE.",
        "# Each setting can also come from the environment as RENTALCOMPLY_<SECTION>_<KEY>;",
        "# secrets also from RENTALCOMPLY_<SECTION>_<KEY>_FILE (the file's content).",
        "# Precedence: command-line option > environment > this file > default.",
    ]
    for section in SECTIONS:
        lines += ["", f"[{section}]"]
        for setting in (s for s in SETTINGS if s.section == section):
            lines.append(f"# {setting.help}")
            lines.append(f"# Environment: {setting.env_name}" + (" (or ..._FILE)" if setting.secret else ""))
            lines.append(f"{setting.key} = {_toml_value(setting.default)}")
    return "\n".join(lines) + "\n"
