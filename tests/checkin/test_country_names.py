"""Country names come from CLDR through Babel in the page's language, never from a typed list."""

from rentalcomply.checkin.guests import country_choices, country_name


def test_spanish_names_are_cldrs_not_typed_ones():
    assert [country_name(code, "es") for code in ("DZ", "TN", "SR", "LC")] == \
        ["Argelia", "Túnez", "Surinam", "Santa Lucía"]


def test_every_language_of_the_page_names_the_countries_its_own_way():
    assert {lang: country_name("ES", lang) for lang in ("en", "el", "it", "es", "de", "fr", "pt")} \
        == {"en": "Spain", "el": "Ισπανία", "it": "Spagna", "es": "España", "de": "Spanien",
            "fr": "Espagne", "pt": "Espanha"}


def test_lists_are_sorted_as_a_reader_expects_accents_not_moving_a_name():
    spanish = [name for _, name in country_choices("es")]
    assert spanish.index("Egipto") < spanish.index("El Salvador") < spanish.index("España")
    assert spanish.index("Estados Unidos") < spanish.index("Etiopía")  # "É" sorts as "E"
    greek = [name for _, name in country_choices("el")]
    assert greek.index("Ελλάδα") < greek.index("Ισπανία")


def test_every_code_of_the_list_has_a_name_in_every_language():
    for lang in ("en", "el", "it", "es", "de", "fr", "pt"):
        assert all(name != code for code, name in country_choices(lang)), lang
