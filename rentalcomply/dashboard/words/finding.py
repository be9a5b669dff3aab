"""Search, the phone layout, signing in and staying signed in, the account's own day."""

ENGLISH: dict[str, str] = {
    "done:password_set_signed_in": "Your password is set, and you are signed in.",
    "done:device_signed_out": "That device is signed out.",
}

GREEK: dict[str, str] = {
    # the header's search (dashboard/search.py, search.tpl, layout.tpl)
    "Search": "Αναζήτηση",
    "Find a booking": "Βρείτε μια κράτηση",
    "Guest, phone, code…": "Επισκέπτης, τηλ., κωδικός…",
    "Name, e-mail, phone or code": "Όνομα, e-mail, τηλέφωνο ή κωδικός",
    "Results": "Αποτελέσματα",
    "Type a guest’s name (any guest of the party), an e-mail address, a phone number, a confirmation code or a booking reference.":
        "Γράψτε το όνομα ενός επισκέπτη (οποιουδήποτε της ομάδας), μια διεύθυνση e-mail, έναν αριθμό τηλεφώνου, έναν κωδικό επιβεβαίωσης ή τον κωδικό αναφοράς μιας κράτησης.",
    "No booking matches “{query}”.": "Καμία κράτηση δεν ταιριάζει με «{query}».",
    "Bookings found: {count}": "Κρατήσεις που βρέθηκαν: {count}",
    "Only the {count} latest are shown: add a word to narrow the search.":
        "Εμφανίζονται μόνο οι {count} πιο πρόσφατες: προσθέστε μια λέξη για να περιορίσετε την αναζήτηση.",
    # the phone's header and the bookings' filters
    "Menu": "Μενού",
    "Filter the list": "Φιλτράρισμα της λίστας",
    # staying signed in (sign_in.tpl, password.tpl, _devices.tpl)
    "done:password_set_signed_in": "Ο κωδικός ορίστηκε και έχετε συνδεθεί.",
    "done:device_signed_out": "Η συσκευή αποσυνδέθηκε.",
    "Keep me signed in on this device for 30 days": "Να παραμείνω συνδεδεμένος σε αυτή τη συσκευή για 30 ημέρες",
    "Only on a device of your own. You can sign it out from Account.":
        "Μόνο σε δική σας συσκευή. Μπορείτε να την αποσυνδέσετε από τον Λογαριασμό.",
    "Devices signed in": "Συνδεδεμένες συσκευές",
    "The devices where you chose “Keep me signed in”: each stays signed in for 30 days unless you sign it out here.":
        "Οι συσκευές όπου επιλέξατε «Να παραμείνω συνδεδεμένος»: καθεμία μένει συνδεδεμένη για 30 ημέρες, εκτός αν την αποσυνδέσετε εδώ.",
    "No device keeps you signed in.": "Καμία συσκευή δεν σας κρατά συνδεδεμένο.",
    "Device": "Συσκευή",
    "Last used": "Τελευταία χρήση",
    "Signed in until": "Συνδεδεμένη έως",
    "A browser": "Ένας φυλλομετρητής",
    "This device": "Αυτή η συσκευή",
    "Sign out this device": "Αποσύνδεση αυτής της συσκευής",
    "Sign out everywhere": "Αποσύνδεση από παντού",
    "Every browser signed in as you, this one included.":
        "Κάθε φυλλομετρητής όπου είστε συνδεδεμένος, και αυτός.",
    # the access e-mail that did not go (_access_mail.tpl, today.tpl, the morning e-mail)
    "The e-mail with the access instructions did not reach the guest ({when}).":
        "Το e-mail με τις οδηγίες πρόσβασης δεν έφτασε στον επισκέπτη ({when}).",
    "The mail server refused the guest’s address, so it is not sent again. Give the guest the door code another way (WhatsApp, SMS, the channel’s messages): the instructions are also on their check-in page.":
        "Ο διακομιστής αλληλογραφίας απέρριψε τη διεύθυνση του επισκέπτη, οπότε δεν θα σταλεί ξανά. Δώστε στον επισκέπτη τον κωδικό της πόρτας με άλλον τρόπο (WhatsApp, SMS, τα μηνύματα του καναλιού): οι οδηγίες υπάρχουν και στη σελίδα του check-in του.",
    "The mail server did not take it; it is tried again on its own. Check the e-mail set-up, or give the guest the door code another way: the instructions are also on their check-in page.":
        "Ο διακομιστής αλληλογραφίας δεν το δέχτηκε· θα ξαναδοκιμαστεί αυτόματα. Ελέγξτε τις ρυθμίσεις e-mail ή δώστε στον επισκέπτη τον κωδικό της πόρτας με άλλον τρόπο: οι οδηγίες υπάρχουν και στη σελίδα του check-in του.",
    "Access instructions that did not reach the guest": "Οδηγίες πρόσβασης που δεν έφτασαν στον επισκέπτη",
    "address refused": "η διεύθυνση απορρίφθηκε",
    "mail server failing": "ο διακομιστής αλληλογραφίας αποτυγχάνει",
}
