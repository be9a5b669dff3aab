"""Spain beyond SES.Hospedajes: the Basque Country's filings typed into the Ertzaintza's portal
(the booking page), a Catalan property on the wrong authority (the property page, Today), and the
regional licence number (the property form and page, Today, the morning e-mail)."""

ENGLISH: dict[str, str] = {
    # the police connectors' names in the property form's choices
    "mossos": "Mossos d'Esquadra (ES, Catalonia)",
    "ertzaintza": "Ertzaintza (ES, Basque Country)",
    "hold:hand_entry": "Nothing was sent: file these guests in the Ertzaintza’s portal (Registro "
                       "Hotelero), whose web service is not confirmed, then mark the filing filed.",
}

GREEK: dict[str, str] = {
    "mossos": "Mossos d'Esquadra (ES, Καταλονία)",
    "ertzaintza": "Ertzaintza (ES, Χώρα των Βάσκων)",
    # the Mossos set-up (authorities/mossos: SetupField)
    "Establishment code (codi d'establiment)": "Κωδικός καταλύματος (codi d'establiment)",
    "The establishment code is the 9 or 10 letters or digits the Mossos d'Esquadra gave the establishment, like 08043AAR02 (not the numeric user code of the log-in).":
        "Ο κωδικός καταλύματος είναι τα 9 ή 10 γράμματα ή ψηφία που έδωσαν οι Mossos "
        "d'Esquadra στο κατάλυμα, π.χ. 08043AAR02 (όχι ο αριθμητικός κωδικός χρήστη της "
        "σύνδεσης).",
    "Registre de viatgers, Manteniment d'establiments: the establishment's code.":
        "Registre de viatgers, Manteniment d'establiments: ο κωδικός του καταλύματος.",
    "hold:hand_entry": "Δεν στάλθηκε τίποτα: δηλώστε αυτούς τους επισκέπτες στην πύλη της "
                       "Ertzaintza (Registro Hotelero), της οποίας η διαδικτυακή υπηρεσία δεν "
                       "έχει επιβεβαιωθεί, και σημειώστε τη δήλωση ως υποβληθείσα.",
    # the booking page: the party to type in the portal (_booking_police.tpl)
    "The party, to type into the authority’s portal": "Τα στοιχεία των επισκεπτών, για πληκτρολόγηση στην πύλη της αρχής",
    "Surnames": "Επώνυμα",
    "Sex": "Φύλο",
    "Birth date": "Ημερομηνία γέννησης",
    "Support number": "Αριθμός υποστήριξης",
    "Kinship": "Συγγένεια",
    "Contact": "Επικοινωνία",
    "Reference in the portal (optional)": "Αναφορά στην πύλη (προαιρετικά)",
    "Mark as filed in the portal": "Σημείωση ως δηλωμένο στην πύλη",
    # a Catalan or Basque property on the country's authority (property.tpl, today.tpl)
    "This property is in {region}: its guests are registered with {authority}, not {current}. Nothing moves without you: confirm the move.":
        "Αυτό το κατάλυμα βρίσκεται στην περιοχή {region}: οι επισκέπτες του δηλώνονται στην "
        "αρχή {authority}, όχι στην {current}. Τίποτα δεν αλλάζει χωρίς εσάς: επιβεβαιώστε την "
        "αλλαγή.",
    "Move to {authority}": "Μεταφορά στην αρχή {authority}",
    "Properties filing with the wrong police authority": "Καταλύματα που δηλώνουν σε λάθος αστυνομική αρχή",
    "Its region has its own police authority: confirm the move on the property’s page.":
        "Η περιοχή του έχει δική της αστυνομική αρχή: επιβεβαιώστε την αλλαγή στη σελίδα του "
        "καταλύματος.",
    # the licence number
    "Tourism licence number": "Αριθμός τουριστικής άδειας",
    "The regional tourism licence (HUTB-012345, VUT/MA/12345…), as the region gave it. The guest page, the exported calendar and the dashboard show it.":
        "Η περιφερειακή τουριστική άδεια (HUTB-012345, VUT/MA/12345…), όπως τη χορήγησε η "
        "περιφέρεια. Την εμφανίζουν η σελίδα check-in, το ημερολόγιο του καταλύματος και ο "
        "πίνακας ελέγχου.",
    "NRUA (optional, legacy)": "NRUA (προαιρετικό, παλαιό)",
    "An NRUA already held: the Supreme Court annulled its register (STS 620/2026), so it is kept for reference only.":
        "Ένα NRUA που ήδη έχετε: το Ανώτατο Δικαστήριο ακύρωσε το μητρώο του (STS 620/2026), "
        "οπότε κρατείται μόνο για αναφορά.",
    "This Spanish property has no tourism licence number: every listing must show it.":
        "Αυτό το ισπανικό κατάλυμα δεν έχει αριθμό τουριστικής άδειας: κάθε αγγελία πρέπει να "
        "τον εμφανίζει.",
    "Enter the licence number": "Καταχωρίστε τον αριθμό άδειας",
    "Spanish properties without their licence number": "Ισπανικά καταλύματα χωρίς αριθμό άδειας",
    "Enter its regional tourism licence number on the property’s page: every listing must show it, and the guest page and the exported calendar show it.":
        "Καταχωρίστε τον αριθμό περιφερειακής τουριστικής άδειας στη σελίδα του καταλύματος: "
        "κάθε αγγελία πρέπει να τον εμφανίζει, και τον εμφανίζουν η σελίδα check-in και το "
        "ημερολόγιο του καταλύματος.",
    "must be text of 1 to 60 characters, or null": "πρέπει να είναι κείμενο από 1 έως 60 χαρακτήρες, ή κενό",
    "is for Spanish properties only (country ES); clear it (null) to move the property to another country":
        "ισχύει μόνο για ισπανικά καταλύματα (χώρα ES)· διαγράψτε το για να μεταφέρετε το "
        "κατάλυμα σε άλλη χώρα",
}
