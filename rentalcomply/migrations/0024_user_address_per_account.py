"""A dashboard user's e-mail address is unique within its account, no longer across the server.

One person may be a user of several accounts (an owner invites an address that signs in to
another account already): one user, with its own password, in each. Sign-in finds the address's
users and goes to the account whose password was given (dashboard/users.py).

- `dashboard_user_email`, the unique index on `email`, becomes a plain index of the same name
  (sign-in and a forgotten password look the address up);
- `dashboard_user_account_id_email`: unique on (account, address). Several users without an
  address yet (NULL) stay allowed, on SQLite and PostgreSQL alike.

Plain `DROP INDEX` / `CREATE INDEX`, the same statements on both databases. Going down fails
(a unique-index error, nothing changed) while one address is a user of two accounts.
"""


def up(migrator, db):
    db.execute_sql('DROP INDEX IF EXISTS "dashboard_user_email"')
    db.execute_sql('CREATE INDEX "dashboard_user_email" ON "dashboard_user" ("email")')
    db.execute_sql('CREATE UNIQUE INDEX "dashboard_user_account_id_email" '
                   'ON "dashboard_user" ("account_id", "email")')


def down(migrator, db):
    db.execute_sql('DROP INDEX IF EXISTS "dashboard_user_account_id_email"')
    db.execute_sql('DROP INDEX IF EXISTS "dashboard_user_email"')
    db.execute_sql('CREATE UNIQUE INDEX "dashboard_user_email" ON "dashboard_user" ("email")')
