"""The ROSS 1000 month file (rentalcomply/authorities/ross1000): one `movimento` per day, valid
against checkin.xsd, its figures read back from the XML with XPath alone and compared with
figures worked out by hand below (shared/domain/updates-2026-11.md §1)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from importlib import resources

import pytest
from lxml import etree

from rentalcomply.authorities.ross1000 import movement, xmlfile
from rentalcomply.authorities.ross1000.movement import (
    FAMILY_HEAD, FAMILY_MEMBER, ITALY, SINGLE, Document, Guest, MonthInput, MovementError, Stay,
)

D = dt.date
JUNE = 2026, 6
# Polizia comune codes (rentalcomply/codes/it/comuni.csv) and state codes (stati.csv).
COMUNE = {"RM": "412058091", "MI": "403015146", "NA": "415063049"}
STATE = {"DE": "100000216", "FR": "100000215", "GB": "100000219", "US": "100000536",
         "ES": "100000239"}
TOWN = {"DE": "Berlin", "FR": "Lyon", "GB": "DEA", "US": "Boston", "ES": "Sevilla"}  # GB: NUTS
CLOSED = D(2026, 6, 10)


def guest(idswh: str, origin: str, *, kind: str = SINGLE, head: str = "", sex: str = "F",
          born: dt.date = D(1985, 4, 9)) -> Guest:
    italian = origin in COMUNE
    return Guest(
        idswh=idswh, guest_type=kind, sex=sex, birth_date=born,
        citizenship=ITALY if italian else STATE[origin],
        residence_country=ITALY if italian else STATE[origin],
        residence_place=COMUNE[origin] if italian else TOWN[origin],
        residence_province=origin if italian else "",
        surname=f"Surname{idswh}", name=f"Name{idswh}",
        birth_country=ITALY if italian else STATE[origin],
        birth_comune=COMUNE[origin] if italian else "",
        head_idswh=head,
        document=None if head else Document("IDENT", f"AB{idswh}", COMUNE.get(origin, ITALY)),
        tourism_type="Culturale" if italian else "", transport="Treno" if italian else "")


def single(n: int, origin: str, arrival: int, departure: dt.date | int,
           cancelled: bool = False) -> Stay:
    leaving = departure if isinstance(departure, dt.date) else D(2026, 6, departure)
    return Stay(D(2026, 6, arrival), leaving, (guest(f"S{n:02d}", origin),), cancelled=cancelled)


FAMILY = Stay(D(2026, 6, 20), D(2026, 6, 24), (
    # Members listed before their head on purpose: the file must still send the head first.
    guest("F09-2", "NA", kind=FAMILY_MEMBER, head="F09-1", born=D(2015, 2, 1), sex="M"),
    guest("F09-1", "NA", kind=FAMILY_HEAD, born=D(1980, 12, 31), sex="M"),
    guest("F09-3", "NA", kind=FAMILY_MEMBER, head="F09-1", born=D(2018, 7, 15)),
))

# The month: June 2026, 8 rooms and 18 beds, closed on the 10th. Departure day numbers are in
# June unless a date is given. Nights in June are worked out by hand in the right-hand column.
STAYS = (
    single(1, "RM", 1, 3),                 # 2
    single(2, "RM", 2, 4),                 # 2
    single(3, "RM", 5, 8),                 # 3
    single(4, "MI", 1, 2),                 # 1
    single(5, "MI", 3, 6),                 # 3
    single(6, "MI", 11, 13),               # 2
    single(7, "NA", 4, 7),                 # 3
    single(8, "NA", 12, 14),               # 2
    FAMILY,                                # 3 guests x 4 = 12
    single(10, "DE", 6, 9),                # 3
    single(11, "DE", 14, 16),              # 2
    single(12, "DE", 22, 25),              # 3
    single(13, "FR", 7, 9),                # 2
    single(14, "FR", 15, 18),              # 3
    single(15, "FR", 25, 27),              # 2
    single(16, "GB", 11, 14),              # 3
    single(17, "GB", 16, 19),              # 3
    single(18, "GB", 26, 29),              # 3
    single(19, "US", 12, 15),              # 3
    single(20, "US", 18, 21),              # 3
    single(21, "US", 27, 30),              # 3
    single(22, "ES", 13, 17),              # 4
    single(23, "ES", 19, 22),              # 3
    single(24, "ES", 28, D(2026, 7, 3)),   # 3 in June (28, 29, 30); leaves in July
    single(25, "RM", 15, 17),              # 2
    single(26, "MI", 17, 20),              # 3
    single(27, "NA", 23, 26),              # 3
    single(28, "RM", 24, 28),              # 4
    single(29, "MI", 29, 30),              # 1
    single(30, "DE", 20, 23, cancelled=True),  # nothing
)
MONTH = MonthInput(structure_code="099001-ALB-00042", year=2026, month=6, rooms_available=8,
                   beds_available=18, stays=STAYS, closed_days=frozenset({CLOSED}))

# Hand-worked from the table above (cancelled stay 30 left out; stay 24's departure is July's).
ARRIVALS = {"RM": 5, "MI": 5, "NA": 6, STATE["DE"]: 3, STATE["FR"]: 3, STATE["GB"]: 3,
            STATE["US"]: 3, STATE["ES"]: 3}                                       # 31
DEPARTURES = {**ARRIVALS, STATE["ES"]: 2}                                         # 30
NIGHTS = {"RM": 2 + 2 + 3 + 2 + 4, "MI": 1 + 3 + 2 + 3 + 1, "NA": 3 + 2 + 12 + 3,
          STATE["DE"]: 3 + 2 + 3, STATE["FR"]: 2 + 3 + 2, STATE["GB"]: 3 + 3 + 3,
          STATE["US"]: 3 + 3 + 3, STATE["ES"]: 4 + 3 + 3}                         # 86


def checkin_schema() -> etree.XMLSchema:
    """The shipped XSD read from the package's files, not through the builder's loader."""
    path = resources.files("rentalcomply.authorities.ross1000") / "xsd" / "checkin.xsd"
    return etree.XMLSchema(etree.fromstring(path.read_bytes()))


def parse(xml: bytes) -> etree._Element:
    return etree.fromstring(xml)


def text(node: etree._Element, path: str) -> str | None:
    found = node.xpath(f"string({path})")
    return found if node.xpath(path) else None


# -- the reader: XPath over the file only, sharing nothing with the builder ----------------------

def read_month(xml: bytes) -> dict:
    """The month's figures as a reader of the file would compute them: arrivals and departures
    by origin (province for Italian residents, from the comune code; state code otherwise), and
    nights from each arrival to its departure in the file, or to the month's end."""
    root = parse(xml)
    province_of = {code: prov for prov, code in COMUNE.items()}
    days = root.xpath("/movimenti/movimento/data/text()")
    month_end = dt.datetime.strptime(days[-1], "%Y%m%d").date() + dt.timedelta(days=1)
    origin, arrived = {}, {}
    arrivals, departures, nights = Counter(), Counter(), Counter()
    for node in root.xpath("/movimenti/movimento/arrivi/arrivo"):
        state = text(node, "statoresidenza")
        place = text(node, "luogoresidenza")
        idswh = text(node, "idswh")
        origin[idswh] = province_of[place] if state == ITALY else state
        arrived[idswh] = dt.datetime.strptime(text(node, "../../data"), "%Y%m%d").date()
        arrivals[origin[idswh]] += 1
    left = {}
    for node in root.xpath("/movimenti/movimento/partenze/partenza"):
        idswh = text(node, "idswh")
        departures[origin[idswh]] += 1
        left[idswh] = dt.datetime.strptime(text(node, "../../data"), "%Y%m%d").date()
        assert text(node, "arrivo") == arrived[idswh].strftime("%Y%m%d")
    for idswh, start in arrived.items():
        nights[origin[idswh]] += (left.get(idswh, month_end) - start).days
    return {"days": days, "arrivals": arrivals, "departures": departures, "nights": nights}


# -- the tests ------------------------------------------------------------------------------------

def test_a_month_of_thirty_stays_is_valid_against_the_wsdl_schema():
    xml = xmlfile.build(MONTH)
    schema = checkin_schema()
    assert schema.validate(parse(xml)), schema.error_log
    assert len(STAYS) == 30


def test_the_month_read_back_with_xpath_has_the_hand_worked_arrivals_departures_and_nights():
    figures = read_month(xmlfile.build(MONTH))
    assert figures["days"] == [f"202606{d:02d}" for d in range(1, 31)]
    assert dict(figures["arrivals"]) == ARRIVALS and sum(ARRIVALS.values()) == 31
    assert dict(figures["departures"]) == DEPARTURES and sum(DEPARTURES.values()) == 30
    assert dict(figures["nights"]) == NIGHTS and sum(NIGHTS.values()) == 86


def test_the_movement_totals_agree_with_the_hand_worked_figures():
    totals = movement.totals(movement.month_days(MONTH))
    assert dict(totals.arrivals) == ARRIVALS
    assert dict(totals.departures) == DEPARTURES
    assert dict(totals.nights) == NIGHTS
    assert (totals.open_days, totals.closed_days) == (29, 1)


def test_each_field_of_the_file_is_as_the_note_describes_it():
    root = parse(xmlfile.build(MONTH))
    assert root.tag == "movimenti" and root.nsmap == {}
    assert text(root, "codice") == "099001-ALB-00042"
    assert text(root, "prodotto") == "RentalComply"

    def day(n: int) -> etree._Element:
        (node,) = root.xpath(f"movimento[data='202606{n:02d}']")
        return node

    def struttura(n: int) -> list[str]:
        return [text(day(n), f"struttura/{name}") for name in
                ("apertura", "camereoccupate", "cameredisponibili", "lettidisponibili")]

    # The closed day: NO and zeros, nothing else; the night before it empty but open.
    assert struttura(10) == ["NO", "0", "0", "0"]
    assert day(10).xpath("arrivi|partenze") == []
    assert struttura(9) == ["SI", "0", "8", "18"]
    # 1 June: stays 1 and 4 arrive and sleep. 20 June: the family (one room) arrives, stay 26
    # leaves; the night has the family, stays 20 and 23 (the cancelled stay 30 is not there).
    assert struttura(1) == ["SI", "2", "8", "18"]
    assert day(1).xpath("arrivi/arrivo/idswh/text()") == ["S01", "S04"]
    assert struttura(20) == ["SI", "3", "8", "18"]
    assert day(20).xpath("arrivi/arrivo/idswh/text()") == ["F09-1", "F09-2", "F09-3"]
    assert day(20).xpath("partenze/partenza/idswh/text()") == ["S26"]
    assert root.xpath("//idswh[text()='S30']") == []
    # 30 June: stays 21 and 29 leave; stay 24 sleeps on into July.
    assert struttura(30) == ["SI", "1", "8", "18"]
    assert day(30).xpath("partenze/partenza/idswh/text()") == ["S21", "S29"]

    # The family: the head first, its members pointing at it; ages and sexes their own.
    head, child, child2 = day(20).xpath("arrivi/arrivo")
    assert [text(head, "tipoalloggiato"), text(head, "idcapo")] == ["17", None]
    assert [text(child, "tipoalloggiato"), text(child, "idcapo")] == ["19", "F09-1"]
    assert [text(child2, "tipoalloggiato"), text(child2, "idcapo")] == ["19", "F09-1"]
    assert [text(head, "sesso"), text(head, "datanascita")] == ["M", "19801231"]
    assert [text(child2, "sesso"), text(child2, "datanascita")] == ["F", "20180715"]
    assert text(head, "luogoresidenza") == "415063049"
    assert text(head, "comunenascita") == "415063049"
    assert [text(head, "tipoturismo"), text(head, "mezzotrasporto")] == ["Culturale", "Treno"]

    # A foreign guest: state codes, the town (or NUTS code) as place of residence, no comune of
    # birth, the tracciato's "Non Specificato" where the guest said nothing.
    (german,) = root.xpath("//arrivo[idswh='S10']")
    assert [text(german, f) for f in ("cittadinanza", "statoresidenza", "luogoresidenza",
                                      "statonascita", "comunenascita")] == [
        "100000216", "100000216", "Berlin", "100000216", None]
    assert text(german, "tipoturismo") == "Non Specificato"
    assert [text(german, "cognome"), text(german, "nome")] == ["SurnameS10", "NameS10"]
    (briton,) = root.xpath("//arrivo[idswh='S16']")
    assert text(briton, "luogoresidenza") == "DEA"
    # A departure names the guest, its type and its arrival day.
    (leaving,) = root.xpath("//partenza[idswh='S10']")
    assert [text(leaving, f) for f in ("tipoalloggiato", "arrivo")] == ["16", "20260606"]
    assert text(leaving, "../../data") == "20260609"


def test_an_empty_month_has_a_movimento_for_every_day_open_without_guests_or_closed():
    closed = frozenset({D(2026, 2, 1), D(2026, 2, 2), D(2026, 2, 28)})
    empty = MonthInput(structure_code="S-1", year=2026, month=2, rooms_available=2,
                       beds_available=5, closed_days=closed)
    root = parse(xmlfile.build(empty))
    assert checkin_schema().validate(root)
    moves = root.xpath("movimento")
    assert [text(m, "data") for m in moves] == [f"202602{d:02d}" for d in range(1, 29)]
    for node in moves:
        if dt.datetime.strptime(text(node, "data"), "%Y%m%d").date() in closed:
            assert [text(node, f"struttura/{f}") for f in ("apertura", "camereoccupate",
                    "cameredisponibili", "lettidisponibili")] == ["NO", "0", "0", "0"]
        else:
            assert [text(node, f"struttura/{f}") for f in ("apertura", "camereoccupate",
                    "cameredisponibili", "lettidisponibili")] == ["SI", "0", "2", "5"]
        assert node.xpath("arrivi|partenze|prenotazioni|rettifiche") == []


def test_a_stay_across_the_months_end_is_counted_only_within_each_month():
    came_in_may = Stay(D(2026, 5, 29), D(2026, 6, 2), (guest("X1", "RM"),))
    leaves_in_july = Stay(D(2026, 6, 29), D(2026, 7, 3), (guest("X2", "FR"),))
    both = (came_in_may, leaves_in_july)
    june = xmlfile.build(MonthInput("S-1", 2026, 6, 2, 4, both))
    july = xmlfile.build(MonthInput("S-1", 2026, 7, 2, 4, both))
    root = parse(june)
    # June: X1 leaves on the 2nd (its arrival named, but not sent again); X2 arrives on the 29th.
    assert root.xpath("//arrivo/idswh/text()") == ["X2"]
    assert root.xpath("//partenza/idswh/text()") == ["X1"]
    assert root.xpath("//partenza[idswh='X1']/arrivo/text()") == ["20260529"]
    occupied = [int(n) for n in root.xpath("movimento/struttura/camereoccupate/text()")]
    assert occupied[0] == 1 and occupied[1:28] == [0] * 27 and occupied[28:] == [1, 1]
    june_totals = movement.totals(movement.month_days(MonthInput("S-1", 2026, 6, 2, 4, both)))
    assert dict(june_totals.nights) == {"RM": 1, STATE["FR"]: 2}
    # July: only X2's departure and its two July nights.
    root = parse(july)
    assert root.xpath("//arrivi/arrivo") == []  # (partenza/arrivo is a date)
    assert root.xpath("//partenza/idswh/text()") == ["X2"]
    july_totals = movement.totals(movement.month_days(MonthInput("S-1", 2026, 7, 2, 4, both)))
    assert dict(july_totals.nights) == {STATE["FR"]: 2}
    assert len(root.xpath("movimento")) == 31


# The WSDL's element order, copied from the note (updates-2026-11.md §1.2) and not from the XSD.
NOTE_ORDER = {
    "xmlImportDati": ["codice", "prodotto", "movimento"],
    "movimentoBean": ["data", "struttura", "arrivi", "partenze", "prenotazioni", "rettifiche"],
    "strutturaBean": ["apertura", "camereoccupate", "cameredisponibili", "lettidisponibili"],
    "arrivoBean": ["idswh", "tipoalloggiato", "idcapo", "cognome", "nome", "sesso", "cittadinanza",
                   "statoresidenza", "luogoresidenza", "datanascita", "statonascita",
                   "comunenascita", "tipoturismo", "mezzotrasporto", "canaleprenotazione",
                   "titolostudio", "professione", "esenzioneimposta"],
    "partenzaBean": ["idswh", "tipoalloggiato", "arrivo"],
    "prenotazioneBean": ["idswh", "arrivo", "partenza", "ospiti", "camere", "prezzo",
                         "canaleprenotazione", "statoprovenienza", "comuneprovenienza"],
    "eliminazioneBean": ["idswh", "tipoalloggiato", "arrivo"],
    "cancellazioneBean": ["idswh", "arrivo"],
    "confermaBean": ["idswh", "arrivo"],
}
XS = "{http://www.w3.org/2001/XMLSchema}"


def test_the_schema_has_the_wsdls_element_order():
    path = resources.files("rentalcomply.authorities.ross1000") / "xsd" / "checkin.xsd"
    xsd = etree.fromstring(path.read_bytes())
    for type_name, order in NOTE_ORDER.items():
        (sequence,) = xsd.xpath(f"xs:complexType[@name='{type_name}']/xs:sequence",
                                namespaces={"xs": XS[1:-1]})
        assert [e.get("name") for e in sequence.iterchildren(XS + "element")] == order, type_name


def test_the_file_writes_each_element_in_the_wsdls_order():
    root = parse(xmlfile.build(MONTH))
    beans = {"movimenti": "xmlImportDati", "movimento": "movimentoBean",
             "struttura": "strutturaBean", "arrivo": "arrivoBean", "partenza": "partenzaBean"}
    seen = set()
    for node in root.iter():
        bean = beans.get(node.tag)
        if bean is None or (node.tag == "struttura" and node.getparent().tag != "movimento"):
            continue
        tags = [child.tag for child in node]
        order = NOTE_ORDER[bean]
        assert tags == sorted(tags, key=order.index), (node.tag, tags)
        seen.add(bean)
    assert seen == set(beans.values())


def test_a_closed_day_with_a_guest_sleeping_is_refused():
    stay = Stay(D(2026, 6, 9), D(2026, 6, 11), (guest("C1", "RM"),))
    with pytest.raises(MovementError, match="2026-06-10 is marked closed"):
        xmlfile.build(MonthInput("S-1", 2026, 6, 2, 4, (stay,), frozenset({CLOSED})))


def test_a_family_member_without_its_head_in_the_stay_is_refused():
    stay = Stay(D(2026, 6, 3), D(2026, 6, 5), (guest("M1", "RM", kind=FAMILY_MEMBER, head="H"),))
    with pytest.raises(MovementError, match="needs the idswh of its head"):
        xmlfile.build(MonthInput("S-1", 2026, 6, 2, 4, (stay,)))


def test_an_idswh_used_twice_in_the_month_is_refused():
    stays = (Stay(D(2026, 6, 3), D(2026, 6, 5), (guest("A", "RM"),)),
             Stay(D(2026, 6, 7), D(2026, 6, 8), (guest("A", "MI"),)))
    with pytest.raises(MovementError, match="idswh A is used twice"):
        xmlfile.build(MonthInput("S-1", 2026, 6, 2, 4, stays))


def test_the_package_data_ships_the_schema():
    """An installed package (and the PyInstaller binary, which collects the package's data files)
    must carry checkin.xsd: pyproject.toml's package-data globs are matched against it here."""
    import tomllib
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    globs = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]["rentalcomply"]
    shipped = {p for pattern in globs for p in (root / "rentalcomply").glob(pattern)}
    assert root / "rentalcomply/authorities/ross1000/xsd/checkin.xsd" in shipped


def test_more_rooms_occupied_than_available_is_refused():
    stays = (Stay(D(2026, 6, 3), D(2026, 6, 5), (guest("A", "RM"),)),
             Stay(D(2026, 6, 4), D(2026, 6, 6), (guest("B", "MI"),)))
    with pytest.raises(MovementError, match="2026-06-04: more rooms occupied than the 1"):
        xmlfile.build(MonthInput("S-1", 2026, 6, 1, 4, stays))
    assert xmlfile.build(MonthInput("S-1", 2026, 6, 2, 4, stays))
