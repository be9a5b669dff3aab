"""The authorities' daily receipts on a booking's page (filings/receipts.py): Alloggiati Web's
`Ricevuta` of each day the booking's guests were filed."""

ENGLISH: dict[str, str] = {}

GREEK: dict[str, str] = {
    "Police receipts": "Αποδείξεις αστυνομίας",
    "Receipt of {date}": "Απόδειξη της {date}",
    "Receipt of {date}: asked for once the day has ended, not given yet":
        "Απόδειξη της {date}: ζητείται μόλις τελειώσει η ημέρα, δεν έχει δοθεί ακόμη",
    "Receipt of {date}: the authority gave none, download it from its site":
        "Απόδειξη της {date}: η αρχή δεν την έδωσε, κατεβάστε τη από τον ιστότοπό της",
    "The authority’s receipt of each day the guests were filed, kept for the years its rules ask.":
        "Η απόδειξη της αρχής για κάθε ημέρα που δηλώθηκαν οι επισκέπτες, που φυλάσσεται για "
        "τα χρόνια που ορίζουν οι κανόνες της.",
}
