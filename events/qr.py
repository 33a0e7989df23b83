"""QR codes drawn on the server as SVG: nothing is fetched from outside."""

import io

import segno
from django.utils.safestring import mark_safe


def qr_svg(url: str, *, scale: int = 6) -> str:
    """The code at its natural size, with a viewBox: a page that draws it smaller or larger
    (a card's 28 mm, a phone's screen) scales it instead of cutting its modules off."""
    code = segno.make(url, error="m")
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        scale=scale,
        border=2,
        xmldecl=False,
        svgclass="qr",
        lineclass=None,
        omitsize=True,
    )
    width, height = code.symbol_size(scale=scale, border=2)
    svg = out.getvalue().decode().replace("<svg ", f'<svg width="{width}" height="{height}" ', 1)
    return mark_safe(svg)  # noqa: S308 - segno's own markup
