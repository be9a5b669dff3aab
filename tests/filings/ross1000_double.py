"""A loopback stand-in for a region's ROSS 1000 web service (`checkinV2`), speaking its protocol:
SOAP 1.1, HTTP Basic with the transmission credentials, `inviaMovimentazione` in the Turismo5
namespace with the month as `movimentazione` (codice, prodotto, one movimento per day), answered
with `return/risultatiGiorno/arrivi/arrivo/risultato{idswh, successo, errore?}` per guest
(shared/domain/updates-2026-11.md §1.2). Each region has its own path: what each received is
kept by path.

Knobs: `credentials` (user, password) it accepts (else HTTP 401), `refuse` (idswh -> the reason
it refuses that guest's arrival with), `received` (path -> the documents it took)."""

from __future__ import annotations

import base64
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from xml.sax.saxutils import escape

from lxml import etree

SOAP = "http://schemas.xmlsoap.org/soap/envelope/"
NS = "http://checkin.ws.service.turismo5.gies.it/"


class Ross1000Double:
    def __init__(self):
        self.credentials = ("ross-user", "ross-pass")
        self.refuse: dict[str, str] = {}
        self.received: dict[str, list[etree._Element]] = {}
        double = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                expected = "Basic " + base64.b64encode(
                    ":".join(double.credentials).encode()).decode()
                if self.headers.get("Authorization") != expected:
                    self.send_response(401)
                    self.send_header("WWW-Authenticate", 'Basic realm="checkin"')
                    self.end_headers()
                    return
                answer = double.answer(self.path, body)
                self.send_response(200)
                self.send_header("Content-Type", "text/xml; charset=utf-8")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def answer(self, path: str, body: bytes) -> bytes:
        root = etree.fromstring(body)
        month = root.find(f".//{{{NS}}}inviaMovimentazione/movimentazione")
        if month is None:
            return _envelope(f"<soap:Fault><faultcode>soap:Client</faultcode><faultstring>"
                             f"no movimentazione</faultstring></soap:Fault>")
        self.received.setdefault(path, []).append(month)
        days = []
        for movimento in month.findall("movimento"):
            results = []
            for arrivo in movimento.findall("arrivi/arrivo"):
                idswh = arrivo.findtext("idswh")
                reason = self.refuse.get(idswh)
                results.append(f"<risultato><idswh>{escape(idswh)}</idswh><successo>"
                               f"{'false' if reason else 'true'}</successo>"
                               + (f"<errore>{escape(reason)}</errore>" if reason else "")
                               + "</risultato>")
            arrivals = "".join(f"<arrivo>{r}</arrivo>" for r in results)
            days.append(f"<risultatiGiorno><arrivi>{arrivals}</arrivi></risultatiGiorno>")
        return _envelope(f'<ns2:inviaMovimentazioneResponse xmlns:ns2="{NS}"><return>'
                         + "".join(days) + "</return></ns2:inviaMovimentazioneResponse>")

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _envelope(body: str) -> bytes:
    return (f'<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="{SOAP}">'
            f"<soap:Body>{body}</soap:Body></soap:Envelope>").encode("utf-8")
