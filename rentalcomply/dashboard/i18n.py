"""The dashboard's words in English and Greek: one catalogue, keyed by the English text.

`translate("el", "Today")` gives "Σήμερα"; a text missing from the catalogue stays English (a
test lists the texts the templates use and insists each has its Greek). `{name}` placeholders
are filled after translation. Status codes (`NOT_STARTED`) and done-messages (`done:revoked`) are
keys like any other.
"""

from __future__ import annotations

import datetime as dt
import functools
import zoneinfo

import babel
import babel.dates
import babel.numbers

from rentalcomply.dashboard.words import filings as filing_words
from rentalcomply.core import clock
from rentalcomply.dashboard.words import (access, account, cin, code_tables, contact,
                                          controller, deadlines, finding, listings,
                                          obligations, property_setup, receipts, regions, reports,
                                          scanning, spain, statuses, taxes)

LANGUAGES = ("en", "el")

GREEK: dict[str, str] = {
    # layout, sign-in, password
    "Skip to content": "Μετάβαση στο περιεχόμενο",
    "Main": "Κύριο μενού",
    "Signed in as": "Συνδεδεμένος ως",
    "Sign out": "Αποσύνδεση",
    "Sign in": "Σύνδεση",
    "Error": "Σφάλμα",
    "Back to the dashboard": "Πίσω στον πίνακα ελέγχου",
    "The dashboard of your RentalComply account.": "Ο πίνακας ελέγχου του λογαριασμού σας στο RentalComply.",
    "E-mail address": "Διεύθυνση e-mail",
    "Password": "Κωδικός πρόσβασης",
    "Forgot your password? Ask your administrator for a new link (rentalcomply users link).":
        "Ξεχάσατε τον κωδικό; Ζητήστε νέο σύνδεσμο από τον διαχειριστή (rentalcomply users link).",
    "Too many attempts. Try again in {seconds} seconds.":
        "Πάρα πολλές προσπάθειες. Δοκιμάστε ξανά σε {seconds} δευτερόλεπτα.",
    "The e-mail address or the password is wrong.": "Το e-mail ή ο κωδικός δεν είναι σωστά.",
    "Choose your password": "Επιλέξτε κωδικό πρόσβασης",
    "For {email}, in {account}.": "Για {email}, στο {account}.",
    "This address signs in to another account here already, which keeps its own password. "
    "Choose the same password and the sign-in asks which account to open; a different one opens "
    "{account} directly.": "Αυτή η διεύθυνση συνδέεται ήδη εδώ σε άλλον λογαριασμό, που κρατά τον "
    "δικό του κωδικό. Επιλέξτε τον ίδιο κωδικό και η σύνδεση θα ρωτά ποιον λογαριασμό να ανοίξει· "
    "με διαφορετικό ανοίγει κατευθείαν το {account}.",
    "Choose the account": "Επιλέξτε λογαριασμό",
    "Your e-mail address and password open more than one account. Which one do you want to work "
    "in?": "Το e-mail και ο κωδικός σας ανοίγουν περισσότερους από έναν λογαριασμό. Σε ποιον "
    "θέλετε να δουλέψετε;",
    "To open another account later, sign out and sign in again.":
        "Για να ανοίξετε άλλον λογαριασμό αργότερα, αποσυνδεθείτε και συνδεθείτε ξανά.",
    "This choice has expired. Sign in again.": "Η επιλογή έληξε. Συνδεθείτε ξανά.",
    "Choose the e-mail address you will sign in with, and a password.":
        "Επιλέξτε το e-mail με το οποίο θα συνδέεστε και έναν κωδικό.",
    "Please correct the fields marked below.": "Διορθώστε τα πεδία που επισημαίνονται παρακάτω.",
    "New password": "Νέος κωδικός",
    "At least 10 characters.": "Τουλάχιστον 10 χαρακτήρες.",
    "The same password again": "Ο ίδιος κωδικός ξανά",
    "Set password": "Ορισμός κωδικού",
    "This form has expired. Reload the page and try again.":
        "Η φόρμα έληξε. Φορτώστε ξανά τη σελίδα και δοκιμάστε πάλι.",
    "There is nothing here.": "Δεν υπάρχει τίποτα εδώ.",
    "Something went wrong on our side.": "Κάτι πήγε στραβά από τη δική μας πλευρά.",
    "This link has expired or was used already. Ask for a new one: “Forgot your password?” on the sign-in page, an owner of the account, or the server's administrator (rentalcomply users link USER_ID).":
        "Ο σύνδεσμος έληξε ή χρησιμοποιήθηκε ήδη. Ζητήστε νέο: «Ξεχάσατε τον κωδικό σας;» στη σελίδα σύνδεσης, από έναν ιδιοκτήτη του λογαριασμού ή από τον διαχειριστή του διακομιστή (rentalcomply users link USER_ID).",
    # navigation
    "Today": "Σήμερα",
    "Calendar": "Ημερολόγιο",
    "Bookings": "Κρατήσεις",
    "Properties": "Καταλύματα",
    "API keys": "Κλειδιά API",
    "Webhooks": "Webhooks",
    "Activity": "Δραστηριότητα",
    # today
    "Needs a person": "Χρειάζεται προσοχή",
    "Nothing needs you right now.": "Τίποτα δεν σας χρειάζεται αυτή τη στιγμή.",
    "Check-ins not done, arrival within 48 hours": "Check-in εκκρεμεί, άφιξη εντός 48 ωρών",
    "arrives": "φτάνει",
    "Police filings rejected, failed or at risk": "Δηλώσεις στην αστυνομία απορρίφθηκαν, απέτυχαν ή κινδυνεύουν",
    "Channel connections in error": "Συνδέσεις καναλιών με σφάλμα",
    "Failing webhook endpoints": "Webhook που αποτυγχάνουν",
    "disabled": "απενεργοποιημένο",
    "failing since {when}": "αποτυγχάνει από {when}",
    "Arrivals, next 7 days": "Αφίξεις, επόμενες 7 ημέρες",
    "Departures, next 7 days": "Αναχωρήσεις, επόμενες 7 ημέρες",
    "No arrivals in the next 7 days.": "Καμία άφιξη τις επόμενες 7 ημέρες.",
    "No departures in the next 7 days.": "Καμία αναχώρηση τις επόμενες 7 ημέρες.",
    "Arrival": "Άφιξη",
    "Departure": "Αναχώρηση",
    "Guest": "Επισκέπτης",
    "Property": "Κατάλυμα",
    "Nights": "Νύχτες",
    "Check-in": "Check-in",
    "Police": "Αστυνομία",
    "{n} guests": "{n} άτομα",
    "{n} nights": "{n} νύχτες",
    # calendar
    "No properties yet.": "Δεν υπάρχουν ακόμη καταλύματα.",
    "Add a property": "Προσθήκη καταλύματος",
    "Month": "Μήνας",
    "Show": "Εμφάνιση",
    "Previous month": "Προηγούμενος μήνας",
    "Next month": "Επόμενος μήνας",
    "Blocked": "Μπλοκαρισμένο",
    "Conflict": "Σύγκρουση",
    "must be a month like 2027-06": "πρέπει να είναι μήνας όπως 2027-06",
    # bookings
    "Guest or reservation code": "Επισκέπτης ή κωδικός κράτησης",
    "All properties": "Όλα τα καταλύματα",
    "Status": "Κατάσταση",
    "Any": "Όλες",
    "Staying from": "Διαμονή από",
    "to": "έως",
    "from": "από",
    "Find": "Αναζήτηση",
    "Clear": "Καθαρισμός",
    "No bookings match.": "Καμία κράτηση δεν ταιριάζει.",
    "Stay": "Διαμονή",
    "Pages": "Σελίδες",
    "Previous": "Προηγούμενη",
    "Next": "Επόμενη",
    "must be a date like 2027-06-01": "πρέπει να είναι ημερομηνία όπως 2027-06-01",
    "Guests": "Άτομα",
    "Total price": "Συνολική τιμή",
    "Climate fee": "Τέλος ανθεκτικότητας",
    "Reservation code": "Κωδικός κράτησης",
    "Cancelled": "Ακυρώθηκε",
    "Guest and check-in": "Επισκέπτης και check-in",
    "Phone": "Τηλέφωνο",
    "Reason": "Αιτία",
    "Cancel the booking": "Ακύρωση της κράτησης",
    "The guest is not told by RentalComply; webhooks announce booking.cancelled.":
        "Το RentalComply δεν ειδοποιεί τον επισκέπτη· τα webhooks ανακοινώνουν booking.cancelled.",
    "Cancel booking": "Ακύρωση κράτησης",
    # properties
    "Name": "Όνομα",
    "Address": "Διεύθυνση",
    "Channels": "Κανάλια",
    "New property": "Νέο κατάλυμα",
    "Create property": "Δημιουργία καταλύματος",
    "AADE property registry number": "Αριθμός Μητρώου Ακινήτου (ΑΜΑ)",
    "The number of the property in the AADE short-term rental registry (ΑΜΑ).":
        "Ο αριθμός του ακινήτου στο Μητρώο Βραχυχρόνιας Διαμονής της ΑΑΔΕ.",
    "Country": "Χώρα",
    "Two letters, like GR.": "Δύο γράμματα, όπως GR.",
    "Time zone": "Ζώνη ώρας",
    "Like Europe/Athens.": "Όπως Europe/Athens.",
    "Most guests": "Μέγιστος αριθμός ατόμων",
    "Climate fee category": "Κατηγορία τέλους ανθεκτικότητας",
    "Police connector": "Σύνδεση με αστυνομία",
    "Details": "Στοιχεία",
    "Save changes": "Αποθήκευση αλλαγών",
    "Channel connections": "Συνδέσεις καναλιών",
    "No calendar feeds connected.": "Δεν έχουν συνδεθεί ημερολόγια.",
    "Channel": "Κανάλι",
    "Feed": "Ημερολόγιο",
    "Sync": "Συγχρονισμός",
    "Actions": "Ενέργειες",
    "last success": "τελευταία επιτυχία",
    "Delete the {channel} connection": "Διαγραφή της σύνδεσης {channel}",
    "Delete": "Διαγραφή",
    "Connect a calendar feed": "Σύνδεση ημερολογίου",
    "iCal export address of the channel": "Διεύθυνση εξαγωγής iCal του καναλιού",
    "Connect": "Σύνδεση",
    "is required": "είναι υποχρεωτικό",
    "is already connected to this property": "είναι ήδη συνδεδεμένο με αυτό το κατάλυμα",
    # keys
    "Keys let your other programs use the RentalComply API. Each key is shown once, when it is made.":
        "Τα κλειδιά επιτρέπουν σε άλλα προγράμματα να χρησιμοποιούν το API. Κάθε κλειδί εμφανίζεται μία φορά, όταν δημιουργείται.",
    "No API keys.": "Δεν υπάρχουν κλειδιά API.",
    "Key": "Κλειδί",
    "Scopes": "Δικαιώματα",
    "Last used": "Τελευταία χρήση",
    "Expires": "Λήγει",
    "never": "ποτέ",
    "The old key keeps working for": "Το παλιό κλειδί λειτουργεί ακόμη για",
    "old key stops now": "το παλιό σταματά τώρα",
    "old key works {hours} h more": "το παλιό λειτουργεί {hours} ώρες ακόμη",
    "Rotate": "Αντικατάσταση",
    "Revoke key {name}": "Ανάκληση κλειδιού {name}",
    "Revoke": "Ανάκληση",
    "Create a key": "Δημιουργία κλειδιού",
    "Which program uses it, like “accounting export”.": "Ποιο πρόγραμμα το χρησιμοποιεί, π.χ. «εξαγωγή λογιστηρίου».",
    "read": "ανάγνωση",
    "write": "εγγραφή",
    "webhooks": "webhooks",
    "scope:read": "διαβάζει καταλύματα και κρατήσεις",
    "scope:write": "δημιουργεί και αλλάζει καταλύματα και κρατήσεις",
    "scope:webhooks": "διαχειρίζεται τα webhooks",
    "Expires after (days)": "Λήγει μετά από (ημέρες)",
    "Empty: never.": "Κενό: ποτέ.",
    "Create key": "Δημιουργία κλειδιού",
    "Your new API key": "Το νέο σας κλειδί API",
    "API key": "Κλειδί API",
    "expires": "λήγει",
    "It replaces key {id}.": "Αντικαθιστά το κλειδί {id}.",
    "Send it as: Authorization: Bearer <key>": "Στείλτε το ως: Authorization: Bearer <κλειδί>",
    "Done, back to the keys": "Τέλος, πίσω στα κλειδιά",
    "Copy": "Αντιγραφή",
    "Copied": "Αντιγράφηκε",
    "This is shown once and never again: store it now.":
        "Εμφανίζεται μόνο αυτή τη φορά: αποθηκεύστε το τώρα.",
    "name": "όνομα",
    "scopes": "δικαιώματα",
    "expires_in_days": "λήξη",
    "give the key a name, to tell keys apart": "δώστε όνομα στο κλειδί, για να ξεχωρίζει",
    "choose at least one scope": "επιλέξτε τουλάχιστον ένα δικαίωμα",
    "must be a number of days from 1 to 3650, or empty": "πρέπει να είναι ημέρες από 1 έως 3650, ή κενό",
    # webhooks
    "Webhook secret": "Μυστικό webhook",
    "Signing secret": "Μυστικό υπογραφής",
    "Your receiver checks each delivery’s signature with it.":
        "Ο παραλήπτης σας ελέγχει με αυτό την υπογραφή κάθε αποστολής.",
    "Done, to the endpoint": "Τέλος, στο endpoint",
    "RentalComply sends signed events to these addresses.":
        "Το RentalComply στέλνει υπογεγραμμένα γεγονότα σε αυτές τις διευθύνσεις.",
    "No webhook endpoints.": "Δεν υπάρχουν webhook.",
    "Events": "Γεγονότα",
    "Last success": "Τελευταία επιτυχία",
    "all events": "όλα τα γεγονότα",
    "failing": "αποτυγχάνει",
    "Register an endpoint": "Καταχώριση endpoint",
    "Address (https://…)": "Διεύθυνση (https://…)",
    "Description": "Περιγραφή",
    "Register": "Καταχώριση",
    "Failing since": "Αποτυγχάνει από",
    "Disabled because": "Απενεργοποιήθηκε επειδή",
    "Previous secret signs until": "Το προηγούμενο μυστικό υπογράφει έως",
    "Send a test": "Δοκιμαστική αποστολή",
    "Rotate the secret": "Νέο μυστικό",
    "Disable": "Απενεργοποίηση",
    "Enable": "Ενεργοποίηση",
    "Deliveries": "Αποστολές",
    "No deliveries yet.": "Δεν υπάρχουν ακόμη αποστολές.",
    "Event": "Γεγονός",
    "Created": "Δημιουργήθηκε",
    "Response": "Απάντηση",
    "Attempts": "Προσπάθειες",
    "Send again": "Αποστολή ξανά",
    "url": "διεύθυνση",
    "events": "γεγονότα",
    "description": "περιγραφή",
    # activity
    "Every change made in the dashboard or with an API key, newest first.":
        "Κάθε αλλαγή από τον πίνακα ελέγχου ή με κλειδί API, οι νεότερες πρώτα.",
    "Nothing has changed yet.": "Τίποτα δεν έχει αλλάξει ακόμη.",
    "When": "Πότε",
    "Who": "Ποιος",
    "What": "Τι",
    "Resource": "Πόρος",
    "user": "χρήστης",
    "Newer": "Νεότερα",
    "Older": "Παλαιότερα",
    # check-in on the booking page
    "E-mail problem": "Πρόβλημα e-mail",
    "Born": "Γέννηση",
    "Nationality": "Υπηκοότητα",
    "Document": "Έγγραφο",
    "lead": "κύριος",
    "The guests’ data was erased at the end of its retention.":
        "Τα στοιχεία των επισκεπτών διαγράφηκαν στο τέλος της διατήρησής τους.",
    "No guest has checked in yet.": "Κανείς επισκέπτης δεν έχει κάνει ακόμη check-in.",
    "Check-in link": "Σύνδεσμος check-in",
    "E-mail the link to the guest": "Αποστολή του συνδέσμου στον επισκέπτη",
    "Send the link again": "Νέα αποστολή του συνδέσμου",
    "The booking has no guest e-mail address.": "Η κράτηση δεν έχει e-mail επισκέπτη.",
    "done:invited": "Ο σύνδεσμος check-in στάλθηκε στον επισκέπτη.",
    "Events it receives": "Γεγονότα που λαμβάνει",
    "Save the events": "Αποθήκευση γεγονότων",
    "done:events_saved": "Τα γεγονότα αποθηκεύτηκαν.",
    "Police deadline": "Προθεσμία αστυνομίας",
    "Download the police file": "Λήψη του αρχείου για την αστυνομία",
    "Reference of the upload (optional)": "Αριθμός της υποβολής (προαιρετικό)",
    "File with the police again": "Νέα υποβολή στην αστυνομία",
    "done:refiled": "Η υποβολή στην αστυνομία ξεκίνησε ξανά.",
    "done:police_filed": "Η υποβολή στην αστυνομία καταγράφηκε.",
    # sync
    "Only when the channel really cancelled the stays missing from its feed.":
        "Μόνο όταν το κανάλι ακύρωσε πράγματι τις διαμονές που λείπουν από το ημερολόγιό του.",
    "Accept the removals": "Αποδοχή των ακυρώσεων",
    "last attempt": "τελευταία προσπάθεια",
    "Sync every feed now": "Συγχρονισμός όλων τώρα",
    "This property’s calendar, for the channels": "Το ημερολόγιο του καταλύματος, για τα κανάλια",
    "Paste this address into each channel’s calendar import, so that nights sold elsewhere close there too.":
        "Επικολλήστε αυτή τη διεύθυνση στην εισαγωγή ημερολογίου κάθε καναλιού, ώστε οι νύχτες που πουλήθηκαν αλλού να κλείνουν κι εκεί.",
    "Calendar export address": "Διεύθυνση εξαγωγής ημερολογίου",
    "Give it a new address": "Νέα διεύθυνση",
    "The old address stops working at once: paste the new one into every channel.":
        "Η παλιά διεύθυνση σταματά αμέσως: επικολλήστε τη νέα σε κάθε κανάλι.",
    "done:export_rotated": "Νέα διεύθυνση ημερολογίου· η παλιά δεν λειτουργεί πια.",
    # the check-in links (pages/checkin_links.py, _checkin_link.tpl, _property_checkin_link.tpl)
    "done:link_shared": "Σημειώθηκε ότι δώσατε τον σύνδεσμο check-in στον επισκέπτη.",
    "done:checkin_link_rotated": "Νέος σύνδεσμος check-in· ο παλιός δεν λειτουργεί πια.",
    "It works now, with or without an e-mail address: send it to the guest by WhatsApp, SMS or the channel’s messages, or let them scan the code.":
        "Λειτουργεί ήδη, με ή χωρίς e-mail: στείλτε τον στον επισκέπτη με WhatsApp, SMS ή με τα μηνύματα του καναλιού, ή δώστε του να σαρώσει τον κωδικό.",
    "Booking reference": "Κωδικός κράτησης",
    "A guest who opens the property’s check-in link names the booking with its reference ({reference}), or with the channel’s reservation code.":
        "Όποιος επισκέπτης ανοίξει τον σύνδεσμο check-in του καταλύματος βρίσκει την κράτησή του με τον κωδικό της ({reference}) ή με τον κωδικό κράτησης του καναλιού.",
    "I sent the link myself": "Έστειλα τον σύνδεσμο μόνος μου",
    "Marks the guest as invited, as a sent e-mail would.":
        "Ο επισκέπτης σημειώνεται ως προσκεκλημένος, όπως θα γινόταν με ένα e-mail.",
    "QR code of the check-in link": "Κωδικός QR του συνδέσμου check-in",
    "Check-in link for the channels’ messages": "Σύνδεσμος check-in για τα μηνύματα των καναλιών",
    "One link for every guest of this property: paste it into the automatic (scheduled) message each channel sends before arrival. The guest enters the reservation code and the arrival date and lands on their own check-in page.":
        "Ένας σύνδεσμος για όλους τους επισκέπτες του καταλύματος: επικολλήστε τον στο αυτόματο (προγραμματισμένο) μήνυμα που στέλνει κάθε κανάλι πριν από την άφιξη. Ο επισκέπτης πληκτρολογεί τον κωδικό κράτησης και την ημερομηνία άφιξης και μεταφέρεται στη δική του σελίδα check-in.",
    "Check-in link of the property": "Σύνδεσμος check-in του καταλύματος",
    "A message to paste": "Μήνυμα για επικόλληση",
    "Hello! Before you arrive, the law asks us to register every guest. Please complete the online check-in (about 3 minutes) at {link} — enter your reservation code and your arrival date. Thank you!":
        "Γεια σας! Πριν από την άφιξή σας, ο νόμος μάς ζητά να καταχωρίσουμε κάθε επισκέπτη. Παρακαλούμε συμπληρώστε το ηλεκτρονικό check-in (περίπου 3 λεπτά) στο {link} — πληκτρολογήστε τον κωδικό της κράτησής σας και την ημερομηνία άφιξης. Ευχαριστούμε!",
    "Airbnb: Messages → Scheduled messages, a few days before check-in. Booking.com: Messages → Message preferences, an automatic message before arrival.":
        "Airbnb: Μηνύματα → Προγραμματισμένα μηνύματα, λίγες ημέρες πριν από το check-in. Booking.com: Μηνύματα → Προτιμήσεις μηνυμάτων, ένα αυτόματο μήνυμα πριν από την άφιξη.",
    "The old link stops working at once: paste the new one into every channel’s message.":
        "Ο παλιός σύνδεσμος σταματά αμέσως να λειτουργεί: επικολλήστε τον νέο στο μήνυμα κάθε καναλιού.",
    "Give the check-in link a new address?": "Νέα διεύθυνση για τον σύνδεσμο check-in;",
    "The current check-in link of the property stops working at once.":
        "Ο τωρινός σύνδεσμος check-in του καταλύματος σταματά αμέσως να λειτουργεί.",
    "Guests who open it from a message already sent are told the link does not work: paste the new link into every channel’s scheduled message.":
        "Οι επισκέπτες που θα τον ανοίξουν από μήνυμα που έχει ήδη σταλεί θα δουν ότι δεν λειτουργεί: επικολλήστε τον νέο σύνδεσμο στο προγραμματισμένο μήνυμα κάθε καναλιού.",
    "The bookings' own links do not change.": "Οι σύνδεσμοι των ίδιων των κρατήσεων δεν αλλάζουν.",
    "done:removals_accepted": "Οι ακυρώσεις έγιναν δεκτές· ο συγχρονισμός ξεκίνησε.",
    "done:sync_queued": "Ο συγχρονισμός όλων των ημερολογίων ξεκίνησε.",
    "done:sync_wait": "Ένας συγχρονισμός ξεκίνησε πριν από λιγότερο από 5 λεπτά· δοκιμάστε ξανά σε λίγο.",
    # reports
    "Reports": "Αναφορές",
    "Tax reports": "Φορολογικές αναφορές",
    "Monthly stay declarations and climate fee, and the yearly income, for AADE.":
        "Μηνιαίες δηλώσεις διαμονής και τέλος ανθεκτικότητας, και το ετήσιο εισόδημα, για την ΑΑΔΕ.",
    "Period": "Περίοδος",
    "Generate a report": "Δημιουργία αναφοράς",
    "Month (YYYY-MM) or year (YYYY)": "Μήνας (ΕΕΕΕ-ΜΜ) ή έτος (ΕΕΕΕ)",
    "Generate": "Δημιουργία",
    "Year": "Έτος",
    "All years": "Όλα τα έτη",
    "No reports yet.": "Δεν υπάρχουν ακόμη αναφορές.",
    "Stays": "Διαμονές",
    "Revenue": "Έσοδα",
    "Due": "Προθεσμία",
    "Files": "Αρχεία",
    "outdated": "παρωχημένη",
    "overdue": "εκπρόθεσμη",
    "provisional": "προσωρινή",
    "The period is still running: this report holds only the stays that ended by {date}. It is generated again once the period has closed; file that one.":
        "Η περίοδος δεν έχει κλείσει: η αναφορά περιέχει μόνο τις διαμονές που έληξαν έως {date}. Δημιουργείται ξανά όταν κλείσει η περίοδος· υποβάλετε εκείνη.",
    "Bookings or properties of this period changed after the report was made: generate it again before filing.":
        "Κρατήσεις ή καταλύματα της περιόδου άλλαξαν μετά τη δημιουργία της αναφοράς: δημιουργήστε την ξανά πριν την υποβολή.",
    "Summary": "Σύνοψη",
    "Net of the fee": "Καθαρά, χωρίς το τέλος",
    "Cancellations that pay": "Ακυρώσεις με πληρωμή",
    "Need attention": "Θέλουν προσοχή",
    "Deadlines and filing": "Προθεσμίες και υποβολή",
    "Declarations due": "Προθεσμία δηλώσεων",
    "Fee due": "Προθεσμία τέλους",
    "Generated": "Δημιουργήθηκε",
    "Filed": "Υποβλήθηκε",
    "not yet": "όχι ακόμη",
    "Reference": "Αριθμός αναφοράς",
    "Download {format}": "Λήψη {format}",
    "No files yet: the report is being made. Reload in a moment.":
        "Δεν υπάρχουν ακόμη αρχεία: η αναφορά ετοιμάζεται. Φορτώστε ξανά σε λίγο.",
    "Generate again": "Νέα δημιουργία",
    "Mark as filed with AADE": "Σήμανση ως υποβληθείσα στην ΑΑΔΕ",
    "myAADE reference": "Αριθμός αναφοράς myAADE",
    "Mark as filed": "Σήμανση ως υποβληθείσα",
    "Tax reports due within 5 days or overdue": "Φορολογικές αναφορές με προθεσμία εντός 5 ημερών ή εκπρόθεσμες",
    "due {date}": "προθεσμία {date}",
    "Amount kept after the cancellation": "Ποσό που κρατήθηκε μετά την ακύρωση",
    "Amount the guest still pays (EUR)": "Ποσό που πληρώνει ακόμη ο επισκέπτης (EUR)",
    "Declared to AADE in the month of the cancellation. Empty: nothing.":
        "Δηλώνεται στην ΑΑΔΕ τον μήνα της ακύρωσης. Κενό: τίποτα.",
    "Save the amount": "Αποθήκευση ποσού",
    "Amount kept": "Ποσό που κρατήθηκε",
    "must be 1 to 100 characters": "πρέπει να έχει 1 έως 100 χαρακτήρες",
    "generating": "Σε δημιουργία", "completed": "Ολοκληρώθηκε", "submitted": "Υποβλήθηκε",
    "done:generating": "Η αναφορά δημιουργείται.",
    "done:submitted": "Η αναφορά σημειώθηκε ως υποβληθείσα.",
    "done:amount_kept": "Το ποσό αποθηκεύτηκε.",
    # statuses
    "NOT_STARTED": "Δεν ξεκίνησε", "INVITED": "Προσκλήθηκε", "IN_PROGRESS": "Σε εξέλιξη",
    "COMPLETED": "Ολοκληρώθηκε", "EXPIRED": "Έληξε", "NOT_REQUIRED": "Δεν απαιτείται",
    "PENDING": "Εκκρεμεί", "QUEUED": "Σε αναμονή", "SUBMITTED": "Υποβλήθηκε",
    "REJECTED": "Απορρίφθηκε", "FAILED": "Απέτυχε", "AT_RISK": "Σε κίνδυνο",
    "HELD": "Σε αναστολή",
    "confirmed": "Επιβεβαιωμένη", "cancelled": "Ακυρωμένη", "active": "Ενεργό",
    "inactive": "Ανενεργό", "revoked": "Ανακλήθηκε", "expired": "Έληξε", "pending": "Εκκρεμεί",
    "succeeded": "Επιτυχία", "failed": "Αποτυχία", "ok": "Εντάξει", "error": "Σφάλμα",
    "standard": "Κανονική", "detached_over_80m2": "Μονοκατοικία άνω των 80 m²",
    "none": "Καμία", "file": "Αρχείο",
    # done messages
    "done:cancelled": "Η κράτηση ακυρώθηκε.",
    "done:created": "Το κατάλυμα δημιουργήθηκε.",
    "done:saved": "Οι αλλαγές αποθηκεύτηκαν.",
    "done:channel_added": "Το ημερολόγιο συνδέθηκε· ο πρώτος συγχρονισμός έρχεται σύντομα.",
    "done:channel_deleted": "Η σύνδεση διαγράφηκε· οι κρατήσεις της μένουν.",
    "done:revoked": "Το κλειδί ανακλήθηκε: δεν γίνεται πλέον δεκτό.",
    "done:test_sent": "Η δοκιμαστική αποστολή ξεκίνησε· το αποτέλεσμα εμφανίζεται παρακάτω.",
    "done:active": "Το endpoint ενεργοποιήθηκε.",
    "done:disabled": "Το endpoint απενεργοποιήθηκε.",
    "done:deleted": "Το endpoint διαγράφηκε.",
    "done:resent": "Η αποστολή μπήκε ξανά στη σειρά.",
    "done:resend_refused": "Μόνο μια αποτυχημένη αποστολή ενεργού endpoint στέλνεται ξανά.",
    "done:password_set": "Ο κωδικός ορίστηκε. Συνδεθείτε.",
    "done:signed_out": "Αποσυνδεθήκατε.",
}

# The English of the keys that are codes rather than English text.
ENGLISH: dict[str, str] = {
    "NOT_STARTED": "Not started", "INVITED": "Invited", "IN_PROGRESS": "In progress",
    "COMPLETED": "Completed", "EXPIRED": "Expired", "NOT_REQUIRED": "Not required",
    "PENDING": "Pending", "QUEUED": "Queued", "SUBMITTED": "Submitted", "REJECTED": "Rejected",
    "FAILED": "Failed", "AT_RISK": "At risk", "HELD": "Held", "confirmed": "Confirmed",
    "cancelled": "Cancelled",
    "active": "Active", "inactive": "Inactive", "revoked": "Revoked", "expired": "Expired",
    "pending": "Pending", "succeeded": "Succeeded", "failed": "Failed", "ok": "OK",
    "error": "Error", "standard": "Standard", "detached_over_80m2": "Detached house over 80 m²",
    "none": "None", "file": "File", "alloggiati": "Alloggiati Web (IT)",
    "ses_hospedajes": "SES Hospedajes (ES)", "siba": "SIBA (PT)",
    "scope:read": "reads properties and bookings",
    "scope:write": "creates and changes properties and bookings",
    "scope:webhooks": "manages webhooks",
    "expires_in_days": "expiry",
    "generating": "Generating", "completed": "Completed", "submitted": "Filed",
    "done:generating": "The report is being made.",
    "done:submitted": "The report is marked as filed.",
    "done:amount_kept": "The amount is saved.",
    "done:invited": "The check-in link was sent to the guest.",
    "done:link_shared": "The check-in link is marked as sent to the guest.",
    "done:checkin_link_rotated": "New check-in link; the old one no longer works.",
    "done:refiled": "The police filing is queued again.",
    "done:police_filed": "The police filing is recorded.",
    "done:events_saved": "The events are saved.",
    "done:export_rotated": "The calendar has a new address; the old one no longer works.",
    "done:removals_accepted": "The removals are accepted; the feed is being synced.",
    "done:sync_queued": "Every feed is being synced now.",
    "done:sync_wait": "A sync was started less than 5 minutes ago; try again in a few minutes.",
    "done:cancelled": "The booking is cancelled.",
    "done:created": "The property is created.",
    "done:saved": "The changes are saved.",
    "done:channel_added": "The feed is connected; its first sync follows shortly.",
    "done:channel_deleted": "The connection is deleted; its bookings stay.",
    "done:revoked": "The key is revoked: it is refused from now on.",
    "done:test_sent": "The test delivery is on its way; its result shows below.",
    "done:active": "The endpoint is enabled.",
    "done:disabled": "The endpoint is disabled.",
    "done:deleted": "The endpoint is deleted.",
    "done:resent": "The delivery is queued again.",
    "done:resend_refused": "Only a failed delivery of an enabled endpoint can be sent again.",
    "done:password_set": "Your password is set. Sign in.",
    "done:signed_out": "You are signed out.",
}

# --- confirmations of destructive actions ---------------------------------------------------------
GREEK.update({
    "What stops working": "Τι σταματά να λειτουργεί",
    "No, keep it": "Όχι, να μείνει",
    "Cancel this booking?": "Ακύρωση αυτής της κράτησης;",
    "{guest}, {property}, {arrival} to {departure}": "{guest}, {property}, {arrival} έως {departure}",
    "The stay leaves the calendar and the property's exported feed: the dates become free for "
    "other bookings.": "Η διαμονή φεύγει από το ημερολόγιο και από το εξαγόμενο ημερολόγιο του "
    "καταλύματος: οι ημερομηνίες ελευθερώνονται για άλλες κρατήσεις.",
    "The guest's check-in link stops working.": "Ο σύνδεσμος check-in του επισκέπτη σταματά να λειτουργεί.",
    "Programs listening to webhooks are told booking.cancelled.":
        "Τα προγράμματα που ακούν webhooks λαμβάνουν booking.cancelled.",
    "It cannot be undone: a new booking would be needed.":
        "Δεν αναιρείται: θα χρειαζόταν νέα κράτηση.",
    "Yes, cancel the booking": "Ναι, ακύρωση της κράτησης",
    "Give the calendar a new address?": "Νέα διεύθυνση για το ημερολόγιο;",
    "The current export address stops working at once.":
        "Η τρέχουσα διεύθυνση εξαγωγής σταματά αμέσως να λειτουργεί.",
    "Every channel that imports it (Airbnb, Booking.com, Vrbo, a channel manager) stops seeing "
    "this property's bookings until you paste the new address into it, and may let guests book "
    "dates that are taken.": "Κάθε κανάλι που την εισάγει (Airbnb, Booking.com, Vrbo, channel "
    "manager) παύει να βλέπει τις κρατήσεις του καταλύματος μέχρι να του δώσετε τη νέα διεύθυνση, "
    "και μπορεί να δεχτεί κρατήσεις σε πιασμένες ημερομηνίες.",
    "Yes, give it a new address": "Ναι, νέα διεύθυνση",
    "Revoke this API key?": "Ανάκληση αυτού του κλειδιού API;",
    "{name} ({hint}…), last used {when}": "{name} ({hint}…), τελευταία χρήση {when}",
    "no name": "χωρίς όνομα",
    "Every program that uses this key is refused from its next request (401): a channel manager "
    "or an accounting tool using it stops syncing.": "Κάθε πρόγραμμα που χρησιμοποιεί το κλειδί "
    "απορρίπτεται από το επόμενο αίτημά του (401): ένας channel manager ή ένα λογιστικό πρόγραμμα "
    "σταματά να συγχρονίζεται.",
    "It cannot be undone: a new key would have to be made and given to each program.":
        "Δεν αναιρείται: θα έπρεπε να φτιαχτεί νέο κλειδί και να δοθεί σε κάθε πρόγραμμα.",
    "Yes, revoke the key": "Ναι, ανάκληση του κλειδιού",
    "Delete this webhook endpoint?": "Διαγραφή αυτού του webhook;",
    "The program at this address receives no more events.":
        "Το πρόγραμμα σε αυτή τη διεύθυνση δεν λαμβάνει πια γεγονότα.",
    "Deliveries waiting to be made are dropped, and the delivery history is deleted.":
        "Οι παραδόσεις σε αναμονή ακυρώνονται και το ιστορικό παραδόσεων διαγράφεται.",
    "It cannot be undone: registering it again gives a new secret the receiver must be told.":
        "Δεν αναιρείται: μια νέα καταχώριση δίνει νέο μυστικό που πρέπει να μάθει ο παραλήπτης.",
    "Yes, delete the endpoint": "Ναι, διαγραφή του webhook",
})


# --- making and changing bookings ------------------------------------------------------------------
ENGLISH.update({
    "payment:platform": "Paid through the platform", "payment:bank_transfer": "Bank transfer",
    "payment:cash": "Cash", "payment:card": "Card",
    "source:walk_in": "Walk-in guest", "source:phone": "Phone", "source:email": "E-mail",
    "source:direct": "Direct (other)", "source:other": "Other",
    "done:booking_created": "The booking is made.",
    "done:booking_created_invited": "The booking is made; the check-in link is on its way to the guest.",
    "done:booking_created_not_invited": "The booking is made; no check-in e-mail could be sent for it.",
})
GREEK.update({
    "payment:platform": "Μέσω της πλατφόρμας", "payment:bank_transfer": "Τραπεζική μεταφορά",
    "payment:cash": "Μετρητά", "payment:card": "Κάρτα",
    "source:walk_in": "Επισκέπτης χωρίς κράτηση", "source:phone": "Τηλέφωνο",
    "source:email": "E-mail", "source:direct": "Απευθείας (άλλο)", "source:other": "Άλλο",
    "done:booking_created": "Η κράτηση καταχωρίστηκε.",
    "done:booking_created_invited": "Η κράτηση καταχωρίστηκε· ο σύνδεσμος check-in στάλθηκε στον επισκέπτη.",
    "done:booking_created_not_invited": "Η κράτηση καταχωρίστηκε· δεν ήταν δυνατό να σταλεί e-mail check-in.",
    "New booking": "Νέα κράτηση",
    "Edit the booking": "Επεξεργασία της κράτησης",
    "Create booking": "Καταχώριση κράτησης",
    "Back": "Πίσω",
    "Guest name": "Όνομα επισκέπτη",
    "The check-in link goes there.": "Εκεί στέλνεται ο σύνδεσμος check-in.",
    "Language of the guest’s e-mails": "Γλώσσα των e-mail του επισκέπτη",
    "Total price (EUR)": "Συνολική τιμή (EUR)",
    "Empty: not known yet.": "Κενό: δεν είναι ακόμη γνωστή.",
    "Payment method": "Τρόπος πληρωμής",
    "not known": "άγνωστος",
    "Booked by": "Τρόπος κράτησης",
    "E-mail the check-in link to the guest now": "Αποστολή του συνδέσμου check-in στον επισκέπτη τώρα",
    "A stay booked directly with you: on the phone, by e-mail or at the door. The same rules as "
    "the API: no overlap with another stay or a channel block, at most the property’s guests.":
        "Διαμονή που κλείστηκε απευθείας μαζί σας: στο τηλέφωνο, με e-mail ή στην πόρτα. Ισχύουν οι "
        "κανόνες του API: καμία επικάλυψη με άλλη διαμονή ή μπλοκ καναλιού, το πολύ όσα άτομα "
        "δέχεται το κατάλυμα.",
    "The dates come from the {channel} calendar: change them there, and the next sync brings "
    "them here.": "Οι ημερομηνίες έρχονται από το ημερολόγιο του {channel}: αλλάξτε τις εκεί και "
    "ο επόμενος συγχρονισμός τις φέρνει εδώ.",
    "choose one of your properties": "επιλέξτε ένα από τα καταλύματά σας",
    "must be 1 to 200 characters": "πρέπει να έχει 1 έως 200 χαρακτήρες",
    "must be a real date in the form YYYY-MM-DD": "πρέπει να είναι ημερομηνία της μορφής ΕΕΕΕ-ΜΜ-ΗΗ",
    "must be a whole number from 1 to 100": "πρέπει να είναι ακέραιος από 1 έως 100",
    "Notes for the team": "Σημειώσεις για την ομάδα",
    "Seen only in the dashboard: not sent to the guest, the API or webhooks.":
        "Φαίνονται μόνο στον πίνακα ελέγχου: δεν στέλνονται στον επισκέπτη, στο API ή σε webhooks.",
    "must be at most 2000 characters": "πρέπει να έχει έως 2000 χαρακτήρες",
    "must not contain control characters": "δεν πρέπει να περιέχει χαρακτήρες ελέγχου",
    "must be an e-mail address like name@example.com, or null":
        "πρέπει να είναι διεύθυνση e-mail όπως name@example.com, ή κενό",
})


# --- time zones and roles --------------------------------------------------------------------------
ENGLISH.update({"done:timezone_saved": "The time zone is saved: times are shown in it now."})
GREEK.update({
    "done:timezone_saved": "Η ζώνη ώρας αποθηκεύτηκε· οι ώρες εμφανίζονται πλέον σε αυτήν.",
    "Account": "Λογαριασμός",
    "Now": "Τώρα",
    "Times that belong to no property (activity, deliveries, keys, reports) are shown in this "
    "zone; a booking’s and a property’s times in the property’s own zone.":
        "Οι ώρες που δεν ανήκουν σε κατάλυμα (δραστηριότητα, παραδόσεις, κλειδιά, αναφορές) "
        "εμφανίζονται σε αυτή τη ζώνη· οι ώρες μιας κράτησης ή ενός καταλύματος στη ζώνη του "
        "καταλύματος.",
    "must be a time zone like Europe/Athens": "πρέπει να είναι ζώνη ώρας όπως Europe/Athens",
    "Only an owner of the account can do this. Ask an owner to change your role.":
        "Μόνο ένας ιδιοκτήτης του λογαριασμού μπορεί να το κάνει. Ζητήστε από έναν ιδιοκτήτη να "
        "αλλάξει τον ρόλο σας.",
})

# --- reports: what needs attention -----------------------------------------------------------------
GREEK.update({
    "see below": "δείτε παρακάτω",
    "Bookings that need attention": "Κρατήσεις που χρειάζονται προσοχή",
    "They are left out of every total until they are corrected; generate the report again "
    "afterwards.": "Μένουν εκτός συνόλων μέχρι να διορθωθούν· μετά δημιουργήστε ξανά την αναφορά.",
    "Correct it": "Διόρθωση",
    "No files: the report could not be made.": "Κανένα αρχείο: η αναφορά δεν δημιουργήθηκε.",
    "{n} bookings of the period need attention and are not in the report.":
        "{n} κρατήσεις της περιόδου χρειάζονται προσοχή και δεν περιλαμβάνονται στην αναφορά.",
    "File anyway, without the bookings that need attention":
        "Υποβολή παρ' όλα αυτά, χωρίς τις κρατήσεις που χρειάζονται προσοχή",
    "{n} of the period's bookings need attention: correct them first, or tick “file anyway”.":
        "{n} κρατήσεις της περιόδου χρειάζονται προσοχή: διορθώστε τες πρώτα ή επιλέξτε "
        "«υποβολή παρ' όλα αυτά».",
})

# --- people -----------------------------------------------------------------------------------------
ENGLISH.update({
    "role:owner": "Owner", "role:member": "Member",
    "done:invited_colleague": "The invitation is on its way: the link in it works once.",
    "done:role_changed": "The role is changed.",
    "done:user_enabled": "The user can sign in again.",
    "done:user_disabled": "The user is disabled: their sessions are ended.",
    "done:link_sent": "A one-time link to choose a new password is on its way.",
})
GREEK.update({
    "role:owner": "Ιδιοκτήτης", "role:member": "Μέλος",
    "done:invited_colleague": "Η πρόσκληση στάλθηκε: ο σύνδεσμός της λειτουργεί μία φορά.",
    "done:role_changed": "Ο ρόλος άλλαξε.",
    "done:user_enabled": "Ο χρήστης μπορεί ξανά να συνδεθεί.",
    "done:user_disabled": "Ο χρήστης απενεργοποιήθηκε: οι συνεδρίες του έληξαν.",
    "done:link_sent": "Στάλθηκε σύνδεσμος μίας χρήσης για νέο κωδικό.",
    "People": "Άτομα του λογαριασμού",
    "Role": "Ρόλος",
    "Last sign-in": "Τελευταία σύνδεση",
    "(chosen on the link’s page)": "(επιλέγεται στη σελίδα του συνδέσμου)",
    "you": "εσείς",
    "Role of {email}": "Ρόλος του {email}",
    "Change": "Αλλαγή",
    "invited, no password yet": "προσκλήθηκε, χωρίς κωδικό ακόμη",
    "Disable {email}": "Απενεργοποίηση {email}",
    "Enable {email}": "Ενεργοποίηση {email}",
    "E-mail a new password link": "Αποστολή συνδέσμου για νέο κωδικό",
    "Invite a colleague": "Πρόσκληση συνεργάτη",
    "An owner does everything; a member works with bookings, properties and reports but cannot "
    "manage API keys, webhooks or people. The colleague gets a one-time link by e-mail to choose "
    "a password.": "Ο ιδιοκτήτης κάνει τα πάντα· το μέλος δουλεύει με κρατήσεις, καταλύματα και "
    "αναφορές, αλλά δεν διαχειρίζεται κλειδιά API, webhooks ή άτομα. Ο συνεργάτης λαμβάνει με "
    "e-mail σύνδεσμο μίας χρήσης για να επιλέξει κωδικό.",
    "Send the invitation": "Αποστολή πρόσκλησης",
    "Forgot your password?": "Ξεχάσατε τον κωδικό σας;",
    "If {email} belongs to a user of the dashboard, a link to choose a new password is on its "
    "way to it. It works once.": "Αν το {email} ανήκει σε χρήστη του πίνακα ελέγχου, στάλθηκε "
    "εκεί σύνδεσμος για νέο κωδικό. Λειτουργεί μία φορά.",
    "Give the e-mail address you sign in with: a one-time link to choose a new password is sent "
    "to it.": "Δώστε το e-mail με το οποίο συνδέεστε: θα σταλεί εκεί σύνδεσμος μίας χρήσης για "
    "νέο κωδικό.",
    "Send me a link": "Στείλτε μου σύνδεσμο",
    "is used by another user": "χρησιμοποιείται από άλλον χρήστη",
    "is one of this account's people already": "ανήκει ήδη στα άτομα αυτού του λογαριασμού",
    "must be an e-mail address": "πρέπει να είναι διεύθυνση e-mail",
    "must be owner or member": "πρέπει να είναι ιδιοκτήτης ή μέλος",
    "the account keeps at least one active owner": "ο λογαριασμός κρατά τουλάχιστον έναν ενεργό ιδιοκτήτη",
})

# --- the activity page ------------------------------------------------------------------------------
GREEK.update({
    "Every change made in the dashboard or with an API key, and every sign-in, newest first.":
        "Κάθε αλλαγή από τον πίνακα ελέγχου ή με κλειδί API, και κάθε σύνδεση, πρώτα οι νεότερες.",
    "Anyone": "Οποιοσδήποτε",
    "Everything": "Όλα",
    "Nothing matches.": "Τίποτα δεν ταιριάζει.",
})

# --- the timeline -----------------------------------------------------------------------------------
GREEK.update({
    "Every property at once: one lane of stays each. Open a property for its month grid.":
        "Όλα τα καταλύματα μαζί: μία λωρίδα διαμονών το καθένα. Ανοίξτε ένα κατάλυμα για τον "
        "μήνα του.",
    "From": "Από",
    "To": "Έως",
    "Two weeks": "Δύο εβδομάδες",
    "A month": "Ένας μήνας",
    "Earlier": "Νωρίτερα",
    "Later": "Αργότερα",
})

# --- the morning e-mail (dashboard/morning.py) and its switch on the account page -----------------
ENGLISH.update({
    "done:morning_email_on": "The morning e-mail is on: owners get it on mornings when something "
                             "needs a person.",
    "done:morning_email_off": "The morning e-mail is off for this account.",
})
GREEK.update({
    "done:morning_email_on": "Το πρωινό e-mail είναι ενεργό: οι ιδιοκτήτες το λαμβάνουν τα πρωινά "
                             "που κάτι χρειάζεται προσοχή.",
    "done:morning_email_off": "Το πρωινό e-mail είναι ανενεργό για αυτόν τον λογαριασμό.",
    "Good morning. This is what needs a person at {account} today, {date}:":
        "Καλημέρα. Αυτά χρειάζονται προσοχή στο {account} σήμερα, {date}:",
    "Open Today in the dashboard:": "Ανοίξτε τη σελίδα «Σήμερα» στον πίνακα ελέγχου:",
    "Open Today in the dashboard": "Άνοιγμα της σελίδας «Σήμερα»",
    "You receive this e-mail as an owner of {account}, on the mornings when something needs a "
    "person. An owner can turn it off on the account page:":
        "Λαμβάνετε αυτό το e-mail ως ιδιοκτήτης του {account}, τα πρωινά που κάτι χρειάζεται "
        "προσοχή. Ένας ιδιοκτήτης μπορεί να το απενεργοποιήσει στη σελίδα του λογαριασμού:",
    "Morning e-mail": "Πρωινό e-mail",
    "Every morning at {hour}, account time, each owner gets an e-mail listing what needs a person "
    "today (as on Today), only when something does.":
        "Κάθε πρωί στις {hour}, ώρα του λογαριασμού, κάθε ιδιοκτήτης λαμβάνει e-mail με ό,τι "
        "χρειάζεται προσοχή σήμερα (όπως στη σελίδα «Σήμερα»), μόνο όταν κάτι χρειάζεται.",
    "The administrator of the server has turned the morning e-mail off (dashboard.morning_email).":
        "Ο διαχειριστής του διακομιστή έχει απενεργοποιήσει το πρωινό e-mail "
        "(dashboard.morning_email).",
    "Send the owners the morning e-mail": "Αποστολή του πρωινού e-mail στους ιδιοκτήτες",
})

CHANNELS = {"manual": "Direct", "airbnb": "Airbnb", "booking": "Booking.com", "vrbo": "Vrbo",
            "other": "Other"}
CHANNELS_EL = {"manual": "Απευθείας", "other": "Άλλο"}

MONTHS = {"en": ["January", "February", "March", "April", "May", "June", "July", "August",
                 "September", "October", "November", "December"],
          "el": ["Ιανουάριος", "Φεβρουάριος", "Μάρτιος", "Απρίλιος", "Μάιος", "Ιούνιος",
                 "Ιούλιος", "Αύγουστος", "Σεπτέμβριος", "Οκτώβριος", "Νοέμβριος", "Δεκέμβριος"]}
SHORT_MONTHS = {"en": ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                       "Nov", "Dec"],
                "el": ["Ιαν", "Φεβ", "Μαρ", "Απρ", "Μαΐ", "Ιουν", "Ιουλ", "Αυγ", "Σεπ", "Οκτ",
                       "Νοε", "Δεκ"]}
WEEKDAYS = {"en": ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
            "el": ["Δευ", "Τρι", "Τετ", "Πεμ", "Παρ", "Σαβ", "Κυρ"]}


LOCALES = {"en": "en_GB", "el": "el_GR"}  # day before month, a 24-hour clock, as hosts expect

# Plural forms by CLDR category (Locale.plural_form): Greek, like English, has "one" and "other".
PLURALS = {
    "night": {"en": {"one": "{n} night", "other": "{n} nights"},
              "el": {"one": "{n} νύχτα", "other": "{n} νύχτες"}},
    "guest": {"en": {"one": "{n} guest", "other": "{n} guests"},
              "el": {"one": "{n} άτομο", "other": "{n} άτομα"}},
    "booking": {"en": {"one": "{n} booking", "other": "{n} bookings"},
                "el": {"one": "{n} κράτηση", "other": "{n} κρατήσεις"}},
    "needs_attention": {"en": {"one": "{n} needs attention", "other": "{n} need attention"},
                        "el": {"one": "{n} θέλει προσοχή", "other": "{n} θέλουν προσοχή"}},
    # The morning e-mail's subject (dashboard/morning.py).
    "needs_a_person_today": {
        "en": {"one": "{n} thing needs a person today", "other": "{n} things need a person today"},
        "el": {"one": "{n} θέμα χρειάζεται προσοχή σήμερα",
               "other": "{n} θέματα χρειάζονται προσοχή σήμερα"}},
}


# --- access instructions ---------------------------------------------------------------------------
ENGLISH.update({"done:access_saved": "The access instructions are saved."})
GREEK.update({
    "done:access_saved": "Οι οδηγίες πρόσβασης αποθηκεύτηκαν.",
    "Access instructions": "Οδηγίες πρόσβασης",
    "New access instructions": "Νέες οδηγίες πρόσβασης",
    "Door code, Wi-Fi, how to get in. A guest who has completed check-in sees them on their check-in page, and gets them by e-mail once, from the hours below before arrival. They are kept encrypted and never shown here again.":
        "Κωδικός πόρτας, Wi-Fi, πώς θα μπουν. Ο επισκέπτης που ολοκλήρωσε το check-in τις βλέπει στη σελίδα του check-in και τις λαμβάνει μία φορά με e-mail, από τις παρακάτω ώρες πριν από την άφιξη. Φυλάσσονται κρυπτογραφημένες και δεν εμφανίζονται ξανά εδώ.",
    "Set": "Ορίστηκαν",
    "Not set": "Δεν ορίστηκαν",
    "Up to 2,000 characters. Leave empty to keep what is set.":
        "Έως 2.000 χαρακτήρες. Αφήστε το κενό για να κρατήσετε ό,τι έχει οριστεί.",
    "Up to 2,000 characters.": "Έως 2.000 χαρακτήρες.",
    "Shown from, hours before arrival": "Εμφάνιση από, ώρες πριν από την άφιξη",
    "0 to 168; arrival is the arrival date at the check-in hour, in the property’s time zone.":
        "0 έως 168· άφιξη είναι η ημερομηνία άφιξης στην ώρα check-in, στη ζώνη ώρας του καταλύματος.",
    "Remove the access instructions": "Αφαίρεση των οδηγιών πρόσβασης",
    "Save access instructions": "Αποθήκευση οδηγιών πρόσβασης",
    "must be at most 2000 characters": "πρέπει να έχει έως 2000 χαρακτήρες",
    "must be a whole number from 0 to 168": "πρέπει να είναι ακέραιος από 0 έως 168",
})


def _zone(name: str | None) -> dt.tzinfo:
    try:
        return zoneinfo.ZoneInfo(name or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return dt.timezone.utc


def zone_label(local: dt.datetime) -> str:
    """EET / EEST / CET / UTC where the zone has a name; `+04` style offsets are shown as UTC+4."""
    label = local.strftime("%Z")
    if not label or label[0] in "+-":
        offset = local.utcoffset() or dt.timedelta(0)
        hours, rest = divmod(int(offset.total_seconds()), 3600)
        label = "UTC" + (f"{hours:+d}" if hours or rest else "") + (f":{rest // 60:02d}" if rest else "")
    return label


def translate(lang: str, text: str, **values) -> str:
    if lang == "el":
        result = GREEK.get(text) or ENGLISH.get(text, text)
    else:
        result = ENGLISH.get(text, text)
    return result.format(**values) if values else result


# Kept per value: a busy page (the calendar of every property) shows the same few dozen dates and
# counts thousands of times, and Babel's formatting of each was most of the page's time.
@functools.lru_cache(maxsize=4096)
def _formatted_date(value: dt.date, pattern: str, locale) -> str:
    return babel.dates.format_date(value, pattern, locale=locale)


@functools.lru_cache(maxsize=4096)
def _formatted_integer(value: int, locale) -> str:
    return babel.numbers.format_decimal(value, locale=locale)


# The account's e-mail (pages/email.py), a booking's e-mails to its guest, Today's warning.
ENGLISH.update({
    "done:smtp_saved": "The mail server is saved: send a test e-mail to see that it works.",
    "done:smtp_forgotten": "This account's e-mail goes through the server settings of config.toml again.",
    "done:contact_saved": "The host contact is saved: guests' e-mails carry it from now on.",
    "done:reminders_saved": "The reminder schedule is saved.",
    "done:message_saved": "The text is saved: guests receive it from now on.",
    "done:message_reset": "The default text is back.",
    "kind:invitation": "Check-in invitation", "kind:reminder": "Check-in reminder",
    "kind:access": "Access instructions",
})
GREEK.update({
    "done:smtp_saved": "Ο διακομιστής e-mail αποθηκεύτηκε· στείλτε ένα δοκιμαστικό e-mail για να δείτε ότι λειτουργεί.",
    "done:smtp_forgotten": "Τα e-mail του λογαριασμού στέλνονται ξανά με τις ρυθμίσεις του config.toml.",
    "done:contact_saved": "Τα στοιχεία επικοινωνίας αποθηκεύτηκαν· τα e-mail προς τους επισκέπτες τα περιέχουν από τώρα.",
    "done:reminders_saved": "Το πρόγραμμα υπενθυμίσεων αποθηκεύτηκε.",
    "done:message_saved": "Το κείμενο αποθηκεύτηκε· οι επισκέπτες το λαμβάνουν από τώρα.",
    "done:message_reset": "Επανήλθε το προεπιλεγμένο κείμενο.",
    "kind:invitation": "Πρόσκληση για check-in", "kind:reminder": "Υπενθύμιση check-in",
    "kind:access": "Οδηγίες πρόσβασης",
    "Host contact per property": "Στοιχεία επικοινωνίας ανά κατάλυμα",
    "A property looked after by someone else: its guests see this contact instead of the account’s. Empty: the account’s.":
        "Για κατάλυμα που το φροντίζει άλλος: οι επισκέπτες του βλέπουν αυτά τα στοιχεία αντί για του λογαριασμού. Κενό: του λογαριασμού.",
    "Messages to guests": "Μηνύματα προς τους επισκέπτες",
    "The texts of the e-mails guests receive, in each language: change them, preview them, or go back to the default.":
        "Τα κείμενα των e-mail που λαμβάνουν οι επισκέπτες, σε κάθε γλώσσα: αλλάξτε τα, δείτε πώς φαίνονται ή επιστρέψτε στο προεπιλεγμένο.",
    "Message": "Μήνυμα",
    "Languages": "Γλώσσες",
    "yours": "δικό σας",
    "Your text": "Το κείμενό σας",
    "The default text": "Το προεπιλεγμένο κείμενο",
    "Placeholders, replaced for each guest:": "Πεδία που συμπληρώνονται για κάθε επισκέπτη:",
    "Subject": "Θέμα",
    "Text": "Κείμενο",
    "Preview": "Προεπισκόπηση",
    "Reset to the default text": "Επαναφορά του προεπιλεγμένου κειμένου",
    "Your saved text breaks the placeholder rules, so guests receive the default text instead. Correct it and save it again, or reset it.":
        "Το αποθηκευμένο σας κείμενο παραβιάζει τους κανόνες των πεδίων αντικατάστασης, οπότε οι επισκέπτες λαμβάνουν το προεπιλεγμένο κείμενο. Διορθώστε το και αποθηκεύστε το ξανά ή επαναφέρετέ το.",
    "not used: the default is sent": "δεν χρησιμοποιείται: στέλνεται το προεπιλεγμένο",
    "E-mail": "E-mail",
    "Set up e-mail": "Ρύθμιση e-mail",
    "The mail server, the host contact in guests’ e-mails, the reminder schedule and a test e-mail.":
        "Ο διακομιστής e-mail, τα στοιχεία επικοινωνίας στα e-mail των επισκεπτών, το πρόγραμμα υπενθυμίσεων και ένα δοκιμαστικό e-mail.",
    "Mail server": "Διακομιστής e-mail",
    "Every e-mail of this account goes through this server: check-in links, reminders, access instructions, password links and the morning e-mail.":
        "Κάθε e-mail αυτού του λογαριασμού περνά από αυτόν τον διακομιστή: σύνδεσμοι check-in, υπενθυμίσεις, οδηγίες πρόσβασης, σύνδεσμοι κωδικού και το πρωινό e-mail.",
    "Now: the server settings of config.toml ({server}, from {sender}).":
        "Τώρα: οι ρυθμίσεις διακομιστή του config.toml ({server}, αποστολέας {sender}).",
    "These are the defaults: nothing is sent until a mail server is set up here.":
        "Είναι οι προεπιλογές: τίποτα δεν στέλνεται μέχρι να ρυθμιστεί εδώ ένας διακομιστής e-mail.",
    "Server": "Διακομιστής",
    "Like smtp.example.com: your mail provider gives it.": "Π.χ. smtp.example.com· τον δίνει ο πάροχος του e-mail σας.",
    "Port": "Θύρα",
    "587 for STARTTLS, 465 for TLS.": "587 για STARTTLS, 465 για TLS.",
    "Security": "Ασφάλεια",
    "none (not encrypted)": "καμία (χωρίς κρυπτογράφηση)",
    "User name": "Όνομα χρήστη",
    "Empty when the server asks for no login.": "Κενό όταν ο διακομιστής δεν ζητά σύνδεση.",
    "A password is stored: leave empty to keep it.": "Υπάρχει αποθηκευμένος κωδικός· αφήστε το κενό για να τον κρατήσετε.",
    "Stored encrypted and never shown again.": "Αποθηκεύεται κρυπτογραφημένος και δεν εμφανίζεται ποτέ ξανά.",
    # Not "From"/"To": those are the date filters' (Από, Έως), one key has one translation.
    "Sender": "Αποστολέας",
    "The sender guests see, like Villa Anemoi <stay@example.com>.": "Ο αποστολέας που βλέπουν οι επισκέπτες, π.χ. Villa Anemoi <stay@example.com>.",
    "Use the server settings of config.toml instead": "Χρήση των ρυθμίσεων διακομιστή του config.toml",
    "Send a test e-mail": "Αποστολή δοκιμαστικού e-mail",
    "Send it to": "Αποστολή προς",
    "The test e-mail to {to} was accepted by {server}. Look for it in that mailbox (and its spam folder).":
        "Το δοκιμαστικό e-mail προς {to} έγινε δεκτό από τον {server}. Αναζητήστε το σε εκείνο το γραμματοκιβώτιο (και στα ανεπιθύμητα).",
    "The test e-mail to {to} was not sent: {reason}. Check the server, port, security, user and password below.":
        "Το δοκιμαστικό e-mail προς {to} δεν στάλθηκε: {reason}. Ελέγξτε παρακάτω διακομιστή, θύρα, ασφάλεια, χρήστη και κωδικό.",
    "Host contact": "Στοιχεία επικοινωνίας οικοδεσπότη",
    "In every e-mail to a guest (their replies go to this address) and on the check-in page once the guest has completed it.":
        "Σε κάθε e-mail προς επισκέπτη (οι απαντήσεις του έρχονται σε αυτή τη διεύθυνση) και στη σελίδα check-in μόλις την ολοκληρώσει.",
    "Reminders": "Υπενθυμίσεις",
    "A guest who has not completed check-in is reminded by e-mail on these days before arrival (0: the morning of arrival), in the property’s local time, at most once a day. Empty: no reminders.":
        "Όποιος επισκέπτης δεν έχει ολοκληρώσει το check-in λαμβάνει υπενθύμιση με e-mail αυτές τις ημέρες πριν από την άφιξη (0: το πρωί της άφιξης), στην τοπική ώρα του καταλύματος, το πολύ μία φορά την ημέρα. Κενό: καμία υπενθύμιση.",
    "Days before arrival": "Ημέρες πριν από την άφιξη",
    "Like 7, 2, 0.": "Π.χ. 7, 2, 0.",
    "E-mails to the guest": "E-mail προς τον επισκέπτη",
    "The check-in e-mail did not reach the guest.": "Το e-mail του check-in δεν έφτασε στον επισκέπτη.",
    "The mail server answered: {reason}.": "Ο διακομιστής e-mail απάντησε: {reason}.",
    "Correct the e-mail address": "Διόρθωση της διεύθυνσης e-mail",
    "Invitation": "Πρόσκληση",
    "none: the booking has no e-mail address; share the check-in link above":
        "καμία: η κράτηση δεν έχει διεύθυνση e-mail· στείλτε στον επισκέπτη τον σύνδεσμο check-in "
        "που φαίνεται παραπάνω",
    "none: the booking is cancelled": "καμία: η κράτηση ακυρώθηκε",
    "none: the check-in is over": "καμία: το check-in έχει ολοκληρωθεί ή έληξε",
    "none: the booking has no e-mail address": "καμία: η κράτηση δεν έχει διεύθυνση e-mail",
    "The booking has no guest e-mail address: share the check-in link above, or add an address to e-mail it.":
        "Η κράτηση δεν έχει διεύθυνση e-mail επισκέπτη: στείλτε του τον σύνδεσμο check-in που "
        "φαίνεται παραπάνω ή προσθέστε μια διεύθυνση για να του σταλεί με e-mail.",
    "not delivered yet": "δεν έχει παραδοθεί ακόμη",
    "{days} days before arrival (0: the morning of arrival), at most one e-mail a day":
        "{days} ημέρες πριν από την άφιξη (0: το πρωί της άφιξης), το πολύ ένα e-mail την ημέρα",
    "off for this account": "απενεργοποιημένες για αυτόν τον λογαριασμό",
    "Reminder sent": "Στάλθηκε υπενθύμιση",
    "Check-in e-mails that did not reach the guest": "E-mail check-in που δεν έφτασαν στον επισκέπτη",
    "E-mail cannot be sent: the last attempt failed ({when}): {reason}.":
        "Δεν είναι δυνατή η αποστολή e-mail: η τελευταία προσπάθεια απέτυχε ({when}): {reason}.",
    "E-mail is not set up: guests get no check-in link or reminder by e-mail, and nobody gets password links.":
        "Το e-mail δεν έχει ρυθμιστεί: οι επισκέπτες δεν λαμβάνουν με e-mail σύνδεσμο check-in ή υπενθύμιση, και κανείς δεν λαμβάνει συνδέσμους κωδικού.",
    "The mail server refused the guest's address. Correct the e-mail address on the booking and send the link again, or copy the check-in link and share it with the guest another way (WhatsApp, SMS, the channel's messages).":
        "Ο διακομιστής e-mail αρνήθηκε τη διεύθυνση του επισκέπτη. Διορθώστε τη διεύθυνση e-mail στην κράτηση και στείλτε ξανά τον σύνδεσμο, ή αντιγράψτε τον σύνδεσμο check-in και στείλτε τον στον επισκέπτη με άλλον τρόπο (WhatsApp, SMS, τα μηνύματα του καναλιού).",
    "Check the e-mail set-up (Account, E-mail) and send the link again, or copy the check-in link and share it with the guest another way (WhatsApp, SMS, the channel's messages).":
        "Ελέγξτε τη ρύθμιση e-mail (Λογαριασμός, E-mail) και στείλτε ξανά τον σύνδεσμο, ή αντιγράψτε τον σύνδεσμο check-in και στείλτε τον στον επισκέπτη με άλλον τρόπο (WhatsApp, SMS, τα μηνύματα του καναλιού).",
})


class Formatter:
    """Dates, times, numbers, money and plural forms in the page's language, from Babel's CLDR
    data; every time shown in a time zone that is named beside it (the property's for what
    belongs to a property, else the account's)."""

    def __init__(self, lang: str, timezone: str = "UTC"):
        self.lang = lang
        self.locale = babel.Locale.parse(LOCALES.get(lang, "en_GB"))
        self.timezone = _zone(timezone)

    def today(self) -> dt.date:
        """The date in this formatter's zone (the account's on its pages), not UTC's."""
        return self.local(clock.utcnow()).date()

    def date(self, value) -> str:
        if value is None:
            return "—"
        if isinstance(value, str):
            value = dt.date.fromisoformat(value)
        return _formatted_date(value, "EEE d MMM y", self.locale)

    def short_date(self, value) -> str:
        """Without the weekday, for ranges in lists and birth dates."""
        if value is None:
            return "—"
        if isinstance(value, str):
            value = dt.date.fromisoformat(value)
        return _formatted_date(value, "d MMM y", self.locale)

    def local(self, value: dt.datetime, timezone: str | None = None) -> dt.datetime:
        """A stored time (naive UTC) in the given zone, else the page's."""
        zone = _zone(timezone) if timezone else self.timezone
        if value.tzinfo is None:
            value = value.replace(tzinfo=dt.timezone.utc)
        return value.astimezone(zone)

    def datetime(self, value, timezone: str | None = None) -> str:
        """`Mon 23 Nov 2026, 21:44 EET`: the zone's abbreviation (or offset) names it."""
        if value is None:
            return "—"
        local = self.local(value, timezone)
        time = babel.dates.format_time(local, "HH:mm", locale=self.locale)
        return f"{self.date(local.date())}, {time} {zone_label(local)}"

    def country(self, code: str | None) -> str:
        """`IT` → `Italy`, `Ιταλία`: the country's name in the page's language, from CLDR."""
        if not code:
            return "—"
        return self.locale.territories.get(code.upper(), code)

    def document(self, kind: str | None, number: str | None, country: str | None) -> str:
        """`Passport ******567, Italy`: a guest's document as a person reads it."""
        name = translate(self.lang, "document:" + kind) if kind else ""
        text = " ".join(x for x in (name, number or "") if x)
        if country:
            text = f"{text}, {self.country(country)}" if text else self.country(country)
        return text or "—"

    def stay(self, arrival: dt.date, departure: dt.date) -> str:
        """`12–15 Mar 2027`, `30 Mar – 2 Apr 2027`: a stay's dates as the language writes a range."""
        return babel.dates.format_interval(arrival, departure, "yMMMd", locale=self.locale)

    def month(self, value: dt.date) -> str:
        return babel.dates.format_date(value, "LLLL y", locale=self.locale).capitalize()

    def weekdays(self) -> list[str]:
        names = self.locale.days["stand-alone"]["abbreviated"]
        return [names[i] for i in range(7)]  # Monday first

    def number(self, value) -> str:
        if isinstance(value, int):
            return _formatted_integer(value, self.locale)
        return babel.numbers.format_decimal(value, locale=self.locale)

    def count(self, word: str, n: int) -> str:
        """`1 night`, `2 nights`, `1 νύχτα`: the language's plural rule from CLDR."""
        forms = PLURALS[word][self.lang if self.lang in PLURALS[word] else "en"]
        form = self.locale.plural_form(n)
        return (forms.get(form) or forms["other"]).format(n=self.number(n))

    def money(self, cents) -> str:
        if cents is None:
            return "—"
        return babel.numbers.format_currency(int(cents) / 100, "EUR", locale=self.locale)

    def period(self, period) -> str:
        """A report's period, `{"year", "month"}` or its code's `YYYY-MM` / `YYYY`."""
        if isinstance(period, dict):
            year, month = period["year"], period.get("month")
        else:
            year, _, month = str(period).partition("-")
            month = int(month) if month else None
        return self.month(dt.date(int(year), int(month), 1)) if month else str(year)

    def euros(self, amount) -> str:
        return "—" if amount is None else self.money(round(float(amount) * 100))

    def iso_datetime(self, text: str | None, timezone: str | None = None) -> str:
        if not text:
            return "—"
        return self.datetime(dt.datetime.fromisoformat(text.replace("Z", "+00:00")), timezone)

    def status(self, code: str) -> str:
        return translate(self.lang, code)

    def channel(self, code: str) -> str:
        if self.lang == "el" and code in CHANNELS_EL:
            return CHANNELS_EL[code]
        return CHANNELS.get(code, code)


# --- importing the channels' reservation files (dashboard/pages/imports.py) ---------------------
GREEK.update({
    "Import reservations": "Εισαγωγή κρατήσεων",
    "The channels’ calendars bring no guest names, party sizes or prices. Their reservation files "
    "do: download the file from Airbnb (Reservations › Export › Download CSV file) or from the "
    "Booking.com extranet (Reservations › Download) and upload it here. Nothing changes until you "
    "apply the preview; what you typed yourself is never overwritten.":
        "Τα ημερολόγια των πλατφορμών δεν φέρνουν ονόματα επισκεπτών, αριθμό ατόμων ή τιμές. Τα "
        "αρχεία κρατήσεών τους τα έχουν: κατεβάστε το αρχείο από το Airbnb (Κρατήσεις › Εξαγωγή › "
        "Λήψη αρχείου CSV) ή από το extranet της Booking.com (Κρατήσεις › Λήψη) και ανεβάστε το "
        "εδώ. Τίποτα δεν αλλάζει πριν εφαρμόσετε την προεπισκόπηση· ό,τι πληκτρολογήσατε εσείς δεν "
        "αντικαθίσταται ποτέ.",
    "Imported: {created} new, {updated} filled in, {unchanged} unchanged, {conflict} conflicts.":
        "Η εισαγωγή έγινε: {created} νέες, {updated} συμπληρώθηκαν, {unchanged} χωρίς αλλαγή, "
        "{conflict} συγκρούσεις.",
    "Preview: {created} new, {updated} filled in, {unchanged} unchanged, {conflict} conflicts. "
    "Nothing has changed yet.":
        "Προεπισκόπηση: {created} νέες, {updated} προς συμπλήρωση, {unchanged} χωρίς αλλαγή, "
        "{conflict} συγκρούσεις. Δεν έχει αλλάξει τίποτα ακόμη.",
    "Note:": "Σημείωση:",
    "Imported rows": "Γραμμές που εισήχθησαν",
    "What the import will do": "Τι θα κάνει η εισαγωγή",
    "Row": "Γραμμή",
    "Code": "Κωδικός",
    "Result": "Αποτέλεσμα",
    "Changes": "Αλλαγές",
    "Why": "Αιτία",
    "Apply these changes": "Εφαρμογή αυτών των αλλαγών",
    "Cancel": "Ακύρωση",
    "Import another file": "Εισαγωγή άλλου αρχείου",
    "Upload a file": "Ανέβασμα αρχείου",
    "Reservations file (.csv, .xls or .xlsx)": "Αρχείο κρατήσεων (.csv, .xls ή .xlsx)",
    "Property of rows whose listing is none of your property names":
        "Κατάλυμα για τις γραμμές που δεν έχουν το όνομα κανενός καταλύματός σας",
    "Match by name only": "Μόνο αντιστοίχιση με το όνομα",
    "Preview": "Προεπισκόπηση",
    "Choose the file to import.": "Επιλέξτε το αρχείο για εισαγωγή.",
    "The file is larger than 1 MB: export fewer months.":
        "Το αρχείο είναι μεγαλύτερο από 1 MB: εξαγάγετε λιγότερους μήνες.",
    "Choose one of your properties.": "Επιλέξτε ένα από τα καταλύματά σας.",
    "The bookings changed since the preview: check this new preview and apply it again.":
        "Οι κρατήσεις άλλαξαν μετά την προεπισκόπηση: ελέγξτε τη νέα προεπισκόπηση και "
        "εφαρμόστε την ξανά.",
    "This preview has expired or was applied already: upload the file again.":
        "Η προεπισκόπηση έληξε ή έχει ήδη εφαρμοστεί: ανεβάστε ξανά το αρχείο.",
    # what a row does
    "new booking": "νέα κράτηση", "filled in": "συμπληρώνεται", "no change": "χωρίς αλλαγή",
    "conflict": "σύγκρουση",
    # the fields it fills
    "Adults": "Ενήλικες", "Children": "Παιδιά", "Infants": "Βρέφη", "Price": "Τιμή",
    "Currency": "Νόμισμα", "Confirmation code": "Κωδικός επιβεβαίωσης",
    "guest name": "όνομα επισκέπτη", "number of guests": "αριθμός ατόμων", "price": "τιμή",
    "confirmation code": "κωδικός επιβεβαίωσης", "payment method": "τρόπος πληρωμής",
    "adults": "ενήλικες", "children": "παιδιά", "infants": "βρέφη", "currency": "νόμισμα",
    # why (imports/planning.py)
    "the code appears again in row {row}, which is the one imported":
        "ο κωδικός υπάρχει ξανά στη γραμμή {row}, που είναι αυτή που εισάγεται",
    "cancelled in the channel: no booking is made from it":
        "ακυρώθηκε στην πλατφόρμα: δεν δημιουργείται κράτηση",
    "the listing '{listing}' is no property's name: choose the property to import into":
        "η καταχώριση «{listing}» δεν είναι όνομα κανενός καταλύματος: επιλέξτε σε ποιο "
        "κατάλυμα γίνεται η εισαγωγή",
    "cancelled in the channel and here": "ακυρώθηκε και στην πλατφόρμα και εδώ",
    "cancelled in {channel} but confirmed here: cancel it on its page if the guest is not coming":
        "ακυρώθηκε στο {channel} αλλά εδώ είναι επιβεβαιωμένη: ακυρώστε την από τη σελίδα της αν "
        "ο επισκέπτης δεν έρχεται",
    "confirmed in the channel but cancelled here: nothing was changed":
        "επιβεβαιωμένη στην πλατφόρμα αλλά ακυρωμένη εδώ: δεν άλλαξε τίποτα",
    "the file's dates ({arrival} to {departure}) differ; the calendar feed keeps this booking's "
    "dates": "οι ημερομηνίες του αρχείου ({arrival} έως {departure}) διαφέρουν· το ημερολόγιο "
    "της πλατφόρμας κρατά τις ημερομηνίες αυτής της κράτησης",
    "{count} guests are more than the property takes":
        "{count} άτομα είναι περισσότερα από όσα δέχεται το κατάλυμα",
    "the {field} was set by hand ({now}; the file says {value})":
        "το πεδίο «{field}» ορίστηκε από εσάς ({now}· το αρχείο λέει {value})",
    "filled: {fields}": "συμπληρώνονται: {fields}",
    "already as in the file": "ήδη όπως στο αρχείο",
    "no booking has this code or these dates, and the dates overlap a period blocked in a "
    "channel calendar": "καμία κράτηση δεν έχει αυτόν τον κωδικό ή αυτές τις ημερομηνίες, και "
    "οι ημερομηνίες επικαλύπτουν διάστημα κλειστό στο ημερολόγιο μιας πλατφόρμας",
    "no booking has this code or these dates, and the dates overlap booking {booking}":
        "καμία κράτηση δεν έχει αυτόν τον κωδικό ή αυτές τις ημερομηνίες, και οι ημερομηνίες "
        "επικαλύπτουν την κράτηση {booking}",
    "the dates overlap row {row} of the file": "οι ημερομηνίες επικαλύπτουν τη γραμμή {row} του αρχείου",
    "the stay overlaps booking {booking}: the number of guests stays until that is solved":
        "η διαμονή επικαλύπτει την κράτηση {booking}: ο αριθμός ατόμων μένει ως έχει μέχρι να "
        "λυθεί αυτό",
    "the property is inactive; it takes no new bookings":
        "το κατάλυμα είναι ανενεργό· δεν δέχεται νέες κρατήσεις",
    "new {channel} booking": "νέα κράτηση {channel}",
    "the file's amount is negative; no price was taken from it":
        "το ποσό του αρχείου είναι αρνητικό· δεν λήφθηκε τιμή από αυτό",
    "the price is in {currency}, not euros; type the price in euros on the booking (the AADE "
    "declaration is in euros)": "η τιμή είναι σε {currency}, όχι σε ευρώ· πληκτρολογήστε την "
    "τιμή σε ευρώ στην κράτηση (η δήλωση στην ΑΑΔΕ γίνεται σε ευρώ)",
})

# --- a reservations file that cannot be read (imports/files.py, channels.py, values.py) ------
GREEK.update({
    "The file is empty.": "Το αρχείο είναι κενό.",
    "The file has no rows.": "Το αρχείο δεν έχει γραμμές.",
    "The file is neither a spreadsheet nor readable CSV ({error}).":
        "Το αρχείο δεν είναι ούτε υπολογιστικό φύλλο ούτε αναγνώσιμο CSV ({error}).",
    "The file looks like old Excel (.xls) but cannot be read ({error}).":
        "Το αρχείο μοιάζει με παλιό Excel (.xls) αλλά δεν διαβάζεται ({error}).",
    "The file looks like XLSX but cannot be read ({error}).":
        "Το αρχείο μοιάζει με XLSX αλλά δεν διαβάζεται ({error}).",
    "This is not a reservations export of Airbnb or Booking.com: none of their column headers is "
    "in the first row.": "Δεν είναι αρχείο κρατήσεων του Airbnb ή της Booking.com: καμία από τις "
    "επικεφαλίδες στηλών τους δεν υπάρχει στην πρώτη γραμμή.",
    "This looks like a {channel} export, but the column(s) {columns} are missing (in any "
    "language). Nothing was imported.": "Μοιάζει με αρχείο του {channel}, αλλά λείπουν οι στήλες "
    "{columns} (σε οποιαδήποτε γλώσσα). Δεν εισήχθη τίποτα.",
    "Row {row}, column '{column}': expected {expected}, found '{found}'. Nothing was imported.":
        "Γραμμή {row}, στήλη «{column}»: αναμενόταν {expected}, βρέθηκε «{found}». Δεν εισήχθη "
        "τίποτα.",
    "a date": "ημερομηνία",
    "a date as {format}": "ημερομηνία σε μορφή {format}",
    "a real date as {format}, like the file's other dates":
        "πραγματική ημερομηνία σε μορφή {format}, όπως οι άλλες ημερομηνίες του αρχείου",
    "a date from {earliest} to {latest}": "ημερομηνία από {earliest} έως {latest}",
    "a date after the start of the stay, at most {nights} nights later":
        "ημερομηνία μετά την αρχή της διαμονής, το πολύ {nights} νύχτες αργότερα",
    "an amount like 412.50, €1.020,50 or 126.6314 EUR":
        "ποσό όπως 412.50, €1.020,50 ή 126.6314 EUR",
    "a whole number of people": "ακέραιο αριθμό ατόμων",
    "an amount of at most {digits} digits": "ποσό το πολύ {digits} ψηφίων",
    "a whole number of people from 0 to 100": "ακέραιο αριθμό ατόμων από 0 έως 100",
    "the reservation's code (at most {count} characters)":
        "τον κωδικό της κράτησης (το πολύ {count} χαρακτήρες)",
    "every date fits more than one order; read as {format}, the usual order of the file's "
    "language": "κάθε ημερομηνία ταιριάζει σε περισσότερες από μία σειρές· διαβάστηκαν ως "
    "{format}, η συνήθης σειρά της γλώσσας του αρχείου",
    "Row {row}: the file says it is {encoding} text, but byte {byte} is not ({reason}); save it "
    "again from the spreadsheet program.": "Γραμμή {row}: το αρχείο δηλώνει κείμενο {encoding}, "
    "αλλά το byte {byte} δεν είναι ({reason})· αποθηκεύστε το ξανά από το πρόγραμμα "
    "υπολογιστικών φύλλων.",
    # The import limits (imports/limits.py): the setting's name stays as it is written.
    "The file has more than {limit} rows (row {row} is beyond the limit imports.max_rows): "
    "export fewer months at a time.": "Το αρχείο έχει περισσότερες από {limit} γραμμές (η γραμμή "
    "{row} είναι πέρα από το όριο imports.max_rows): εξαγάγετε λιγότερους μήνες κάθε φορά.",
    "Row {row} has a cell in column {column}, beyond the {limit} columns an export may have "
    "(imports.max_columns).": "Η γραμμή {row} έχει κελί στη στήλη {column}, πέρα από τις {limit} "
    "στήλες που μπορεί να έχει ένα αρχείο κρατήσεων (imports.max_columns).",
    "The file has more than {limit} cells (the limit imports.max_cells): export fewer months at "
    "a time.": "Το αρχείο έχει περισσότερα από {limit} κελιά (το όριο imports.max_cells): "
    "εξαγάγετε λιγότερους μήνες κάθε φορά.",
    "The spreadsheet unpacks to more than {limit} MB (the limit imports.max_unpacked_mb): export "
    "fewer months at a time.": "Το υπολογιστικό φύλλο αποσυμπιέζεται σε περισσότερα από {limit} "
    "MB (το όριο imports.max_unpacked_mb): εξαγάγετε λιγότερους μήνες κάθε φορά.",
    "the file's values cannot be taken ({problems}): nothing was changed":
        "οι τιμές του αρχείου δεν γίνονται δεκτές ({problems}): δεν άλλαξε τίποτα",
    "the file's amount is more than {limit} euros, the most a booking takes; no price was taken "
    "from it": "το ποσό του αρχείου είναι πάνω από {limit} ευρώ, το μέγιστο μιας κράτησης· δεν "
    "λήφθηκε τιμή από αυτό",
    "not applied, the bookings changed meanwhile: {reason}":
        "δεν εφαρμόστηκε, οι κρατήσεις άλλαξαν στο μεταξύ: {reason}",
})


# --- the areas' own words (dashboard/words/) -------------------------------------------------------
for _area in (property_setup, statuses, finding, controller, scanning, deadlines, code_tables,
              contact, account, access, reports, listings, cin, receipts, regions, obligations,
              spain, taxes):
    ENGLISH.update(_area.ENGLISH)
    GREEK.update(_area.GREEK)
    PLURALS.update(getattr(_area, "PLURALS", {}))
# The Filings page's own words (dashboard/words/filings.py), beside the areas' above.
ENGLISH.update(filing_words.ENGLISH)
GREEK.update(filing_words.GREEK)
