"""Setting a property up: its country's fields, police credentials and codes, the connection test, held filings."""

ENGLISH: dict[str, str] = {
    "done:police_saved": "The police set-up is saved.",
    # What a connection test answered (filings/health.py's verdicts).
    "test:connected": "Connected: {authority} accepted these details. Nothing was filed.",
    "test:refused": "Refused: {authority} did not accept the user, password or key. Check them "
                    "as the authority gave them, type them again and test again.",
    "test:unreachable": "Cannot reach {authority} right now: the service did not answer. Try "
                        "again later; if it lasts, check this server's internet connection.",
    "test:incomplete": "Not asked: complete the set-up first (the fields marked with *).",
    "test:no_test": "{authority} offers no test that files nothing: the first filing will check "
                    "these details, and tells you at once if they are refused.",
    "test:not_online": "This property does not file online, so there is nothing to test.",
    # Why a filing waits or stopped, with what to do (dashboard/pages/police.py).
    "hold:setup": "Nothing was sent: the property’s police set-up is not complete. Complete it "
                  "on the property’s page; the filing then goes out by itself.",
    "hold:codes": "Nothing was sent: a guest’s town is not in the code table in use, which is "
                  "not the authority’s whole list (the reason names the town). Check the town, "
                  "or load the authority’s current table; the filing then goes out by itself.",
    "why:credentials_refused": "The authority refused the user, password or key. Correct them in "
                               "the property’s police set-up, then file again.",
    "why:interrupted": "The sending was interrupted and may have reached the authority. Check "
                       "the authority’s receipt of the day before you file again.",
    "why:cancelled": "The booking was cancelled before it was filed: nothing was sent.",
    "why:rejected": "The authority refused this filing. Correct the guests’ details it names, "
                    "then file again.",
    "why:unreachable": "The authority’s service could not be reached. It is tried again by "
                       "itself.",
    "why:unreachable_failed": "The authority’s service could not be reached in time. File again, "
                              "or file by hand on the authority’s site before the deadline.",
    "why:retrying": "The last attempt did not go through. It is tried again by itself.",
    "why:failed": "The filing could not be made. File again; if it fails again, file by hand on "
                  "the authority’s site before the deadline.",
}

GREEK: dict[str, str] = {
    "done:police_saved": "Οι ρυθμίσεις δήλωσης στην αστυνομία αποθηκεύτηκαν.",
    "test:connected": "Συνδέθηκε: η υπηρεσία {authority} δέχτηκε αυτά τα στοιχεία. Δεν υποβλήθηκε "
                      "τίποτα.",
    "test:refused": "Απορρίφθηκε: η υπηρεσία {authority} δεν δέχτηκε τον χρήστη, τον κωδικό ή το "
                    "κλειδί. Ελέγξτε τα όπως σας τα έδωσε η αρχή, πληκτρολογήστε τα ξανά και "
                    "δοκιμάστε ξανά.",
    "test:unreachable": "Η υπηρεσία {authority} δεν είναι διαθέσιμη αυτή τη στιγμή: δεν "
                        "απάντησε. Δοκιμάστε αργότερα· αν συνεχιστεί, ελέγξτε τη σύνδεση αυτού "
                        "του διακομιστή στο διαδίκτυο.",
    "test:incomplete": "Δεν έγινε ερώτηση: συμπληρώστε πρώτα τις ρυθμίσεις (τα πεδία με *).",
    "test:no_test": "Η υπηρεσία {authority} δεν προσφέρει δοκιμή χωρίς υποβολή: η πρώτη δήλωση "
                    "θα ελέγξει αυτά τα στοιχεία και θα σας πει αμέσως αν απορριφθούν.",
    "test:not_online": "Αυτό το κατάλυμα δεν υποβάλλει ηλεκτρονικά, οπότε δεν υπάρχει τι να "
                       "δοκιμαστεί.",
    "hold:setup": "Δεν στάλθηκε τίποτα: οι ρυθμίσεις δήλωσης στην αστυνομία του καταλύματος δεν "
                  "είναι πλήρεις. Συμπληρώστε τις στη σελίδα του καταλύματος· η δήλωση θα σταλεί "
                  "μόνη της.",
    "hold:codes": "Δεν στάλθηκε τίποτα: ο δήμος ενός επισκέπτη δεν υπάρχει στον πίνακα κωδικών σε "
                  "χρήση, που δεν είναι ο πλήρης κατάλογος της αρχής (η αιτία κατονομάζει τον "
                  "δήμο). Ελέγξτε τον δήμο ή φορτώστε τον τρέχοντα πίνακα της αρχής· η δήλωση θα "
                  "σταλεί μόνη της.",
    "why:credentials_refused": "Η αρχή απέρριψε τον χρήστη, τον κωδικό ή το κλειδί. Διορθώστε τα "
                               "στις ρυθμίσεις δήλωσης του καταλύματος και υποβάλετε ξανά.",
    "why:interrupted": "Η αποστολή διακόπηκε και ίσως έφτασε στην αρχή. Ελέγξτε την απόδειξη της "
                       "ημέρας από την αρχή πριν υποβάλετε ξανά.",
    "why:cancelled": "Η κράτηση ακυρώθηκε πριν δηλωθεί: δεν στάλθηκε τίποτα.",
    "why:rejected": "Η αρχή απέρριψε αυτή τη δήλωση. Διορθώστε τα στοιχεία των επισκεπτών που "
                    "αναφέρει και υποβάλετε ξανά.",
    "why:unreachable": "Η υπηρεσία της αρχής δεν ήταν διαθέσιμη. Θα ξαναδοκιμαστεί αυτόματα.",
    "why:unreachable_failed": "Η υπηρεσία της αρχής δεν ήταν διαθέσιμη εγκαίρως. Υποβάλετε ξανά "
                              "ή δηλώστε με το χέρι στον ιστότοπο της αρχής πριν από την "
                              "προθεσμία.",
    "why:retrying": "Η τελευταία προσπάθεια δεν πέτυχε. Θα ξαναδοκιμαστεί αυτόματα.",
    "why:failed": "Η δήλωση δεν έγινε. Υποβάλετε ξανά· αν αποτύχει πάλι, δηλώστε με το χέρι στον "
                  "ιστότοπο της αρχής πριν από την προθεσμία.",
    # The property page's police section.
    "Police filing set-up": "Ρυθμίσεις δήλωσης στην αστυνομία",
    "Police filing is on, but nothing can be sent until these are set:":
        "Η δήλωση στην αστυνομία είναι ενεργή, αλλά δεν μπορεί να σταλεί τίποτα μέχρι να "
        "συμπληρωθούν:",
    "Guests’ registrations wait, held, and go out as soon as the set-up is complete.":
        "Οι δηλώσεις επισκεπτών περιμένουν σε αναμονή και στέλνονται μόλις ολοκληρωθούν οι "
        "ρυθμίσεις.",
    "What the authority gave you when you registered. Passwords and keys are kept encrypted and "
    "never shown again: leave a box empty to keep what is set.":
        "Ό,τι σας έδωσε η αρχή κατά την εγγραφή σας. Οι κωδικοί και τα κλειδιά φυλάσσονται "
        "κρυπτογραφημένα και δεν εμφανίζονται ξανά: αφήστε ένα πεδίο κενό για να κρατήσετε ό,τι "
        "έχει οριστεί.",
    "Save the police set-up": "Αποθήκευση ρυθμίσεων δήλωσης",
    "Test the connection": "Δοκιμή σύνδεσης",
    "Asks the authority whether it accepts these details. Nothing is filed.":
        "Ρωτά την αρχή αν δέχεται αυτά τα στοιχεία. Δεν υποβάλλεται τίποτα.",
    "Police filing is on, but its set-up is not complete: nothing can be sent to {authority}.":
        "Η δήλωση στην αστυνομία είναι ενεργή, αλλά οι ρυθμίσεις της δεν είναι πλήρεις: δεν "
        "μπορεί να σταλεί τίποτα στην υπηρεσία {authority}.",
    "Complete the police set-up": "Συμπληρώστε τις ρυθμίσεις δήλωσης",
    # The authorities' set-up fields (authorities/*/__init__.py), their rules and hints.
    "Alloggiati Web user": "Χρήστης Alloggiati Web",
    "Alloggiati Web password": "Κωδικός Alloggiati Web",
    "Web service key (WSKEY)": "Κλειδί υπηρεσίας web (WSKEY)",
    "Apartment code (property managers only)": "Κωδικός διαμερίσματος (μόνο για διαχειριστές)",
    "The user is 3 to 50 letters or digits, like RM012345.":
        "Ο χρήστης έχει 3 έως 50 γράμματα ή ψηφία, π.χ. RM012345.",
    "The user name the Questura gave you for Alloggiati Web, like RM012345.":
        "Το όνομα χρήστη που σας έδωσε η Questura για το Alloggiati Web, π.χ. RM012345.",
    "The password cannot contain spaces.": "Ο κωδικός δεν μπορεί να περιέχει κενά.",
    "The WSKEY is the long key Alloggiati Web shows under Web Service: letters, digits and + / = "
    "only.": "Το WSKEY είναι το μακρύ κλειδί που δείχνει το Alloggiati Web στο Web Service: μόνο "
             "γράμματα, ψηφία και + / =.",
    "Generate it in Alloggiati Web, Profilo, Web Service; a new one is needed after every "
    "password change.": "Δημιουργήστε το στο Alloggiati Web, Profilo, Web Service· χρειάζεται "
                        "νέο μετά από κάθε αλλαγή κωδικού.",
    "The apartment code is up to 6 digits.": "Ο κωδικός διαμερίσματος έχει έως 6 ψηφία.",
    "Only for a property-manager account of Alloggiati Web; leave empty otherwise.":
        "Μόνο για λογαριασμό διαχειριστή στο Alloggiati Web· αλλιώς αφήστε το κενό.",
    "Landlord code (código de arrendador)": "Κωδικός εκμισθωτή (código de arrendador)",
    "Establishment code (código de establecimiento)":
        "Κωδικός καταλύματος (código de establecimiento)",
    "SES.Hospedajes web-service user": "Χρήστης υπηρεσίας web του SES.Hospedajes",
    "SES.Hospedajes web-service password": "Κωδικός υπηρεσίας web του SES.Hospedajes",
    "The landlord code is 10 digits, as SES.Hospedajes shows it after registration.":
        "Ο κωδικός εκμισθωτή έχει 10 ψηφία, όπως τον δείχνει το SES.Hospedajes μετά την εγγραφή.",
    "SES.Hospedajes, Establecimientos: the code of the landlord.":
        "SES.Hospedajes, Establecimientos: ο κωδικός του εκμισθωτή.",
    "The establishment code is at most 10 letters or digits.":
        "Ο κωδικός καταλύματος έχει έως 10 γράμματα ή ψηφία.",
    "SES.Hospedajes, Establecimientos: the code of this property.":
        "SES.Hospedajes, Establecimientos: ο κωδικός αυτού του καταλύματος.",
    "The user cannot contain spaces.": "Ο χρήστης δεν μπορεί να περιέχει κενά.",
    "Tax number of the unit (NIF)": "Αριθμός φορολογικού μητρώου της μονάδας (NIF)",
    "Establishment number": "Αριθμός καταλύματος",
    "SIBA access key": "Κλειδί πρόσβασης SIBA",
    "The tax number is 9 digits.": "Ο αριθμός φορολογικού μητρώου έχει 9 ψηφία.",
    "The establishment number is up to 4 digits (0 for the first).":
        "Ο αριθμός καταλύματος έχει έως 4 ψηφία (0 για το πρώτο).",
    "0 unless SIBA gave this property another number.":
        "0, εκτός αν το SIBA έδωσε άλλον αριθμό σε αυτό το κατάλυμα.",
    "The access key cannot contain spaces.": "Το κλειδί πρόσβασης δεν μπορεί να περιέχει κενά.",
    "is not an AMA: the number of the AADE short-term rental registry is digits only, up to 11, "
    "like 00012345678": "δεν είναι ΑΜΑ: ο αριθμός του Μητρώου Ακινήτων Βραχυχρόνιας Διαμονής της "
                        "ΑΑΔΕ έχει μόνο ψηφία, έως 11, π.χ. 00012345678",
    # A booking's filings (the filing section of booking.tpl).
    "Guests’ registration": "Δήλωση επισκεπτών",
    "Departure (Portugal)": "Αναχώρηση (Πορτογαλία)",
    "Reservation (Spain)": "Κράτηση (Ισπανία)",
    "Cancellation": "Ακύρωση",
    "Cancellation of the reservation": "Ακύρωση της κράτησης",
    "Waiting for check-in": "Αναμένει το check-in",
    "Being filed": "Υποβάλλεται",
    "Sent, awaiting the answer": "Στάλθηκε, αναμένεται απάντηση",
    "File ready to upload": "Το αρχείο είναι έτοιμο για ανέβασμα",
    "Filed": "Υποβλήθηκε",
    "Refused by the authority": "Απορρίφθηκε από την αρχή",
    "Not filed": "Δεν υποβλήθηκε",
    "Held": "Σε αναστολή",
    "Held: set-up needed": "Σε αναστολή: χρειάζονται ρυθμίσεις",
    "Guest {number}": "Επισκέπτης {number}",
    "Complete the set-up": "Συμπληρώστε τις ρυθμίσεις",
    "Due by": "Προθεσμία",
    # The property form's country and time zone.
    "Save to see the fields and time zones of the country chosen.":
        "Αποθηκεύστε για να δείτε τα πεδία και τις ζώνες ώρας της χώρας που επιλέξατε.",
    "{zone} (not a time zone of this country)": "{zone} (όχι ζώνη ώρας αυτής της χώρας)",
    "Deadlines and times are counted in it.": "Οι προθεσμίες και οι ώρες μετρώνται σε αυτήν.",
    "{country} has several time zones: choose this property’s.":
        "{country}: υπάρχουν πολλές ζώνες ώρας· επιλέξτε τη ζώνη αυτού του καταλύματος.",
    # Today's "Needs a person" and the morning e-mail.
    "Police filing on, set-up not complete": "Δήλωση στην αστυνομία ενεργή, ρυθμίσεις ελλιπείς",
    "Nothing can be sent": "Δεν μπορεί να σταλεί τίποτα",
    "missing: {fields}": "λείπουν: {fields}",
    # The alert e-mail of a refused or failed filing (dashboard/police_alerts.py).
    "{account}: a police filing needs you now": "{account}: μια δήλωση στην αστυνομία σας χρειάζεται τώρα",
    "The police did not take these stays. Each says why and what to do:":
        "Η αστυνομία δεν δέχτηκε αυτές τις διαμονές. Για καθεμία, ο λόγος και τι να κάνετε:",
    "You receive this e-mail as an owner of {account}, at most once an hour while a filing is "
    "refused or fails.": "Λαμβάνετε αυτό το e-mail ως ιδιοκτήτης του {account}, το πολύ μία φορά "
                         "την ώρα όσο μια δήλωση απορρίπτεται ή αποτυγχάνει.",
    # A refused set-up form: what was typed stays, but never a password or key.
    "What you typed here was not kept, as a password never is: type it again.":
        "Ό,τι πληκτρολογήσατε εδώ δεν κρατήθηκε, όπως δεν κρατιέται ποτέ ένας κωδικός: "
        "πληκτρολογήστε το ξανά.",
    "Nothing was saved. The other boxes keep what you typed; passwords and keys are never kept: "
    "type them again.": "Δεν αποθηκεύτηκε τίποτα. Τα άλλα πεδία κρατούν ό,τι πληκτρολογήσατε· "
                        "οι κωδικοί και τα κλειδιά δεν κρατιούνται ποτέ: πληκτρολογήστε τα ξανά.",
}
