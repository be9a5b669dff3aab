"""Search, the phone layout, signing in and staying signed in, the account's own day."""

ENGLISH: dict[str, str] = {}

GREEK: dict[str, str] = {
    # the header's search (dashboard/search.py, search.tpl, layout.tpl)
    "Search": "Αναζήτηση",
    "Find a booking": "Βρείτε μια κράτηση",
    "Guest, phone, code…": "Επισκέπτης, τηλέφωνο, κωδικός…",
    "Name, e-mail, phone or code": "Όνομα, e-mail, τηλέφωνο ή κωδικός",
    "Results": "Αποτελέσματα",
    "Type a guest’s name (any guest of the party), an e-mail address, a phone number, a confirmation code or a booking reference.":
        "Γράψτε το όνομα ενός επισκέπτη (οποιουδήποτε της ομάδας), μια διεύθυνση e-mail, έναν αριθμό τηλεφώνου, έναν κωδικό επιβεβαίωσης ή τον κωδικό αναφοράς μιας κράτησης.",
    "No booking matches “{query}”.": "Καμία κράτηση δεν ταιριάζει με «{query}».",
    "Bookings found: {count}": "Κρατήσεις που βρέθηκαν: {count}",
    "Only the {count} latest are shown: add a word to narrow the search.":
        "Εμφανίζονται μόνο οι {count} πιο πρόσφατες: προσθέστε μια λέξη για να περιορίσετε την αναζήτηση.",
    "Guests": "Επισκέπτες",
    # the phone's header and the bookings' filters
    "Menu": "Μενού",
    "Filter the list": "Φιλτράρισμα της λίστας",
}
