"""A property's region, rooms, beds and closed days: the property form's fields and hints
(_property_fields.tpl, pages/regions.py), the closed days' section (_property_closed_days.tpl),
Today's and the morning e-mail's "Properties whose region is unknown" and "Italian properties
without rooms and beds" (problems.py), and the service's refusals shown beside a field. The
regions' own names come from properties/regions.py, with their English and Greek names."""

ENGLISH: dict[str, str] = {}

GREEK: dict[str, str] = {
    # the property form
    "Region": "Περιφέρεια",
    "Not chosen: read from the address where it is certain":
        "Δεν επιλέχθηκε: διαβάζεται από τη διεύθυνση όπου είναι βέβαιη",
    "Left as it is, the region is read from the address where that is certain (an Italian "
    "province’s abbreviation, a Spanish postcode).":
        "Αν μείνει έτσι, η περιφέρεια διαβάζεται από τη διεύθυνση όπου αυτό είναι βέβαιο (η "
        "συντομογραφία ιταλικής επαρχίας, ένας ισπανικός ταχυδρομικός κώδικας).",
    "Read from the address: {region}. Choose another if it is wrong; your choice is then kept "
    "when the address changes.":
        "Διαβάστηκε από τη διεύθυνση: {region}. Επιλέξτε άλλη αν είναι λάθος· η επιλογή σας "
        "διατηρείται τότε όταν αλλάζει η διεύθυνση.",
    "Chosen by you: kept when the address changes.":
        "Επιλέχθηκε από εσάς: διατηρείται όταν αλλάζει η διεύθυνση.",
    "The address does not say it for certain: choose the region whose rules apply (tourism "
    "statistics, police registration).":
        "Η διεύθυνση δεν την προσδιορίζει με βεβαιότητα: επιλέξτε την περιφέρεια της οποίας οι "
        "κανόνες ισχύουν (στατιστικά τουρισμού, δήλωση στην αστυνομία).",
    "Rooms": "Δωμάτια",
    "Beds": "Κρεβάτια",
    "The monthly tourism statistics report the rooms and beds available.":
        "Τα μηνιαία στατιστικά τουρισμού αναφέρουν τα διαθέσιμα δωμάτια και κρεβάτια.",
    # the closed days' section
    "Closed days": "Ημέρες που είναι κλειστό",
    "Days the property is closed: the monthly tourism statistics report them as closed. A day "
    "on which a booking has a night cannot be closed.":
        "Ημέρες που το κατάλυμα είναι κλειστό: τα μηνιαία στατιστικά τουρισμού τις αναφέρουν ως "
        "κλειστές. Μια ημέρα με διανυκτέρευση κράτησης δεν μπορεί να κλείσει.",
    "No closed days from {first} to {last}.": "Καμία κλειστή ημέρα από {first} έως {last}.",
    "A booking has a night on these days: move or cancel it first, or close other days.":
        "Μια κράτηση έχει διανυκτέρευση αυτές τις ημέρες: μετακινήστε ή ακυρώστε την πρώτα, ή "
        "κλείστε άλλες ημέρες.",
    "Booking {id}": "Κράτηση {id}",
    "First day": "Πρώτη ημέρα",
    "Last day (included)": "Τελευταία ημέρα (περιλαμβάνεται)",
    "Close these days": "Κλείσιμο αυτών των ημερών",
    "Reopen these days": "Άνοιγμα ξανά αυτών των ημερών",
    # Today and the morning e-mail
    "Properties whose region is unknown": "Καταλύματα με άγνωστη περιφέρεια",
    "Italian properties without rooms and beds": "Ιταλικά καταλύματα χωρίς δωμάτια και κρεβάτια",
    "Choose the region": "Επιλέξτε την περιφέρεια",
    "Enter rooms and beds": "Καταχωρίστε δωμάτια και κρεβάτια",
    "Choose its region on the property’s page: the address does not say it for certain, so "
    "which region’s rules apply (tourism statistics, police registration) cannot be known.":
        "Επιλέξτε την περιφέρειά του στη σελίδα του καταλύματος: η διεύθυνση δεν την "
        "προσδιορίζει με βεβαιότητα, οπότε δεν μπορεί να είναι γνωστό ποιας περιφέρειας οι "
        "κανόνες ισχύουν (στατιστικά τουρισμού, δήλωση στην αστυνομία).",
    "Enter its rooms and beds on the property’s page: the monthly tourism statistics report "
    "them as available.":
        "Καταχωρίστε τα δωμάτια και τα κρεβάτια του στη σελίδα του καταλύματος: τα μηνιαία "
        "στατιστικά τουρισμού τα αναφέρουν ως διαθέσιμα.",
    # the service's refusals, shown beside the field
    "must be a whole number from 0 to 999, or null":
        "πρέπει να είναι ακέραιος αριθμός από 0 έως 999, ή κενό",
    "must be a date in the form YYYY-MM-DD": "πρέπει να είναι ημερομηνία της μορφής ΕΕΕΕ-ΜΜ-ΗΗ",
    "ends before it starts": "τελειώνει πριν αρχίσει",
}

PLURALS = {
    "day": {"en": {"one": "{n} day", "other": "{n} days"},
            "el": {"one": "{n} ημέρα", "other": "{n} ημέρες"}},
}
