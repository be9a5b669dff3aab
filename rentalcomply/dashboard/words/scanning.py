"""Scanning guests' documents: keeping their images (the account's page) and the documents read
as expired or expiring before departure (a booking's page)."""

ENGLISH: dict[str, str] = {
    "done:document_images_on": "Document images are kept from now on: encrypted, and erased with "
                               "the guests' other details at the end of the retention period.",
    "done:document_images_off": "Document images are no longer kept. Images kept until now stay "
                                "until their stay's retention ends.",
}

GREEK: dict[str, str] = {
    "done:document_images_on": "Οι εικόνες εγγράφων φυλάσσονται από τώρα: κρυπτογραφημένες, και "
                               "διαγράφονται μαζί με τα υπόλοιπα στοιχεία των επισκεπτών στο τέλος "
                               "της περιόδου διατήρησης.",
    "done:document_images_off": "Οι εικόνες εγγράφων δεν φυλάσσονται πια. Όσες φυλάχθηκαν ως τώρα "
                                "μένουν ώσπου να λήξει η διατήρηση της διαμονής τους.",
    "Scanned documents": "Σαρωμένα έγγραφα",
    "Scanning is off on this server: guests type their document details.":
        "Η σάρωση είναι απενεργοποιημένη σε αυτόν τον διακομιστή: οι επισκέπτες πληκτρολογούν τα "
        "στοιχεία του εγγράφου τους.",
    "Guests can scan their passport or ID card on the check-in page; the fields are filled from "
    "its machine-readable lines. The photo itself is not kept unless you turn this on: then it "
    "is kept encrypted and erased with the guest’s other details at the end of the retention "
    "period.":
        "Οι επισκέπτες μπορούν να σαρώσουν το διαβατήριο ή την ταυτότητά τους στη σελίδα check-in· "
        "τα πεδία συμπληρώνονται από τις μηχαναγνώσιμες γραμμές του. Η ίδια η φωτογραφία δεν "
        "φυλάσσεται, εκτός αν το ενεργοποιήσετε: τότε φυλάσσεται κρυπτογραφημένη και διαγράφεται "
        "μαζί με τα υπόλοιπα στοιχεία του επισκέπτη στο τέλος της περιόδου διατήρησης.",
    "In Spain the data protection agency holds that accommodation may not keep copies of "
    "identity documents: leave this off for Spanish properties.":
        "Στην Ισπανία η αρχή προστασίας δεδομένων κρίνει ότι τα καταλύματα δεν μπορούν να "
        "κρατούν αντίγραφα εγγράφων ταυτότητας: αφήστε το απενεργοποιημένο για ισπανικά "
        "καταλύματα.",
    "Keep document images": "Φύλαξη εικόνων εγγράφων",
    "Guest {n}: the scanned document expired on {date}.":
        "Επισκέπτης {n}: το σαρωμένο έγγραφο έληξε στις {date}.",
    "Guest {n}: the scanned document expires on {date}, before departure.":
        "Επισκέπτης {n}: το σαρωμένο έγγραφο λήγει στις {date}, πριν από την αναχώρηση.",
    "Documents expired or expiring before departure":
        "Έγγραφα που έληξαν ή λήγουν πριν από την αναχώρηση",
}
