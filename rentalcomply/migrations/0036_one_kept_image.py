"""One kept document image per guest of a booking (issue 35): a re-scan replaces the photo.

Before, each scan added a row, so a guest who scanned six times left six sealed photos. The
newest of each (booking, guest) is the one the guest went on with; the older ones are deleted,
then a unique index keeps it so. Plain SQL that SQLite and PostgreSQL both take.
"""


def up(migrator, db):
    db.execute_sql('DELETE FROM "document_image" WHERE "id" NOT IN ('
                   'SELECT MAX("id") FROM "document_image" GROUP BY "booking_id", "guest_index")')
    db.execute_sql('CREATE UNIQUE INDEX "document_image_booking_id_guest_index" '
                   'ON "document_image" ("booking_id", "guest_index")')


def down(migrator, db):
    db.execute_sql('DROP INDEX IF EXISTS "document_image_booking_id_guest_index"')
