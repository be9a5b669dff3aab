"""A loopback stand-in for ROSS 1000's web service that speaks its published operation.

`inviaMovimentazione` as the WSDL describes it (shared/domain/updates-2026-11.md §1.2): SOAP 1.1
envelopes over HTTP, POSTed to `/ws/checkinV2` with `SOAPAction: ""` and HTTP Basic. What it
checks is what the service is described as checking: the credentials (401 otherwise), the
envelope and the operation's namespace (a SOAP Client fault otherwise), the `movimentazione`
against the shipped xsd/checkin.xsd (a Client fault naming the schema error). It answers one
`risultatiGiorno` per `movimento`, each arrival, departure and booking with its `risultato{idswh,
successo, errore}`, grouped as the response schema groups them (`retifiche` with one "t").

Knobs for the tests: `credentials` (the accepted user and password), `refuse` ({idswh: reason}:
that record is answered successo false with the reason), `status` (answer this HTTP status with
an HTML page instead, as a broken proxy does), `refuse_credentials()`, `delay` (seconds before answering), `fault`
(answer a SOAP fault with this code, "Server" or "Client"). `received` keeps every month parsed
(lxml elements), `calls` counts the POSTs.
"""

from __future__ import annotations

import base64
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from xml.sax.saxutils import escape

import pytest
from lxml import etree

from rentalcomply.authorities.ross1000 import xmlfile

SOAP = "http://schemas.xmlsoap.org/soap/envelope/"
NS = "http://checkin.ws.service.turismo5.gies.it/"
PATH = "/ws/checkinV2"
USER, PASSWORD = "struttura042", "trasmissione-segreta"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _envelope(body: str) -> bytes:
    return (f'<?xml version="1.0" encoding="UTF-8"?><S:Envelope xmlns:S="{SOAP}"><S:Body>'
            f"{body}</S:Body></S:Envelope>").encode("utf-8")


def _fault(code: str, text: str) -> bytes:
    return _envelope(f"<S:Fault><faultcode>S:{code}</faultcode>"
                     f"<faultstring>{escape(text)}</faultstring></S:Fault>")


class Ross1000Double:
    def __init__(self):
        self.port = free_port()
        self.credentials = (USER, PASSWORD)
        self.refuse: dict[str, str] = {}
        self.status: int | None = None
        self.fault: str | None = None
        self.delay = 0.0
        self.received: list[etree._Element] = []
        self.calls = 0
        self.server = None
        self.up()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{PATH}"

    def up(self) -> None:
        double = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status, kind, answer = double.handle(self.path, dict(self.headers.items()), body)
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", kind)
                    self.send_header("Content-Length", str(len(answer)))
                    if status == 401:
                        self.send_header("WWW-Authenticate", 'Basic realm="turismo5"')
                    self.end_headers()
                    self.wfile.write(answer)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        ThreadingHTTPServer.allow_reuse_address = True
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def refuse_credentials(self) -> None:
        """Answer 401 to every user and password from now on (a password changed on the portal)."""
        self.credentials = (USER, object())

    def down(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    # --- the protocol -------------------------------------------------------------------------

    def handle(self, path: str, headers: dict, body: bytes) -> tuple[int, str, bytes]:
        self.calls += 1
        time.sleep(self.delay)
        xml = "text/xml; charset=utf-8"
        if path != PATH:
            return 404, "text/html", b"<html><body>Not Found</body></html>"
        if self.status is not None:
            return self.status, "text/html", b"<html><body>Service Unavailable</body></html>"
        if not self._authorised(headers.get("Authorization", "")):
            return 401, "text/html", b"<html><body>Unauthorized</body></html>"
        if headers.get("SOAPAction") != '""':
            return 500, xml, _fault("Client", "SOAPAction must be empty")
        if self.fault:
            return 500, xml, _fault(self.fault, "Errore interno del servizio")
        try:
            root = etree.fromstring(body)
        except etree.XMLSyntaxError:
            return 500, xml, _fault("Client", "Messaggio non valido")
        call = root.find(f"{{{SOAP}}}Body/{{{NS}}}inviaMovimentazione")
        month = call.find("movimentazione") if call is not None else None
        if month is None:
            return 500, xml, _fault("Client", "Operazione sconosciuta")
        # The same document as the file uploaded on the portal: validate it as that.
        as_file = etree.fromstring(etree.tostring(month))
        as_file.tag = xmlfile.ROOT
        etree.cleanup_namespaces(as_file)  # the envelope's, unused below it
        schema = xmlfile.schema()
        if not schema.validate(as_file):
            return 500, xml, _fault("Client", f"Movimentazione non valida: {schema.error_log}")
        self.received.append(as_file)
        days = "".join(self._day(movimento) for movimento in as_file.findall("movimento"))
        return 200, xml, _envelope(f'<ns2:inviaMovimentazioneResponse xmlns:ns2="{NS}">'
                                   f"<return>{days}</return></ns2:inviaMovimentazioneResponse>")

    def _authorised(self, header: str) -> bool:
        if not header.startswith("Basic "):
            return False
        try:
            user, _, password = base64.b64decode(header[6:]).decode("utf-8").partition(":")
        except (ValueError, UnicodeDecodeError):
            return False
        return (user, password) == self.credentials

    def _day(self, movimento: etree._Element) -> str:
        groups = []
        for group, kind in (("arrivi", "arrivo"), ("partenze", "partenza"),
                            ("prenotazioni", "prenotazione")):
            records = movimento.findall(f"{group}/{kind}")
            if records:
                groups.append(f"<{group}>" + "".join(
                    self._result(kind, record.findtext("idswh")) for record in records)
                    + f"</{group}>")
        corrections = movimento.findall("rettifiche/eliminazione")
        if corrections:
            groups.append("<retifiche>" + "".join(
                self._result("eliminazione", r.findtext("idswh")) for r in corrections)
                + "</retifiche>")
        return "<risultatiGiorno>" + "".join(groups) + "</risultatiGiorno>"

    def _result(self, kind: str, idswh: str) -> str:
        reason = self.refuse.get(idswh)
        if reason is None:
            return f"<{kind}><idswh>{escape(idswh)}</idswh><successo>true</successo></{kind}>"
        return (f"<{kind}><idswh>{escape(idswh)}</idswh><successo>false</successo>"
                f"<errore>{escape(reason)}</errore></{kind}>")


@pytest.fixture
def ross1000_double():
    double = Ross1000Double()
    yield double
    double.down()
