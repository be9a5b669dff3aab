"""The dashboard's e-mails: an invitation to a colleague, a link for a forgotten password (and
the headers of the morning e-mail, which morning.py writes).

Composed in the language of the page that asked for it and sent over SMTP by the same code as the
guests' check-in e-mails (checkin.mail.deliver, the `smtp` settings), from a task (tasks.py).
"""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

TEXTS = {
    "invite": {
        "en": ("You are invited to {account} on RentalComply",
               "{inviter} invites you to the RentalComply dashboard of {account}.\n\n"
               "Choose your password for {account} here (the link works once, for {hours} "
               "hours):\n\n{url}\n\n"
               "You will sign in with this e-mail address. If it signs in to another account "
               "here already, that account stays as it is, with its own password."),
        "el": ("Πρόσκληση στο {account} στο RentalComply",
               "Ο/Η {inviter} σας προσκαλεί στον πίνακα ελέγχου RentalComply του {account}.\n\n"
               "Επιλέξτε τον κωδικό σας για το {account} εδώ (ο σύνδεσμος λειτουργεί μία φορά, "
               "για {hours} ώρες):\n\n{url}\n\nΘα συνδέεστε με αυτή τη διεύθυνση e-mail. Αν "
               "συνδέεται ήδη εδώ σε άλλον λογαριασμό, εκείνος μένει ως έχει, με τον δικό του "
               "κωδικό."),
    },
    "reset": {  # one e-mail for each account the address is a user of
        "en": ("A new password for {account} on RentalComply",
               "Someone (you, we hope) asked for a new password for {email} in {account}."
               "\n\n"
               "Choose it here (the link works once, for {hours} hours):\n\n{url}\n\n"
               "If you did not ask, ignore this e-mail: your password stays as it is."),
        "el": ("Νέος κωδικός για το {account} στο RentalComply",
               "Κάποιος (ελπίζουμε εσείς) ζήτησε νέο κωδικό για το {email} στο {account}."
               "\n\n"
               "Επιλέξτε τον εδώ (ο σύνδεσμος λειτουργεί μία φορά, για {hours} ώρες):\n\n{url}\n\n"
               "Αν δεν το ζητήσατε, αγνοήστε αυτό το e-mail: ο κωδικός σας μένει ίδιος."),
    },
}


def compose(kind: str, lang: str, to: str, sender: str, **values) -> EmailMessage:
    subject, body = TEXTS[kind][lang if lang in TEXTS[kind] else "en"]
    message = new_message(lang, to, sender, subject.format(**values))
    message.set_content(body.format(email=to, **values) + "\n")
    return message


def new_message(lang: str, to: str, sender: str, subject: str) -> EmailMessage:
    """The headers every dashboard e-mail carries (the morning e-mail's too: morning.py)."""
    message = EmailMessage()
    message["Subject"] = subject
    message["From"] = sender
    message["To"] = to
    message["Message-ID"] = make_msgid(domain="rentalcomply.invalid")
    message["Content-Language"] = lang
    message["Auto-Submitted"] = "auto-generated"
    return message
