"""Statuses, errors and hold reasons in words, names instead of ids, what Activity says."""

ENGLISH: dict[str, str] = {}

GREEK: dict[str, str] = {}
