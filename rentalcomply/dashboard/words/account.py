"""The account's own settings on the Account page (pages/account.py): its name."""

ENGLISH: dict[str, str] = {
    "done:account_renamed": "Saved: e-mails call the account by this name from now on.",
}

GREEK: dict[str, str] = {
    "Account name": "Όνομα λογαριασμού",
    "Invitations, the morning e-mail, police alerts and the choice of account at sign-in call the "
    "account by this name; the command line accepts it as --account.":
        "Οι προσκλήσεις, το πρωινό e-mail, οι ειδοποιήσεις για την αστυνομία και η επιλογή "
        "λογαριασμού κατά τη σύνδεση αναφέρουν τον λογαριασμό με αυτό το όνομα· η γραμμή εντολών "
        "το δέχεται ως --account.",
    "done:account_renamed": "Αποθηκεύτηκε· τα e-mail αναφέρουν τον λογαριασμό με αυτό το "
                            "όνομα από τώρα.",
    "must not be empty": "δεν πρέπει να είναι κενό",
    "must be at most 200 characters": "πρέπει να έχει έως 200 χαρακτήρες",
    "is another account's name already; choose another":
        "είναι ήδη όνομα άλλου λογαριασμού· επιλέξτε άλλο",
}
