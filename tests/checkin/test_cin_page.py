"""An Italian property's CIN on the guest's pages: under the property's name on the check-in
page, the property link's page and the completion page; none for a property without one."""

from rentalcomply.checkin import links
from tests.checkin.conftest import italian_party, token_of

CIN = "IT058091C2ABCDEFGH"
SHOWN = f'<abbr lang="it" title="Codice identificativo nazionale">CIN</abbr> <span lang="it">{CIN}</span>'


def test_the_check_in_page_and_the_property_link_show_the_cin_under_the_name(
        guest_page, make_property, make_booking):
    prop = make_property("IT", cin=CIN)
    booking = make_booking(prop=prop)
    for lang in ("it", "en", "de"):
        page = guest_page.get(f"/checkin/{token_of(booking)}?lang={lang}").text
        assert SHOWN in page
        assert page.index("Casa Limone") < page.index(SHOWN)
    find = guest_page.get("/checkin/p/" + links.property_token(prop) + "?lang=en").text
    assert SHOWN in find


def test_the_completion_page_shows_the_cin(guest_page, owner, make_property, make_booking):
    booking = make_booking(prop=make_property("IT", cin=CIN))
    owner.put_json(f"/api/v1/bookings/{booking.id}/guests", {"guests": italian_party()})
    page = guest_page.get(f"/checkin/{token_of(booking)}?lang=it").text
    assert "done-title" in page and SHOWN in page


def test_an_italian_property_without_a_cin_shows_none(guest_page, make_property, make_booking):
    booking = make_booking(prop=make_property("IT"))
    assert 'class="cin"' not in guest_page.get(f"/checkin/{token_of(booking)}?lang=it").text
