"""Search, the phone layout, signing in and staying signed in, the account's own day."""

ENGLISH: dict[str, str] = {}

GREEK: dict[str, str] = {}
