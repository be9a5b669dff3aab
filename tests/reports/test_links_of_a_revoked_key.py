"""A download link lives only as long as the API key that asked for it: revoking the key (a leaked
one, say) ends the links it handed out, with 410 LINK_EXPIRED; other keys' links live on."""

import urllib.parse

import pytest

from rentalcomply.accounts import service as accounts
from tests.helpers import assert_error


@pytest.fixture
def march(owner, month):
    owner.post_json("/api/v1/reports", {"period": "2026-03"}, status=202)
    return month


def link_of(actor, fmt="pdf"):
    url = actor.get(f"/api/v1/reports/rep_2026_03/download?format={fmt}").json["data"]["download_url"]
    parts = urllib.parse.urlsplit(url)
    return parts.path + "?" + parts.query


def test_revoking_a_key_ends_the_links_it_minted_and_only_those(owner, reader, anonymous, march):
    by_reader, by_owner = link_of(reader), link_of(owner)
    assert anonymous.get(by_reader).body.startswith(b"%PDF")
    accounts.revoke_key(reader.key_id)
    refused = anonymous.get(by_reader, status=410)
    assert_error(refused, 410, "LINK_EXPIRED")
    assert "revoked" in refused.json["error"]["message"]
    assert anonymous.get(by_owner).body.startswith(b"%PDF")


def test_the_key_is_part_of_what_is_signed(reader, owner, anonymous, march):
    path = link_of(reader)
    swapped = path.replace(reader.key_id, owner.key_id)
    assert swapped != path
    assert_error(anonymous.get(swapped, status=403), 403, "INVALID_SIGNATURE")


def test_a_link_minted_without_a_key_lives_its_hour(owner, anonymous, march, settings):
    from rentalcomply.reports import files
    url = files.download_link(settings, owner.account_id, "rep_2026_03", "pdf")["download_url"]
    parts = urllib.parse.urlsplit(url)
    accounts.revoke_key(owner.key_id)
    assert anonymous.get(parts.path + "?" + parts.query).body.startswith(b"%PDF")
