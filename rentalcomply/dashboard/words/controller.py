"""The data controller of the guests' privacy notice, on the Account page (pages/controller.py)."""

ENGLISH: dict[str, str] = {
    "done:controller_saved": "Saved: guests' privacy notice names this controller from now on.",
}

GREEK: dict[str, str] = {
    "Privacy notice for guests": "Ενημέρωση απορρήτου για τους επισκέπτες",
    "Guests’ privacy notice names no data controller yet: give your legal name, address and a "
    "contact, as the data-protection law asks.":
        "Η ενημέρωση απορρήτου των επισκεπτών δεν αναφέρει ακόμη υπεύθυνο επεξεργασίας: δώστε "
        "την επωνυμία σας, τη διεύθυνση και ένα στοιχείο επικοινωνίας, όπως ζητά ο νόμος για την "
        "προστασία των δεδομένων.",
    "Whoever decides what is done with the guests’ details (you, or your company): the check-in "
    "page names them, with the law of the property’s country, how long the details are kept and "
    "the guests’ rights.":
        "Όποιος αποφασίζει τι γίνεται με τα στοιχεία των επισκεπτών (εσείς ή η εταιρεία σας): η "
        "σελίδα του check-in τον αναφέρει, μαζί με τον νόμο της χώρας του καταλύματος, πόσο "
        "διατηρούνται τα στοιχεία και τα δικαιώματα των επισκεπτών.",
    "Legal name": "Ονοματεπώνυμο ή επωνυμία",
    "A person’s full name, or the company’s registered name.":
        "Το πλήρες όνομα ενός προσώπου ή η καταχωρισμένη επωνυμία της εταιρείας.",
    "Postal address": "Ταχυδρομική διεύθυνση",
    "done:controller_saved": "Αποθηκεύτηκε· η ενημέρωση απορρήτου των επισκεπτών αναφέρει από "
                             "τώρα αυτόν τον υπεύθυνο επεξεργασίας.",
    "at most 200 characters": "το πολύ 200 χαρακτήρες",
    "at most 500 characters": "το πολύ 500 χαρακτήρες",
    "at most 254 characters": "το πολύ 254 χαρακτήρες",
    "at most 50 characters": "το πολύ 50 χαρακτήρες",
    "is needed with a legal name: the controller's postal address":
        "χρειάζεται μαζί με την επωνυμία: η ταχυδρομική διεύθυνση του υπευθύνου επεξεργασίας",
    "give an e-mail address or a phone number guests can reach the controller at":
        "δώστε ένα e-mail ή ένα τηλέφωνο στο οποίο οι επισκέπτες βρίσκουν τον υπεύθυνο επεξεργασίας",
}
