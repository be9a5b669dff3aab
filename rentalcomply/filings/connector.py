"""The contract every police connector implements.

A connector turns a stay and its guests into the authority's file (`build_file`) and, for the
services that take filings online, submits them (`submit`) and, where the outcome arrives later,
polls for it (`poll`). The filing engine (`rentalcomply/filings/engine.py`) owns the state, the
retries, the deadlines and the events; a connector only speaks to the authority.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import date


@dataclass(frozen=True)
class Guest:
    """One guest as check-in collected it, decrypted; the list order is the party order."""
    index: int          # 0 = the lead guest / head of family or group leader
    role: str           # "single" | "head_of_family" | "group_leader" | "family_member" | "group_member" (IT)
                        # "holder" | "traveller" (ES)
    data: dict          # the check-in field names: first_name, last_name, second_last_name?, sex
                        # ("M"|"F"), birth_date (date), nationality (ISO alpha-2),
                        # document_type, document_number, document_country, document_support_number?,
                        # birth_place?, birth_province?, issue_place?, address?, city?, postcode?,
                        # residence_country?, residence_place?, relationship?, email?, phone?


@dataclass(frozen=True)
class Stay:
    booking_id: str
    reference: str      # booking id or external_ref
    arrival: date
    departure: date
    booked_on: date
    guest_count: int
    payment_method: str | None
    property_country: str
    property_name: str
    property_region: str | None = None  # ISO 3166-2 where known ("ES-CT")


@dataclass(frozen=True)
class FilingRef:
    id: str
    kind: str                  # "arrival" | "departure" (PT) | "cancellation" (ES)
    attempt: int
    remote_id: str | None      # e.g. SES lote, kept between submit and poll


@dataclass
class GuestOutcome:
    index: int
    accepted: bool
    code: str | None = None
    message: str | None = None


@dataclass
class Outcome:
    state: str                          # "submitted" | "rejected" | "pending" (poll later)
    reference: str | None = None        # authority's id (lote, receipt number…)
    guests: list[GuestOutcome] = field(default_factory=list)
    receipt: bytes | None = None
    receipt_type: str | None = None
    poll_after_seconds: int | None = None
    remote_id: str | None = None


class TransientError(Exception):
    """Network down, timeout, 5xx: retry later."""


class UncertainError(TransientError):
    """The request may have reached the authority without its answer reaching us (a timeout
    after sending): never retried automatically, so that no guest is filed twice."""


class AuthError(Exception):
    """Credentials refused: FAILED with a clear reason, no retry storm."""


class PermanentError(Exception):
    """The authority refuses the whole submission (reason in str)."""


class Connector(ABC):
    """The interface every police connector implements: build_file and submit always, poll only
    where the authority answers later (SES), check_credentials where the service can be asked."""

    name: str = ""                               # "alloggiati" | "ses_hospedajes" | "siba" | "file"
    credential_fields: tuple[str, ...] = ()      # names of the secrets it needs (e.g. user, password, wskey)
    setting_fields: tuple[str, ...] = ()         # names of the non-secret per-property settings

    @abstractmethod
    def build_file(self, settings_for_property: dict, stay: Stay, guests: list[Guest],
                   filing: FilingRef) -> tuple[str, str, bytes]:
        """(filename, content_type, bytes) of the authority's file for this filing."""

    @abstractmethod
    def submit(self, credentials: dict, settings_for_property: dict, stay: Stay,
               guests: list[Guest], filing: FilingRef, timeout: float) -> Outcome:
        """File it; the authority's answer, or the handle to poll where it answers later."""

    def poll(self, credentials: dict, settings_for_property: dict, filing: FilingRef,
             timeout: float) -> Outcome:
        """The authority's later answer. Only filings a connector left awaiting an answer are
        polled, and only SES leaves any: for every other connector this is a bug, said plainly."""
        raise PermanentError(f"the {self.name} connector answers at once; it has nothing to poll")

    def check_credentials(self, credentials: dict, settings_for_property: dict,
                          timeout: float) -> str | None:
        """Ask the authority whether it accepts these credentials, without filing anything: what
        it said (e.g. "a token was given"), or None where the service offers no such call (the
        first filing is then the check). AuthError when refused, TransientError when the
        service cannot be asked."""
        return None
