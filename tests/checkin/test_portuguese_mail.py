"""Portuguese, the seventh language: a booking in Portuguese gets its invitation, reminder and
access instructions in Portuguese (the invitation through a real SMTP server on loopback), and
the dashboard offers the same languages as the page speaks."""

from rentalcomply.checkin import i18n, mail
from rentalcomply.core.models import Property
from rentalcomply.dashboard.pages.bookings import GUEST_LANGUAGES
from tests.checkin.test_resend import resend


def test_the_invitation_arrives_in_portuguese(owner, make_booking, smtp_server):
    booking = make_booking("PT", guest_language="pt-PT", guest_name="João Silva")
    url = resend(owner, booking.id).json["data"]["checkin_url"]
    message = smtp_server.wait(1)[0]
    assert message["Subject"].startswith("Check-in online para Casa Azul")
    plain = message.get_body(("plain",)).get_content()
    assert "Olá, João Silva," in plain
    assert "Conclua, por favor, o check-in online do seu grupo antes da chegada" in plain
    assert "noites" in plain and "Com os melhores cumprimentos," in plain
    assert url in plain and "Começar o check-in" in message.get_body(("html",)).get_content()


def test_the_reminder_and_the_access_instructions_speak_portuguese(settings, make_booking):
    booking = make_booking("PT", guest_language="pt")
    prop = Property.get_by_id(booking.property_id)
    reminder = mail.compose(settings, booking, prop, "https://stay.example/checkin/x",
                            booking.departure_date, kind=mail.REMINDER)
    assert reminder["Subject"].startswith("Lembrete: check-in online para Casa Azul")
    assert "ainda não está concluído" in reminder.get_body(("plain",)).get_content()
    access = mail.compose_access(settings, booking, prop, "Código da porta 481273",
                                 "https://stay.example/checkin/x")
    assert access["Subject"] == "Como entrar em Casa Azul"
    plain = access.get_body(("plain",)).get_content()
    assert "O seu check-in está concluído." in plain and "Código da porta 481273" in plain


def test_the_dashboard_offers_the_languages_the_page_speaks():
    assert {code for code, _ in GUEST_LANGUAGES} == set(i18n.LANGUAGES)
    assert dict(GUEST_LANGUAGES)["pt"] == i18n.LANGUAGE_NAMES["pt"]
