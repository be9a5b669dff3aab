"""What the SOAP connectors (SES.Hospedajes, SIBA, Alloggiati Web) share: a zeep client from a
shipped WSDL, pointed at the address of the server settings, whose HTTP goes out through `core/netguard.py` (one deadline
for the whole exchange, so a service that trickles its answer is cut at the timeout too), and the
mapping of failures onto the contract's errors (`TransientError` retries, `AuthError` stops).

zeep's own transport logs whole envelopes at DEBUG level; ours never logs a body (guest data)."""
from __future__ import annotations

import base64
from contextlib import contextmanager
from functools import lru_cache
from importlib import resources

from rentalcomply.core import netguard
from rentalcomply.filings.connector import AuthError, PermanentError, TransientError, UncertainError

MAX_ANSWER_BYTES = 5_000_000


class Timeout(TransientError):
    """No answer within the timeout: the request may or may not have reached the service."""


_Timeout = Timeout


@lru_cache(maxsize=None)
def _wsdl_path(wsdl: tuple[str, str]) -> str:
    package, name = wsdl  # each authority ships its WSDL in its own folder
    path = resources.files(package).joinpath(name)
    with resources.as_file(path) as real:  # a real file in every install (package data)
        return str(real)


def service(wsdl: tuple[str, str], binding: str, endpoint_url: str, timeout: float,
            basic_auth: tuple[str, str] | None = None):
    """(client, service proxy) for `binding` ('{ns}Name') at `endpoint_url`; the WSDL is read
    from the package, never fetched."""
    import zeep

    if not endpoint_url:
        raise PermanentError("the service address is not configured")
    settings = zeep.Settings(strict=True, xml_huge_tree=False, forbid_dtd=True,
                             forbid_entities=True, forbid_external=True)
    client = zeep.Client(_wsdl_path(wsdl), transport=_transport(timeout, basic_auth), settings=settings)
    return client, client.create_service(binding, endpoint_url)


def _transport(timeout: float, basic_auth):
    import requests
    from requests.structures import CaseInsensitiveDict
    from zeep.transports import Transport

    class GuardedTransport(Transport):
        """POSTs through netguard and reads the HTTP status before zeep reads the body: a 401
        page or a proxy's 503 page is no SOAP answer, whatever markup it carries."""

        def post(self, address, message, headers):
            headers = dict(headers)
            if basic_auth:
                token = base64.b64encode(f"{basic_auth[0]}:{basic_auth[1]}".encode("utf-8")).decode()
                headers["Authorization"] = f"Basic {token}"
            body = message if isinstance(message, bytes) else message.encode("utf-8")
            try:
                # The address is a server setting (never API input), so a service on the LAN or
                # a test double on loopback is allowed; multicast and the like are still refused.
                answer = netguard.fetch(address, method="POST", body=body, headers=headers,
                                        timeout=timeout, allow_private=True,
                                        max_bytes=MAX_ANSWER_BYTES)
            except netguard.FetchTimeout:
                raise _Timeout("the service did not answer in time") from None
            except netguard.FetchError as exc:
                if exc.permanent:
                    raise PermanentError(f"the service address is refused: {exc}") from None
                raise TransientError(f"the service is unreachable: {exc}") from None
            content_type = answer.header("content-type", "")
            if answer.status in (401, 403):
                raise AuthError(f"the service refused the credentials (HTTP {answer.status})")
            if answer.status in (408, 429, 502, 503, 504) or (answer.status >= 500 and "xml" not in content_type):
                raise TransientError(f"the service answered HTTP {answer.status}")
            response = requests.Response()
            response.status_code = answer.status
            response.headers = CaseInsensitiveDict(answer.headers)
            response._content = answer.body
            response.url = address
            response.encoding = "utf-8"
            return response

        def load(self, url):  # the shipped WSDL is a local file; nothing is fetched
            if "://" in url and not url.startswith("file://"):
                raise PermanentError(f"refusing to fetch {url}")
            return super().load(url)

    return GuardedTransport(timeout=timeout, operation_timeout=timeout)


@contextmanager
def calling(service_name: str, *, files: bool = False):
    """Turn what can go wrong on the wire into the contract's errors, naming the service.

    `files`: the call hands guests to the authority, which has no idempotency key; a timeout
    there may hide an accepted filing, so it is an UncertainError (never retried automatically,
    so no guest is filed twice) rather than a plain TransientError."""
    from zeep import exceptions as zeep_errors

    try:
        yield
    except _Timeout:
        if files:
            raise UncertainError(f"{service_name} did not answer in time: the guests may have been "
                                 "filed. Check with the authority before filing again.") from None
        raise TransientError(f"{service_name} did not answer in time") from None
    except (TransientError, AuthError, PermanentError) as exc:
        raise type(exc)(str(exc).replace("the service", service_name, 1)) from None
    except zeep_errors.TransportError as exc:
        if exc.status_code in (401, 403):
            raise AuthError(f"{service_name} refused the credentials (HTTP {exc.status_code})") from None
        if exc.status_code in (408, 429) or exc.status_code >= 500:
            raise TransientError(f"{service_name} answered HTTP {exc.status_code}") from None
        raise PermanentError(f"{service_name} answered HTTP {exc.status_code}") from None
    except zeep_errors.Fault as exc:
        text = f"{exc.code or ''} {exc.message or ''}".strip()
        if any(word in text.lower() for word in ("auth", "credencial", "contraseña", "password",
                                                 "chave", "unauthori", "forbidden")):
            raise AuthError(f"{service_name} refused the credentials: {exc.message}") from None
        if "server" in (exc.code or "").lower() or "receiver" in (exc.code or "").lower():
            raise TransientError(f"{service_name} failed: {exc.message}") from None
        raise PermanentError(f"{service_name} refused the request: {exc.message}") from None
    except zeep_errors.XMLSyntaxError:
        raise TransientError(f"{service_name} answered something that is not XML") from None
    except zeep_errors.Error as exc:
        raise PermanentError(f"{service_name}: {exc}") from None
