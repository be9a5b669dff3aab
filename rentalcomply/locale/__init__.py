"""The product's words: gettext catalogues (.po), read once per language and kept.

Three domains, one `.pot` template each and one `<lang>/LC_MESSAGES/<domain>.po` per language:

- `messages`: the dashboard, the host's e-mails (morning e-mail, filing and police alerts, the
  account's e-mails), the dashboard's error messages and the tourist tax returns' files; en, el,
  it, es, pt.
- `guest`: the guest's check-in page and e-mails; en, el, it, es, de, fr, pt.
- `report`: the AADE report PDF, in Greek or English (`reports.language`).

The msgid is the English text. A text the code names by a key instead (`done:saved`, a status
code such as `NOT_STARTED`, the guest page's `label.first_name`, the report's `title_month`)
carries the key as its msgctxt and its English as the msgid, so that a translator's tool shows
English everywhere; `text("done:saved")` finds it by its context. Plurals are entries with a
msgid_plural, their context naming them (`night`, `sync_imported`), chosen by the catalogue's
Plural-Forms.

The `.po` files are read at run time (Babel's `read_po`), never compiled to `.mo`: the files the
translators edit are the files the product reads, in a checkout, a wheel and the one-file binary
alike, and a corrected word needs no build step. Reading the ~1,100 entries of a language takes
tens of milliseconds, once per process and language (`catalogue()` is cached); a lookup is one
dict access. The folder is this package's, or the one `i18n.catalogue_dir` names (a translator's
copy), set by `use_directory` at start-up.
"""

from __future__ import annotations

import functools
import gettext
from pathlib import Path

from babel.messages.pofile import read_po

SHIPPED = Path(__file__).resolve().parent
DOMAINS = ("messages", "guest", "report")
_directory: list[Path] = [SHIPPED]


def use_directory(path: str | Path | None) -> None:
    """Read the catalogues from another folder (the setting `i18n.catalogue_dir`), or from the
    package's again (None or empty). The texts already read are forgotten."""
    _directory[0] = Path(path).expanduser().resolve() if path else SHIPPED
    catalogue.cache_clear()


def directory() -> Path:
    return _directory[0]


class Catalogue:
    """One language's texts of one domain: `text(msgid_or_key)` and `plural(context, n)`. A text
    it lacks (or leaves empty) comes from the fallback (English), then stays as asked."""

    def __init__(self, path: Path, fallback: "Catalogue | None" = None):
        self.path = path
        self.fallback = fallback
        self.texts: dict[str, str] = {}
        self.contexts: dict[str, str] = {}
        self.plurals: dict[str, tuple[str, ...]] = {}
        self.plural_index = gettext.c2py("n != 1")
        if path.exists():
            self._read()

    def _read(self) -> None:
        with self.path.open("rb") as fp:
            parsed = read_po(fp, abort_invalid=True)
        self.plural_index = gettext.c2py(parsed.plural_expr)
        for message in parsed:
            if not message.id or message.fuzzy:
                continue
            if isinstance(message.id, (list, tuple)):
                forms = tuple(message.string or ())
                if forms and all(forms):
                    self.plurals[message.context or message.id[0]] = forms
                continue
            if not message.string:
                continue
            if message.context:
                self.contexts[message.context] = message.string
                self.texts.setdefault(message.id, message.string)
            else:
                self.texts[message.id] = message.string

    def has(self, key: str) -> bool:
        return key in self.contexts or key in self.texts

    def text(self, key: str) -> str:
        """The translation of a key (a msgctxt) or of an English text (a msgid)."""
        found = self.contexts.get(key)
        if found is None:
            found = self.texts.get(key)
        if found is not None:
            return found
        return self.fallback.text(key) if self.fallback is not None else key

    def plural(self, context: str, n: int) -> str:
        """The form of the entry named `context` for the number n, by the catalogue's rule."""
        forms = self.plurals.get(context)
        if forms is None:
            if self.fallback is None:
                raise KeyError(context)
            return self.fallback.plural(context, n)
        return forms[min(self.plural_index(n), len(forms) - 1)]


def languages(domain: str) -> tuple[str, ...]:
    """The languages that have a `.po` of the domain in the folder in use, English first."""
    found = sorted(p.parent.parent.name for p in directory().glob(f"*/LC_MESSAGES/{domain}.po"))
    return tuple(sorted(found, key=lambda lang: lang != "en"))


def po_path(domain: str, lang: str) -> Path:
    return directory() / lang / "LC_MESSAGES" / f"{domain}.po"


@functools.cache
def catalogue(domain: str, lang: str) -> Catalogue:
    """A language's catalogue of a domain, read once; English behind every other language."""
    english = None if lang == "en" else catalogue(domain, "en")
    return Catalogue(po_path(domain, lang), fallback=english)
