"""Statuses, errors and hold reasons in words, names instead of ids, what Activity says."""

ENGLISH: dict[str, str] = {
    # a guest's document (checkin/guests.py DOCUMENT_TYPES), on the booking's guest table
    "document:passport": "Passport",
    "document:id_card": "Identity card",
    "document:residence_permit": "Residence permit",
    "document:driving_licence": "Driving licence",
}

# Plural forms by CLDR category, merged into i18n.PLURALS (Formatter.count).
PLURALS = {
    "sync_imported": {
        "en": {"one": "imported {n} new booking from a channel calendar",
               "other": "imported {n} new bookings from a channel calendar"},
        "el": {"one": "εισήγαγε {n} νέα κράτηση από ημερολόγιο πλατφόρμας",
               "other": "εισήγαγε {n} νέες κρατήσεις από ημερολόγιο πλατφόρμας"}},
    "attention_before_filing": {
        "en": {"one": "{n} of the period's bookings needs attention: correct it first, or tick "
                      "“file anyway”.",
               "other": "{n} of the period's bookings need attention: correct them first, or "
                        "tick “file anyway”."},
        "el": {"one": "{n} κράτηση της περιόδου χρειάζεται προσοχή: διορθώστε την πρώτα ή "
                      "επιλέξτε «υποβολή παρ' όλα αυτά».",
               "other": "{n} κρατήσεις της περιόδου χρειάζονται προσοχή: διορθώστε τες πρώτα ή "
                        "επιλέξτε «υποβολή παρ' όλα αυτά»."}},
    "period_needs_attention": {
        "en": {"one": "{n} booking of the period needs attention and is not in the report.",
               "other": "{n} bookings of the period need attention and are not in the report."},
        "el": {"one": "{n} κράτηση της περιόδου χρειάζεται προσοχή και δεν περιλαμβάνεται στην "
                      "αναφορά.",
               "other": "{n} κρατήσεις της περιόδου χρειάζονται προσοχή και δεν περιλαμβάνονται "
                        "στην αναφορά."}},
}

GREEK: dict[str, str] = {
    # dashboard/problems.py: e-mail
    "The mail server did not answer. Check its address and port on Account → E-mail.":
        "Ο διακομιστής e-mail δεν απάντησε. Ελέγξτε τη διεύθυνση και τη θύρα του στο "
        "Λογαριασμός → E-mail.",
    "The mail server took too long to answer. Check its address and port on Account → E-mail, "
    "or try again later.": "Ο διακομιστής e-mail άργησε πολύ να απαντήσει. Ελέγξτε τη διεύθυνση "
    "και τη θύρα του στο Λογαριασμός → E-mail ή δοκιμάστε ξανά αργότερα.",
    "The mail server is on an address this server does not connect to (its own machine or a "
    "local network). Choose your provider's mail server on Account → E-mail, or ask the "
    "server's administrator.": "Ο διακομιστής e-mail βρίσκεται σε διεύθυνση στην οποία αυτός ο "
    "διακομιστής δεν συνδέεται (το ίδιο το μηχάνημα ή τοπικό δίκτυο). Επιλέξτε τον διακομιστή "
    "e-mail του παρόχου σας στο Λογαριασμός → E-mail ή ρωτήστε τον διαχειριστή του διακομιστή.",
    "The mail server refused the user name or password. Check them on Account → E-mail.":
        "Ο διακομιστής e-mail δεν δέχτηκε το όνομα χρήστη ή τον κωδικό. Ελέγξτε τα στο "
        "Λογαριασμός → E-mail.",
    "The mail server refused the guest's e-mail address. Correct it on the booking and send the "
    "link again.": "Ο διακομιστής e-mail δεν δέχτηκε τη διεύθυνση e-mail του επισκέπτη. "
    "Διορθώστε τη στην κράτηση και στείλτε ξανά τον σύνδεσμο.",
    "The mail server refused the message. Check the sender address on Account → E-mail, or ask "
    "your mail provider why.": "Ο διακομιστής e-mail δεν δέχτηκε το μήνυμα. Ελέγξτε τη διεύθυνση "
    "αποστολέα στο Λογαριασμός → E-mail ή ρωτήστε τον πάροχο e-mail σας γιατί.",
    "The e-mail could not be sent. Check the set-up on Account → E-mail and send a test e-mail.":
        "Το e-mail δεν στάλθηκε. Ελέγξτε τη ρύθμιση στο Λογαριασμός → E-mail και στείλτε ένα "
        "δοκιμαστικό e-mail.",
    "E-mail cannot be sent since {when}. {advice}":
        "Δεν στέλνονται e-mail από {when}. {advice}",
    "The check-in e-mail did not reach the guest ({when}).":
        "Το e-mail του check-in δεν έφτασε στον επισκέπτη ({when}).",
    "not delivered": "δεν παραδόθηκε",
    "document:passport": "Διαβατήριο",
    "document:id_card": "Δελτίο ταυτότητας",
    "document:residence_permit": "Άδεια διαμονής",
    "document:driving_licence": "Δίπλωμα οδήγησης",
    # e-mailing the check-in link from the booking's page
    "The check-in e-mail was not sent.": "Το e-mail του check-in δεν στάλθηκε.",
    "The booking is cancelled: no check-in is needed.":
        "Η κράτηση έχει ακυρωθεί: δεν χρειάζεται check-in.",
    "The guest has already completed check-in.": "Ο επισκέπτης έχει ήδη ολοκληρώσει το check-in.",
    "The stay is over: its check-in link has expired.":
        "Η διαμονή έχει τελειώσει: ο σύνδεσμος check-in έχει λήξει.",
    "The booking has no guest e-mail address: add one with “Edit the booking” first, or share "
    "the check-in link another way.": "Η κράτηση δεν έχει e-mail επισκέπτη: προσθέστε ένα με "
    "«Επεξεργασία της κράτησης» ή στείλτε τον σύνδεσμο check-in με άλλον τρόπο.",
    "The link was e-mailed several times in the last hour already. Try again later, or share the "
    "check-in link another way.": "Ο σύνδεσμος στάλθηκε ήδη αρκετές φορές την τελευταία ώρα. "
    "Δοκιμάστε ξανά αργότερα ή στείλτε τον σύνδεσμο check-in με άλλον τρόπο.",
    # a booking's dates that overlap another stay
    "The dates overlap the stay of {guest}, {stay}. Choose other dates, or change that booking "
    "first.": "Οι ημερομηνίες επικαλύπτουν τη διαμονή του/της {guest}, {stay}. Επιλέξτε άλλες "
    "ημερομηνίες ή αλλάξτε πρώτα εκείνη την κράτηση.",
    "The dates overlap a period blocked in a channel calendar, {stay}. Choose other dates.":
        "Οι ημερομηνίες επικαλύπτουν διάστημα κλειστό στο ημερολόγιο μιας πλατφόρμας, {stay}. "
        "Επιλέξτε άλλες ημερομηνίες.",
    "another guest": "άλλου επισκέπτη",
    "another booking": "άλλη κράτηση",
    # the activity page
    "Every change made in the dashboard or with an API key, every sign-in, and what RentalComply "
    "did on its own (check-ins, police filings, channel bookings, tax reports), newest first.":
        "Κάθε αλλαγή στον πίνακα ελέγχου ή με κλειδί API, κάθε σύνδεση και ό,τι έκανε μόνο του το "
        "RentalComply (check-in, δηλώσεις στην αστυνομία, κρατήσεις πλατφορμών, φορολογικές "
        "αναφορές), τα νεότερα πρώτα.",
    "automatic": "αυτόματα",
    "The guest": "Ο επισκέπτης",
    "someone no longer here": "κάποιος που δεν είναι πια εδώ",
    "The test e-mail to {to} was not sent.": "Το δοκιμαστικό e-mail προς {to} δεν στάλθηκε.",
    # dashboard/problems.py: a channel's calendar
    "The channel no longer has a calendar at this address. Copy the calendar's address from the "
    "channel again and replace this connection.": "Η πλατφόρμα δεν έχει πια ημερολόγιο σε αυτή "
    "τη διεύθυνση. Αντιγράψτε ξανά τη διεύθυνση του ημερολογίου από την πλατφόρμα και "
    "αντικαταστήστε αυτή τη σύνδεση.",
    "The channel refused to give the calendar. Copy the calendar's address from the channel "
    "again; it may have been renewed there.": "Η πλατφόρμα αρνήθηκε να δώσει το ημερολόγιο. "
    "Αντιγράψτε ξανά τη διεύθυνση του ημερολογίου από την πλατφόρμα· ίσως ανανεώθηκε εκεί.",
    "The channel's server had a problem. Nothing to do: the next sync tries again.":
        "Ο διακομιστής της πλατφόρμας είχε πρόβλημα. Δεν χρειάζεται να κάνετε κάτι: ο επόμενος "
        "συγχρονισμός θα δοκιμάσει ξανά.",
    "The channel's calendar could not be reached. The next sync tries again; if this stays, "
    "check the calendar's address.": "Το ημερολόγιο της πλατφόρμας δεν ήταν προσβάσιμο. Ο "
    "επόμενος συγχρονισμός θα δοκιμάσει ξανά· αν αυτό συνεχιστεί, ελέγξτε τη διεύθυνση του "
    "ημερολογίου.",
    "The channel's calendar is larger than this server accepts. Ask the server's administrator "
    "(setting sync.max_bytes).": "Το ημερολόγιο της πλατφόρμας είναι μεγαλύτερο από όσο δέχεται "
    "αυτός ο διακομιστής. Ρωτήστε τον διαχειριστή του διακομιστή (ρύθμιση sync.max_bytes).",
    "The address gives something that is not a calendar. Copy the calendar's (iCal) address from "
    "the channel again.": "Η διεύθυνση δεν δίνει ημερολόγιο. Αντιγράψτε ξανά τη διεύθυνση του "
    "ημερολογίου (iCal) από την πλατφόρμα.",
    "The channel's calendar could not be read. The next sync tries again; if this stays, copy "
    "the calendar's address from the channel again.": "Το ημερολόγιο της πλατφόρμας δεν "
    "διαβάστηκε. Ο επόμενος συγχρονισμός θα δοκιμάσει ξανά· αν αυτό συνεχιστεί, αντιγράψτε ξανά "
    "τη διεύθυνση του ημερολογίου από την πλατφόρμα.",
    # dashboard/problems.py: webhooks
    "Not sent: the endpoint was disabled. Enable it to receive deliveries again.":
        "Δεν στάλθηκε: το endpoint απενεργοποιήθηκε. Ενεργοποιήστε το για να λαμβάνει ξανά "
        "παραδόσεις.",
    "Not sent: the endpoint's secret cannot be read on this server. Give the endpoint a new "
    "secret.": "Δεν στάλθηκε: το μυστικό του endpoint δεν διαβάζεται σε αυτόν τον διακομιστή. "
    "Δώστε στο endpoint νέο μυστικό.",
    "Your endpoint took too long to answer. Make it answer within the time limit and do the work "
    "afterwards.": "Το endpoint σας άργησε πολύ να απαντήσει. Κάντε το να απαντά εντός του "
    "ορίου χρόνου και να κάνει τη δουλειά μετά.",
    "Your endpoint could not be reached. Check its address and that it is online.":
        "Το endpoint σας δεν ήταν προσβάσιμο. Ελέγξτε τη διεύθυνσή του και ότι λειτουργεί.",
    "Your endpoint answered with an error code. Check its log.":
        "Το endpoint σας απάντησε με κωδικό σφάλματος. Ελέγξτε το αρχείο καταγραφής του.",
    "Every attempt failed, so sending stopped. Send it again when the endpoint works.":
        "Όλες οι προσπάθειες απέτυχαν και η αποστολή σταμάτησε. Στείλτε την ξανά όταν το "
        "endpoint λειτουργεί.",
    "The delivery failed. Check the endpoint, then send it again.":
        "Η παράδοση απέτυχε. Ελέγξτε το endpoint και στείλτε την ξανά.",
    "Your endpoint answered that it is gone (410), so sending stopped. Enable it again once it "
    "is back.": "Το endpoint σας απάντησε ότι δεν υπάρχει πια (410) και η αποστολή σταμάτησε. "
    "Ενεργοποιήστε το ξανά όταν επανέλθει.",
    "Every delivery failed for days, so sending stopped. Enable it again once the endpoint works.":
        "Όλες οι παραδόσεις αποτύγχαναν για μέρες και η αποστολή σταμάτησε. Ενεργοποιήστε το "
        "ξανά όταν το endpoint λειτουργεί.",
    "Someone in the account disabled it. Enable it to receive deliveries again.":
        "Το απενεργοποίησε κάποιος του λογαριασμού. Ενεργοποιήστε το για να λαμβάνει ξανά "
        "παραδόσεις.",
    # dashboard/problems.py: reports
    "The report could not be made. Try again with “Generate again”; the previous files, if any, "
    "are kept. If it fails again, the server's administrator finds the cause in the log.":
        "Η αναφορά δεν δημιουργήθηκε. Δοκιμάστε ξανά με «Νέα δημιουργία»· τα προηγούμενα "
        "αρχεία, αν υπάρχουν, διατηρούνται. Αν αποτύχει ξανά, ο διαχειριστής του διακομιστή "
        "βρίσκει την αιτία στο αρχείο καταγραφής.",
}
