"""The property form's country-first words (_property_fields.tpl, pages/property_form.py,
static/js/property-form.js through the form's data) and the property page's notice that a
property's guests are not being filed with the police (property.tpl).

ITALIAN, SPANISH and PORTUGUESE hold the same texts for the dashboard's coming catalogues in
those languages; the dashboard reads ENGLISH and GREEK today."""

ENGLISH: dict[str, str] = {}

GREEK: dict[str, str] = {
    # the property form (_property_fields.tpl)
    "Choose the country": "Επιλέξτε τη χώρα",
    "Where RentalComply files and reports": "Χώρες όπου το RentalComply κάνει δηλώσεις και αναφορές",
    "Every other country": "Όλες οι άλλες χώρες",
    "Its time zones, its own fields and the police authority its guests are filed with follow "
    "from it.":
        "Από αυτήν προκύπτουν οι ζώνες ώρας, τα πεδία που ισχύουν μόνο εκεί και η αστυνομική "
        "αρχή στην οποία δηλώνονται οι επισκέπτες.",
    "Show this country’s fields": "Εμφάνιση των πεδίων της χώρας",
    "Choose the time zone": "Επιλέξτε τη ζώνη ώρας",
    "Choose the property’s country.": "Επιλέξτε τη χώρα του καταλύματος.",
    "Guests of a property in this country must be registered with the police: with no "
    "connector, they are not being filed.":
        "Οι επισκέπτες ενός καταλύματος σε αυτή τη χώρα πρέπει να δηλώνονται στην αστυνομία: "
        "χωρίς σύνδεση, δεν δηλώνονται.",
    # the property page (property.tpl)
    "Guests of {property} are not being filed with the police: choose its authority.":
        "Οι επισκέπτες του καταλύματος {property} δεν δηλώνονται στην αστυνομία: επιλέξτε την "
        "αρχή του.",
    "File with {authority}": "Δήλωση μέσω {authority}",
    "Choose another connector": "Επιλογή άλλης σύνδεσης",
}

ITALIAN: dict[str, str] = {
    "Choose the country": "Scegli il paese",
    "Where RentalComply files and reports": "Paesi in cui RentalComply invia comunicazioni e "
                                            "dichiarazioni",
    "Every other country": "Tutti gli altri paesi",
    "Its time zones, its own fields and the police authority its guests are filed with follow "
    "from it.":
        "Ne dipendono i fusi orari, i campi propri del paese e l’autorità di pubblica sicurezza "
        "a cui si comunicano gli ospiti.",
    "Show this country’s fields": "Mostra i campi di questo paese",
    "Choose the time zone": "Scegli il fuso orario",
    "Choose the property’s country.": "Scegli il paese della struttura.",
    "Guests of a property in this country must be registered with the police: with no "
    "connector, they are not being filed.":
        "Gli ospiti di una struttura in questo paese vanno comunicati alla pubblica sicurezza: "
        "senza un collegamento, non vengono comunicati.",
    "Guests of {property} are not being filed with the police: choose its authority.":
        "Gli ospiti di {property} non vengono comunicati alla pubblica sicurezza: scegli a quale "
        "autorità inviarli.",
    "File with {authority}": "Comunica con {authority}",
    "Choose another connector": "Scegli un altro collegamento",
}

SPANISH: dict[str, str] = {
    "Choose the country": "Elige el país",
    "Where RentalComply files and reports": "Países en los que RentalComply comunica y declara",
    "Every other country": "Todos los demás países",
    "Its time zones, its own fields and the police authority its guests are filed with follow "
    "from it.":
        "De él dependen los husos horarios, los campos propios del país y la autoridad policial "
        "a la que se comunican los huéspedes.",
    "Show this country’s fields": "Mostrar los campos de este país",
    "Choose the time zone": "Elige el huso horario",
    "Choose the property’s country.": "Elige el país del alojamiento.",
    "Guests of a property in this country must be registered with the police: with no "
    "connector, they are not being filed.":
        "Los huéspedes de un alojamiento en este país deben comunicarse a la policía: sin "
        "conector, no se están comunicando.",
    "Guests of {property} are not being filed with the police: choose its authority.":
        "Los huéspedes de {property} no se están comunicando a la policía: elige su autoridad.",
    "File with {authority}": "Comunicar a {authority}",
    "Choose another connector": "Elegir otro conector",
}

PORTUGUESE: dict[str, str] = {
    "Choose the country": "Escolha o país",
    "Where RentalComply files and reports": "Países onde o RentalComply comunica e declara",
    "Every other country": "Todos os outros países",
    "Its time zones, its own fields and the police authority its guests are filed with follow "
    "from it.":
        "Dele dependem os fusos horários, os campos próprios do país e a autoridade a quem os "
        "hóspedes são comunicados.",
    "Show this country’s fields": "Mostrar os campos deste país",
    "Choose the time zone": "Escolha o fuso horário",
    "Choose the property’s country.": "Escolha o país do alojamento.",
    "Guests of a property in this country must be registered with the police: with no "
    "connector, they are not being filed.":
        "Os hóspedes de um alojamento neste país têm de ser comunicados às autoridades: sem "
        "conector, não estão a ser comunicados.",
    "Guests of {property} are not being filed with the police: choose its authority.":
        "Os hóspedes de {property} não estão a ser comunicados às autoridades: escolha a sua "
        "autoridade.",
    "File with {authority}": "Comunicar através de {authority}",
    "Choose another connector": "Escolher outro conector",
}
