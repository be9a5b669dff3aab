"""Identifiers are their prefix and twenty base62 characters drawn evenly from the system's
random source."""

from __future__ import annotations

import collections

from rentalcomply.core.ids import BASE62, new_id, random_base62


def test_an_id_is_its_prefix_and_twenty_base62_characters():
    ident = new_id("book")
    assert ident.startswith("book_") and len(ident) == 25
    assert set(ident[5:]) <= set(BASE62)


def test_random_base62_gives_any_length_asked_for():
    assert [len(random_base62(n)) for n in (0, 1, 16, 20, 64, 300)] == [0, 1, 16, 20, 64, 300]


def test_every_digit_is_drawn_about_equally_often_and_no_two_ids_are_alike():
    ids = [random_base62(20) for _ in range(10_000)]
    assert len(set(ids)) == len(ids)
    counts = collections.Counter("".join(ids))
    assert set(counts) == set(BASE62)
    expected = 200_000 / 62  # 3,226 each; six standard deviations is about 340
    assert all(abs(count - expected) < 400 for count in counts.values()), counts
