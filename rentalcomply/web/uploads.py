"""Request bodies and uploaded files: never named on disk, closed with their request.

Bottle keeps a form body, and each multipart part, in memory up to `MEMFILE_MAX` (100 KB) and
spools anything larger to a `tempfile.NamedTemporaryFile`. Those files hold a guest's document
photo or a channel export full of names; nothing closes them, so they stay in the system's
temporary folder until a garbage collection, and for ever after a crash or a `kill -9`.

Here, once for the process:
- Bottle's spooling makes anonymous files instead (`tempfile.TemporaryFile`: `O_TMPFILE` where
  the filesystem has it, else unlinked the moment it is made), so no name ever appears in the
  temporary folder and a killed process leaves nothing behind: the kernel frees the blocks.
- `ClosingUploads` closes the body and every uploaded part once the route has answered, whether
  it succeeded, refused or raised, so neither memory nor disk holds them past their request.

Waitress, below us, buffers a request body in memory and, past `inbuf_overflow` (512 KB), in an
anonymous `TemporaryFile` of its own; the API's routes read that buffer (`wsgi.input`) directly.
"""

from __future__ import annotations

import logging
import tempfile

import bottle

log = logging.getLogger(__name__)

# Where Bottle keeps, in the WSGI environ, the body it read and the form it parsed.
BODY_KEY = "bottle.request.body"
FORM_KEY = "bottle.request.post"


def anonymous_file(mode: str = "w+b", *args, **kwargs):
    """What Bottle calls for a spool (as `NamedTemporaryFile(mode="w+b")`): a file without name."""
    return tempfile.TemporaryFile(mode=mode)


def install() -> None:
    """Make Bottle's two spoolers (the body, the multipart parts) use anonymous files.

    Bottle looks the name up in its own module when it spools, so rebinding it there reaches both
    without copying Bottle's parser; the test in tests/web/test_uploads.py pins that it still does.
    """
    bottle.NamedTemporaryFile = anonymous_file


class ClosingUploads:
    """WSGI around the Bottle app: the request's body and uploads closed once it has answered."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        try:
            return self.app(environ, start_response)
        finally:
            # Bottle builds the whole answer before it returns: nothing reads the upload after.
            close_uploads(environ)


def close_uploads(environ) -> None:
    files = []
    form = environ.get(FORM_KEY)
    if form is not None:
        files += [value.file for _, value in form.allitems() if isinstance(value, bottle.FileUpload)]
    files.append(environ.get(BODY_KEY))
    for spool in files:
        if spool is None:
            continue
        try:
            spool.close()
        except Exception:  # a file that will not close must not turn an answer into an error
            log.warning("could not close an uploaded file", exc_info=True)
