"""The account's e-mail page: an owner sets up the mail server (the password write-only, sealed
at rest), sends a test e-mail that says in words whether it went (against real SMTP servers on
loopback), sets the host contact and the reminder schedule; Today warns while mail cannot be
sent; a member cannot open the page."""

from __future__ import annotations

from rentalcomply.checkin.models import MessageTemplate
from rentalcomply.core import clock, mailer
from rentalcomply.core.activity import Activity
from tests.checkin.conftest import free_port
from tests.checkin.test_mail import Accounts, authenticating_smtp  # noqa: F401 - the fixture
from tests.checkin.conftest import smtp_server  # noqa: F401 - the fixture

PAGE = "/dashboard/settings/email"


def _post(browser, path, status=303, **fields):
    page = browser.get(PAGE)
    return browser.post(PAGE + path, {"csrf": browser.csrf(page), **fields}, status=status)


def _smtp(port, **extra):
    return {"host": "127.0.0.1", "port": str(port), "security": "none", "username": "agency",
            "password": "s3cret", "from_address": "Villa Anemoi <stay@villa-anemoi.example>",
            **extra}


def test_the_owner_sets_up_the_server_and_the_test_email_arrives_through_it(
        anna, account_a, settings, authenticating_smtp):  # noqa: F811
    inbox, accounts, port = authenticating_smtp
    _post(anna, "/smtp", **_smtp(port))
    page = anna.get(PAGE + "?done=smtp_saved").text
    assert "The mail server is saved" in page
    assert "s3cret" not in page and "A password is stored: leave empty to keep it." in page
    stored = mailer.MailSetting.get_by_id(account_a)
    assert stored.smtp_password_sealed and "s3cret" not in stored.smtp_password_sealed
    assert mailer.effective_smtp(settings, account_a).password == "s3cret"
    result = _post(anna, "/test", status=200, test_to="owner@villa-anemoi.example").text
    assert "The test e-mail to owner@villa-anemoi.example was accepted by 127.0.0.1:" in result
    [message] = inbox.wait(1)
    assert message["From"] == "Villa Anemoi <stay@villa-anemoi.example>"
    assert accounts.logins == [(b"agency", b"s3cret")]
    # An empty password keeps the stored one.
    _post(anna, "/smtp", **_smtp(port, password=""))
    assert mailer.effective_smtp(settings, account_a).password == "s3cret"
    assert {"account.smtp"} == {a.action for a in Activity.select()}


def test_a_test_email_that_fails_says_why_and_today_warns_until_one_goes(
        anna, account_a, settings, smtp_server):  # noqa: F811
    _post(anna, "/smtp", **_smtp(smtp_server.port, username="", password=""))
    smtp_server.refuse_with = "554 5.7.1 relaying denied"
    result = _post(anna, "/test", status=200, test_to="owner@villa-anemoi.example").text
    notice = result.split('id="test-result"')[1].split("</p>")[0]
    # The server's own reply code is not shown: the words say what to do about it.
    assert "was not sent. The mail server refused the message." in notice and "554" not in notice
    today = anna.get("/dashboard/today").text
    assert "E-mail cannot be sent since" in today and "refused the message" in today
    assert 'href="/dashboard/settings/email"' in today
    smtp_server.refuse_with = None
    _post(anna, "/test", status=200, test_to="owner@villa-anemoi.example")
    assert "E-mail cannot be sent" not in anna.get("/dashboard/today").text


def test_a_server_that_does_not_answer_is_said_in_words(anna, account_a, settings, monkeypatch):
    # A test mail that reaches no server answers at the timeout, whatever the cause.
    monkeypatch.setattr(settings.smtp, "timeout_seconds", 1)
    _post(anna, "/smtp", **_smtp(free_port()))
    result = _post(anna, "/test", status=200, test_to="owner@villa-anemoi.example").text
    assert "was not sent. The mail server did not answer. Check its address and port" in result
    assert "127.0.0.1" not in result.split('id="test-result"')[1].split("</p>")[0]


def test_today_warns_while_only_the_defaults_are_in_use(anna, account_a, settings):
    settings.smtp.host, settings.smtp.from_address = "localhost", "RentalComply <no-reply@localhost>"
    assert "E-mail is not set up" in anna.get("/dashboard/today").text
    page = anna.get(PAGE).text
    assert "These are the defaults: nothing is sent until a mail server is set up here." in page


def test_bad_settings_are_refused_field_by_field(anna, account_a):
    page = _post(anna, "/smtp", status=400, host="not a host", port="70000", security="ssl3",
                 username="", password="", from_address="nobody").text
    assert "must be the mail server" in page and "must be a port number" in page
    assert "must be STARTTLS, TLS or none" in page and "must be an e-mail address, like" in page
    assert mailer.setting_of(account_a) is None
    page = _post(anna, "/contact", status=400, contact_name="Eleni", contact_phone="call me",
                 contact_email="eleni@").text
    assert "must be a phone number" in page and "must be an e-mail address" in page
    page = _post(anna, "/reminders", status=400, reminder_days="7, soon").text
    assert "like 7, 2, 0" in page


def test_the_contact_and_the_schedule_are_saved(anna, account_a, settings):
    _post(anna, "/contact", contact_name="Eleni Markou", contact_phone="+30 694 123 4567",
          contact_email="eleni@villa-anemoi.example")
    assert mailer.host_contact(account_a) == {"name": "Eleni Markou", "phone": "+30 694 123 4567",
                                              "email": "eleni@villa-anemoi.example"}
    _post(anna, "/reminders", reminder_days="5, 1")
    page = anna.get(PAGE).text
    assert 'value="5, 1"' in page and 'value="Eleni Markou"' in page


def test_back_to_config_forgets_the_server_and_its_password(anna, account_a, settings):
    _post(anna, "/smtp", **_smtp(2525))
    _post(anna, "/smtp", use_config="on")
    assert mailer.effective_smtp(settings, account_a).source == "config"
    assert mailer.setting_of(account_a).smtp_password_sealed is None


def test_a_member_cannot_open_the_page(anna, browser_for, account_a):
    from rentalcomply.dashboard import users
    member = browser_for(account_a)
    users.change_role(account_a, member.user.id, "member")
    response = member.get(PAGE, expect_errors=True)
    assert response.status_int in (403, 404)


def test_the_owner_edits_a_message_previews_it_and_resets_it(anna, account_a):
    path = PAGE + "/messages/reminder/en"
    page = anna.get(path).text
    assert "The default text" in page and "{guest_name}" in page
    form = {"csrf": anna.csrf(), "subject": "Please check in, {guest_name}",
            "body": "Hello {guest_name},\n\n{link}"}
    preview = anna.post(path, {**form, "action": "preview"}, status=200).text
    assert 'id="message-preview"' in preview and "Please check in, Maria Papadopoulou" in preview
    refused = anna.post(path, {**form, "csrf": anna.csrf(), "body": "Hi {nom}",
                               "action": "save"}, status=400).text
    assert "{nom} is not a placeholder of this message" in refused
    anna.post(path, {**form, "csrf": anna.csrf(), "action": "save"}, status=303)
    page = anna.get(path + "?done=message_saved").text
    assert "Your text" in page and "Please check in, {guest_name}" in page
    anna.post(path + "/reset", {"csrf": anna.csrf()}, status=303)
    assert "The default text" in anna.get(path).text
    assert anna.get(PAGE + "/messages/welcome/en", expect_errors=True).status_int == 404


def test_a_server_on_an_internal_address_is_refused_unless_the_operator_allows_it(
        anna, account_a, settings, monkeypatch):
    monkeypatch.setattr(settings.smtp, "allow_private_addresses", False)
    for host in ("127.0.0.1", "169.254.169.254"):
        refused = _post(anna, "/smtp", status=400, **_smtp(25, host=host)).text
        assert f"{host} is a" in refused and "smtp.allow_private_addresses" in refused
    assert mailer.setting_of(account_a) is None or not mailer.setting_of(account_a).smtp_host
    monkeypatch.setattr(settings.smtp, "allow_private_addresses", True)
    _post(anna, "/smtp", **_smtp(25, host="169.254.169.254"))
    assert mailer.setting_of(account_a).smtp_host == "169.254.169.254"


def test_a_saved_text_that_breaks_the_rules_is_said_on_its_page_and_refused_again(anna,
                                                                                   account_a):
    MessageTemplate.insert(account=account_a, kind="reminder", lang="en", subject="Hi",
                           body="Hello {guest_name:d}", updated_at=clock.utcnow()).execute()
    path = PAGE + "/messages/reminder/en"
    page = anna.get(path).text
    assert 'id="template-broken"' in page and "guests receive the default text" in page
    assert "Hello {guest_name:d}" in page  # shown, to be corrected
    assert "not used: the default is sent" in anna.get(PAGE).text
    form = {"csrf": anna.csrf(), "subject": "Hi", "action": "save",
            "body": "Hi {guest_name:>400000000} {host_name:>400000000}"}
    refused = anna.post(path, form, status=400).text
    assert "is not a plain placeholder" in refused
    anna.post(path, {**form, "csrf": anna.csrf(), "body": "Hi {guest_name}"}, status=303)
    assert 'id="template-broken"' not in anna.get(path).text


def test_a_property_s_own_contact_replaces_the_account_s_for_its_guests(anna, account_a,
                                                                         account_b):
    from rentalcomply.properties import service as properties
    villa = properties.create_property(account_a, name="Villa Anemoi", address="Oia")
    studio = properties.create_property(account_a, name="Seaside Studio", address="Akti 12")
    theirs = properties.create_property(account_b, name="Other", address="Elsewhere")
    _post(anna, "/contact", contact_name="Eleni Markou", contact_phone="",
          contact_email="eleni@example.com")
    _post(anna, f"/contact/{villa.id}", contact_name="Yannis", contact_phone="+30 22860 12345",
          contact_email="yannis@example.com")
    assert mailer.host_contact(account_a, villa.id)["name"] == "Yannis"
    assert mailer.host_contact(account_a, studio.id)["name"] == "Eleni Markou"
    page = _post(anna, f"/contact/{villa.id}", status=400, contact_name="", contact_phone="x",
                 contact_email="").text
    assert "must be a phone number" in page
    _post(anna, f"/contact/{villa.id}", contact_name="", contact_phone="", contact_email="")
    assert mailer.host_contact(account_a, villa.id)["name"] == "Eleni Markou"
    response = _post(anna, f"/contact/{theirs.id}", status=404, contact_name="Mine",
                     contact_phone="", contact_email="")
    assert response.status_int == 404
