"""rentalcomply.webhooks.verify and the signatures it checks, without a server."""

import json
import subprocess
import sys

import pytest

from rentalcomply.webhooks import InvalidSignature, signing, verify

SECRET = signing.generate_secret()
NOW = 1_800_000_000


def delivery(secrets_=(SECRET,), timestamp=NOW, body_timestamp=None, event_id="evt_1"):
    body = json.dumps({"id": event_id, "type": "booking.created", "created_at": "2027-01-15T08:00:00Z",
                       "timestamp": timestamp if body_timestamp is None else body_timestamp,
                       "account_id": "acc_1", "data": {"id": "book_1"}},
                      separators=(",", ":")).encode()
    return body, signing.signature_headers(body, event_id, timestamp, list(secrets_))


def test_standard_webhooks_signatures_match_the_published_test_vector():
    assert signing.standard_signature(
        "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, b'{"test": 2432232314}',
        "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


def test_a_secret_is_whsec_and_base64_of_32_random_bytes():
    import base64
    secret = signing.generate_secret()
    assert secret.startswith("whsec_") and len(base64.b64decode(secret[6:], validate=True)) == 32
    assert secret != signing.generate_secret()


def test_a_good_delivery_returns_the_event():
    body, headers = delivery()
    assert verify(body, headers, SECRET, now=NOW)["data"] == {"id": "book_1"}
    assert verify(body.decode(), headers, SECRET, now=NOW + 300)["id"] == "evt_1"


def test_header_names_are_matched_in_any_case_and_from_pairs():
    body, headers = delivery()
    assert verify(body, {k.lower(): v for k, v in headers.items()}, SECRET, now=NOW)
    assert verify(body, {k.upper(): v for k, v in headers.items()}, SECRET, now=NOW)
    assert verify(body, list(headers.items()), SECRET, now=NOW)


@pytest.mark.parametrize("now", [NOW - 301, NOW + 301])
def test_a_timestamp_beyond_the_tolerance_either_way_is_refused(now):
    body, headers = delivery()
    with pytest.raises(InvalidSignature):
        verify(body, headers, SECRET, now=now)
    assert verify(body, headers, SECRET, tolerance=600, now=now)


def test_a_body_timestamp_that_differs_from_the_header_is_refused():
    body, headers = delivery(body_timestamp=NOW - 3600)
    with pytest.raises(InvalidSignature, match="differs"):
        verify(body, headers, SECRET, now=NOW)


def test_missing_or_malformed_headers_are_refused():
    body, headers = delivery()
    for missing in ("X-RentalComply-Timestamp",):
        with pytest.raises(InvalidSignature):
            verify(body, {k: v for k, v in headers.items() if k != missing}, SECRET, now=NOW)
    with pytest.raises(InvalidSignature):
        verify(body, dict(headers, **{"X-RentalComply-Timestamp": "soon"}), SECRET, now=NOW)
    with pytest.raises(InvalidSignature):
        verify(body, {}, SECRET, now=NOW)
    with pytest.raises(InvalidSignature):
        verify(body, dict(headers, **{"X-RentalComply-Signature": "sha256=00"}), SECRET, now=NOW)


def test_invalid_signature_is_a_value_error():
    assert issubclass(InvalidSignature, ValueError)


def test_during_a_rotation_either_secret_verifies():
    new = signing.generate_secret()
    body, headers = delivery(secrets_=(new, SECRET))
    assert headers["X-RentalComply-Signature"].count(",") == 1
    assert headers["webhook-signature"].count(" ") == 1
    assert verify(body, headers, new, now=NOW) == verify(body, headers, SECRET, now=NOW)
    with pytest.raises(InvalidSignature):
        verify(body, headers, signing.generate_secret(), now=NOW)


def test_the_standard_webhooks_headers_alone_are_enough():
    body, headers = delivery()
    standard = {k: v for k, v in headers.items() if k.startswith("webhook-")}
    assert verify(body, standard, SECRET, now=NOW)["id"] == "evt_1"
    with pytest.raises(InvalidSignature):
        verify(body, dict(standard, **{"webhook-id": "evt_2"}), SECRET, now=NOW)
    with pytest.raises(InvalidSignature):
        verify(body + b" ", standard, SECRET, now=NOW)


def test_a_non_json_body_with_a_valid_signature_is_still_refused():
    body = b"not json"
    headers = signing.signature_headers(body, "evt_1", NOW, [SECRET])
    with pytest.raises(InvalidSignature, match="JSON"):
        verify(body, headers, SECRET, now=NOW)


def test_importing_verify_loads_nothing_of_the_server():
    code = ("import sys, rentalcomply.webhooks as w; "
            "print(sorted(m for m in ('peewee', 'bottle', 'huey', 'waitress') if m in sys.modules))")
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert output.stdout.strip() == "[]"
