"""The dashboard's words, area by area, beside the catalogue in `dashboard/i18n.py`.

Each module holds `ENGLISH` (the English of keys that are codes, such as `done:…` or `hold:…`) and
`GREEK` (keyed by the English text, or by the code); `i18n` merges them into its catalogue. An area
keeps its words in its own module so that the catalogue stays readable and each area can grow
without touching the others.
"""
