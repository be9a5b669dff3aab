"""A booking's guest name ("Luca Ferrari", "Ferrari, Luca", "María García López") split into the
lead guest's first and last names, to fill the check-in form in (the guest can change them)."""

from __future__ import annotations

# Words that belong to the surname they precede ("van der Berg", "de la Cruz", "Di Stefano" is
# capitalised and stays one word).
PARTICLES = {"de", "del", "della", "di", "da", "dos", "das", "do", "du", "la", "le", "van", "von",
             "der", "den", "ter", "y"}


def split_name(full: str | None, country: str, language: str = "") -> dict[str, str]:
    """{"first_name", "last_name"[, "second_last_name"]}; empty when the name is empty.

    "Last, First" is taken at the comma. Otherwise the last word is the surname with the
    particles before it, except for a Spanish guest (a Spanish property, or a guest who reads
    Spanish), where a name of three words or more is a given name and two surnames ("Javier
    Fernández Ruiz"), the way Spanish documents write it: the second surname has a field of its
    own in a Spanish property; elsewhere both stay in the surname ("Fernández Ruiz")."""
    words = (full or "").replace(",", " , ").split()
    if not words or words == [","]:
        return {}
    if "," in words:
        at = words.index(",")
        last, first = words[:at], [w for w in words[at + 1:] if w != ","]
        return _named(" ".join(first), " ".join(last))
    if len(words) == 1:
        return {"first_name": words[0]}
    spanish = country == "ES" or language == "es"
    if spanish and len(words) >= 3 and not any(w.lower() in PARTICLES for w in words):
        if country != "ES":
            return {"first_name": " ".join(words[:-2]), "last_name": " ".join(words[-2:])}
        return {"first_name": " ".join(words[:-2]), "last_name": words[-2],
                "second_last_name": words[-1]}
    start = len(words) - 1
    while start > 1 and words[start - 1].lower() in PARTICLES:
        start -= 1
    return _named(" ".join(words[:start]), " ".join(words[start:]))


def _named(first: str, last: str) -> dict[str, str]:
    return {name: value for name, value in (("first_name", first), ("last_name", last)) if value}
