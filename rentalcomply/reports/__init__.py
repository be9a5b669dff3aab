"""Tax reports for AADE: their lifecycle, in the domain functions, which know nothing of Bottle.

A report is one row per account and period (`rep_YYYY_MM`, `rep_YYYY`) and three files (PDF, XML,
CSV) whose content and format are AADE's (rentalcomply.authorities.aade). `periods` parses a
period and knows today in Athens; `queries` reads reports; `views` shapes them; `files` serves
their files and signed links; `generation` makes the files under a lease (filings/leases.py),
takes over a stopped generation and picks what the schedule generates; `submission` records the
filing and announces the deadlines.
"""
