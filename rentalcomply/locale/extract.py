"""`python -m rentalcomply.locale extract`: the texts marked in the code and the templates, into
rentalcomply/locale/messages.pot (then `pybabel update` merges the .pot into each language's .po).

The marks: `_("…")` and `t("…")` (a page's and an e-mail's translate), `translate(lang, "…")` in
the Python code, `_('…')` in the dashboard's Bottle templates (.tpl), which Babel's own extractors
cannot read: `templates` below is a Babel extraction method for them (babel.cfg names it, so that
`pybabel extract -F babel.cfg` works too).

A text the code passes by value (a status code, `done:…`, a sentence a domain module returns) is
found by no extractor: such entries stay in the .pot once they are there (the extraction adds, it
never removes); a text no longer used is removed from the .pot by hand, and `pybabel update` then
marks it obsolete in every .po.
"""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from rentalcomply.locale import SHIPPED

PACKAGE = SHIPPED.parent
KEYWORDS = {"_": None, "t": None, "translate": (2,)}
METHODS = [("dashboard/templates/**.tpl", "rentalcomply.locale.extract:templates"),
           ("**/templates/**.tpl", "ignore"),
           ("**.py", "python")]
KEY_PREFIX = re.compile(r"^[a-z_]+:$")
# `_('…')` or `_("…")` in a template, the text possibly followed by values.
TEMPLATE_TEXT = re.compile(r"""(?<![\w.])_\(\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")""")


def templates(fileobj, keywords, comment_tags, options):
    """A Babel extraction method for Bottle templates: (line, funcname, message, comments)."""
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    for match in TEMPLATE_TEXT.finditer(source):
        text = match.group(1) if match.group(1) is not None else match.group(2)
        text = text.replace("\\'", "'").replace('\\"', '"')
        yield source.count("\n", 0, match.start()) + 1, "_", text, []


def extracted() -> dict[str, list[tuple[str, int]]]:
    """{text: [(file, line), ...]} of every literal text marked in the package."""
    found: dict[str, list[tuple[str, int]]] = {}
    for filename, line, message, _comments, context in extract_from_dir(
            str(PACKAGE), METHODS, KEYWORDS, strip_comment_tags=True):
        if isinstance(message, (tuple, list)) or context or not message or not message.strip():
            continue
        if KEY_PREFIX.match(message):  # `_("done:" + key)`: the key is the text, found by value
            continue
        found.setdefault(message, []).append((f"rentalcomply/{filename}", line))
    return found


def update_template(path: Path | None = None) -> tuple[int, int]:
    """Add the marked texts the .pot lacks; returns (texts found, texts added)."""
    path = path or SHIPPED / "messages.pot"
    with path.open("rb") as fp:
        template: Catalog = read_po(fp)
    known = {message.id for message in template if message.id}
    known |= {message.context for message in template if message.context}
    found = extracted()
    added = 0
    for text, places in found.items():
        if text in known:
            continue
        template.add(text, locations=places)
        added += 1
    template.fuzzy = False
    with path.open("wb") as fp:
        write_po(fp, template, ignore_obsolete=True, include_previous=False, omit_header=False)
    return len(found), added
