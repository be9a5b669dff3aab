"""Setting a property up: its country's fields, police credentials and codes, the connection test, held filings."""

ENGLISH: dict[str, str] = {}

GREEK: dict[str, str] = {}
