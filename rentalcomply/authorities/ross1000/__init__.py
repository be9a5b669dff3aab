"""ROSS 1000 (GIES "Turismo5"), the regional system most Italian regions use for ISTAT's monthly
tourism statistics (survey IST-00139, model C/59): docs/ross1000.md.

So far this folder holds only the month's file, as pure code with no database and no HTTP:
`movement.py` turns a structure's month of stays into each day's arrivals, departures and
occupancy; `xmlfile.py` writes it as the `xmlImportDati` XML the regions' portals take and their
web service (`inviaMovimentazione`) receives, checked against `xsd/checkin.xsd`. It is not
registered with the filing engine yet (rentalcomply/authorities/__init__.py): the monthly period
filings it will be sent through do not exist yet.
"""
