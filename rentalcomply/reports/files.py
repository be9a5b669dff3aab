"""A report's files: a signed link to one of them, and the file itself, opened.

The three files (PDF, XML, CSV) are kept in the database (ReportFile), so that every server
process serves them and a backup of the database holds them. (Reports made by earlier versions
keep their files on disk, under `reports/<account>/<code>-<token>/`, and are served from there
until they are regenerated.)

The files are sealed at rest (core/sealing.py, one key per account, report and format): they hold
the renters' tax and passport numbers. A download opens them.
"""

from __future__ import annotations

from pathlib import Path

from rentalcomply.core import clock, sealing, signed_links
from rentalcomply.core.errors import NotFound, ReportNotReady, ValidationError
from rentalcomply.reports.models import Report, ReportFile
from rentalcomply.reports.queries import get_report

FORMATS = ("pdf", "xml", "csv")
# The CSV is UTF-8 with a byte-order mark, which is what tells Excel its encoding.
MEDIA_TYPES = {"pdf": "application/pdf", "xml": "application/xml", "csv": "text/csv"}
LINK_PURPOSE = "report-file"
FILE_SEAL_PURPOSE = "report-file:"


def account_dir(settings, account_id: str) -> Path:
    return Path(settings.data_dir) / "reports" / account_id


def file_purpose(account_id: str, code: str, fmt: str) -> str:
    return f"{FILE_SEAL_PURPOSE}{account_id}/{code}.{fmt}"


def _link_fields(account_id: str, code: str, fmt: str) -> dict[str, str]:
    return {"account": account_id, "report": code, "format": fmt}


def download_link(settings, account_id: str, code: str, fmt: str) -> dict:
    """A fresh signed URL of one of the report's files (each call mints a new one)."""
    report = get_report(account_id, code)
    if fmt not in FORMATS:
        raise ValidationError("format", "must be one of: " + ", ".join(FORMATS))
    if not report.files:
        raise ReportNotReady(f"Report {code} has no files yet (status {report.status}); "
                             "try again when it is completed.")
    query, expires_at = signed_links.mint(LINK_PURPOSE, _link_fields(account_id, code, fmt),
                                          settings.reports.link_lifetime_seconds)
    url = (f"{settings.server.public_url}/files/reports/{account_id}/{code}.{fmt}?"
           + "&".join(f"{name}={value}" for name, value in query.items()))
    return {"download_url": url, "expires_at": clock.iso(expires_at),
            "filename": report.files[fmt]["name"], "format": fmt.upper()}


def open_signed_file(settings, account_id: str, code: str, fmt: str,
                     query: dict[str, str]) -> tuple[bytes, str]:
    """The file a signed link stands for (opened), and its suggested name. InvalidSignature
    (403) for an altered link, LinkExpired (410) for a late one, NotFound when the report is
    gone."""
    signed_links.check(LINK_PURPOSE, _link_fields(account_id, code, fmt), query)
    # The link was made for a report with files: one that is not there any more is gone.
    report = Report.get_or_none((Report.account == account_id) & (Report.code == code))
    if report is None or not report.files:
        raise NotFound("The report no longer exists.")
    return read_file(settings, account_id, code, fmt)


def read_file(settings, account_id: str, code: str, fmt: str) -> tuple[bytes, str]:
    """One of the report's files as a download gives it (unsealed), and its name."""
    report = Report.get_or_none((Report.account == account_id) & (Report.code == code))
    if report is None:
        raise NotFound(f"There is no report {code} (reports list shows them; reports generate "
                       "makes one).")
    if not report.files:
        raise ReportNotReady(f"Report {code} has no files yet (status {report.status}); "
                             "try again when it is completed.")
    if report.files.get("store") == "database":
        stored = (ReportFile.select(ReportFile.content)
                  .where((ReportFile.report == report.id) & (ReportFile.format == fmt)).first())
        if stored is None:
            raise NotFound("The report's file is missing; regenerate the report.")
        content = stored.content.encode("ascii")
    else:  # made by an earlier version, on disk
        path = account_dir(settings, account_id) / report.files["dir"] / report.files[fmt]["name"]
        if not path.is_file():
            raise NotFound("The report's file is missing; regenerate the report.")
        content = path.read_bytes()
    if report.files.get("sealed"):  # files of earlier versions were stored in clear
        try:
            content = sealing.unseal(file_purpose(account_id, code, fmt), content.decode("ascii"))
        except (sealing.Unsealable, UnicodeDecodeError):
            raise NotFound("The report's file cannot be opened (the server secret changed?); "
                           "regenerate the report.") from None
    return content, report.files[fmt]["name"]
