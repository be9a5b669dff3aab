"""Reports: provisional files, and the lease of a generation.

- `provisional`: the files were made while the period was still running (they hold the stays that
  had ended by `as_of`); the schedule regenerates such a report once the period has closed.
- `job` (`queued` | `running` | null), `lease_owner`, `lease_expires_at`: who generates the
  report and until when. The owner renews the lease while it works; a sweep re-queues a report
  whose lease ran out (a crashed process), and only the lease's owner may record the result, so a
  generation is recorded (and announced) once.

Reports left `pending` or `generating` by an earlier version are queued again at once, and a
report an earlier version generated before its period had closed is marked provisional, so that
the schedule generates it again, final (it may hold stays that had not ended).
Plain `ADD COLUMN` with defaults, which SQLite and PostgreSQL take in place.
"""

import datetime as dt
from zoneinfo import ZoneInfo

ATHENS = ZoneInfo("Europe/Athens")


def up(migrator, db):
    db.execute_sql('ALTER TABLE "report" ADD COLUMN "provisional" BOOLEAN NOT NULL DEFAULT FALSE')
    db.execute_sql('ALTER TABLE "report" ADD COLUMN "as_of" DATE')
    db.execute_sql('ALTER TABLE "report" ADD COLUMN "job" VARCHAR(16)')
    db.execute_sql('ALTER TABLE "report" ADD COLUMN "lease_owner" VARCHAR(100)')
    db.execute_sql('ALTER TABLE "report" ADD COLUMN "lease_expires_at" TIMESTAMP')
    db.execute_sql('CREATE INDEX "report_job_lease_expires_at" ON "report" ("job", '
                   '"lease_expires_at")')
    # A generation under way when an earlier version stopped: its task is gone; queue it again.
    db.execute_sql("UPDATE \"report\" SET \"job\" = 'queued', \"lease_expires_at\" = "
                   "'2000-01-01 00:00:00' WHERE \"status\" IN ('pending', 'generating')")
    mark_early_reports_provisional(db)


def mark_early_reports_provisional(db) -> int:
    """Reports generated (UTC) before their period's end (midnight in Athens): provisional."""
    rows = db.execute_sql('SELECT "id", "year", "month", "generated_at" FROM "report" '
                          'WHERE "generated_at" IS NOT NULL').fetchall()
    marked = 0
    for report_id, year, month, generated in rows:
        if isinstance(generated, str):
            generated = dt.datetime.fromisoformat(generated[:19])
        if month is None:
            end = dt.date(year + 1, 1, 1)
        else:
            end = dt.date(year + month // 12, month % 12 + 1, 1)
        local = generated.replace(tzinfo=dt.timezone.utc).astimezone(ATHENS)
        if local.date() < end:
            db.execute_sql('UPDATE "report" SET "provisional" = TRUE, "as_of" = %s WHERE "id" = %s'
                           .replace("%s", db.param), (local.date().isoformat(), report_id))
            marked += 1
    return marked


def down(migrator, db):
    db.execute_sql('DROP INDEX IF EXISTS "report_job_lease_expires_at"')
    migrator.migrate(*[migrator.drop_column("report", name) for name in
                       ("lease_expires_at", "lease_owner", "job", "as_of", "provisional")])
