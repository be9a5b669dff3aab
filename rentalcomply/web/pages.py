"""Pages for people (the guest check-in page today, the dashboard later): one template helper,
one set of security headers, the shared static assets.

Templates are Bottle's SimpleTemplate files in `static/templates/` (`{{value}}` is HTML-escaped;
`{{!value}}` is not, and is kept for markup we built ourselves). Every page is sent with a strict
Content-Security-Policy: scripts, styles and images come from this server only, and no inline
script or style runs, so text a visitor typed can never become code.
"""

from __future__ import annotations

import functools
import json
import posixpath
import urllib.parse
from pathlib import Path

import bottle

from rentalcomply import __version__

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
TEMPLATE_DIR = STATIC_DIR / "templates"
# Folders of STATIC_DIR served under /static/ (templates are not).
SERVED_FOLDERS = ("css", "js", "img")
# A path still holding a percent sign after this many rounds of decoding is refused outright.
DECODING_ROUNDS = 3

CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; "
                           "img-src 'self' data:; connect-src 'self'; form-action 'self'; "
                           "frame-ancestors 'none'; base-uri 'none'; object-src 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def render(name: str, **values) -> str:
    """Render `static/templates/<name>.tpl`; `asset(path)` gives a cache-busting asset URL."""
    return bottle.template(name, template_lookup=[str(TEMPLATE_DIR)], asset=asset, **values)


def asset(path: str) -> str:
    return f"/static/{path}?v={__version__}"


def html_response(body: str, status: int = 200, headers: dict | None = None) -> bottle.HTTPResponse:
    response = bottle.HTTPResponse(body=body.encode("utf-8"), status=status,
                                   **{**SECURITY_HEADERS, **(headers or {})})
    response.content_type = "text/html; charset=utf-8"
    return response


def json_response(document, status: int = 200, headers: dict | None = None) -> bottle.HTTPResponse:
    body = json.dumps(document, ensure_ascii=False).encode("utf-8")
    response = bottle.HTTPResponse(body=body, status=status, **{**SECURITY_HEADERS, **(headers or {})})
    response.content_type = "application/json"
    return response


def register_static(app: bottle.Bottle) -> None:
    """Serve the shared assets under /static/ (once per app)."""
    if getattr(app, "_rentalcomply_static", False):
        return
    app._rentalcomply_static = True

    @app.get("/static/<path:path>", page=True)  # a page asset, not in the API document
    def static(path):
        asset_path = public_asset(path)
        if asset_path is None:
            return html_response("Not found", status=404)
        response = bottle.static_file(asset_path, root=str(STATIC_DIR))
        response.set_header("X-Content-Type-Options", "nosniff")
        if response.status_code == 200:
            response.set_header("Cache-Control", "public, max-age=86400")
        return response


def public_asset(path: str) -> str | None:
    """The public file `path` names (relative to STATIC_DIR), or None.

    The path is normalised the way any layer in front of us might read it: percent-decoded
    until it no longer changes (a proxy may decode once more than we do), backslashes taken as
    slashes, dot segments folded. What remains must be one of the files found in a public
    folder when the server started: an allow-list, so no spelling of a path reaches a template,
    the source or anything else beside the assets."""
    decoded = path
    for _ in range(DECODING_ROUNDS):
        once_more = urllib.parse.unquote(decoded, errors="replace")
        if once_more == decoded:
            break
        decoded = once_more
    if "%" in decoded or "\x00" in decoded:
        return None
    normal = posixpath.normpath(decoded.replace("\\", "/"))
    return normal if normal in _public_files() else None


@functools.lru_cache(maxsize=1)
def _public_files() -> frozenset[str]:
    """Every file under the public folders, as a path relative to STATIC_DIR."""
    found = set()
    for folder in SERVED_FOLDERS:
        root = STATIC_DIR / folder
        if root.is_dir():
            found.update(entry.relative_to(STATIC_DIR).as_posix()
                         for entry in root.rglob("*") if entry.is_file())
    return frozenset(found)
