"""The booking's guest name fills the lead guest's names in, split the way people write them."""

from rentalcomply.checkin.names import split_name


def test_the_last_word_is_the_surname_with_the_particles_before_it():
    assert split_name("Luca Ferrari", "IT") == {"first_name": "Luca", "last_name": "Ferrari"}
    assert split_name("Anna Maria Rossi", "IT") == {"first_name": "Anna Maria", "last_name": "Rossi"}
    assert split_name("Jan van der Berg", "GR") == {"first_name": "Jan", "last_name": "van der Berg"}


def test_a_comma_puts_the_surname_first():
    assert split_name("Ferrari, Luca", "IT") == {"first_name": "Luca", "last_name": "Ferrari"}


def test_a_spanish_property_reads_two_surnames():
    assert split_name("María García López", "ES") == {
        "first_name": "María", "last_name": "García", "second_last_name": "López"}
    assert split_name("José de la Cruz", "ES") == {"first_name": "José", "last_name": "de la Cruz"}


def test_one_word_or_none_fills_what_it_can():
    assert split_name("Madonna", "GR") == {"first_name": "Madonna"}
    assert split_name("  ", "GR") == {} and split_name(None, "GR") == {}
