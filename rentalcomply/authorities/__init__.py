"""The authorities the product files with, one folder each. Importing this package registers
them with the filing engine (filings/registry.py); every process does at start-up (runtime.py).

To add an authority: its folder (an `Authority` subclass in `__init__.py`, its connector, its
format) and one line below. docs/architecture.md walks through an example. Greece's AADE
(`aade/`) is owed the monthly and yearly reports, whose lifecycle is the reports capability's:
it holds their format and is not registered here.
"""

from rentalcomply.authorities import alloggiati, ross1000, ses, siba  # noqa: F401  (each registers itself)
# Spain's regional authorities, after SES.Hospedajes (the country's own: registry.for_country).
from rentalcomply.authorities import ertzaintza, mossos  # noqa: F401,E402
# Tourist tax returns (their rule sets are the taxes capability's data).
from rentalcomply.authorities import tourist_tax  # noqa: F401,E402
