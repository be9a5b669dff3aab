"""Report files in the database (reports/models.py ReportFile), so that every process serves them.

A frozen copy of the model as it was when this migration was written.
"""

from peewee import CharField, ForeignKeyField, IntegerField, Model, TextField


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class Report(Base):
        id = IntegerField(primary_key=True)

    class ReportFile(Base):
        report = ForeignKeyField(Report, on_delete="CASCADE")
        format = CharField(max_length=8)
        content = TextField()
        size = IntegerField()

        class Meta:
            indexes = ((("report", "format"), True),)

    db.create_tables([ReportFile])


def down(migrator, db):
    db.execute_sql("DROP TABLE IF EXISTS report_file")
