"""Italian family and group members give no document: the head's is filed, the members' 34
document characters are spaces (Alloggiati guest types 19 and 20)."""

from rentalcomply.checkin.guests import asked_fields, validate_party
from tests.police.conftest import put_guests

BLANK = " " * 34


def pad(text: str, width: int) -> str:
    return text + " " * (width - len(text))


def family_of_four() -> list[dict]:
    head = {"first_name": "Giulia", "last_name": "Bianchi", "sex": "F", "birth_date": "1979-03-12",
            "birth_country": "IT", "birth_municipality": "Roma", "birth_province": "RM",
            "nationality": "IT", "relationship": "head_of_family",
         "residence_country": "DE", "residence_place": "Berlin", "document_type": "passport",
            "document_number": "YA1234567", "document_country": "IT",
            "document_issue_place": "Roma", "phone": "+39 333 123 4567"}
    spouse = {"first_name": "Marco", "last_name": "Bianchi", "sex": "M", "birth_date": "1978-07-30",
              "birth_country": "DE", "nationality": "IT", "relationship": "family_member",
         "residence_country": "DE", "residence_place": "Berlin"}
    child = {"first_name": "Lea", "last_name": "Bianchi", "sex": "F", "birth_date": "2016-08-21",
             "birth_country": "IT", "birth_municipality": "Milano", "birth_province": "MI",
             "nationality": "IT", "relationship": "family_member",
         "residence_country": "DE", "residence_place": "Berlin", "minor_relationship": "parent"}
    grandma = {"first_name": "Rosa", "last_name": "Rossi", "sex": "F", "birth_date": "1950-01-02",
               "birth_country": "IT", "birth_municipality": "Napoli", "birth_province": "NA",
               "nationality": "IT", "relationship": "family_member",
         "residence_country": "DE", "residence_place": "Berlin"}
    return [head, spouse, child, grandma]


def test_an_italian_family_of_four_is_filed_with_only_the_heads_document(owner, double, make_booking):
    booking = make_booking(guest_count=4)
    put_guests(owner, booking.id, family_of_four())
    shown = owner.get(f"/api/v1/bookings/{booking.id}").json["data"]
    assert shown["report_status"] == "SUBMITTED"
    arrival = booking.arrival_date.strftime("%d/%m/%Y")
    assert double.sent == [
        "17" + arrival + "03" + pad("BIANCHI", 50) + pad("GIULIA", 30) + "2" "12/03/1979"
        "412058091" "RM" "100000100" "100000100" "PASOR" + pad("YA1234567", 20) + "412058091",
        "19" + arrival + "03" + pad("BIANCHI", 50) + pad("MARCO", 30) + "1" "30/07/1978"
        + " " * 9 + "  " + "100000216" "100000100" + BLANK,
        "19" + arrival + "03" + pad("BIANCHI", 50) + pad("LEA", 30) + "2" "21/08/2016"
        "403015146" "MI" "100000100" "100000100" + BLANK,
        "19" + arrival + "03" + pad("ROSSI", 50) + pad("ROSA", 30) + "2" "02/01/1950"
        "415063049" "NA" "100000100" "100000100" + BLANK,
    ]
    assert all(len(line) == 168 for line in double.sent)


def test_a_members_document_is_not_asked_and_when_sent_by_the_api_is_dropped(owner, double,
                                                                               make_booking):
    booking = make_booking(guest_count=2)
    party = family_of_four()[:2]
    party[1].update(document_type="id_card", document_number="CA12345AB", document_country="IT",
                    document_issue_place="Milano")
    put_guests(owner, booking.id, party)
    kept = owner.get(f"/api/v1/bookings/{booking.id}/guests").json["data"]["guests"]
    assert "document_number" not in kept[1] and kept[0]["document_number"].endswith("567")
    assert double.sent[1][134:168] == BLANK


def test_the_head_keeps_a_required_document_and_a_member_needs_a_head():
    import datetime as dt
    arrival = dt.date(2027, 6, 10)
    head, spouse = family_of_four()[:2]
    bare_head = {k: v for k, v in head.items() if not k.startswith("document")}
    _, problems = validate_party("IT", [bare_head, spouse], guest_count=2, arrival=arrival,
                                 complete=True)
    assert {p.path for p in problems} == {"guests[0].document_type", "guests[0].document_number",
                                          "guests[0].document_country",
                                          "guests[0].document_issue_place"}
    single = dict(head, relationship="single")
    _, problems = validate_party("IT", [single, spouse], guest_count=2, arrival=arrival,
                                 complete=True)
    assert [(p.path, p.key) for p in problems] == [("guests[1].relationship",
                                                    "msg.member_without_head")]
    assert "document_number" in asked_fields("IT", 1)  # accepted from the API, then dropped


def test_the_italian_guest_page_asks_no_document_of_a_member(owner, make_booking):
    from rentalcomply.checkin import service as checkin
    booking = make_booking(guest_count=2)
    checkin._checkin_row(booking)  # what an invitation creates: the link opens
    page = owner.app.get(f"/checkin/{checkin.token_for(booking.id)}?lang=it").text
    assert 'name="g0.document_number"' in page and 'name="g1.document_number"' not in page
    assert 'name="g1.document_issue_place"' not in page
