"""The police code tables on the account's page: what is in use and what a refresh answered
(dashboard/pages/code_tables.py, templates/_code_tables.tpl)."""

ENGLISH: dict[str, str] = {
    "done:code_tables": "The authorities were asked for their code tables. What each answered:",
    # One sentence per country after "Refresh code tables" (filings/code_refresh.refresh_now).
    "codes:refreshed": "{country}: refreshed from {authority}.",
    "codes:no_credentials": "{country}: not refreshed: no property files with {authority} with "
                            "its credentials yet. The tables shipped with RentalComply are in use "
                            "and code every town they list.",
    "codes:refused": "{country}: not refreshed: {authority} refused the credentials. The tables "
                     "in use stay; check the property’s police set-up.",
    "codes:unreachable": "{country}: not refreshed: {authority} did not answer. The tables in use "
                         "stay; try again later.",
    "codes:unreadable": "{country}: not refreshed: {authority}’s answer could not be read. The "
                        "tables in use stay; the server’s log says why.",
    "codes:not_set": "{country}: not refreshed: no address of {authority}’s file is set "
                     "(police.ine_municipalities_url). The list in use stays.",
}

GREEK: dict[str, str] = {
    "done:code_tables": "Ζητήθηκαν από τις αρχές οι πίνακες κωδικών τους. Τι απάντησε η καθεμία:",
    "codes:refreshed": "{country}: ανανεώθηκαν από το {authority}.",
    "codes:no_credentials": "{country}: δεν ανανεώθηκαν: κανένα κατάλυμα δεν δηλώνει ακόμη στο "
                            "{authority} με τα διαπιστευτήριά του. Χρησιμοποιούνται οι πίνακες "
                            "που συνοδεύουν το RentalComply και κωδικοποιούν κάθε τόπο που "
                            "περιέχουν.",
    "codes:refused": "{country}: δεν ανανεώθηκαν: το {authority} απέρριψε τα διαπιστευτήρια. Οι "
                     "πίνακες σε χρήση παραμένουν· ελέγξτε τις ρυθμίσεις αστυνομίας του "
                     "καταλύματος.",
    "codes:unreachable": "{country}: δεν ανανεώθηκαν: το {authority} δεν απάντησε. Οι πίνακες σε "
                         "χρήση παραμένουν· δοκιμάστε ξανά αργότερα.",
    "codes:unreadable": "{country}: δεν ανανεώθηκαν: η απάντηση του {authority} δεν διαβάστηκε. Οι "
                        "πίνακες σε χρήση παραμένουν· το αρχείο καταγραφής του διακομιστή λέει "
                        "γιατί.",
    "codes:not_set": "{country}: δεν ανανεώθηκαν: δεν έχει οριστεί η διεύθυνση του αρχείου του "
                     "{authority} (police.ine_municipalities_url). Ο κατάλογος σε χρήση παραμένει.",
    "Spain’s municipalities": "Δήμοι της Ισπανίας",
    "Police code tables": "Πίνακες κωδικών της αστυνομίας",
    "The authorities’ own tables of towns, states and documents, used to file your guests. "
    "RentalComply ships them; they are refreshed from each authority weekly once a property files "
    "with it, or now with the button.":
        "Οι πίνακες των ίδιων των αρχών με δήμους, κράτη και έγγραφα, με τους οποίους δηλώνονται "
        "οι επισκέπτες σας. Συνοδεύουν το RentalComply· ανανεώνονται από κάθε αρχή κάθε εβδομάδα "
        "μόλις ένα κατάλυμα δηλώνει σε αυτήν, ή τώρα με το κουμπί.",
    "Italy": "Ιταλία",
    "Spain": "Ισπανία",
    "published {date}": "δημοσίευση {date}",
    "loaded {date}": "φόρτωση {date}",
    "INE’s list shipped with RentalComply lacks a few municipalities: a guest’s town it lacks "
    "holds the filing, naming the town. SES.Hospedajes does not serve municipalities: the button "
    "fetches INE’s current list, or load INE’s file with rentalcomply police refresh-codes "
    "--country ES FILE.":
        "Ο κατάλογος του INE που συνοδεύει το RentalComply δεν έχει λίγους δήμους: αν λείπει ο "
        "δήμος ενός επισκέπτη, η δήλωση κρατείται και τον κατονομάζει. Το SES.Hospedajes δεν "
        "δίνει δήμους: το κουμπί φέρνει τον τρέχοντα κατάλογο του INE, ή φορτώστε το αρχείο του "
        "INE με rentalcomply police refresh-codes --country ES FILE.",
    "Refresh code tables": "Ανανέωση πινάκων κωδικών",
}

PLURALS = {
    "code_row": {"en": {"one": "{n} row", "other": "{n} rows"},
                 "el": {"one": "{n} γραμμή", "other": "{n} γραμμές"}},
}
