"""A property's access instructions per guest language, on its page (_property_access.tpl)."""

ENGLISH: dict[str, str] = {}

GREEK: dict[str, str] = {
    "Door code, Wi-Fi, how to get in. A guest who has completed check-in sees them on their "
    "check-in page, and gets them by e-mail once, from the hours below before arrival. They are "
    "kept encrypted.":
        "Κωδικός πόρτας, Wi-Fi, πώς θα μπουν. Ο επισκέπτης που ολοκλήρωσε το check-in τις βλέπει "
        "στη σελίδα του check-in και τις λαμβάνει μία φορά με e-mail, από τις παρακάτω ώρες πριν "
        "από την άφιξη. Φυλάσσονται κρυπτογραφημένες.",
    "A guest reads the text of their language, else the text in {language} (the property’s "
    "language), else any there is.":
        "Ο επισκέπτης διαβάζει το κείμενο της γλώσσας του, αλλιώς το κείμενο στα {language} (τη "
        "γλώσσα του καταλύματος), αλλιώς όποιο υπάρχει.",
    "In: {languages}": "Σε: {languages}",
    "Read them": "Ανάγνωση",
    "Each reading is written in the activity log.":
        "Κάθε ανάγνωση καταγράφεται στο ιστορικό δραστηριότητας.",
    "Only an owner of the account can read them again. You can replace them.":
        "Μόνο ένας ιδιοκτήτης του λογαριασμού μπορεί να τις διαβάσει ξανά. Μπορείτε να τις "
        "αντικαταστήσετε.",
    "Up to 2,000 characters. Empty the box to remove this language.":
        "Έως 2.000 χαρακτήρες. Αδειάστε το πεδίο για να αφαιρέσετε αυτή τη γλώσσα.",
    "Set. Leave empty to keep it.": "Ορίστηκε. Αφήστε το κενό για να το κρατήσετε.",
    "Remove the text in {language}": "Αφαίρεση του κειμένου στα {language}",
    "Add a language": "Προσθήκη γλώσσας",
    "Language": "Γλώσσα",
    "Text in the language chosen": "Κείμενο στη γλώσσα που επιλέξατε",
    "must be a language of the guest page: en, el, it, es, de, fr, pt":
        "πρέπει να είναι γλώσσα της σελίδας του επισκέπτη: en, el, it, es, de, fr, pt",
}
