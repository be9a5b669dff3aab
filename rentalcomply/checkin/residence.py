"""Where an Italian property's guest lives, as the check-in keeps it: a resident of Italy's comune
as the Polizia's code (the monthly statistics and the police tables key it so) with its province;
a resident abroad's town as typed (`residence_place`). checkin/guests.py asks and checks the
fields; this turns what the guest typed or picked into the code kept, and back into a name."""

from __future__ import annotations

from rentalcomply.core import clock

RESIDENCE_IN_ITALY = ("residence_comune", "residence_province")


def code_residence(values: dict, full: bool) -> str | None:
    """A resident of Italy's comune as the Polizia's code of today (a name as the pick list
    offers it, "Castro (LE)", or the code itself), and its province as the table gives it; a
    resident abroad gives none (dropped), a resident of Italy no town. A name the whole table
    lacks is refused (the field's name is returned); before the authority's tables are loaded
    it is kept as typed (no verdict on a name)."""
    from rentalcomply import codes
    if values.get("residence_country") != "IT":
        for name in RESIDENCE_IN_ITALY:
            values.pop(name, None)
        return None
    values.pop("residence_place", None)  # a resident of Italy is placed by their comune
    given = values.get("residence_comune")
    if not given:
        return None
    place = residence_place(given, values.get("residence_province"))
    if place is not None:
        values["residence_comune"], values["residence_province"] = place.code, place.province
        return None
    if full or codes.CODE_RE["comuni"].match(given):
        values.pop("residence_comune")
        return "residence_comune"
    return None


def residence_place(given: str, province: str | None = None):
    """The comune in force today that `given` names (its code, or its name with the province
    apart or in brackets), or None when unknown or ambiguous."""
    from rentalcomply import codes
    if codes.CODE_RE["comuni"].match(given):
        found = [p for p in codes.table("IT", "comuni").by_code.get(given, [])
                 if p.valid_on(clock.today())]
        return found[0] if found else None
    return codes.it_municipality(given, province, clock.today())


def comune_name(code: str) -> str:
    """A stored residence comune as the page shows it back: its name, as the pick list offers
    it (the text itself when it is no code)."""
    place = residence_place(code) if code else None
    return place.name.title() if place is not None else code
