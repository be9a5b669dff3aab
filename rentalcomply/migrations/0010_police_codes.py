"""Police code tables in the database: one row per loaded table (its source, when it was loaded
and a version that grows with each load) and one per code with its last day of validity.

A frozen copy of the code-table models of rentalcomply/police/models.py as they were when this
migration was written.
"""

from peewee import (AutoField, CharField, DateField, DateTimeField, ForeignKeyField,
                    IntegerField, Model)


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class PoliceCodeTable(Base):
        id = CharField(primary_key=True, max_length=48)
        country = CharField(max_length=2)
        name = CharField(max_length=32)
        version = IntegerField(default=1)
        source = CharField(max_length=300)
        loaded_at = DateTimeField()
        row_count = IntegerField(default=0)

    class PoliceCode(Base):
        id = AutoField()
        table = ForeignKeyField(PoliceCodeTable, on_delete="CASCADE", column_name="table_id")
        code = CharField(max_length=64)
        name = CharField(max_length=300)
        province = CharField(max_length=8, default="")
        valid_to = DateField(null=True)

        class Meta:
            indexes = ((("table", "code"), False),)

    db.create_tables([PoliceCodeTable, PoliceCode], safe=False)


def down(migrator, db):
    db.execute_sql("DROP TABLE IF EXISTS police_code")
    db.execute_sql("DROP TABLE IF EXISTS police_code_table")
