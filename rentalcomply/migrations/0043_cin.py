"""The CIN (codice identificativo nazionale) of Italian properties.

- `property.cin`: the code the Ministero del Turismo issues (BDSR), as the host typed it, trimmed;
  null when not given. Its format is unconfirmed (shared domain note, "CIN"), so it is kept as
  text, never parsed. A plain `ADD COLUMN` of a nullable column, taken in place by SQLite and
  PostgreSQL; existing properties have none.
"""


def up(migrator, db):
    db.execute_sql('ALTER TABLE "property" ADD COLUMN "cin" VARCHAR(40)')


def down(migrator, db):
    db.execute_sql('ALTER TABLE "property" DROP COLUMN "cin"')
