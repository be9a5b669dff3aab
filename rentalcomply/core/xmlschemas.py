"""The shipped XSDs, one parsed copy per thread, each parsed under one lock.

libxml2 parses no two schemas at once safely (two report workers starting together failed with
"Internal error: xmlSchemaPValAttrNodeValue, the given type is not a built-in type"), nor
validates with one schema object from two threads at once. Every XSD the product checks its
files against (the AADE report, SES.Hospedajes, SIBA) comes through here.
"""

from __future__ import annotations

import threading
from importlib import resources

from lxml import etree

_parsing = threading.Lock()
_per_thread = threading.local()


def schema(package: str, *path: str) -> etree.XMLSchema:
    """The XSD at `path` inside `package`, parsed once per thread."""
    cache = getattr(_per_thread, "schemas", None)
    if cache is None:
        cache = _per_thread.schemas = {}
    key = (package, path)
    found = cache.get(key)
    if found is None:
        with _parsing, resources.as_file(resources.files(package).joinpath(*path)) as real:
            found = cache[key] = etree.XMLSchema(etree.parse(str(real)))
    return found
