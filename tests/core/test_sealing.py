"""Sealed values: readable back by this server, by nobody holding only the database."""

import pytest

from rentalcomply.core import sealing, secrets


def test_a_sealed_value_opens_again_and_does_not_show_its_plaintext(settings):
    sealed = sealing.seal("webhook secret", b"whsec_abc")
    assert b"whsec_abc" not in sealed.encode() and "whsec_abc" not in sealed
    assert sealing.unseal("webhook secret", sealed) == b"whsec_abc"


def test_sealing_twice_gives_different_text(settings):
    assert sealing.seal("p", b"same") != sealing.seal("p", b"same")


def test_a_value_sealed_for_one_purpose_does_not_open_as_another(settings):
    with pytest.raises(sealing.Unsealable):
        sealing.unseal("guest document", sealing.seal("webhook secret", b"x"))


def test_an_altered_value_is_refused(settings):
    sealed = sealing.seal("p", b"payload")
    flipped = sealed[:-3] + ("A" if sealed[-3] != "A" else "B") + sealed[-2:]
    with pytest.raises(sealing.Unsealable):
        sealing.unseal("p", flipped)
    with pytest.raises(sealing.Unsealable):
        sealing.unseal("p", "v1:not base64 at all!")


def test_another_server_secret_cannot_open_it(settings):
    sealed = sealing.seal("p", b"payload")
    secrets.set_server_secret(b"another secret")
    with pytest.raises(sealing.Unsealable):
        sealing.unseal("p", sealed)
