"""A loopback stand-in for INE's web server: it answers GET of the municipality list with an
`diccionarioYY.xlsx` shaped as INE publishes it (a title line, then CODAUTO, CPRO, CMUN, DC,
NOMBRE), built from the package's shipped list plus the municipalities `extra` adds.

Knobs: `status` (an HTTP error to answer instead), `body` (other bytes to answer), `down()`."""

from __future__ import annotations

import csv
import io
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources

PATH = "/daco/daco42/codmun/diccionario26.xlsx"
# Melilla (52001, DC 5) is one of the 20 municipalities of INE's list the shipped copy lacks.
MELILLA = ("19", "52", "001", "5", "Melilla")


def ine_spreadsheet(extra=(MELILLA,)) -> bytes:
    import openpyxl
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Relación de municipios y códigos por provincias a 1 de enero de 2026"])
    sheet.append(["CODAUTO", "CPRO", "CMUN", "DC", "NOMBRE"])
    shipped = resources.files("rentalcomply.codes").joinpath("es/municipios.csv").read_text("utf-8")
    for row in csv.DictReader(io.StringIO(shipped)):
        code = row["ine_code"]
        sheet.append([row["community_code"], code[:2], code[2:], row["check_digit"], row["name"]])
    for row in extra:
        sheet.append(list(row))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


class IneDouble:
    def __init__(self):
        self.status = 200
        self.body = ine_spreadsheet()
        self.requests: list[str] = []
        double = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - http.server's name
                double.requests.append(self.path)
                if self.path != PATH or double.status != 200:
                    self.send_error(404 if self.path != PATH else double.status)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/vnd.openxmlformats-officedocument."
                                                 "spreadsheetml.sheet")
                self.send_header("Content-Length", str(len(double.body)))
                self.end_headers()
                self.wfile.write(double.body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}{PATH}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def down(self):
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.down()
