"""A loopback stand-in for Alloggiati Web that speaks its protocol: SOAP 1.1 envelopes over HTTP
in the `AlloggiatiService` namespace, the WSDL served at `?wsdl`, GenerateToken / Test / Send /
Ricevuta with the published message shapes. What it checks of a line is what the service checks
first: 168 (or 174) characters, a guest type, dates, blank documents for members. A line whose
document number is `INVALIDO` is refused (code 42), as the service refuses a bad document.

`Tabella` answers the authority's tables as the service does, CSV text in the answer, from the
copies of the portal's files in tests/police/alloggiati_tables (`Luoghi`: municipalities then
states; `Tipi_Documento`; `Tipi_Alloggiato`); `tables` maps a `tipo` to the text to answer.

Knobs for the tests: `down()` / `up()` (connection refused, then listening again on the same
port), `delay` (seconds before answering, per operation), `expire_tokens()`, `credentials`,
`receipt_failures` (how many `Ricevuta` calls to come answer esito false, as the service does for
a day it has no receipt of yet); `receipt_days` lists the days `Ricevuta` was asked for.
"""

from __future__ import annotations

import base64
import datetime as dt
import re
import socket
import threading
import time
import uuid
from pathlib import Path
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources

from lxml import etree
from xml.sax.saxutils import escape as xml_escape

SOAP = "http://schemas.xmlsoap.org/soap/envelope/"
NS = "AlloggiatiService"
DATE = re.compile(r"^\d{2}/\d{2}/\d{4}$")
TABLES = Path(__file__).parent / "alloggiati_tables"


def published_tables() -> dict[str, str]:
    """Tabella's answers: the portal's files, Luoghi being municipalities and states in one."""
    def read(name):
        return (TABLES / name).read_text("utf-8")
    states = read("stati.csv").split("\n", 1)[1]
    return {"Luoghi": read("comuni.csv").rstrip("\r\n") + "\r\n" + states,
            "Tipi_Documento": read("documenti.csv"), "Tipi_Alloggiato": read("tipo_alloggiato.csv")}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _envelope(body: str) -> bytes:
    return (f'<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="{SOAP}">'
            f'<soap:Body>{body}</soap:Body></soap:Envelope>').encode("utf-8")


def _esito(tag: str, ok: bool, code: str = "", text: str = "") -> str:
    inner = f"<esito>{'true' if ok else 'false'}</esito>"
    if not ok:
        inner += f"<ErroreCod>{code}</ErroreCod><ErroreDes>{text}</ErroreDes>"
    return f"<{tag}>{inner}</{tag}>"


class AlloggiatiDouble:
    def __init__(self):
        self.port = free_port()
        self.credentials = {("RM012345", "segreto", "WSKEY1")}
        self.token_lifetime = dt.timedelta(hours=1)
        self.tokens: dict[str, dt.datetime] = {}
        self.delay: dict[str, float] = {}
        self.calls: list[str] = []       # operation names, in order
        self.sent: list[str] = []        # every line Send accepted
        self.tables = published_tables()
        self.receipt_failures = 0
        self.receipt_days: list[dt.date] = []
        self.server = None
        self.thread = None
        self.up()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/service/service.asmx"

    # --- lifecycle ----------------------------------------------------------------------------

    def up(self) -> None:
        double = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                wsdl = resources.files("rentalcomply.authorities.alloggiati").joinpath(
                    "alloggiati.wsdl").read_bytes()
                self._answer(200, wsdl)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                status, answer = double.handle(self.headers.get("SOAPAction", ""), body)
                self._answer(status, answer)

            def _answer(self, status, data):
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "text/xml; charset=utf-8")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        ThreadingHTTPServer.allow_reuse_address = True
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def down(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    def expire_tokens(self) -> None:
        self.tokens = {token: dt.datetime(2000, 1, 1) for token in self.tokens}

    # --- the protocol -------------------------------------------------------------------------

    def handle(self, action: str, body: bytes) -> tuple[int, bytes]:
        try:
            root = etree.fromstring(body)
        except etree.XMLSyntaxError:
            return 400, b"not XML"
        request = root.find(f"{{{SOAP}}}Body")[0]
        operation = etree.QName(request).localname
        if etree.QName(request).namespace != NS or action.strip('"') != f"{NS}/{operation}":
            return 500, _envelope(f"<soap:Fault><faultcode>soap:Client</faultcode><faultstring>"
                                  f"Unknown action {action}</faultstring></soap:Fault>")
        self.calls.append(operation)
        time.sleep(self.delay.get(operation, 0))
        values = {etree.QName(child).localname: child for child in request}

        def text(name):
            node = values.get(name)
            return node.text if node is not None else None

        if operation == "GenerateToken":
            if (text("Utente"), text("Password"), text("WsKey")) not in self.credentials:
                return 200, _envelope(f'<GenerateTokenResponse xmlns="{NS}">'
                                      + _esito("result", False, "AUTH", "Utente o password non validi")
                                      + "</GenerateTokenResponse>")
            token = uuid.uuid4().hex
            now = dt.datetime.utcnow().replace(microsecond=0)
            self.tokens[token] = now + self.token_lifetime
            return 200, _envelope(
                f'<GenerateTokenResponse xmlns="{NS}"><GenerateTokenResult>'
                f"<issued>{now.isoformat()}</issued><expires>{(now + self.token_lifetime).isoformat()}</expires>"
                f"<token>{token}</token></GenerateTokenResult>" + _esito("result", True)
                + "</GenerateTokenResponse>")
        token = text("token")
        if token not in self.tokens or self.tokens[token] < dt.datetime.utcnow():
            return 200, _envelope(f'<{operation}Response xmlns="{NS}">'
                                  + _esito(f"{operation}Result", False, "TOKEN", "Token scaduto o non valido")
                                  + f"</{operation}Response>")
        if operation in ("Test", "Send"):
            lines = [node.text or "" for node in values["ElencoSchedine"]]
            outcomes = [self.check(line) for line in lines]
            if operation == "Send":
                self.sent += [line for line, problem in zip(lines, outcomes) if problem is None]
            details = "".join(_esito("EsitoOperazioneServizio", problem is None, *(problem or ("", "")))
                              for problem in outcomes)
            valid = sum(1 for problem in outcomes if problem is None)
            return 200, _envelope(
                f'<{operation}Response xmlns="{NS}">' + _esito(f"{operation}Result", True)
                + f"<result><SchedineValide>{valid}</SchedineValide><Dettaglio>{details}</Dettaglio>"
                  f"</result></{operation}Response>")
        if operation == "Ricevuta":
            data = text("Data") or ""
            try:
                self.receipt_days.append(dt.datetime.fromisoformat(data[:19]).date())
            except ValueError:
                return 500, _envelope("<soap:Fault><faultcode>soap:Client</faultcode>"
                                      "<faultstring>Data non valida</faultstring></soap:Fault>")
            if self.receipt_failures > 0:
                self.receipt_failures -= 1
                return 200, _envelope(f'<RicevutaResponse xmlns="{NS}">'
                                      + _esito("RicevutaResult", False, "RIC",
                                               "Ricevuta non disponibile")
                                      + "</RicevutaResponse>")
            pdf = b"%PDF-1.4\n% Ricevuta " + (text("Data") or "").encode() + b"\n%%EOF\n"
            return 200, _envelope(f'<RicevutaResponse xmlns="{NS}">' + _esito("RicevutaResult", True)
                                  + f"<PDF>{base64.b64encode(pdf).decode()}</PDF></RicevutaResponse>")
        if operation == "Tabella":
            csv_text = self.tables.get(text("tipo") or "")
            if csv_text is None:
                return 200, _envelope(f'<TabellaResponse xmlns="{NS}">'
                                      + _esito("TabellaResult", False, "TAB", "Tabella non valida")
                                      + "</TabellaResponse>")
            return 200, _envelope(f'<TabellaResponse xmlns="{NS}">' + _esito("TabellaResult", True)
                                  + f"<CSV>{xml_escape(csv_text)}</CSV></TabellaResponse>")
        return 500, _envelope("<soap:Fault><faultcode>soap:Client</faultcode>"
                              "<faultstring>unsupported</faultstring></soap:Fault>")

    @staticmethod
    def check(line: str) -> tuple[str, str] | None:
        if len(line) not in (168, 174):
            return "1", f"Lunghezza record errata ({len(line)})"
        if line[:2] not in ("16", "17", "18", "19", "20"):
            return "2", "Tipo alloggiato non valido"
        if not DATE.match(line[2:12]) or not DATE.match(line[95:105]):
            return "3", "Data non valida"
        if line[:2] in ("19", "20") and line[134:168].strip():
            return "4", "Documento non previsto per familiare o membro gruppo"
        if line[139:159].strip() == "INVALIDO":
            return "42", "Numero documento non valido"
        return None
