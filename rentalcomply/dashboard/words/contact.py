"""The contact a guest typed at check-in, on the booking's page (booking.tpl, _guest_contact.tpl)."""

ENGLISH: dict[str, str] = {}

GREEK: dict[str, str] = {
    "Send it to {email}, typed by the guest": "Αποστολή στο {email}, που έγραψε ο επισκέπτης",
}
