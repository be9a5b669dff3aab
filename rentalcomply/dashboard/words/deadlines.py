"""Police deadlines a person must see to (filings/standing.py), what holds a filing named with the
guest and the value, and what a cancellation does with the authorities, per country."""

ENGLISH: dict[str, str] = {
    "OVERDUE": "Deadline passed",
    # what a guest typed that has no code (filings/standing.HeldValue.field)
    "field:birth_municipality": "town of birth",
    "field:birth_country": "country of birth",
    "field:nationality": "nationality",
    "field:document_type": "document type",
    "field:document_issue_place": "place of issue of the document",
    "field:address_city": "town of residence",
}

GREEK: dict[str, str] = {
    "OVERDUE": "Έληξε η προθεσμία",
    "field:birth_municipality": "τόπος γέννησης",
    "field:birth_country": "χώρα γέννησης",
    "field:nationality": "υπηκοότητα",
    "field:document_type": "είδος εγγράφου",
    "field:document_issue_place": "τόπος έκδοσης του εγγράφου",
    "field:address_city": "πόλη κατοικίας",
    # Today and the morning e-mail
    "Police deadlines: guests not registered": "Προθεσμίες αστυνομίας: επισκέπτες χωρίς δήλωση",
    # a party that has not checked in
    "{guest} arrived on {date} and is not registered: the deadline was {deadline}.":
        "Ο/Η {guest} έφτασε στις {date} και δεν έχει δηλωθεί: η προθεσμία ήταν {deadline}.",
    "{guest} arrived on {date} and is not registered yet: the deadline is {deadline}.":
        "Ο/Η {guest} έφτασε στις {date} και δεν έχει δηλωθεί ακόμη: η προθεσμία είναι "
        "{deadline}.",
    "{guest} arrives on {date} and is not registered yet: the deadline is {deadline}.":
        "Ο/Η {guest} φτάνει στις {date} και δεν έχει δηλωθεί ακόμη: η προθεσμία είναι "
        "{deadline}.",
    "Nothing can be filed until the guests check in: send them the link again, or enter the "
    "party by hand from their documents.":
        "Δεν μπορεί να γίνει δήλωση πριν κάνουν check-in οι επισκέπτες: στείλτε τους ξανά τον "
        "σύνδεσμο ή καταχωρίστε εσείς τα άτομα από τα έγγραφά τους.",
    "The stay is over and its check-in link has expired: register the guests by hand on the "
    "authority’s site.":
        "Η διαμονή τελείωσε και ο σύνδεσμος check-in έληξε: δηλώστε τους επισκέπτες με το χέρι "
        "στον ιστότοπο της αρχής.",
    # a Spanish reservation without its holder
    "The reservation booked by {guest} is not communicated to {authority}: the deadline was "
    "{deadline}.":
        "Η κράτηση του/της {guest} δεν έχει γνωστοποιηθεί στο {authority}: η προθεσμία ήταν "
        "{deadline}.",
    "The reservation booked by {guest} is not communicated to {authority} yet: the deadline is "
    "{deadline}.":
        "Η κράτηση του/της {guest} δεν έχει γνωστοποιηθεί ακόμη στο {authority}: η προθεσμία "
        "είναι {deadline}.",
    "Its holder is not known: write the booker’s name as “Surname(s), First name(s)” with "
    "“Edit the booking”, or have the guests check in.":
        "Ο κάτοχός της δεν είναι γνωστός: γράψτε το όνομα του κρατούντος ως «Επώνυμο(α), "
        "Όνομα(τα)» με την «Επεξεργασία της κράτησης» ή ζητήστε από τους επισκέπτες να κάνουν "
        "check-in.",
    "Its holder has no phone or e-mail: add one with “Edit the booking”, or have the guests "
    "check in.":
        "Ο κάτοχός της δεν έχει τηλέφωνο ή e-mail: προσθέστε ένα με την «Επεξεργασία της "
        "κράτησης» ή ζητήστε από τους επισκέπτες να κάνουν check-in.",
    "Waiting for its holder": "Αναμένει τον κάτοχό της",
    # the actions
    "Enter the party by hand": "Καταχώριση των ατόμων με το χέρι",
    "Share the check-in link": "Κοινοποίηση του συνδέσμου check-in",
    "Opens the guests’ form in a new tab: type the party from their documents.":
        "Ανοίγει τη φόρμα των επισκεπτών σε νέα καρτέλα: πληκτρολογήστε τα άτομα από τα "
        "έγγραφά τους.",
    # what holds a filing, named
    "{guest}’s {what} “{value}” has no code.":
        "Το πεδίο «{what}» του/της {guest} («{value}») δεν έχει κωδικό.",
    "Guest {number}’s {what} “{value}” has no code.":
        "Το πεδίο «{what}» του επισκέπτη {number} («{value}») δεν έχει κωδικό.",
    "Nothing was sent. Load the authority’s current code tables (Account › Refresh code "
    "tables), or correct the value; the filing then goes out by itself.":
        "Δεν στάλθηκε τίποτα. Φορτώστε τους τρέχοντες πίνακες κωδικών της αρχής (Λογαριασμός › "
        "Ανανέωση πινάκων κωδικών) ή διορθώστε την τιμή· η δήλωση θα σταλεί μόνη της.",
    "Open the police set-up": "Άνοιγμα των ρυθμίσεων δήλωσης",
    # cancelling, per country (police_words.cancellation_words)
    "Kept on the booking for your records. Empty: nothing.":
        "Κρατείται στην κράτηση για το αρχείο σας. Κενό: τίποτα.",
    "Alloggiati Web is not told of cancellations: guests already registered stay registered, "
    "and a registration not sent yet is not sent.":
        "Το Alloggiati Web δεν ενημερώνεται για ακυρώσεις: οι επισκέπτες που δηλώθηκαν μένουν "
        "δηλωμένοι και μια δήλωση που δεν στάλθηκε ακόμη δεν στέλνεται.",
    "What SES.Hospedajes accepted for this booking (the reservation, the guests’ registration) "
    "is cancelled there within 24 hours; nothing not sent yet is sent.":
        "Ό,τι δέχτηκε το SES.Hospedajes για αυτή την κράτηση (η κράτηση, η δήλωση των "
        "επισκεπτών) ακυρώνεται εκεί εντός 24 ωρών· ό,τι δεν στάλθηκε ακόμη δεν στέλνεται.",
    "SIBA is not told of cancellations: guests already registered stay registered, and a "
    "registration not sent yet is not sent.":
        "Το SIBA δεν ενημερώνεται για ακυρώσεις: οι επισκέπτες που δηλώθηκαν μένουν δηλωμένοι και "
        "μια δήλωση που δεν στάλθηκε ακόμη δεν στέλνεται.",
    "A police file not uploaded yet is no longer needed; one already uploaded stays with the "
    "authority.":
        "Ένα αρχείο για την αστυνομία που δεν ανέβηκε ακόμη δεν χρειάζεται πια· όποιο ανέβηκε "
        "ήδη μένει στην αρχή.",
}
