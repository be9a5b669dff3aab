"""core/signed_links: a link stands for exactly its fields, until its expiry."""

import datetime as dt

import pytest

from rentalcomply.core import clock, secrets, signed_links
from rentalcomply.core.errors import InvalidSignature, LinkExpired

FIELDS = {"account": "acc_1", "report": "rep_2026_03", "format": "pdf"}


@pytest.fixture(autouse=True)
def secret():
    before = secrets._server_secret
    secrets.set_server_secret(b"test secret")
    yield
    secrets._server_secret = before
    clock.reset()


def test_a_fresh_link_checks_and_each_one_is_new(frozen_clock):
    first, expires_at = signed_links.mint("report-file", FIELDS, 3600)
    second, _ = signed_links.mint("report-file", FIELDS, 3600)
    signed_links.check("report-file", FIELDS, first)
    assert first["nonce"] != second["nonce"] and first["signature"] != second["signature"]
    assert expires_at == clock.utcnow() + dt.timedelta(hours=1)


def test_a_link_for_other_fields_or_another_purpose_is_invalid():
    query, _ = signed_links.mint("report-file", FIELDS, 3600)
    with pytest.raises(InvalidSignature):
        signed_links.check("report-file", {**FIELDS, "format": "xml"}, query)
    with pytest.raises(InvalidSignature):
        signed_links.check("police-file", FIELDS, query)


def test_values_cannot_run_into_one_another():
    query, _ = signed_links.mint("p", {"a": "x|b=y", "b": ""}, 60)
    with pytest.raises(InvalidSignature):
        signed_links.check("p", {"a": "x", "b": "y"}, query)


def test_a_late_link_is_expired_and_a_broken_one_invalid():
    query, _ = signed_links.mint("report-file", FIELDS, 60)
    clock.travel(dt.timedelta(seconds=60))
    with pytest.raises(LinkExpired):
        signed_links.check("report-file", FIELDS, query)
    for broken in ({}, {**query, "expires": "soon"}, {**query, "signature": ""},
                   {**query, "signature": "é" * 64}):
        with pytest.raises(InvalidSignature):
            signed_links.check("report-file", FIELDS, broken)


def test_a_link_minted_for_a_key_dies_with_the_key(settings, account_a):
    from rentalcomply.accounts import service as accounts
    record, _ = accounts.create_key(account_a, ["read"], name="leaky")
    with signed_links.minted_by(record.id):
        query, _ = signed_links.mint("report-file", FIELDS, 3600)
    assert query["nonce"].startswith(record.id + ".")
    signed_links.check("report-file", FIELDS, query)
    accounts.revoke_key(record.id)
    with pytest.raises(LinkExpired, match="revoked"):
        signed_links.check("report-file", FIELDS, query)
