"""Access instructions per guest language (properties/access.py).

- `property.access_instructions_languages`: the languages that have a text ("en,it"), never the
  texts, which stay sealed in `access_instructions_sealed` (now a JSON object of texts by
  language). A plain `ADD COLUMN`, taken in place by SQLite and PostgreSQL.
- A property whose one text was sealed before languages existed is recorded in its country's
  language (the one its guests fall back to), so that every guest still reads it; the sealed text
  itself is left as it is (the server secret is not the migration's to use) and opens as that
  language until the host saves it again.
"""

# Frozen copy of properties/access.COUNTRY_LANGUAGES as it was when this migration was written.
COUNTRY_LANGUAGES = {"GR": "el", "CY": "el", "IT": "it", "SM": "it", "VA": "it", "ES": "es",
                     "AD": "es", "PT": "pt", "DE": "de", "AT": "de", "LI": "de", "FR": "fr",
                     "MC": "fr"}


def up(migrator, db):
    db.execute_sql('ALTER TABLE "property" ADD COLUMN "access_instructions_languages" '
                   'VARCHAR(64)')
    cases = " ".join(f"WHEN '{country}' THEN '{lang}'"
                     for country, lang in sorted(COUNTRY_LANGUAGES.items()))
    db.execute_sql(f'UPDATE "property" SET "access_instructions_languages" = '
                   f'CASE "country" {cases} ELSE \'en\' END '
                   f'WHERE "access_instructions_sealed" IS NOT NULL')


def down(migrator, db):
    db.execute_sql('ALTER TABLE "property" DROP COLUMN "access_instructions_languages"')
