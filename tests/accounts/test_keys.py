"""API keys: their shape, how they are stored, and their life (expiry, revocation, rotation)."""

import re

import pytest

from rentalcomply.accounts import service as accounts
from rentalcomply.core.models import Account, ApiKey


def test_a_key_is_rc_and_forty_base62_characters(settings):
    key = accounts.generate_key()
    assert re.fullmatch(r"rc_[0-9A-Za-z]{40}", key)
    assert accounts.key_is_well_formed(key)


def test_a_key_with_one_character_changed_fails_its_checksum(settings):
    key = accounts.generate_key()
    for position in range(3, len(key)):
        replacement = "a" if key[position] != "a" else "b"
        assert not accounts.key_is_well_formed(key[:position] + replacement + key[position + 1:])


def test_only_a_hash_of_the_key_is_stored(settings, account_a):
    record, key = accounts.create_key(account_a, ["read"])
    stored = ApiKey.get_by_id(record.id)
    assert key not in (stored.key_hash, stored.key_hint, stored.name)
    assert stored.key_hash == accounts.hash_key(key) and len(stored.key_hash) == 64
    assert accounts.find_key(key).id == record.id


def test_a_key_needs_known_scopes(settings, account_a):
    with pytest.raises(accounts.KeyError_):
        accounts.create_key(account_a, ["admin"])
    with pytest.raises(accounts.KeyError_):
        accounts.create_key(account_a, [])


def test_a_key_belongs_to_an_existing_account(settings):
    with pytest.raises(accounts.KeyError_):
        accounts.create_key("acc_missing", ["read"])


def test_rotation_without_grace_revokes_the_old_key_at_once(settings, account_a):
    old_record, old_key = accounts.create_key(account_a, ["read", "write"], name="PMS")
    new_record, new_key = accounts.rotate_key(old_record.id, grace_hours=0)
    assert accounts.find_key(old_key) is None
    assert accounts.find_key(new_key).id == new_record.id
    assert new_record.name == "PMS" and new_record.scope_set == {"read", "write"}


def test_a_revoked_key_cannot_be_rotated(settings, account_a):
    record, _ = accounts.create_key(account_a, ["read"])
    accounts.revoke_key(record.id)
    with pytest.raises(accounts.KeyError_):
        accounts.rotate_key(record.id)


def test_the_first_start_creates_one_default_account_with_an_all_scope_key(settings):
    account, key = accounts.ensure_first_account()
    assert account.name == "default"
    assert accounts.find_key(key).scope_set == {"read", "write", "webhooks"}
    assert accounts.ensure_first_account() is None
    assert Account.select().count() == 1


def test_the_key_view_never_shows_the_key(settings, account_a):
    record, key = accounts.create_key(account_a, ["read"])
    view = accounts.key_view(record)
    assert key not in str(view)
    assert view["status"] == "active" and view["scopes"] == ["read"]


def test_an_account_name_is_taken_once_whatever_its_letter_case(settings):
    from rentalcomply.accounts import service as accounts_service
    first = accounts_service.create_account("Sunny Stays")
    with pytest.raises(ValueError, match="an account named 'Sunny Stays' exists already"):
        accounts_service.create_account("SUNNY STAYS")
    assert [a.id for a in accounts_service.list_accounts() if a.name == "Sunny Stays"] == [first.id]
