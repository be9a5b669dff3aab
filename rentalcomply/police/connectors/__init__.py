"""The registry of police connectors: a name maps to a module exposing `CONNECTOR`, imported lazily
(the SOAP connectors pull in zeep only when a property uses them)."""
from __future__ import annotations

import importlib

from .base import Connector

MODULES = {
    "file": "rentalcomply.police.connectors.file",
    "alloggiati": "rentalcomply.police.connectors.alloggiati",
    "ses_hospedajes": "rentalcomply.police.connectors.ses",
    "siba": "rentalcomply.police.connectors.siba",
}

NAMES = ("none",) + tuple(MODULES)


def get(name: str) -> Connector:
    """The connector instance for `name` (KeyError for "none" or an unknown name)."""
    return importlib.import_module(MODULES[name]).CONNECTOR
