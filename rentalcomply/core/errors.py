"""One exception class per API error code. Raise them anywhere; the web layer renders them."""

from __future__ import annotations


class ApiError(Exception):
    status = 500
    code = "INTERNAL_ERROR"
    message = "Something went wrong on our side."

    def __init__(self, message: str | None = None, details: list[dict] | None = None,
                 headers: dict[str, str] | None = None):
        self.message = message or self.message
        self.details = details
        self.headers = headers or {}
        super().__init__(self.message)


class ValidationError(ApiError):
    status, code, message = 400, "VALIDATION_ERROR", "The request has invalid fields."

    def __init__(self, details: list[dict] | str, message: str | None = None):
        """`ValidationError([{"field", "message"}, ...])`, or `ValidationError(field, message)`."""
        if isinstance(details, str):
            details = [{"field": details, "message": message or "is invalid"}]
        super().__init__("; ".join(f"{d['field']}: {d['message']}" for d in details), details)


def field_error(field: str, message: str) -> ValidationError:
    return ValidationError([{"field": field, "message": message}])


class InvalidJson(ApiError):
    status, code, message = 400, "INVALID_JSON", "The request body is not valid JSON."


class Unauthenticated(ApiError):
    status, code, message = 401, "UNAUTHENTICATED", "Send an API key as 'Authorization: Bearer <key>'."

    def __init__(self, message: str | None = None):
        super().__init__(message, headers={"WWW-Authenticate": 'Bearer realm="rentalcomply"'})


class InvalidApiKey(ApiError):
    status, code, message = 401, "INVALID_API_KEY", "The API key is unknown, revoked or expired."

    def __init__(self, message: str | None = None):
        super().__init__(message, headers={"WWW-Authenticate": 'Bearer realm="rentalcomply", error="invalid_token"'})


class InsufficientScope(ApiError):
    status, code = 403, "INSUFFICIENT_SCOPE"

    def __init__(self, scope: str):
        super().__init__(f"This API key lacks the '{scope}' scope needed here.")
        self.scope = scope


class HttpsRequired(ApiError):
    status, code, message = 403, "HTTPS_REQUIRED", "Use HTTPS: this server refuses plain HTTP."


class InvalidSignature(ApiError):
    status, code, message = 403, "INVALID_SIGNATURE", "The signed link was altered."


class NotFound(ApiError):
    status, code, message = 404, "NOT_FOUND", "No such resource."


class MethodNotAllowed(ApiError):
    status, code = 405, "METHOD_NOT_ALLOWED"

    def __init__(self, allowed: list[str]):
        super().__init__("Method not allowed here; allowed: " + ", ".join(allowed),
                         headers={"Allow": ", ".join(allowed)})


class BookingConflict(ApiError):
    status, code, message = 409, "BOOKING_CONFLICT", "The dates overlap a confirmed booking of this property."


class ChannelOwnsDates(ApiError):
    status, code = 409, "CHANNEL_OWNS_DATES"
    message = "The dates of this booking come from a channel's calendar feed; change them there."


class ReportNotReady(ApiError):
    status, code, message = 409, "REPORT_NOT_READY", "The report has no files yet."


class CheckinAlreadyCompleted(ApiError):
    status, code, message = 409, "CHECKIN_ALREADY_COMPLETED", "The guest has already completed check-in."


class PoliceNotReady(ApiError):
    status, code, message = 409, "POLICE_NOT_READY", "The police filing is not in a state that allows this."


class BookingCancelled(ApiError):
    status, code, message = 409, "BOOKING_CANCELLED", "The booking is cancelled."


class IdempotencyConflict(ApiError):
    status, code, message = 409, "IDEMPOTENCY_CONFLICT", "This Idempotency-Key was used with a different request body."


class LinkExpired(ApiError):
    status, code, message = 410, "LINK_EXPIRED", "The link has expired."


class PayloadTooLarge(ApiError):
    status, code, message = 413, "PAYLOAD_TOO_LARGE", "The request body is larger than 1 MiB."


class UnsupportedMediaType(ApiError):
    status, code, message = 415, "UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json."


class GuestContactMissing(ApiError):
    status, code, message = 422, "GUEST_CONTACT_MISSING", "The booking has no guest e-mail address."


class GuestEmailRejected(ApiError):
    status, code = 422, "GUEST_EMAIL_REJECTED"
    message = "The mail server refused the guest's e-mail address."


class RateLimited(ApiError):
    status, code, message = 429, "RATE_LIMITED", "Too many requests."

    def __init__(self, retry_after: int, message: str | None = None):
        super().__init__(message, headers={"Retry-After": str(max(1, int(retry_after)))})
        self.retry_after = retry_after


class InternalError(ApiError):
    pass


class MailNotSent(ApiError):
    status, code = 502, "MAIL_NOT_SENT"
    message = "The mail server could not be reached or did not accept the e-mail."


class ServiceUnavailable(ApiError):
    status, code, message = 503, "SERVICE_UNAVAILABLE", "The service is busy; try again shortly."

    def __init__(self, message: str | None = None, retry_after: int = 5):
        super().__init__(message, headers={"Retry-After": str(retry_after)})


class ExportUnreadable(ApiError):
    """A channel's reservations export that cannot be read (rentalcomply/imports): the message
    names the row and column; nothing of it was imported."""
    status, code, message = 422, "EXPORT_UNREADABLE", "The file cannot be read as an export."


class ExportTooLarge(ApiError):
    """A channel's export beyond one of the import limits (rows, columns, cells, unpacked size):
    `details` names the setting, `[imports] max_rows` and the like."""
    status, code, message = 422, "EXPORT_TOO_LARGE", "The file is larger than an export may be."


class ImportPlanChanged(ApiError):
    status, code = 409, "IMPORT_PLAN_CHANGED"
    message = ("The bookings changed since the preview, so the import would no longer do what it "
               "showed: preview it again.")


class TaxNotCollectable(ApiError):
    status, code = 409, "TAX_NOT_COLLECTABLE"
    message = "This stay's tourist tax is already collected, or it owes nothing to collect."


class TaxRulesInUse(ApiError):
    status, code = 409, "TAX_RULES_IN_USE"
    message = "A property names this tax rule set; take it off the property first."


ALL_ERRORS = [cls for cls in list(globals().values())
              if isinstance(cls, type) and issubclass(cls, ApiError) and cls is not ApiError]
