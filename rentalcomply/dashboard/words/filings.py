"""The Filings page (dashboard/pages/filings.py): every filing of the account, booking and
period alike, its filters and its actions."""

ENGLISH: dict[str, str] = {
    "done:filing_refiled": "The filing is queued again: it is sent shortly.",
    "done:filing_filed": "The filing is recorded as filed.",
    "period": "Period",
    "status": "Status",
    "reference": "Reference",
}

GREEK: dict[str, str] = {
    "Filings": "Δηλώσεις",
    # filings/listing.py's titles of the connectors that are not an authority
    "A file uploaded by hand": "Αρχείο που ανεβαίνει με το χέρι",
    "Nothing filed": "Δεν υποβάλλεται τίποτα",
    "Everything owed to an authority: the guests’ registrations of each stay and the returns of "
    "a period, the latest deadline first.":
        "Ό,τι οφείλεται σε μια αρχή: οι δηλώσεις των επισκεπτών κάθε διαμονής και οι δηλώσεις "
        "μιας περιόδου, με την πιο πρόσφατη προθεσμία πρώτη.",
    "A month (2026-03), a quarter (2026-Q1) or a year (2026).":
        "Ένας μήνας (2026-03), ένα τρίμηνο (2026-Q1) ή ένα έτος (2026).",
    "No filings match.": "Καμία δήλωση δεν ταιριάζει.",
    "Filing": "Δήλωση",
    "Deadline": "Προθεσμία",
    "Refile": "Νέα υποβολή",
    "The file": "Το αρχείο",
    "The receipt": "Η απόδειξη",
    "Quarter {quarter} of {year}": "{quarter}ο τρίμηνο {year}",
    "Waiting for the period to end": "Αναμένει το τέλος της περιόδου",
    "Guests’ movement of the month (statistics)": "Κίνηση επισκεπτών του μήνα (στατιστικά)",
    "Return of the quarter": "Δήλωση του τριμήνου",
    "Return of the year": "Δήλωση του έτους",
    "Waiting": "Σε αναμονή",
    "Queued": "Σε σειρά αποστολής",
    "Being sent": "Αποστέλλεται",
    "must be a month (2026-03), a quarter (2026-Q1) or a year (2026)":
        "πρέπει να είναι μήνας (2026-03), τρίμηνο (2026-Q1) ή έτος (2026)",
    "choose one of the list": "επιλέξτε ένα από τη λίστα",
    "done:filing_refiled": "Η δήλωση μπήκε ξανά σε σειρά αποστολής: θα σταλεί σε λίγο.",
    "done:filing_filed": "Η δήλωση καταγράφηκε ως υποβληθείσα.",
    "period": "Περίοδος",
    "status": "Κατάσταση",
    "reference": "Αριθμός αναφοράς",
}
