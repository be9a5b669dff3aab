"""The files themselves, read back: the PDF's text (pdftotext), the XML against the shipped XSD,
the CSV; a page of the PDF rendered to PNG in tests/artifacts/ for a person to look at."""

import csv
import io
import pathlib
import shutil
import subprocess
import urllib.parse

import pytest
from lxml import etree

from rentalcomply.authorities.aade import xmlfile
from rentalcomply.reports.models import Report

ARTIFACTS = pathlib.Path(__file__).resolve().parents[1] / "artifacts"
NS = {"r": xmlfile.NAMESPACE}


def fetch(actor, anonymous, report="rep_2026_03", fmt="pdf"):
    link = actor.get(f"/api/v1/reports/{report}/download?format={fmt}").json["data"]
    parts = urllib.parse.urlsplit(link["download_url"])
    return link, anonymous.get(parts.path + "?" + parts.query)


@pytest.fixture
def march(owner, month):
    owner.post_json("/api/v1/reports", {"period": "2026-03"}, status=202)
    return month


def needs_poppler(tool: str) -> None:
    # CI installs Debian's poppler-utils; a machine without it skips only these read-backs.
    if shutil.which(tool) is None:
        pytest.skip(f"reading the PDF back needs {tool} (apt-get install poppler-utils)")


def pdf_text(content: bytes, tmp_path) -> str:
    needs_poppler("pdftotext")
    path = tmp_path / "report.pdf"
    path.write_bytes(content)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout


def test_the_pdf_holds_the_hand_computed_figures_in_greek(owner, anonymous, march, tmp_path):
    link, response = fetch(owner, anonymous)
    assert response.content_type == "application/pdf" and response.body.startswith(b"%PDF")
    assert response.headers["Content-Disposition"] == 'attachment; filename="rep_2026_03.pdf"'
    assert link["filename"] == "rep_2026_03.pdf" and link["format"] == "PDF"
    text = pdf_text(response.body, tmp_path)
    for expected in ("Δηλώσεις βραχυχρόνιας διαμονής", "Μάρτιος 2026", "Agency A",
                     "20/04/2026", "30/04/2026",  # the deadlines
                     "Studio Plaka · ΑΜΑ 00000000001", "Villa Oia · ΑΜΑ 00000000002",
                     "1.500,00 €", "1.470,00 €", "28,00 €", "30,00 €", "150,00 €",
                     "Eleni Georgiou", "490,00 €", "John Smith", "BK-4455", "980,00 €",
                     "Maria Free", "Nikos Cancel", "18/03/2026",
                     "Τέλος ανθεκτικότητας ανά μήνα και εποχή", "Νοέμβριος–Μάρτιος",
                     "Μονοκατοικία άνω των 80 τ.μ.", "Χρειάζονται προσοχή",
                     "Anna Noprice", "Petros Noama", "Δημιουργήθηκε"):
        assert expected in text, expected
    for absent in ("Casa Roma", "Giulia Rossi", "Kostas Ioannou", "Late Cancel"):
        assert absent not in text, absent


def test_a_page_of_the_pdf_is_rendered_to_png_for_a_person_to_look_at(owner, anonymous, march,
                                                                       tmp_path):
    needs_poppler("pdftoppm")
    _, response = fetch(owner, anonymous)
    pdf = tmp_path / "rep_2026_03.pdf"
    pdf.write_bytes(response.body)
    ARTIFACTS.mkdir(exist_ok=True)
    subprocess.run(["pdftoppm", "-png", "-r", "110", "-f", "1", "-l", "1", str(pdf),
                    str(ARTIFACTS / "report_rep_2026_03")], check=True)
    [page] = ARTIFACTS.glob("report_rep_2026_03*.png")
    assert page.stat().st_size > 20_000
    shutil.copy(pdf, ARTIFACTS / "report_rep_2026_03.pdf")


def test_the_pdf_headings_follow_reports_language(owner, anonymous, march, tmp_path, settings):
    settings.reports.language = "en"
    owner.post_json("/api/v1/reports", {"period": "2026-03"}, status=202)
    text = pdf_text(fetch(owner, anonymous)[1].body, tmp_path)
    assert "Short-term stay declarations and climate resilience fee" in text
    assert "March 2026" in text and "€1,500.00" in text and "Needs attention" in text
    assert "The property has no AADE registry number" in text


def test_the_xml_validates_against_the_shipped_xsd_and_holds_the_figures(owner, anonymous, march):
    _, response = fetch(owner, anonymous, fmt="xml")
    assert response.content_type == "application/xml"
    document = etree.fromstring(response.body)
    schema_path = pathlib.Path(xmlfile.__file__).with_name("aade-report.xsd")
    assert etree.XMLSchema(etree.parse(str(schema_path))).validate(document)
    xmlfile.validate_bytes(response.body)  # what `validate_bytes` tells a caller, too
    totals = document.find("r:totals", NS).attrib
    assert dict(totals) == {"stays": "3", "nights": "13", "grossRent": "1500.00",
                            "stayClimateFee": "30.00", "netRent": "1470.00",
                            "climateFeeInPeriod": "28.00", "feeNightsInPeriod": "9",
                            "cancellations": "1", "amountKept": "150.00"}
    assert [p.get("ama") for p in document.findall("r:property", NS)] == ["00000000001",
                                                                          "00000000002"]
    stay = document.find(f"r:property/r:stay[@bookingId='{march['B3']}']", NS)
    assert [child.text for child in stay][:9] == [
        "00000000002", "2026-03-10", "2026-03-15", "5", "1000.00", "20.00", "980.00",
        "bank_transfer", "booking"]
    assert stay.find("r:renter/r:platformReference", NS).text == "BK-4455"
    cancellation = document.find("r:property/r:cancellation", NS)
    assert cancellation.find("r:amountKept", NS).text == "150.00"
    assert cancellation.find("r:cancelledOn", NS).text == "2026-03-18"
    fees = [(m.get("category"), m.get("nights"), m.get("fee"), m.get("season"))
            for m in document.find("r:climateFee", NS)]
    assert fees == [("detached_over_80m2", "5", "20.00", "winter"),
                    ("standard", "4", "8.00", "winter")]
    reasons = {b.get("bookingId"): b.find("r:reason", NS).get("code")
               for b in document.find("r:needsAttention", NS)}
    assert reasons == {march["B6"]: "no_price", march["B7"]: "no_ama"}


def test_an_xml_that_breaks_the_schema_is_never_stored(month, rates, account_a, monkeypatch):
    from rentalcomply.authorities.aade.building import build_report
    data = build_report(account_a, 2026, 3, rates)
    data.sections[0].stays[0].payment_method = "barter"
    import datetime as dt
    with pytest.raises(xmlfile.InvalidReportXml, match="paymentMethod"):
        xmlfile.render_xml(data, dt.datetime(2026, 4, 1))
    with pytest.raises(xmlfile.InvalidReportXml):
        xmlfile.validate_bytes(b'<report xmlns="urn:rentalcomply:aade-report:1"/>')


def test_the_csv_has_a_bom_and_one_row_per_stay_in_declaration_order(owner, anonymous, march):
    _, response = fetch(owner, anonymous, fmt="csv")
    assert response.content_type == "text/csv"
    assert response.body.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(response.body.decode("utf-8-sig"))))
    assert list(rows[0])[:13] == ["ama", "arrival_date", "departure_date", "nights", "gross_rent",
                                  "climate_fee", "net_rent", "payment_method", "platform",
                                  "renter_name", "renter_id_type", "renter_id",
                                  "platform_reference"]
    assert {row["report_status"] for row in rows} == {"final"}
    stays = [r for r in rows if r["record"] == "stay"]
    assert [(r["renter_name"], r["gross_rent"], r["climate_fee"], r["net_rent"]) for r in stays] == [
        ("Eleni Georgiou", "500.00", "10.00", "490.00"), ("Maria Free", "0.00", "0.00", "0.00"),
        ("John Smith", "1000.00", "20.00", "980.00")]
    [cancelled] = [r for r in rows if r["record"] == "cancellation"]
    assert (cancelled["renter_name"], cancelled["amount_kept"], cancelled["cancelled_on"]) == (
        "Nikos Cancel", "150.00", "2026-03-18")


def test_a_guest_name_that_looks_like_a_formula_is_not_one_in_the_csv(owner, anonymous, march):
    owner.patch_json(f"/api/v1/bookings/{march['B1']}", {"guest_name": "=HYPERLINK(\"x\")"})
    owner.post_json("/api/v1/reports", {"period": "2026-03"}, status=202)
    body = fetch(owner, anonymous, fmt="csv")[1].body.decode("utf-8-sig")
    assert "'=HYPERLINK" in body


def test_a_formula_after_a_semicolon_is_not_one_either(owner, anonymous, march):
    # Excel in Greek settings splits on ";": "Ana;=1+1;x" must not give it a cell "=1+1".
    owner.patch_json(f"/api/v1/bookings/{march['B1']}", {"guest_name": "Ana;=1+1;x"})
    owner.post_json("/api/v1/reports", {"period": "2026-03"}, status=202)
    body = fetch(owner, anonymous, fmt="csv")[1].body.decode("utf-8-sig")
    assert '"Ana;\'=1+1;x"' in body and ";=" not in body
    for line in body.splitlines():
        assert line.startswith('"') and line.endswith('"')  # every cell quoted
        for cell in line.replace('"', "").replace(";", ",").split(","):
            assert cell[:1] not in ("=", "+", "-", "@"), cell


def test_the_files_are_stored_whole_in_the_database_where_every_process_reads_them(
        owner, march, settings):
    from rentalcomply.reports.models import ReportFile
    report = Report.get(Report.code == "rep_2026_03")
    stored = {row.format: row for row in ReportFile.select().where(ReportFile.report == report.id)}
    assert sorted(stored) == ["csv", "pdf", "xml"]
    assert all(stored[fmt].size == report.files[fmt]["size"] for fmt in stored)
    assert not (settings.data_dir / "reports").exists()
