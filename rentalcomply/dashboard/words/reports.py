"""The Reports page by country (pages/reports.py): AADE's reports where there are Greek
properties, the police filings of a month for Italian, Spanish and Portuguese ones."""

ENGLISH: dict[str, str] = {}

GREEK: dict[str, str] = {
    "What each country’s authorities are owed for your properties.":
        "Τι οφείλεται στις αρχές κάθε χώρας για τα καταλύματά σας.",
    "No property yet: the reports and filings of its country appear here once you add one.":
        "Δεν υπάρχει ακόμη κατάλυμα: οι αναφορές και οι δηλώσεις της χώρας του εμφανίζονται εδώ "
        "μόλις προσθέσετε ένα.",
    "Greece: tax reports for AADE": "Ελλάδα: φορολογικές αναφορές για την ΑΑΔΕ",
    "AADE reports": "Αναφορές ΑΑΔΕ",
    "Police filings: Italy, Spain, Portugal": "Δηλώσεις στην αστυνομία: Ιταλία, Ισπανία, Πορτογαλία",
    "The guests’ registrations (and Spain’s reservations) of the stays of the month, per "
    "property. Each stay’s filing is on its booking.":
        "Οι δηλώσεις των επισκεπτών (και οι κρατήσεις στην Ισπανία) των διαμονών του μήνα, ανά "
        "κατάλυμα. Η δήλωση κάθε διαμονής φαίνεται στην κράτησή της.",
    "Month (YYYY-MM)": "Μήνας (ΕΕΕΕ-ΜΜ)",
    "Authority": "Αρχή",
    "Refused": "Απορρίφθηκαν",
    "Not filed yet": "Εκκρεμούν",
    "Police filing is off": "Η δήλωση στην αστυνομία είναι ανενεργή",
    "The month’s stays and their filings": "Οι διαμονές του μήνα και οι δηλώσεις τους",
    "Nothing is reported or filed here for properties in these countries: {countries}.":
        "Για καταλύματα σε αυτές τις χώρες δεν υποβάλλεται εδώ καμία αναφορά ή δήλωση: "
        "{countries}.",
}
