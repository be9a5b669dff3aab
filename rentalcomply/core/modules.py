"""optional_modules(): import the modules of the capabilities present in this build.

The web app, the worker and the command line each list the modules capabilities plug in with
(`<capability>/api.py`, `tasks.py`, `cli.py`); a capability folder that is absent is skipped, while
an import error inside a present module is raised as usual.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Iterable, Iterator


def optional_modules(names: Iterable[str]) -> Iterator[ModuleType]:
    for name in names:
        try:
            yield importlib.import_module(name)
        except ModuleNotFoundError as exc:
            # Only the absence of the module itself (or its package) is tolerated.
            if exc.name is None or not (name == exc.name or name.startswith(exc.name + ".")):
                raise
