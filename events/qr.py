"""QR codes drawn on the server as SVG: nothing is fetched from outside."""

import hashlib
import io

import segno
from django.core.cache import cache
from django.utils.safestring import mark_safe

#: A code never changes for its address (a player's key is his for good): kept a month.
QR_TIMEOUT = 30 * 24 * 3600


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


def qr_svgs(urls: list[str], *, scale: int = 6) -> dict[str, str]:
    """:func:`qr_svg` of many addresses (a sheet of name cards), from the shared cache where
    they were drawn before: one round trip, and only the new ones drawn."""
    keys = {url: f"qr:{scale}:{hashlib.sha256(url.encode()).hexdigest()}" for url in urls}
    found = cache.get_many(list(keys.values()))
    drawn = {}
    codes = {}
    for url, key in keys.items():
        svg = found.get(key)
        if svg is None:
            svg = drawn[key] = str(qr_svg(url, scale=scale))
        codes[url] = mark_safe(svg)  # noqa: S308 - segno's own markup, drawn here
    if drawn:
        cache.set_many(drawn, QR_TIMEOUT)
    return codes
