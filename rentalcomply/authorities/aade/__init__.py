"""AADE, Greece's tax authority: what a Greek host owes it (docs/reports.md).

- Every month: the declarations of the short-term stays that ended in the month (due by the 20th
  of the month after) and the climate resilience fee of the month's nights (due by the end of the
  month after).
- Every year: the rental income per property, for form E2.

AADE has no public filing interface: this folder makes the report's files the host types in or
hands to an accountant (`building.py` reads what a report holds; `pdffile.py`, `xmlfile.py` with
`aade-report.xsd`, `csvfile.py` write it). The reports' lifecycle (rentalcomply.reports) uses it;
it uses nothing of the reports.
"""
