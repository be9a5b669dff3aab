"""axe-core (the accessibility rules browsers' own audits use) run on a page Playwright has open.

The rules come with the `axe-playwright-python` test dependency (axe.min.js, axe-core 4.12); the
script goes in through the browser's debugging protocol, so a page's Content-Security-Policy
does not stop it, and nothing of it reaches the product."""

from __future__ import annotations

import json
from pathlib import Path

import axe_playwright_python

AXE_SCRIPT = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(
    encoding="utf-8")


def violations(page) -> list[str]:
    """Every violation axe finds on the page as it is now, one line each: rule, impact, where.

    axe runs as a script in the page: a context with JavaScript off cannot run it (the call
    would wait for ever), so tests of pages without scripts do not call this."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SCRIPT)
    found = page.evaluate("async () => JSON.stringify((await axe.run(document)).violations)")
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            + ", ".join(" ".join(node["target"]) for node in v["nodes"][:5])
            for v in json.loads(found)]
