"""QR codes of links, drawn here as SVG (segno, pure Python): no image service sees the link,
and the page needs nothing from another site."""

from __future__ import annotations

import io

import segno


def svg(text: str, title: str) -> str:
    """An inline SVG of `text` as a QR code (error correction M: still read from a phone's
    screen photographed at an angle), black on white with the standard quiet zone."""
    code = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", scale=4, border=4, dark="#000", light="#fff", xmldecl=False,
              svgns=True, title=title, svgclass="qr", nl=False)
    return out.getvalue().decode("utf-8")
