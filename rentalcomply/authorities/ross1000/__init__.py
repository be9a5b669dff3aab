"""ROSS 1000 (GIES "Turismo5"), the regional system most Italian regions use for ISTAT's monthly
tourism statistics (survey IST-00139, model C/59): docs/ross1000.md.

So far this folder holds only the month's file, as pure code with no database and no HTTP:
`connector.py` registers it with the filing engine as a monthly period authority (purpose
statistics: filings/periods.py, filings/obligations.py). `movement.py` turns a structure's month of stays into each day's arrivals, departures and
occupancy; `xmlfile.py` writes it as the `xmlImportDati` XML the regions' portals take and their
web service (`inviaMovimentazione`) receives, checked against `xsd/checkin.xsd`.
"""

from rentalcomply.authorities.ross1000.connector import AUTHORITY
from rentalcomply.filings import registry

registry.register(AUTHORITY)
