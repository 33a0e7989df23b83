"""The warning on the pages that print addresses for phones (``{% load hall_tags %}``): a QR
code that leads to 127.0.0.1 or localhost opens on this computer only."""

from urllib.parse import urlsplit

from django import template
from django.conf import settings

from events import addresses, links

register = template.Library()


@register.inclusion_tag("includes/hall_address_warning.html", takes_context=True)
def hall_address_warning(context, what="qr"):
    """Shown when the address the cards carry (``events.links.site_base``) is loopback,
    naming the addresses of this computer that phones could use instead. ``what`` is "qr"
    on a page that shows QR codes, "cards" on one that leads to them."""
    request = context.get("request")
    if request is None:
        return {"show": False}
    base = urlsplit(links.site_base(request))
    # Over plain http the phones' pages do not open offline (docs/offline.md): said apart.
    plain = base.scheme != "https"
    if not addresses.is_loopback(base.hostname or ""):
        return {"show": False, "plain_http": plain}
    found = addresses.lan_addresses_cached()
    port = base.port
    return {
        "show": True,
        "plain_http": plain,
        "what": what,
        "host": base.hostname,
        "from_setting": bool(settings.SITE_URL),
        # This page at each address (shown as the bare address: it fits a phone's width).
        "links": [
            (addresses.hall_url(a, port, request.get_full_path()), addresses.hall_url(a, port, ""))
            for a in found
        ],
        "site_urls": [addresses.hall_url(a, port, "") for a in found],
    }
