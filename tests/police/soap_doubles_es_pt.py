"""Test doubles of the Spanish and Portuguese police services: real HTTP servers on loopback that
speak SOAP (1.1 for SES.Hospedajes, 1.2 for SIBA), serve their WSDL and check what they receive
the way the services do (authentication, the XML against its schema)."""
from __future__ import annotations

import base64
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from xml.sax.saxutils import escape

from lxml import etree

SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/"
SOAP12 = "http://www.w3.org/2003/05/soap-envelope"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet
        pass

    def do_GET(self):
        double = self.server.double
        if "wsdl" not in self.path.lower():
            return self._send(404, b"not found", "text/plain")
        self._send(200, double.wsdl().encode("utf-8"), "text/xml; charset=utf-8")

    def do_POST(self):
        double = self.server.double
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        double.requests += 1
        if double.down > 0:
            double.down -= 1
            return self._send(503, b"Service Unavailable", "text/plain")
        if double.delay:
            time.sleep(double.delay)
        status, payload, content_type = double.handle(self.headers, body)
        self._send(status, payload, content_type)

    def _send(self, status, payload, content_type):
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test)
            pass


class _Double:
    wsdl_package = ""
    wsdl_name = ""
    location = ""

    def __init__(self):
        self.down = 0        # how many requests to answer 503 before working
        self.delay = 0.0     # seconds to wait before answering
        self.requests = 0
        self.received: list[bytes] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.server.daemon_threads = True
        self.server.double = self
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/{self.path}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    def wsdl(self) -> str:
        text = resources.files(self.wsdl_package).joinpath(self.wsdl_name).read_text("utf-8")
        return text.replace(self.location, self.url)


def _body(envelope_ns: str, raw: bytes):
    root = etree.fromstring(raw)
    if etree.QName(root).namespace != envelope_ns:
        raise ValueError(f"not a SOAP envelope in {envelope_ns}")
    body = root.find(f"{{{envelope_ns}}}Body")
    return body[0]


def _child(element, name):
    found = element.find(name)
    return found.text if found is not None else None


# --- SES.Hospedajes ------------------------------------------------------------------------------

class SesDouble(_Double):
    """SES.Hospedajes: `comunicacion` queues a batch, `consultaLote` answers its outcome.

    `refuse_person` (counted from 1) makes the next communication of travellers (PV; a reservation,
    RH, names one person and may go first) fail on that person;
    `refuse_without_person` fails it with a message naming nobody; `pending_polls` is how many
    `consultaLote` calls answer "still processing" first; `fault_auth` answers a SOAP fault about
    the credentials instead of HTTP 401; `return_code` makes `comunicacion` answer that code."""
    wsdl_package = "rentalcomply.authorities.ses"
    wsdl_name = "ses_comunicacion.wsdl"
    location = "https://hospedajes.ses.mir.es/hospedajes-web/ws/v1/comunicacion"
    path = "hospedajes-web/ws/v1/comunicacion"
    NS = "http://www.soap.servicios.hospedajes.mir.es/comunicacion"

    def __init__(self, user="ses-user", password="ses-pass"):
        super().__init__()
        self.user, self.password = user, password
        self.refuse_person: int | None = None
        self.refuse_without_person = False
        self.pending_polls = 0
        self.fault_auth = False
        self.return_code = 0
        self.batches: dict[str, dict] = {}
        self.headers_seen: list[dict] = []
        self.catalogues: dict[str, dict[str, str]] = {}

    def handle(self, headers, raw):
        from rentalcomply.authorities.ses import format as ses

        expected = "Basic " + base64.b64encode(f"{self.user}:{self.password}".encode()).decode()
        if self.fault_auth:
            return 500, self._fault("soapenv:Client", "Autenticación fallida: credenciales incorrectas"), \
                "text/xml; charset=utf-8"
        if headers.get("Authorization") != expected:
            return 401, b"<html><body>401 Unauthorized</body></html>", "text/html"
        request = _body(SOAP11, raw)
        name = etree.QName(request).localname
        if name == "comunicacionRequest":
            peticion = request.find("peticion")
            cabecera = peticion.find("cabecera")
            header = {child.tag: child.text for child in cabecera}
            self.headers_seen.append(header)
            if self.return_code:
                return 200, self._answer("comunicacionResponse",
                                         f"<respuesta><codigo>{self.return_code}</codigo>"
                                         "<descripcion>Error de validación</descripcion></respuesta>"), \
                    "text/xml; charset=utf-8"
            try:
                xml = ses.unpack(peticion.findtext("solicitud"))
                ses.validate(xml)
            except Exception as exc:  # what the service answers to a malformed file
                return 200, self._answer("comunicacionResponse",
                                         "<respuesta><codigo>10118</codigo><descripcion>"
                                         f"{escape(str(exc))[:90]}</descripcion></respuesta>"), \
                    "text/xml; charset=utf-8"
            self.received.append(xml)
            lote = str(uuid.uuid4())
            kind = header.get("tipoComunicacion", "")
            if self.refuse_person and kind == "PV":
                error = f"Error en la persona {self.refuse_person}: el número de soporte no es válido"
            elif self.refuse_without_person:
                error = "No existe un establecimiento para ese código"
            else:
                error = None
            self.batches[lote] = {"type": kind, "error": error,
                                  "code": str(uuid.uuid4()), "polls": self.pending_polls}
            if error:
                self.refuse_person, self.refuse_without_person = None, False
            return 200, self._answer("comunicacionResponse",
                                     "<respuesta><codigo>0</codigo><descripcion>Ok</descripcion>"
                                     f"<lote>{lote}</lote></respuesta>"), "text/xml; charset=utf-8"
        if name == "consultaLoteRequest":
            results = []
            for lote in request.find("codigosLote").findall("lote"):
                batch = self.batches.get(lote.text)
                if batch is None:
                    continue
                if batch["polls"] > 0:
                    batch["polls"] -= 1
                    results.append(f"<resultado><lote>{lote.text}</lote><tipoComunicacion>{batch['type']}"
                                   "</tipoComunicacion><codigoEstado>4</codigoEstado>"
                                   "<descEstado>Lote pendiente de tramitar</descEstado></resultado>")
                    continue
                outcome = (f"<tipoError>DATOS</tipoError><error>{escape(batch['error'])}</error>"
                           if batch["error"] else f"<codigoComunicacion>{batch['code']}</codigoComunicacion>")
                state = "6</codigoEstado><descEstado>Lote tramitado con errores" if batch["error"] \
                    else "1</codigoEstado><descEstado>Lote tramitado"
                results.append(f"<resultado><lote>{lote.text}</lote><tipoComunicacion>{batch['type']}"
                               f"</tipoComunicacion><codigoEstado>{state}</descEstado>"
                               "<resultadoComunicaciones><resultadoComunicacion><orden>1</orden>"
                               f"{outcome}</resultadoComunicacion></resultadoComunicaciones></resultado>")
            return 200, self._answer("consultaLoteResponse",
                                     "<respuesta><codigo>0</codigo><descripcion>Ok</descripcion></respuesta>"
                                     + "".join(results)), "text/xml; charset=utf-8"
        if name == "catalogoRequest":
            wanted = request.find("peticion").findtext("catalogo")
            table = self.catalogues.get(wanted)
            if table is None:
                return 200, self._answer("catalogoResponse",
                                         "<resultado><codigo>10130</codigo><descripcion>Catálogo no "
                                         "encontrado</descripcion></resultado><respuesta><resultado/>"
                                         "</respuesta>"), "text/xml; charset=utf-8"
            rows = "".join(f"<tupla><codigo>{escape(code)}</codigo><descripcion>{escape(text)}"
                           "</descripcion></tupla>" for code, text in table.items())
            return 200, self._answer("catalogoResponse",
                                     "<resultado><codigo>0</codigo><descripcion>Ok</descripcion></resultado>"
                                     f"<respuesta><resultado>{rows}</resultado></respuesta>"), \
                "text/xml; charset=utf-8"
        return 500, self._fault("soapenv:Client", f"unknown operation {name}"), "text/xml; charset=utf-8"

    def _answer(self, element, inner):
        return (f'<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="{SOAP11}">'
                f'<soapenv:Body><ns2:{element} xmlns:ns2="{self.NS}">{inner}</ns2:{element}>'
                "</soapenv:Body></soapenv:Envelope>").encode("utf-8")

    def _fault(self, code, text):
        return (f'<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="{SOAP11}">'
                f"<soapenv:Body><soapenv:Fault><faultcode>{code}</faultcode>"
                f"<faultstring>{escape(text)}</faultstring></soapenv:Fault></soapenv:Body>"
                "</soapenv:Envelope>").encode("utf-8")


# --- SIBA ----------------------------------------------------------------------------------------

class SibaDouble(_Double):
    """SIBA: `EntregaBoletinsAlojamento` over SOAP 1.2. Answers "0", or `ErrosBA` for the lines in
    `refuse_lines` ({line: (code, description)}); a wrong access key is refused on line 0."""
    wsdl_package = "rentalcomply.authorities.siba"
    wsdl_name = "siba_boletins.wsdl"
    location = "https://siba.ssi.gov.pt/baws/boletinsalojamento.asmx"
    path = "baws/boletinsalojamento.asmx"
    NS = "http://sef.pt/"

    def __init__(self, unit="121212121", establishment=0, key="999999999"):
        super().__init__()
        self.unit, self.establishment, self.key = unit, establishment, key
        self.refuse_lines: dict[int, tuple[str, str]] = {}
        self.content_types: list[str] = []

    def handle(self, headers, raw):
        from rentalcomply.authorities.siba import format as siba

        self.content_types.append(headers.get("Content-Type", ""))
        if "application/soap+xml" not in headers.get("Content-Type", ""):
            return 415, b"SOAP 1.2 expected", "text/plain"
        request = _body(SOAP12, raw)
        values = {etree.QName(child).localname: child.text for child in request}
        if (values.get("UnidadeHoteleira") != self.unit or int(values.get("Estabelecimento") or -1)
                != self.establishment or values.get("ChaveAcesso") != self.key):
            return 200, self._answer([(0, "22", "Chave de acesso inválida")]), "application/soap+xml; charset=utf-8"
        xml = base64.b64decode(values["Boletins"])
        try:
            siba.validate(xml)
        except Exception as exc:
            return 200, self._answer([(1, "99", f"Ficheiro inválido: {exc}"[:90])]), \
                "application/soap+xml; charset=utf-8"
        self.received.append(xml)
        errors = sorted((line, code, text) for line, (code, text) in self.refuse_lines.items())
        self.refuse_lines = {}
        return 200, self._answer(errors), "application/soap+xml; charset=utf-8"

    def _answer(self, errors):
        if errors:
            inner = "<ErrosBA>" + "".join(
                f"<RetornoBA><Linha>{line}</Linha><Codigo_Retorno>{code}</Codigo_Retorno>"
                f"<Descricao>{escape(text)}</Descricao></RetornoBA>" for line, code, text in errors) + "</ErrosBA>"
        else:
            inner = "0"
        return (f'<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="{SOAP12}"><soap:Body>'
                f'<EntregaBoletinsAlojamentoResponse xmlns="{self.NS}"><EntregaBoletinsAlojamentoResult>'
                f"{escape(inner)}</EntregaBoletinsAlojamentoResult></EntregaBoletinsAlojamentoResponse>"
                "</soap:Body></soap:Envelope>").encode("utf-8")
