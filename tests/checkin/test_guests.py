"""The party rules themselves: fields per country, ages, check digits, text."""

import datetime as dt

from rentalcomply.checkin.guests import asked_fields, countries, mask, validate_party

ARRIVAL = dt.date(2027, 6, 10)


def problems(country, party, count=None):
    _, found = validate_party(country, party, guest_count=count or len(party), arrival=ARRIVAL,
                              complete=True)
    return {p.path: p.key for p in found}


def adult(**extra):
    guest = {"first_name": "Anna", "last_name": "Weber", "birth_date": "1980-05-01",
             "nationality": "DE", "document_type": "passport", "document_number": "C01X00T47",
             "document_country": "DE", "email": "anna@example.org"}
    guest.update(extra)
    return guest


def test_a_country_where_nothing_is_filed_needs_the_lead_guests_name_alone():
    lead = {"first_name": "Anna", "last_name": "Weber", "phone": "+49 170 1234567"}
    assert problems("FR", [lead], count=3) == {}
    assert problems("FR", [dict(lead, phone="")]) == {"guests[0].email": "msg.contact"}
    assert problems("FR", [adult()]) == {}  # what a host's own tool sends more is still checked
    assert problems("FR", [adult(nationality="EU")]) == {"guests[0].nationality": "msg.country"}
    assert "signature" not in asked_fields("FR", 0) and "tax_id" not in asked_fields("FR", 0)


def test_portugal_asks_the_place_of_residence_and_sex():
    found = problems("PT", [adult()])
    assert found == {"guests[0].sex": "msg.required", "guests[0].residence_country": "msg.required",
                     "guests[0].residence_place": "msg.required"}
    assert problems("PT", [adult(sex="F", residence_country="DE", residence_place="Köln")]) == {}


def test_the_portuguese_citizen_card_is_checked():
    guest = adult(sex="F", residence_country="PT", residence_place="Lisboa", nationality="PT",
                  document_type="id_card", document_country="PT", document_number="00000000 0 ZZ4")
    assert problems("PT", [guest]) == {}
    guest["document_number"] = "00000000 0 ZZ5"
    assert problems("PT", [guest]) == {"guests[0].document_number": "msg.check_digit"}


def test_the_spanish_nie_is_checked():
    guest = adult(document_type="residence_permit", document_country="ES",
                  document_number="X1234567L", document_support_number="E12345678")
    assert "guests[0].document_number" not in problems("ES", [guest])
    guest["document_number"] = "X1234567A"
    assert problems("ES", [guest])["guests[0].document_number"] == "msg.check_digit"


def test_an_adult_member_needs_a_document_and_a_child_does_not():
    lives = {"sex": "M", "residence_country": "DE", "residence_place": "Köln"}  # Portugal asks
    child = {"first_name": "Tim", "last_name": "Weber", "birth_date": "2020-01-01",
             "nationality": "DE", "minor_relationship": "parent", **lives}
    assert problems("PT", [adult(**lives), child]) == {}
    grown = dict(child, birth_date="2000-01-01")
    grown.pop("minor_relationship")
    assert "guests[1].document_number" in problems("PT", [adult(**lives), grown])


def test_in_spain_documents_and_signatures_start_at_14():
    teen = {"first_name": "Tim", "last_name": "Weber", "birth_date": "2012-01-01",
            "nationality": "DE", "minor_relationship": "parent", "sex": "M"}
    found = problems("ES", [adult(), teen])
    assert {"guests[1].document_number", "guests[1].signature"} <= set(found)


def test_an_italian_member_cannot_be_head_of_the_family():
    found = problems("IT", [adult(), adult(relationship="head_of_family")])
    assert found["guests[1].relationship"] == "msg.member_relationship"


def test_the_lead_guest_needs_an_e_mail_or_a_phone():
    assert problems("FR", [adult(email=None)]) == {"guests[0].email": "msg.contact"}
    assert problems("FR", [adult(email=None, phone="+33 6 12 34 56 78")]) == {}
    assert problems("FR", [adult(phone="call me")])["guests[0].phone"] == "msg.phone"


def test_text_is_trimmed_and_folded_and_capped():
    cleaned, found = validate_party("FR", [adult(first_name="  Anna \n Lena ")], guest_count=1,
                                    arrival=ARRIVAL, complete=True)
    assert cleaned[0]["first_name"] == "Anna Lena" and not found
    assert problems("FR", [adult(first_name="1234")])["guests[0].first_name"] == "msg.letters"
    assert problems("FR", [adult(last_name="x" * 201)])["guests[0].last_name"] == "msg.too_long"
    assert problems("FR", [adult(last_name="We\u200bber")])["guests[0].last_name"] == "msg.control"


def test_progress_checks_only_what_was_filled_in():
    _, found = validate_party("IT", [{"first_name": "Anna"}, {}], guest_count=2, arrival=ARRIVAL,
                              complete=False)
    assert found == []


def test_countries_are_iso_codes_with_names_in_the_seven_languages_from_cldr():
    assert len(countries()) >= 249
    assert countries()["GR"] == {"en": "Greece", "el": "Ελλάδα", "it": "Grecia", "es": "Grecia",
                                 "de": "Griechenland", "fr": "Grèce", "pt": "Grécia"}
    assert problems("FR", [adult(nationality="de")]) == {}
    assert problems("FR", [adult(nationality="EU")])["guests[0].nationality"] == "msg.country"


def test_masking_keeps_the_last_three_characters():
    assert mask("AB1234567") == "******567"
    assert mask("ΑΒ123456") == "*****456"


def test_in_spain_every_adult_gives_an_address_and_a_contact_and_a_minor_does_not():
    lead = adult(sex="F", nationality="FR", address_street="1 rue A", address_city="Lyon",
                 address_postcode="69001", address_country="FR",
                 signature="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
    partner = dict(lead, first_name="Paul", email=None)
    partner.pop("email")
    for name in ("address_street", "address_city", "address_postcode", "address_country"):
        partner.pop(name)
    child = {"first_name": "Tim", "last_name": "Weber", "sex": "M", "birth_date": "2020-01-01",
             "nationality": "FR", "minor_relationship": "parent"}
    found = problems("ES", [lead, partner, child])
    assert found == {"guests[1].address_street": "msg.required",
                     "guests[1].address_city": "msg.required",
                     "guests[1].address_postcode": "msg.required",
                     "guests[1].address_country": "msg.required",
                     "guests[1].email": "msg.contact"}
    assert "address_street" in asked_fields("ES", 1) and "phone" in asked_fields("ES", 1)


def test_a_choice_refused_names_the_options_in_the_guests_language():
    _, found = validate_party("PT", [adult(sex="X", residence_country="DE",
                                           residence_place="Köln")],
                              guest_count=1, arrival=ARRIVAL, complete=True)
    [problem] = found
    assert (problem.path, problem.key) == ("guests[0].sex", "msg.choice_of")
    assert problem.message("en") == "Choose one of: Male, Female."
    assert problem.message("it") == "Scelga tra: Maschio, Femmina."


def test_an_italian_document_type_refused_names_only_the_types_italy_takes():
    from rentalcomply.checkin.guests import document_types
    _, found = validate_party("IT", [adult(document_type="residence_permit")], guest_count=1,
                              arrival=ARRIVAL, complete=False)
    [problem] = [p for p in found if p.path == "guests[0].document_type"]
    message = problem.message("en")
    assert message.startswith("Choose one of: ") and "Passport" in message
    assert message.count(",") == len(document_types("IT")) - 1
