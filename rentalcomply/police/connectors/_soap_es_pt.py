"""What the SES.Hospedajes and SIBA connectors share: a zeep client from a shipped WSDL, pointed at
the address of the server settings, and the mapping of transport failures onto the contract's
errors (`TransientError` retries, `AuthError` stops)."""
from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache
from importlib import resources

from rentalcomply.police.connectors.base import AuthError, PermanentError, TransientError


@lru_cache(maxsize=None)
def _wsdl_path(name: str) -> str:
    path = resources.files("rentalcomply.police.connectors").joinpath("wsdl", name)
    with resources.as_file(path) as real:  # a real file in every install (package data)
        return str(real)


def service(wsdl: str, binding: str, endpoint_url: str, timeout: float, auth=None):
    """A zeep service proxy for `binding` ('{ns}Name') at `endpoint_url`, every exchange bounded
    by `timeout` seconds; the WSDL is read from the package, never fetched."""
    import requests
    import zeep
    if not endpoint_url:
        raise PermanentError("the service address is not configured")
    session = requests.Session()
    session.auth = auth
    session.trust_env = False  # no proxy or .netrc from the environment decides where filings go
    transport = _Transport(session=session, timeout=timeout, operation_timeout=timeout)
    settings = zeep.Settings(strict=True, xml_huge_tree=False, forbid_dtd=True,
                             forbid_entities=True, forbid_external=True)
    client = zeep.Client(_wsdl_path(wsdl), transport=transport, settings=settings)
    return client, client.create_service(binding, endpoint_url)


def _transport_class():
    from zeep.transports import Transport

    class StatusTransport(Transport):
        """Reads the HTTP status before zeep reads the body: a 401 page or a proxy's 503 page is
        no SOAP answer, whatever markup it carries."""

        def post(self, address, message, headers):
            response = super().post(address, message, headers)
            content_type = response.headers.get("Content-Type", "")
            if response.status_code in (401, 403):
                raise AuthError(f"the service refused the credentials (HTTP {response.status_code})")
            if response.status_code in (408, 429, 502, 503, 504) or (
                    response.status_code >= 500 and "xml" not in content_type):
                raise TransientError(f"the service answered HTTP {response.status_code}")
            return response

    return StatusTransport


def _Transport(**kwargs):
    return _transport_class()(**kwargs)


@contextmanager
def calling(service_name: str):
    """Turn what can go wrong on the wire into the contract's errors."""
    import requests
    from zeep import exceptions as zeep_errors

    try:
        yield
    except requests.exceptions.Timeout:
        raise TransientError(f"{service_name} did not answer in time") from None
    except requests.exceptions.RequestException as exc:
        raise TransientError(f"{service_name} unreachable: {type(exc).__name__}") from None
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
