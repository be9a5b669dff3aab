"""The imports' listings: the per-listing questions of the Import reservations page, the
property page's listing names, and the fields an import now fills."""

ENGLISH: dict[str, str] = {}

GREEK: dict[str, str] = {
    # imports/planning.py
    "the listing '{listing}' is not known yet: say which property it is":
        "η καταχώριση «{listing}» δεν είναι ακόμη γνωστή: πείτε σε ποιο κατάλυμα αντιστοιχεί",
    "phone": "τηλέφωνο", "language": "γλώσσα", "booking date": "ημερομηνία κράτησης",
    # the import page (imports.tpl, pages/imports.py)
    "Language": "Γλώσσα", "Booked on": "Ημερομηνία κράτησης",
    "Which property is each listing?": "Σε ποιο κατάλυμα αντιστοιχεί κάθε καταχώριση;",
    "The file names listings that none of your properties is called. Choose the property of each one: the answer is remembered, so the next file goes to the right place without asking (you can change it on the property’s page).":
        "Το αρχείο αναφέρει καταχωρίσεις που δεν έχουν το όνομα κανενός καταλύματός σας. "
        "Επιλέξτε το κατάλυμα της καθεμιάς: η απάντηση απομνημονεύεται, ώστε το επόμενο αρχείο "
        "να πάει στη σωστή θέση χωρίς ερώτηση (μπορείτε να την αλλάξετε στη σελίδα του "
        "καταλύματος).",
    "Rows without a listing name": "Γραμμές χωρίς όνομα καταχώρισης",
    "Rows {rows}": "Γραμμές {rows}",
    "Choose the property…": "Επιλέξτε το κατάλυμα…",
    "Preview with these properties": "Προεπισκόπηση με αυτά τα καταλύματα",
    "not chosen yet": "δεν έχει επιλεγεί ακόμη",
    "Choose the property of each listing above first: nothing of the file is applied before.":
        "Επιλέξτε πρώτα το κατάλυμα κάθε καταχώρισης παραπάνω: τίποτα από το αρχείο δεν "
        "εφαρμόζεται πριν από αυτό.",
    "Each row goes to the property its listing is. A listing none of your properties is called is asked once, and remembered.":
        "Κάθε γραμμή πηγαίνει στο κατάλυμα της καταχώρισής της. Για μια καταχώριση που δεν "
        "έχει το όνομα κανενός καταλύματός σας ερωτάστε μία φορά, και η απάντηση "
        "απομνημονεύεται.",
    "Choose the property of each listing.": "Επιλέξτε το κατάλυμα κάθε καταχώρισης.",
    "Listings to match with a property: {count}.":
        "Καταχωρίσεις προς αντιστοίχιση με κατάλυμα: {count}.",
    "Choose the property of each one below.": "Επιλέξτε παρακάτω το κατάλυμα της καθεμιάς.",
    "Preview: {created} new, {updated} filled in, {unchanged} unchanged, {conflict} conflicts, {waiting} waiting for their listing’s property. Nothing has changed yet.":
        "Προεπισκόπηση: {created} νέες, {updated} προς συμπλήρωση, {unchanged} χωρίς αλλαγή, "
        "{conflict} συγκρούσεις, {waiting} περιμένουν το κατάλυμα της καταχώρισής τους. Δεν "
        "έχει αλλάξει τίποτα ακόμη.",
    "waiting": "σε αναμονή",
    "for this file only: a unit type names no single property":
        "μόνο για αυτό το αρχείο: ένας τύπος μονάδας δεν δηλώνει ένα μόνο κατάλυμα",
    "choose its property above": "επιλέξτε το κατάλυμά της παραπάνω",
    # the property page (_property_listing_aliases.tpl)
    "Names in the channels’ reservation files": "Ονόματα στα αρχεία κρατήσεων των πλατφορμών",
    "An imported reservations file names each row’s listing: Airbnb by the listing’s title, Booking.com by the property’s name. Rows whose listing has one of these names come to this property.":
        "Ένα αρχείο κρατήσεων ονομάζει την καταχώριση κάθε γραμμής: το Airbnb με τον τίτλο της "
        "καταχώρισης, το Booking.com με το όνομα του καταλύματος. Οι γραμμές των οποίων η "
        "καταχώριση έχει ένα από αυτά τα ονόματα έρχονται σε αυτό το κατάλυμα.",
    "Remove “{title}”": "Αφαίρεση «{title}»",
    "Remove": "Αφαίρεση",
    "None yet: an import asks for a listing it does not know, and remembers the answer here.":
        "Κανένα ακόμη: μια εισαγωγή ρωτά για μια καταχώριση που δεν γνωρίζει και απομνημονεύει "
        "την απάντηση εδώ.",
    "Name in the file": "Όνομα στο αρχείο",
    "Add the name": "Προσθήκη του ονόματος",
    # imports/listings.py's refusals, shown beside the field
    "must be 1 to 300 characters": "πρέπει να έχει από 1 έως 300 χαρακτήρες",
    "must not contain control characters": "δεν πρέπει να περιέχει χαρακτήρες ελέγχου",
    "a property has at most 50 listing names: remove one first":
        "ένα κατάλυμα έχει το πολύ 50 ονόματα καταχωρίσεων: αφαιρέστε πρώτα ένα",
}
