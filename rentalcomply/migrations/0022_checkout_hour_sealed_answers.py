"""The check-out hour of a property, and idempotency records kept sealed.

- `property.checkout_hour`: the departure day's check-out time (hour, the property's own time),
  until which a guest sees the access instructions (checkin/access.py). A plain `ADD COLUMN`,
  taken in place by SQLite and PostgreSQL; existing properties get 11:00.
- `idempotency_record.body` is sealed from now on, and holds no secret or guest link
  (web/idempotency.py). The records kept before held the first answers in clear, webhook
  secrets and guest links among them: they are removed. They lived a day at most; a retry of a
  request made before the upgrade runs again (a booking twice is still refused as a conflict).
"""


def up(migrator, db):
    db.execute_sql('ALTER TABLE "property" ADD COLUMN "checkout_hour" INTEGER NOT NULL DEFAULT 11')
    db.execute_sql('DELETE FROM "idempotency_record"')


def down(migrator, db):
    db.execute_sql('DELETE FROM "idempotency_record"')  # sealed answers an older build cannot read
    db.execute_sql('ALTER TABLE "property" DROP COLUMN "checkout_hour"')
