"""Tourist tax returns: each rule set's periodic return and Italy's annual declaration, as period
filings whose files (a CSV, an XLSX, a PDF) hand the host the figures to type in: no authority
here publishes an upload format or an API (connector.py, docs in README "Tourist tax returns")."""

from rentalcomply.authorities.tourist_tax.connector import AUTHORITIES
from rentalcomply.filings import registry

for _authority in AUTHORITIES:
    registry.register(_authority)
