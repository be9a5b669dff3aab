"""The words of the human-readable files, in Greek (the default) and English (`reports.language`)."""

from __future__ import annotations

LANGUAGES = ("el", "en")

MONTHS = {
    "el": ["Ιανουάριος", "Φεβρουάριος", "Μάρτιος", "Απρίλιος", "Μάιος", "Ιούνιος", "Ιούλιος",
           "Αύγουστος", "Σεπτέμβριος", "Οκτώβριος", "Νοέμβριος", "Δεκέμβριος"],
    "en": ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"],
}

TEXT = {
    "title_month": {"el": "Δηλώσεις βραχυχρόνιας διαμονής και τέλος ανθεκτικότητας",
                    "en": "Short-term stay declarations and climate resilience fee"},
    "title_year": {"el": "Ετήσια κατάσταση εισοδήματος βραχυχρόνιας μίσθωσης (Ε2)",
                   "en": "Yearly short-term rental income (form E2)"},
    "for_aade": {"el": "Για την ΑΑΔΕ (myAADE)", "en": "For AADE (myAADE)"},
    "period": {"el": "Περίοδος", "en": "Period"},
    "account": {"el": "Λογαριασμός", "en": "Account"},
    "generated": {"el": "Δημιουργήθηκε", "en": "Generated"},
    "due_stays": {"el": "Προθεσμία δηλώσεων διαμονών", "en": "Stays must be declared by"},
    "due_fee": {"el": "Προθεσμία δήλωσης τέλους", "en": "Climate fee must be declared by"},
    "summary": {"el": "Σύνοψη", "en": "Summary"},
    "stays": {"el": "Διαμονές (επικυρωμένες)", "en": "Stays (validated)"},
    "nights": {"el": "Νύχτες", "en": "Nights"},
    "gross": {"el": "Συνολικό μίσθωμα", "en": "Gross rent"},
    "stay_fee": {"el": "Τέλος των διαμονών", "en": "Fee of these stays"},
    "net": {"el": "Μίσθωμα χωρίς το τέλος", "en": "Rent net of the fee"},
    "fee_period": {"el": "Τέλος ανθεκτικότητας της περιόδου",
                   "en": "Climate fee of the period's nights"},
    "cancellations": {"el": "Ακυρώσεις με οφειλόμενο ποσό", "en": "Cancellations that pay"},
    "amount_kept": {"el": "Ποσό ακυρώσεων", "en": "Amount kept"},
    "attention_count": {"el": "Χρειάζονται προσοχή", "en": "Need attention"},
    "property": {"el": "Ακίνητο", "en": "Property"},
    "ama": {"el": "ΑΜΑ", "en": "AMA"},
    "category": {"el": "Κατηγορία", "en": "Category"},
    "standard": {"el": "Βραχυχρόνια μίσθωση", "en": "Standard short-term rental"},
    "detached_over_80m2": {"el": "Μονοκατοικία άνω των 80 τ.μ.",
                           "en": "Detached house over 80 m²"},
    "arrival": {"el": "Άφιξη", "en": "Arrival"},
    "departure": {"el": "Αναχώρηση", "en": "Departure"},
    "nights_short": {"el": "Νύχ.", "en": "Nights"},
    "renter": {"el": "Μισθωτής", "en": "Renter"},
    "reference": {"el": "Κωδ. κράτησης", "en": "Booking ref."},
    "renter_id": {"el": "ΑΦΜ / Διαβατήριο", "en": "AFM / Passport"},
    "afm": {"el": "ΑΦΜ", "en": "AFM"},
    "passport": {"el": "Διαβ.", "en": "Passport"},
    "provisional_mark": {"el": "ΠΡΟΣΩΡΙΝΗ", "en": "PROVISIONAL"},
    "provisional_banner": {
        "el": "ΠΡΟΣΩΡΙΝΗ ΑΝΑΦΟΡΑ: η περίοδος δεν έχει κλείσει. Περιέχει μόνο τις διαμονές που "
              "έληξαν έως {date} και τις νύχτες που πέρασαν. Δημιουργείται ξανά αυτόματα όταν "
              "κλείσει η περίοδος· μην την υποβάλετε ακόμη.",
        "en": "PROVISIONAL REPORT: the period has not closed. It holds only the stays that "
              "ended by {date} and the nights that have passed. It is generated again "
              "automatically once the period closes; do not file it yet."},
    "platform": {"el": "Πλατφόρμα", "en": "Platform"},
    "payment": {"el": "Πληρωμή", "en": "Payment"},
    "gross_short": {"el": "Μίσθωμα", "en": "Gross"},
    "fee_short": {"el": "Τέλος", "en": "Fee"},
    "net_short": {"el": "Καθαρό", "en": "Net"},
    "total": {"el": "Σύνολο", "en": "Total"},
    "no_stays": {"el": "Καμία διαμονή δεν έληξε στην περίοδο.",
                 "en": "No stay departed in this period."},
    "cancelled_on": {"el": "Ακύρωση", "en": "Cancelled"},
    "cancellation_heading": {"el": "Ακυρώσεις με οφειλόμενο ποσό",
                             "en": "Cancellations that still pay"},
    "fee_heading": {"el": "Τέλος ανθεκτικότητας ανά μήνα και εποχή",
                    "en": "Climate resilience fee by month and season"},
    "month": {"el": "Μήνας", "en": "Month"},
    "season": {"el": "Εποχή", "en": "Season"},
    "summer": {"el": "Απρίλιος–Οκτώβριος", "en": "April–October"},
    "winter": {"el": "Νοέμβριος–Μάρτιος", "en": "November–March"},
    "rate": {"el": "Τιμή/νύχτα", "en": "Per night"},
    "no_fee": {"el": "Καμία νύχτα με τέλος στην περίοδο.",
               "en": "No night in this period pays the fee."},
    "attention_heading": {"el": "Χρειάζονται προσοχή (δεν περιλαμβάνονται στα σύνολα)",
                          "en": "Needs attention (not in any total)"},
    "attention_none": {"el": "Όλες οι κρατήσεις της περιόδου είναι πλήρεις.",
                       "en": "Every booking of the period is complete."},
    "booking": {"el": "Κράτηση", "en": "Booking"},
    "guest": {"el": "Επισκέπτης", "en": "Guest"},
    "reason": {"el": "Αιτία", "en": "Reason"},
    "page": {"el": "Σελίδα", "en": "Page"},
    "of": {"el": "από", "en": "of"},
    "fee_note": {
        "el": "Το τέλος κάθε νύχτας μετρά στον μήνα της νύχτας· το καθαρό μίσθωμα μιας διαμονής "
              "αφαιρεί το τέλος όλων των νυχτών της.",
        "en": "Each night's fee counts in the month of that night; a stay's net rent deducts "
              "the fee of all its nights."},
    "renter_note": {
        "el": "Ο ΑΦΜ ή ο αριθμός διαβατηρίου του κύριου επισκέπτη προέρχεται από το check-in. "
              "Όπου λείπει και δεν υπάρχει κωδικός κράτησης πλατφόρμας, συμπληρώστε τον στο "
              "myAADE.",
        "en": "The lead guest's tax (AFM) or passport number comes from the check-in. Where it "
              "is missing and there is no platform booking reference, enter it in myAADE."},
}

PAYMENT = {
    "platform": {"el": "Πλατφόρμα", "en": "Platform"},
    "bank_transfer": {"el": "Τραπ. μεταφορά", "en": "Bank transfer"},
    "cash": {"el": "Μετρητά", "en": "Cash"},
    "card": {"el": "Κάρτα", "en": "Card"},
}

PLATFORM = {
    "airbnb": {"el": "Airbnb", "en": "Airbnb"},
    "booking": {"el": "Booking.com", "en": "Booking.com"},
    "vrbo": {"el": "Vrbo", "en": "Vrbo"},
    "other": {"el": "Άλλη", "en": "Other"},
    "direct": {"el": "Απευθείας", "en": "Direct"},
}


def text(key: str, language: str) -> str:
    return TEXT[key][language]


def period_name(year: int, month: int | None, language: str) -> str:
    return str(year) if month is None else f"{MONTHS[language][month - 1]} {year}"


def money(cents: int, language: str) -> str:
    """`1.234,56 €` in Greek, `€1,234.56` in English."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    grouped = f"{whole:,}"
    if language == "el":
        return f"{sign}{grouped.replace(',', '.')},{part:02d} €"
    return f"{sign}€{grouped}.{part:02d}"


def date(day, language: str) -> str:
    return day.strftime("%d/%m/%Y") if language == "el" else day.isoformat()
