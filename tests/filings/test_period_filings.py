"""A property owes several obligations, each to its own authority: its police registration and,
by its region, ISTAT's monthly tourism statistics through ROSS 1000. The month's filing is there
from the month's first day (waiting, previewable), queued once the month has ended, sent through
the region's web service (a loopback double speaking `inviaMovimentazione`), each guest's answer
kept; held, ready, refused, failed in words; at risk before its deadline."""

from __future__ import annotations

import datetime as dt
import io
import json
import zipfile

import pytest
from lxml import etree

from rentalcomply.checkin.models import Checkin
from rentalcomply.checkin.retention import Retention, years_before
from rentalcomply.checkin.service import _seal, load_party
from rentalcomply.core import clock
from rentalcomply.core.models import Event, Property, PropertyClosedDay
from rentalcomply.filings import periods, sweep
from rentalcomply.filings import retention as police_retention
from rentalcomply.filings.models import Filing, ObligationSettings
from rentalcomply.filings.period_dates import bounds, period_of
from rentalcomply.properties import service as properties
from tests.authorities.ross1000_double import PASSWORD, USER, Ross1000Double
from tests.police.conftest import put_guests

ROSS_CREDENTIALS = {"username": USER, "password": PASSWORD}
LOMBARDY, TUSCANY, APULIA = "IT-25", "IT-52", "IT-75"


class Regions:
    """A loopback ROSS 1000 service per region: each region's months go to its own address."""

    def __init__(self):
        self.doubles = {LOMBARDY: Ross1000Double(), TUSCANY: Ross1000Double()}
        self.received = {}  # what each took, read through `sent`

    def __getitem__(self, region):
        return self.doubles[region]

    def set_refusals(self, refuse: dict) -> None:
        for double in self.doubles.values():
            double.refuse = dict(refuse)

    def anything_received(self) -> bool:
        return any(double.received for double in self.doubles.values())

    def down(self):
        for double in self.doubles.values():
            double.down()


@pytest.fixture
def ross():
    doubles = Regions()
    yield doubles
    doubles.down()


@pytest.fixture
def police_env(ross):
    return {"RENTALCOMPLY_ROSS1000_IT_25_URL": ross[LOMBARDY].url,
            "RENTALCOMPLY_ROSS1000_IT_52_URL": ross[TUSCANY].url}


@pytest.fixture
def month(settings):
    """A month ahead of whatever today is (the clock may run a year ahead): the clock stands ten
    days before it starts."""
    today = clock.today()
    first = (today.replace(day=1) + dt.timedelta(days=62)).replace(day=1)
    clock.freeze(dt.datetime.combine(first - dt.timedelta(days=10), dt.time(9, 0)))
    yield period_of(first, "month")
    clock.reset()


def at(day: dt.date, hour: int = 8) -> None:
    """The clock at `hour` UTC of `day`."""
    clock.travel(dt.datetime.combine(day, dt.time(hour, 0)) - clock.utcnow())


def italian(owner, name: str, region: str | None, connector: str = "alloggiati") -> Property:
    prop = properties.create_property(owner.account_id, name=name, address="Via Roma 1",
                                      country="IT", timezone="Europe/Rome", max_guests=6)
    if connector != "none":
        owner.patch_json(f"/api/v1/properties/{prop.id}", {
            "police_connector": connector,
            "police_credentials": {"user": "RM012345", "password": "segreto", "wskey": "WSKEY1"}})
    # The region, rooms and beds are the property's settings (set through its own API and page).
    Property.update(region=region, rooms=3, beds=6).where(Property.id == prop.id).execute()
    return Property.get_by_id(prop.id)


def set_up(owner, prop, credentials=ROSS_CREDENTIALS, code="LOM0001"):
    body = {"settings": {"structure_code": code}}
    if credentials:
        body["credentials"] = credentials
    return owner.put_json(f"/api/v1/properties/{prop.id}/obligations/ross1000", body)


def guests_living_in(*places) -> list[dict]:
    """A party (the police tests' family) and where each lives."""
    party = [
        {"first_name": "Giulia", "last_name": "Bianchi", "sex": "F", "birth_date": "1979-03-12",
         "birth_country": "IT", "birth_municipality": "Roma", "birth_province": "RM",
         "nationality": "IT", "relationship": "head_of_family", "document_type": "passport",
         "document_number": "YA1234567", "document_country": "IT",
         "document_issue_place": "Roma", "phone": "+39 333 123 4567"},
        {"first_name": "Marco", "last_name": "Bianchi", "sex": "M", "birth_date": "1978-07-30",
         "birth_country": "DE", "nationality": "IT", "relationship": "family_member",
         "document_type": "id_card", "document_number": "CA12345AB", "document_country": "IT",
         "document_issue_place": "Milano"}]
    return party[:len(places)], list(places)


def check_in(owner, booking, places) -> None:
    """The party checks in, with where each guest lives (the statistics count by residence; the
    guest page asks it of Italian properties: a comune in Italy, a town abroad)."""
    party, _ = guests_living_in(*places)
    for guest, (country, place, province) in zip(party, places):
        guest["residence_country"] = country
        if country == "IT":
            guest.update(residence_comune=place, residence_province=province)
        else:
            guest["residence_place"] = place
    put_guests(owner, booking.id, party)


def live_in(booking, places) -> None:
    row = Checkin.get(Checkin.booking == booking.id)
    saved = load_party(row)
    for guest, (country, place, province) in zip(saved["guests"], places):
        guest.update(residence_country=country, residence_province=province)
        guest["residence_comune" if country == "IT" else "residence_place"] = place
    Checkin.update(guests_sealed=_seal(booking.id, saved)).where(
        Checkin.booking == booking.id).execute()


def the_filing(prop, period) -> Filing:
    return Filing.get((Filing.property == prop.id) & (Filing.period == period))


def filing_events(kind: str | None = None) -> list[tuple[str, dict]]:
    return [(e.type, e.data) for e in Event.select().order_by(Event.created_at)
            if e.type.startswith("filing.") and (kind is None or e.type == kind)]


def of_filing(row) -> list[str]:
    """The filing's events in the order of its versions (the clock stands still: their times
    tie)."""
    return [t for t, d in sorted(filing_events(), key=lambda e: e[1]["version"])
            if d["id"] == row.id]


def sent(ross, region: str, period: str) -> list:
    """The documents of `period` the region's service took (the month before the test's month,
    owed since the property was made, goes too: empty)."""
    stamp = period.replace("-", "")
    return [d for d in ross[region].received if d.findtext("movimento/data").startswith(stamp)]


def arrivals_sent(document) -> list[str]:
    return [node.findtext("idswh") for node in document.iterfind("movimento/arrivi/arrivo")]


# --- obligations ---------------------------------------------------------------------------------

def test_lombardy_and_tuscany_each_owe_ross1000_and_list_their_obligations(month, owner, ross):
    milan = italian(owner, "Casa Navigli", LOMBARDY)
    florence = italian(owner, "Casa Arno", TUSCANY)
    shown = owner.get(f"/api/v1/properties/{milan.id}").json["data"]["obligations"]
    assert [(o["authority"], o["purpose"], o["setup_complete"]) for o in shown] == [
        ("alloggiati", "registration", True), ("ross1000", "statistics", False)]
    assert shown[1]["missing"] == ["structure_code"]
    assert "ROSS 1000" in shown[1]["title"]
    answer = set_up(owner, milan).json["data"]
    statistics = answer["obligations"][1]
    assert statistics["setup_complete"] is True
    assert statistics["settings"] == {"structure_code": "LOM0001"}
    # Sealed, only the names shown: the password is nowhere in the answer or the row in clear.
    assert statistics["credentials_set"] == ["password", "username"]
    assert PASSWORD not in json.dumps(answer)
    row = ObligationSettings.get(ObligationSettings.property == milan.id)
    assert PASSWORD not in (row.credentials_sealed or "")
    set_up(owner, florence, code="TOS0002")
    # Each region's month goes to its own system.
    first, last = bounds(month)
    at(first)
    sweep.run_due()
    at(last + dt.timedelta(days=1))
    sweep.run_due()
    assert the_filing(milan, month).status == "submitted"
    assert the_filing(florence, month).status == "submitted"
    assert [d.findtext("codice") for d in sent(ross, LOMBARDY, month)] == ["LOM0001"]
    assert [d.findtext("codice") for d in sent(ross, TUSCANY, month)] == ["TOS0002"]


def test_an_obligation_not_owed_or_a_bad_value_is_refused_in_words(month, owner, outsider):
    milan = italian(owner, "Casa Navigli", LOMBARDY)
    bad = owner.put_json(f"/api/v1/properties/{milan.id}/obligations/ross1000",
                         {"settings": {"deadline_day": "31"}}, status=400).json["error"]
    assert bad["details"] == [{"field": "settings.deadline_day",
                               "message": "must be a day from 1 to 28"}]
    unknown = owner.put_json(f"/api/v1/properties/{milan.id}/obligations/aade",
                             {"settings": {}}, status=400).json["error"]
    assert "is not owed by this property" in unknown["details"][0]["message"]
    outsider.put_json(f"/api/v1/properties/{milan.id}/obligations/ross1000",
                      {"settings": {"structure_code": "X"}}, status=404)


def test_a_property_whose_region_is_unknown_lists_no_statistics_and_says_why(month, owner):
    prop = italian(owner, "Casa Ignota", None)
    shown = owner.get(f"/api/v1/properties/{prop.id}").json["data"]["obligations"]
    assert [o["authority"] for o in shown] == ["alloggiati", None]
    assert "region is not known" in shown[1]["problem"]


def test_an_italian_property_with_no_registration_chosen_says_its_guests_are_not_filed(
        month, owner):
    prop = italian(owner, "Casa Senza", LOMBARDY, connector="none")
    shown = owner.get(f"/api/v1/properties/{prop.id}").json["data"]["obligations"]
    assert shown[0]["authority"] == "none"
    assert shown[0]["problem"] == "no police registration chosen: its guests are not being filed"


# --- the month's filing ------------------------------------------------------------------------

def test_a_month_waits_from_its_first_day_previewable_then_is_sent_and_accepted(
        month, owner, make_booking, ross):
    milan = italian(owner, "Casa Navigli", LOMBARDY)
    florence = italian(owner, "Casa Arno", TUSCANY)
    set_up(owner, milan)
    set_up(owner, florence, code="TOS0002")
    first, last = bounds(month)
    at(first - dt.timedelta(days=1), 20)
    sweep.run_due()
    assert not Filing.select().where(Filing.period == month).exists()
    at(first)
    sweep.run_due()
    row = the_filing(milan, month)
    assert (row.status, row.kind, row.authority, row.booking_id) == ("waiting", "month",
                                                                     "ross1000", None)
    # The deadline: the 5th of the next month, the end of that day in Italy.
    assert row.deadline == dt.datetime.combine(last + dt.timedelta(days=5), dt.time(22, 59)) \
        or row.deadline == dt.datetime.combine(last + dt.timedelta(days=5), dt.time(21, 59))
    listed = owner.get(f"/api/v1/filings?property_id={milan.id}&period={month}").json["data"]
    assert [(f["id"], f["kind"], f["status"]) for f in listed] == [(row.id, "month", "waiting")]
    stay = make_booking(prop=milan, arrival=first + dt.timedelta(days=2), nights=3)
    check_in(owner, stay, [("IT", "Roma", "RM"), ("DE", "Berlin", "")])
    at(first + dt.timedelta(days=3))
    preview = owner.get(f"/api/v1/filings/{row.id}/preview")
    document = etree.fromstring(preview.body)
    assert len(document.findall("movimento")) == last.day
    assert len(arrivals_sent(document)) == 2  # the figures so far
    at(last + dt.timedelta(days=1), 8)  # 09:00 in Italy, the month over
    sweep.run_due()
    row = the_filing(milan, month)
    assert row.status == "submitted", row.held_reason or row.error
    assert [(g["code"], g["accepted"]) for g in row.guests] == [
        (arrivals_sent(document)[0], True), (arrivals_sent(document)[1], True)]
    lombardy = sent(ross, LOMBARDY, month)
    assert [d.findtext("codice") for d in lombardy] == ["LOM0001"]
    assert arrivals_sent(lombardy[0]) == arrivals_sent(document)
    # Tuscany's (an empty month) went to Tuscany's own address.
    assert [d.findtext("codice") for d in sent(ross, TUSCANY, month)] == ["TOS0002"]
    assert ("filing.submitted", row.id) in [(t, d["id"]) for t, d in filing_events()]


def test_a_refused_guest_is_shown_corrected_and_sent_again_with_the_same_idswh(
        month, owner, make_booking, ross):
    milan = italian(owner, "Casa Navigli", LOMBARDY)
    set_up(owner, milan)
    first, last = bounds(month)
    at(first)
    stay = make_booking(prop=milan, arrival=first + dt.timedelta(days=4), nights=2)
    check_in(owner, stay, [("IT", "Roma", "RM"), ("DE", "Berlinn", "")])
    at(last + dt.timedelta(days=1))
    ross.set_refusals({})
    preview = etree.fromstring(owner.get(f"/api/v1/filings/{the_filing(milan, month).id}/preview")
                               .body)
    refused_id = arrivals_sent(preview)[1]
    ross.set_refusals({refused_id: "luogoresidenza non valido"})
    sweep.run_due()
    row = the_filing(milan, month)
    assert row.status == "rejected"
    assert f"guest {refused_id} refused: luogoresidenza non valido" in row.error
    assert [g["accepted"] for g in row.guests] == [True, False]
    listed = owner.get(f"/api/v1/filings?property_id={milan.id}&status=rejected").json["data"]
    assert listed[0]["error"] == row.error
    # The host corrects the check-in, files again: the month goes again, the guest with its id.
    live_in(stay, [("IT", "Roma", "RM"), ("DE", "Berlin", "")])
    ross.set_refusals({})
    owner.post_json(f"/api/v1/filings/{row.id}/refile", {})
    sweep.run_due()
    row = the_filing(milan, month)
    assert row.status == "submitted"
    first_time, second_time = sent(ross, LOMBARDY, month)
    assert arrivals_sent(second_time) == arrivals_sent(first_time)
    assert of_filing(row)[-2:] == ["filing.rejected", "filing.submitted"]


def test_refused_credentials_fail_in_words_and_new_ones_send_the_month(month, owner, ross):
    milan = italian(owner, "Casa Navigli", LOMBARDY)
    set_up(owner, milan, credentials={"username": USER, "password": "wrong"})
    first, last = bounds(month)
    at(first)
    sweep.run_due()
    at(last + dt.timedelta(days=1))
    sweep.run_due()
    row = the_filing(milan, month)
    assert row.status == "failed"
    assert row.error.startswith("credentials refused: ROSS 1000 refused the transmission "
                                "credentials (HTTP 401)")
    set_up(owner, milan)  # the right password: the refused month goes again
    sweep.run_due()
    assert the_filing(milan, month).status == "submitted"


def test_an_empty_month_sends_every_day_open_without_guests_or_closed(month, owner, ross):
    milan = italian(owner, "Casa Navigli", LOMBARDY)
    set_up(owner, milan)
    first, last = bounds(month)
    closed = first + dt.timedelta(days=9)
    PropertyClosedDay.create(property=milan.id, day=closed)
    at(first)
    sweep.run_due()
    at(last + dt.timedelta(days=1))
    sweep.run_due()
    assert the_filing(milan, month).status == "submitted"
    [document] = sent(ross, LOMBARDY, month)
    days = document.findall("movimento")
    assert len(days) == last.day and not document.findall("movimento/arrivi/arrivo")
    shut = [d for d in days if d.findtext("struttura/apertura") == "NO"]
    assert [d.findtext("data") for d in shut] == [closed.strftime("%Y%m%d")]
    assert {d.findtext("struttura/cameredisponibili") for d in days if d not in shut} == {"3"}


def test_a_past_month_that_gains_a_stay_gets_its_filing_within_the_minute(
        month, owner, make_booking, ross):
    milan = italian(owner, "Casa Navigli", LOMBARDY)
    set_up(owner, milan)
    first, last = bounds(month)
    after = last + dt.timedelta(days=1)
    at(after + dt.timedelta(days=1))  # the month passed while the worker did not look
    sweep.run_due()
    assert not Filing.select().where(Filing.period == month).exists()
    stay = make_booking(prop=milan, arrival=first + dt.timedelta(days=1), nights=2,
                        guest_count=1)  # an import of a stay the host forgot
    sweep.run_due()
    row = the_filing(milan, month)
    assert row.status == "held"  # owed, and nothing sent while its check-in is not done
    assert "The guests have not completed check-in." in row.held_reason
    check_in(owner, stay, [("FR", "Lyon", "")])
    owner.post_json(f"/api/v1/filings/{row.id}/refile", {})
    sweep.run_due()
    row = the_filing(milan, month)
    assert row.status == "submitted", row.held_reason
    assert len(arrivals_sent(sent(ross, LOMBARDY, month)[0])) == 1


def test_a_month_with_a_check_in_not_done_is_held_in_words_and_announced_at_risk(
        month, owner, make_booking, ross):
    milan = italian(owner, "Casa Navigli", LOMBARDY)
    set_up(owner, milan)
    first, last = bounds(month)
    at(first)
    make_booking(prop=milan, arrival=first + dt.timedelta(days=1), nights=2)
    at(last + dt.timedelta(days=1))
    sweep.run_due()
    row = the_filing(milan, month)
    assert row.status == "held"
    arrival = (first + dt.timedelta(days=1)).isoformat()
    assert row.held_reason.endswith(f"arriving {arrival}: The guests have not completed "
                                    "check-in.")
    assert not ross.anything_received()
    assert not filing_events("filing.at_risk")
    clock.travel(row.deadline - dt.timedelta(hours=47) - clock.utcnow())
    sweep.run_due()
    sweep.run_due()
    assert [d["id"] for _, d in filing_events("filing.at_risk")] == [row.id]
    assert [f.id for f in periods.needing_a_person(owner.account_id)] == [row.id]


def test_a_region_on_another_system_gets_its_file_and_pdf_and_is_marked_filed(month, owner):
    bari = italian(owner, "Casa Bari", APULIA)
    shown = owner.get(f"/api/v1/properties/{bari.id}").json["data"]["obligations"]
    assert shown[1]["title"].startswith("ISTAT tourism statistics (SPOT")
    assert shown[1]["title"].endswith(": figures typed in by hand)")
    set_up(owner, bari, credentials=None, code="BA0001")
    first, last = bounds(month)
    at(first)
    sweep.run_due()
    at(last + dt.timedelta(days=1))
    sweep.run_due()
    row = the_filing(bari, month)
    assert row.status == "ready"
    [listed] = owner.get(f"/api/v1/filings?property_id={bari.id}&period={month}").json["data"]
    download = owner.app.get(listed["file"]["download_url"].replace("https://stay.example.org", ""))
    with zipfile.ZipFile(io.BytesIO(download.body)) as archive:
        names = archive.namelist()
        assert archive.read(names[1]).startswith(b"%PDF")
    assert names == [f"ross1000-BA0001-{month}.xml", f"spot-{month}.pdf", f"spot-{month}.csv"]
    done = owner.post_json(f"/api/v1/filings/{row.id}/filed", {"reference": "SPOT 42"}).json["data"]
    assert (done["status"], done["reference"]) == ("submitted", "SPOT 42")
    assert of_filing(row) == ["filing.ready", "filing.submitted"]


def test_a_rosss1000_region_without_credentials_gets_its_file_to_upload(month, owner, ross):
    milan = italian(owner, "Casa Navigli", LOMBARDY)
    set_up(owner, milan, credentials=None)
    first, last = bounds(month)
    at(first)
    sweep.run_due()
    at(last + dt.timedelta(days=1))
    sweep.run_due()
    row = the_filing(milan, month)
    assert (row.status, row.file_name) == ("ready", f"ross1000-LOM0001-{month}.xml")
    assert not ross.anything_received()


def test_a_region_that_still_asks_for_the_txt_gets_it_beside_the_xml(month, owner, make_booking):
    milan = italian(owner, "Casa Navigli", LOMBARDY)
    owner.put_json(f"/api/v1/properties/{milan.id}/obligations/ross1000",
                   {"settings": {"structure_code": "LOM0001", "legacy_txt": "yes"}})
    first, last = bounds(month)
    at(first)
    sweep.run_due()
    stay = make_booking(prop=milan, arrival=first + dt.timedelta(days=2), nights=3)
    check_in(owner, stay, [("IT", "Roma", "RM"), ("DE", "Berlin", "")])
    at(last + dt.timedelta(days=1), 8)
    sweep.run_due()
    row = the_filing(milan, month)
    assert row.status == "ready", row.held_reason or row.error
    download = owner.get(f"/api/v1/filings/{row.id}/preview")
    with zipfile.ZipFile(io.BytesIO(download.body)) as archive:
        assert archive.namelist() == [f"ross1000-LOM0001-{month}.xml",
                                      f"ross1000-LOM0001-{month}.txt"]
        records = archive.read(f"ross1000-LOM0001-{month}.txt").split(b"\r\n")
    # One record per guest of the month, 328 characters each (the legacy layout, docs/ross1000.md).
    assert [len(line) for line in records if line] == [328, 328]
    refused = owner.put_json(f"/api/v1/properties/{milan.id}/obligations/ross1000",
                             {"settings": {"legacy_txt": "maybe"}}, status=400)
    assert "legacy_txt" in refused.text


def test_a_months_file_and_receipt_go_when_its_guests_data_goes_five_years_after_the_month(
        month, owner, make_booking):
    """The month's file names every guest of the month: in Italy it is kept as their data is,
    five years (retention.guest_documents_years_it), counted from the month's last day as a
    stay's are from its departure; then it is erased, and so is the authority's receipt."""
    milan = italian(owner, "Casa Navigli", LOMBARDY)
    set_up(owner, milan, credentials=None)
    first, last = bounds(month)
    at(first)
    sweep.run_due()
    stay = make_booking(prop=milan, arrival=first + dt.timedelta(days=2), nights=3)
    check_in(owner, stay, [("IT", "Roma", "RM"), ("DE", "Berlin", "")])
    at(last + dt.timedelta(days=1))
    sweep.run_due()
    row = the_filing(milan, month)
    assert row.status == "ready" and row.file_sealed, row.held_reason or row.error
    Filing.update(receipt_sealed="the region's answer, sealed", receipt_type="application/xml"
                  ).where(Filing.id == row.id).execute()
    retention = Retention(30, {"IT": 5})
    at(years_before(last, -5))  # the month's last day, five years on: still kept
    sweep.purge_files(retention)
    police_retention.erase_receipts(retention)
    kept = the_filing(milan, month)
    assert kept.file_sealed and kept.receipt_sealed
    at(years_before(last, -5) + dt.timedelta(days=1))
    sweep.purge_files(retention)
    police_retention.erase_receipts(retention)
    erased = the_filing(milan, month)
    assert (erased.file_sealed, erased.receipt_sealed, erased.status) == (None, None, "ready")
    [listed] = owner.get(f"/api/v1/filings?property_id={milan.id}&period={month}").json["data"]
    assert listed["file"] is None


def test_a_new_deadline_day_moves_the_deadline_of_the_months_not_filed(month, owner):
    milan = italian(owner, "Casa Navigli", LOMBARDY)
    set_up(owner, milan, credentials=None)
    first, last = bounds(month)
    at(first)
    sweep.run_due()
    owner.put_json(f"/api/v1/properties/{milan.id}/obligations/ross1000",
                   {"settings": {"deadline_day": "10"}})
    due = the_filing(milan, month).deadline
    assert (due + dt.timedelta(hours=1)).date() == last + dt.timedelta(days=10)  # 23:59 in Rome


def test_a_service_that_does_not_answer_is_tried_again_and_an_interrupted_call_requeued(
        month, owner, ross):
    milan = italian(owner, "Casa Navigli", LOMBARDY)
    set_up(owner, milan)
    first, last = bounds(month)
    at(first)
    sweep.run_due()
    ross[LOMBARDY].down()
    at(last + dt.timedelta(days=1))
    sweep.run_due()
    row = the_filing(milan, month)
    assert (row.status, row.attempts) == ("queued", 1) and "cannot be reached" in row.error
    ross[LOMBARDY].up()
    clock.travel(dt.timedelta(minutes=3))
    sweep.run_due()
    assert the_filing(milan, month).status == "submitted"
    # A call cut by a crash is sent again: each guest goes by its immutable idswh.
    Filing.update(status="sending", sending_since=clock.utcnow()).where(
        Filing.id == row.id).execute()
    clock.travel(dt.timedelta(minutes=10))
    assert periods.recover_interrupted() == [row.id]
    assert the_filing(milan, month).status == "queued"
