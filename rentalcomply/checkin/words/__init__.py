"""The guest's words, a module per part of the page and e-mails (i18n.py reads them)."""
