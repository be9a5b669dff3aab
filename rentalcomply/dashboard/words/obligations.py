"""A property's obligations beside the police (ISTAT's monthly statistics through ROSS 1000):
the property page's set-up sections (_property_obligations.tpl), Today's and the morning e-mail's
"Monthly statistics to see to" and "Properties whose guests are not being filed"."""

ENGLISH: dict[str, str] = {
    "done:obligation_saved": "The set-up is saved.",
}

GREEK: dict[str, str] = {
    "done:obligation_saved": "Οι ρυθμίσεις αποθηκεύτηκαν.",
    "ISTAT tourism statistics (ROSS 1000)": "Στατιστικά τουρισμού ISTAT (ROSS 1000)",
    "Nothing can be filed until these are set:": "Τίποτα δεν μπορεί να υποβληθεί μέχρι να οριστούν:",
    "Each month is kept ready, held, and goes out as soon as the set-up is complete.":
        "Κάθε μήνας μένει σε αναμονή και αποστέλλεται μόλις ολοκληρωθούν οι ρυθμίσεις.",
    "Each month is filed after it ends. Without the transmission user and password, the month’s file is made for you to upload or type in, then mark filed.":
        "Κάθε μήνας υποβάλλεται όταν τελειώσει. Χωρίς τον χρήστη και τον κωδικό διαβίβασης, το "
        "αρχείο του μήνα ετοιμάζεται για να το ανεβάσετε ή να πληκτρολογήσετε τα στοιχεία, και "
        "μετά να το σημειώσετε ως υποβληθέν.",
    "Save this set-up": "Αποθήκευση ρυθμίσεων",
    "Structure code": "Κωδικός δομής",
    "Deadline day of the next month": "Ημέρα προθεσμίας του επόμενου μήνα",
    "Transmission user": "Χρήστης διαβίβασης",
    "Transmission password": "Κωδικός διαβίβασης",
    "The code the region's tourism office gave the property (codice struttura).":
        "Ο κωδικός που έδωσε στο κατάλυμα το γραφείο τουρισμού της περιφέρειας (codice struttura).",
    "The day of the next month the region wants the month by (5 if empty).":
        "Η ημέρα του επόμενου μήνα έως την οποία η περιφέρεια θέλει τον μήνα (5 αν μείνει κενό).",
    "The web-service user the tourism office issues; without it the month's file is made for you to upload.":
        "Ο χρήστης της υπηρεσίας που εκδίδει το γραφείο τουρισμού· χωρίς αυτόν, το αρχείο του "
        "μήνα ετοιμάζεται για να το ανεβάσετε.",
    "must be a day from 1 to 28": "πρέπει να είναι ημέρα από 1 έως 28",
    "the property's region is not known, so the regional statistics it owes cannot be told: set the region":
        "η περιφέρεια του καταλύματος δεν είναι γνωστή, άρα δεν μπορεί να βρεθεί ποια στατιστικά "
        "οφείλει: ορίστε την περιφέρεια",
    "no police registration chosen: its guests are not being filed":
        "δεν επιλέχθηκε δήλωση στην αστυνομία: οι επισκέπτες του δεν δηλώνονται",
    "Properties whose guests are not being filed": "Καταλύματα των οποίων οι επισκέπτες δεν δηλώνονται",
    "No police registration chosen": "Δεν επιλέχθηκε δήλωση στην αστυνομία",
    "Its guests are not being filed with the police: choose its police connector.":
        "Οι επισκέπτες του δεν δηλώνονται στην αστυνομία: επιλέξτε τον τρόπο δήλωσης.",
    "Monthly statistics to see to": "Μηνιαία στατιστικά που θέλουν προσοχή",
    "Held, nothing sent: {reason}": "Σε αναμονή, τίποτα δεν στάλθηκε: {reason}",
    "Its file is ready: upload it, or type the figures in, then mark it filed.":
        "Το αρχείο του είναι έτοιμο: ανεβάστε το ή πληκτρολογήστε τα στοιχεία, και μετά "
        "σημειώστε το ως υποβληθέν.",
    "Refused: {reason}": "Απορρίφθηκε: {reason}",
    "Not sent: {reason}": "Δεν στάλθηκε: {reason}",
    "Not filed yet.": "Δεν έχει υποβληθεί ακόμη.",
}
