"""Check-in links for every booking, and one per property (checkin/links.py).

- `booking.guest_phone_last4`: the last four digits of the guest's phone where the channel gives
  them (Airbnb's feed does, in its DESCRIPTION), so that a guest opening the property's link can
  say who they are with them instead of the arrival date.
- `property.checkin_link_generation`: bumped to rotate the property's check-in link, whose token
  is derived from it under the server secret (like `ical_token_generation`); nothing secret is
  stored.

The check-in rows (and so the hashes of the bookings' links) of bookings that exist already are
made at start-up, where the server secret is known (checkin/service.py `ensure_links`): a
migration cannot derive them.
"""

from peewee import SQL, CharField, IntegerField


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("booking", "guest_phone_last4", CharField(max_length=4, null=True)),
        migrator.add_column("property", "checkin_link_generation",
                            IntegerField(default=0, constraints=[SQL("DEFAULT 0")])),
    )


def down(migrator, db):
    migrator.migrate(
        migrator.drop_column("booking", "guest_phone_last4"),
        migrator.drop_column("property", "checkin_link_generation"),
    )
