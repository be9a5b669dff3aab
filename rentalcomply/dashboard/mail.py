"""The dashboard's e-mails: an invitation to a colleague, a link for a forgotten password (and
the headers of the morning e-mail, which morning.py writes).

Composed in the language of the page that asked for it, plain text and HTML, and sent like every
e-mail of the product (core/mailer.py: its headers, the account's effective SMTP settings), from a
task (tasks.py).
"""

from __future__ import annotations

import html
from email.message import EmailMessage

from rentalcomply.core import mailer

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


def compose(settings, kind: str, lang: str, to: str, account_id: str, **values) -> EmailMessage:
    subject, body = TEXTS[kind][lang if lang in TEXTS[kind] else "en"]
    subject = subject.format(**values)
    text = body.format(email=to, **values)
    message = new_message(settings, lang, to, subject, account_id)
    message.set_content(text + "\n")
    e = html.escape
    url = values.get("url", "")
    paragraphs = "\n".join(
        f'<p style="font-size:15px;line-height:1.5"><a href="{e(url)}" style="color:#0b5f5a">{e(p)}</a></p>'
        if url and p == url else f'<p style="font-size:15px;line-height:1.5">{e(p)}</p>'
        for p in text.split("\n\n"))
    message.add_alternative(f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{e(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f6f5;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1b2421">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:28px">
{paragraphs}
</div></body></html>
""", subtype="html")
    message["Content-Language"] = lang
    return message


def new_message(settings, lang: str, to: str, subject: str, account_id: str) -> EmailMessage:
    """The headers every dashboard e-mail carries (the morning e-mail's too: morning.py): those
    of every e-mail of the product (core/mailer.py), with the account's sender."""
    return mailer.new_message(settings, to=to, subject=subject, lang=lang, account_id=account_id)
