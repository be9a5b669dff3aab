"""Mail that a host can trust (core/mailer.py, checkin/reminders.py).

- `mail_setting`: per account, the mail server its owner set up on the dashboard (the password
  sealed), the host contact every guest e-mail carries, the reminder schedule and the outcome of
  the last attempt to send.
- `property_contact`: a property's own host contact, replacing the account's for its guests.
- `message_template`: an account's own text of the invitation, reminder or access e-mail, per
  language (checkin/templates.py).
- `checkin.reminded_on`: the local date of a booking's last reminder, claimed before it is sent.

A frozen copy of the model as it was when this migration was written.
"""

from peewee import CharField, CompositeKey, DateField, DateTimeField, ForeignKeyField, IntegerField, Model, TextField


def up(migrator, db):
    class Base(Model):
        class Meta:
            database = db
            legacy_table_names = False

    class Account(Base):
        id = CharField(primary_key=True, max_length=32)

    class MailSetting(Base):
        account = ForeignKeyField(Account, primary_key=True, on_delete="CASCADE")
        smtp_host = CharField(max_length=253, null=True)
        smtp_port = IntegerField(null=True)
        smtp_security = CharField(max_length=16, null=True)
        smtp_username = CharField(max_length=254, null=True)
        smtp_password_sealed = TextField(null=True)
        smtp_from = CharField(max_length=320, null=True)
        contact_name = CharField(max_length=200, null=True)
        contact_phone = CharField(max_length=50, null=True)
        contact_email = CharField(max_length=254, null=True)
        reminder_days = CharField(max_length=100, null=True)
        last_attempt_at = DateTimeField(null=True)
        last_error = TextField(null=True)
        updated_at = DateTimeField()

        class Meta:
            table_name = "mail_setting"

    class MessageTemplate(Base):
        account = ForeignKeyField(Account, on_delete="CASCADE")
        kind = CharField(max_length=32)
        lang = CharField(max_length=8)
        subject = CharField(max_length=200)
        body = TextField()
        updated_at = DateTimeField()

        class Meta:
            table_name = "message_template"
            primary_key = CompositeKey("account", "kind", "lang")

    class Property(Base):
        id = CharField(primary_key=True, max_length=32)

    class PropertyContact(Base):
        property = ForeignKeyField(Property, primary_key=True, on_delete="CASCADE")
        account = ForeignKeyField(Account, on_delete="CASCADE")
        name = CharField(max_length=200, null=True)
        phone = CharField(max_length=50, null=True)
        email = CharField(max_length=254, null=True)
        updated_at = DateTimeField()

        class Meta:
            table_name = "property_contact"

    db.create_tables([MailSetting, MessageTemplate, PropertyContact])
    migrator.migrate(migrator.add_column("checkin", "reminded_on", DateField(null=True)))


def down(migrator, db):
    migrator.migrate(migrator.drop_column("checkin", "reminded_on"))
    db.execute_sql('DROP TABLE IF EXISTS "property_contact"')
    db.execute_sql('DROP TABLE IF EXISTS "message_template"')
    db.execute_sql('DROP TABLE IF EXISTS "mail_setting"')
