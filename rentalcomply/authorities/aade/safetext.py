"""Text already stored, made safe for the report files: the writers never fail on it.

The API refuses control characters in new text, but a value stored before that (or written by
hand into the database) may hold one, and lxml refuses such a string outright, which would break
the whole account's report. So the writers replace every character that XML 1.0 cannot carry
(C0 controls other than tab, newline and carriage return; U+FFFE, U+FFFF; lone surrogates) with
U+FFFD, the replacement character, rather than dropping it: the file is still written and the
odd value stays visible, so the host can correct it instead of filing a silently altered name.
In the PDF's one-line table cells tab and line breaks become spaces as well, and DEL is replaced.
"""

from __future__ import annotations

import re

REPLACEMENT = "\ufffd"
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_LINE_BREAKS = re.compile("[\t\n\r]")
_NOT_PRINTABLE = re.compile("[\x00-\x1f\x7f\ufffe\uffff\ud800-\udfff]")


def for_xml(value: str | None) -> str | None:
    """Every character XML 1.0 allows kept; the others replaced by U+FFFD."""
    return _NOT_XML.sub(REPLACEMENT, value) if value else value


def for_line(value: str | None) -> str | None:
    """One line of printable text (a PDF table cell): tab and line breaks as spaces, any other
    control character as U+FFFD."""
    if not value:
        return value
    return _NOT_PRINTABLE.sub(REPLACEMENT, _LINE_BREAKS.sub(" ", value))
