"""Italy's CIN (codice identificativo nazionale): the property form's field, the property page's
warning, Today's and the morning e-mail's "Italian properties without their CIN", and the
service's refusals. "CIN" itself stays as it is in Greek too: it is the code's Italian name, as
the listing portals print it. The service's refusals are written out as it words them
(properties.service.CIN_ONLY_ITALY, CIN_MAX): tests/dashboard/test_cin_pages.py checks they
match."""

ENGLISH: dict[str, str] = {}

GREEK: dict[str, str] = {
    # the property form (_property_fields.tpl) and page (property.tpl)
    "CIN (national identification code)": "CIN (εθνικός κωδικός ταυτοποίησης)",
    "The code the Ministry of Tourism gave the property (BDSR). The guest page, the exported calendar and the check-in e-mails show it. Clear it before moving the property to another country.":
        "Ο κωδικός που έδωσε στο κατάλυμα το ιταλικό Υπουργείο Τουρισμού (BDSR). Τον εμφανίζουν "
        "η σελίδα check-in, το ημερολόγιο του καταλύματος για τα κανάλια και τα e-mail του "
        "check-in. Διαγράψτε τον πριν μεταφέρετε το κατάλυμα σε άλλη χώρα.",
    "This Italian property has no CIN: letting without one is fined, and guests must see it.":
        "Αυτό το ιταλικό κατάλυμα δεν έχει CIN: η μίσθωση χωρίς αυτόν επισύρει πρόστιμο, και οι "
        "επισκέπτες πρέπει να τον βλέπουν.",
    "Enter the CIN": "Καταχωρίστε τον CIN",
    # Today (today.tpl) and the morning e-mail (morning.py)
    "Italian properties without their CIN": "Ιταλικά καταλύματα χωρίς CIN",
    "Enter its CIN (Ministry of Tourism, BDSR) on the property’s page: the guest page, the exported calendar and the check-in e-mails show it, and letting without one is fined.":
        "Καταχωρίστε τον CIN του (Υπουργείο Τουρισμού, BDSR) στη σελίδα του καταλύματος: τον "
        "εμφανίζουν η σελίδα check-in, το ημερολόγιο του καταλύματος για τα κανάλια και τα "
        "e-mail του check-in, και η μίσθωση χωρίς αυτόν επισύρει πρόστιμο.",
    # properties/service.py's refusals, shown beside the field
    "is for Italian properties only (country IT); clear it (null) to move the property to "
    "another country":
        "ισχύει μόνο για ιταλικά καταλύματα (χώρα IT)· διαγράψτε τον για να μεταφέρετε το "
        "κατάλυμα σε άλλη χώρα",
    "must be text of 1 to 40 characters, or null":
        "πρέπει να είναι κείμενο από 1 έως 40 χαρακτήρες, ή κενό",
}
