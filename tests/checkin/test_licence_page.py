"""A Spanish property's tourism licence number on the guest's pages, under the property's name
(as Italy's CIN); none for a property without one."""

from rentalcomply.checkin import links
from tests.checkin.conftest import token_of

LICENCE = "HUTB-012345"
SHOWN = f'<p class="cin licence" id="licence-number"><span lang="es">Licencia turística {LICENCE}</span></p>'


def test_the_check_in_page_and_the_property_link_show_the_licence_number(
        guest_page, make_property, make_booking):
    prop = make_property("ES", licence_number=f"  {LICENCE} ")
    booking = make_booking(prop=prop)
    for lang in ("es", "en"):
        page = guest_page.get(f"/checkin/{token_of(booking)}?lang={lang}").text
        assert SHOWN in page and page.index("Casa del Mar") < page.index(SHOWN)
    find = guest_page.get("/checkin/p/" + links.property_token(prop) + "?lang=en").text
    assert SHOWN in find


def test_a_spanish_property_without_a_licence_shows_none(guest_page, make_property, make_booking):
    booking = make_booking(prop=make_property("ES"))
    assert 'id="licence-number"' not in guest_page.get(f"/checkin/{token_of(booking)}?lang=es").text
