"""Check-in links for every booking, and one per property (checkin/links.py).

- `booking.guest_phone_last4`: the last four digits of the guest's phone where the channel gives
  them (Airbnb's feed does, in its DESCRIPTION), so that a guest opening the property's link can
  say who they are with them instead of the arrival date.
- `property.checkin_link_generation`: bumped to rotate the property's check-in link, whose token
  is derived from it under the server secret (like `ical_token_generation`); nothing secret is
  stored.

Plain ALTER TABLE, which SQLite and PostgreSQL both run in place: peewee's migrator rebuilds an
SQLite table for a NOT NULL column, and a rebuilt table loses its triggers (migration 0017's
account change version, which the answer cache relies on).

The check-in rows (and so the hashes of the bookings' links) of bookings that exist already are
made at start-up, where the server secret is known (checkin/booking_links.py `ensure_links`): a
migration cannot derive them.
"""

STATEMENTS = (
    ('ALTER TABLE "booking" ADD COLUMN "guest_phone_last4" VARCHAR(4)',
     'ALTER TABLE "booking" DROP COLUMN "guest_phone_last4"'),
    ('ALTER TABLE "property" ADD COLUMN "checkin_link_generation" INTEGER NOT NULL DEFAULT 0',
     'ALTER TABLE "property" DROP COLUMN "checkin_link_generation"'),
)


def up(migrator, db):
    for statement, _ in STATEMENTS:
        db.execute_sql(statement)


def down(migrator, db):
    for _, statement in reversed(STATEMENTS):
        db.execute_sql(statement)
