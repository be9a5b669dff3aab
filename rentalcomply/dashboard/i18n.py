"""The dashboard's words in English and Greek: one catalogue, keyed by the English text.

`translate("el", "Today")` gives "Σήμερα"; a text missing from the catalogue stays English (a
test lists the texts the templates use and insists each has its Greek). `{name}` placeholders
are filled after translation. Status codes (`NOT_STARTED`) and done-messages (`done:revoked`) are
keys like any other.
"""

from __future__ import annotations

import datetime as dt

from rentalcomply.core import clock

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
    "For {email}.": "Για {email}.",
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
    "This link has expired or was used already; ask for a new one.":
        "Ο σύνδεσμος έληξε ή χρησιμοποιήθηκε ήδη· ζητήστε νέο.",
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
    "done:invited": "Ο σύνδεσμος check-in στέλνεται στον επισκέπτη.",
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
    "{n} need attention": "{n} θέλουν προσοχή",
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
    "FAILED": "Failed", "AT_RISK": "At risk", "confirmed": "Confirmed", "cancelled": "Cancelled",
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
    "done:invited": "The check-in link is on its way to the guest.",
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


def translate(lang: str, text: str, **values) -> str:
    if lang == "el":
        result = GREEK.get(text) or ENGLISH.get(text, text)
    else:
        result = ENGLISH.get(text, text)
    return result.format(**values) if values else result


class Formatter:
    """Dates, times, money and codes in the page's language."""

    def __init__(self, lang: str):
        self.lang = lang

    def today(self) -> dt.date:
        return clock.today()

    def date(self, value) -> str:
        if value is None:
            return "—"
        if isinstance(value, str):
            value = dt.date.fromisoformat(value)
        return (f"{WEEKDAYS[self.lang][value.weekday()]} {value.day} "
                f"{SHORT_MONTHS[self.lang][value.month - 1]} {value.year}")

    def short_date(self, value) -> str:
        """Without the weekday, for ranges in lists."""
        if value is None:
            return "—"
        return f"{value.day} {SHORT_MONTHS[self.lang][value.month - 1]} {value.year}"

    def datetime(self, value) -> str:
        if value is None:
            return "—"
        return f"{self.date(value.date())}, {value:%H:%M} UTC"

    def month(self, value: dt.date) -> str:
        return f"{MONTHS[self.lang][value.month - 1]} {value.year}"

    def weekdays(self) -> list[str]:
        return WEEKDAYS[self.lang]

    def money(self, cents) -> str:
        if cents is None:
            return "—"
        whole, part = divmod(abs(int(cents)), 100)
        sign = "-" if cents < 0 else ""
        if self.lang == "el":
            return f"{sign}{whole:,}".replace(",", ".") + f",{part:02d} €"
        return f"{sign}€{whole:,}.{part:02d}"

    def period(self, period) -> str:
        """A report's period, `{"year", "month"}` or its code's `YYYY-MM` / `YYYY`."""
        if isinstance(period, dict):
            year, month = period["year"], period.get("month")
        else:
            year, _, month = str(period).partition("-")
            month = int(month) if month else None
        return f"{MONTHS[self.lang][month - 1]} {year}" if month else str(year)

    def euros(self, amount) -> str:
        return "—" if amount is None else self.money(round(float(amount) * 100))

    def iso_datetime(self, text: str | None) -> str:
        if not text:
            return "—"
        return self.datetime(dt.datetime.fromisoformat(text.replace("Z", "+00:00")).replace(tzinfo=None))

    def status(self, code: str) -> str:
        return translate(self.lang, code)

    def channel(self, code: str) -> str:
        if self.lang == "el" and code in CHANNELS_EL:
            return CHANNELS_EL[code]
        return CHANNELS.get(code, code)
