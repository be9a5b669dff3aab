"""Spain's registration numbers, and the numbering of the Mossos d'Esquadra's files.

- `property.licence_number`: the regional tourism licence of a Spanish property (Catalonia's
  HUTB-012345, Andalusia's VUT/MA/12345...), as the host typed it, trimmed; no format is guessed.
- `property.nrua`: the NRUA of RD 1312/2024 a host already holds, kept opaque (no length check):
  the Supreme Court annulled the register (STS 620/2026 of 19 May 2026), so it is optional.
- `mossos_file_sequence`: per establishment code, the number of the last file built
  (`<code>.<001-999>.txt`; authorities/mossos/sequence.py).

Plain `ADD COLUMN`s of nullable columns and a new table, taken in place by SQLite and PostgreSQL.
"""

from peewee import CharField, DateTimeField, IntegerField, Model


def up(migrator, db):
    class MossosFileSequence(Model):
        establishment = CharField(max_length=10, primary_key=True)
        last_number = IntegerField()
        updated_at = DateTimeField()

        class Meta:
            database = db
            table_name = "mossos_file_sequence"

    db.execute_sql('ALTER TABLE "property" ADD COLUMN "licence_number" VARCHAR(60)')
    db.execute_sql('ALTER TABLE "property" ADD COLUMN "nrua" TEXT')
    db.create_tables([MossosFileSequence], safe=False)


def down(migrator, db):
    db.execute_sql('DROP TABLE "mossos_file_sequence"')
    for column in ("licence_number", "nrua"):
        db.execute_sql(f'ALTER TABLE "property" DROP COLUMN "{column}"')
