"""The dashboard: its users, one-time password links, sessions; and the activity log.

Frozen copies of rentalcomply/dashboard/models.py and rentalcomply/core/activity.py as they were
when this migration was written.
"""

from peewee import CharField, DateTimeField, ForeignKeyField, Model


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class Account(Base):  # stand-in for the table of 0001, for the foreign keys
        id = CharField(primary_key=True, max_length=32)

    class DashboardUser(Base):
        id = CharField(primary_key=True, max_length=32)
        account = ForeignKeyField(Account, on_delete="CASCADE")
        email = CharField(max_length=254, null=True, unique=True)
        password_hash = CharField(max_length=200, null=True)
        status = CharField(max_length=16, default="active")
        created_at = DateTimeField()
        password_set_at = DateTimeField(null=True)
        last_sign_in_at = DateTimeField(null=True)

    class PasswordLink(Base):
        id = CharField(primary_key=True, max_length=32)
        user = ForeignKeyField(DashboardUser, on_delete="CASCADE")
        token_hash = CharField(max_length=64, unique=True)
        created_at = DateTimeField()
        expires_at = DateTimeField()
        used_at = DateTimeField(null=True)

        class Meta:
            table_name = "dashboard_password_link"

    class DashboardSession(Base):
        id_hash = CharField(primary_key=True, max_length=64)
        user = ForeignKeyField(DashboardUser, on_delete="CASCADE")
        account = ForeignKeyField(Account, on_delete="CASCADE")
        created_at = DateTimeField()
        last_seen_at = DateTimeField()
        expires_at = DateTimeField()

    class Activity(Base):
        id = CharField(primary_key=True, max_length=32)
        account = ForeignKeyField(Account, on_delete="CASCADE")
        actor_type = CharField(max_length=8)
        actor_id = CharField(max_length=32)
        actor_label = CharField(max_length=254, default="")
        action = CharField(max_length=200)
        resource_id = CharField(max_length=64, null=True)
        created_at = DateTimeField()

        class Meta:
            indexes = ((("account", "created_at"), False),)

    db.create_tables([DashboardUser, PasswordLink, DashboardSession, Activity], safe=False)


def down(migrator, db):
    for table in ("activity", "dashboard_session", "dashboard_password_link", "dashboard_user"):
        db.execute_sql(f"DROP TABLE IF EXISTS {table}")
