"""Names on the pages (``{% load names %}``), issue 32: a name people typed is shown inside
an isolate, so that neither a bidi control that got into the database some other way nor
the letters of a right-to-left script reorder the figures beside it (a standings row's
number and score).

``{{ entry.full_name|bdi }}`` → ``<bdi>Иванов Иван</bdi>``, escaped, the invisible
characters taken out (events.names). Where no element can go — a ``<title>``, an
attribute — ``{{ entry.full_name|clean_name }}`` takes them out only.
"""

from django import template
from django.utils.html import format_html

from events import names

register = template.Library()


@register.filter
def bdi(value):
    """The name, cleaned and escaped, inside ``<bdi>``; nothing for no name."""
    text = names.clean_name(value)
    if not text:
        return ""
    return format_html("<bdi>{}</bdi>", text)


@register.filter
def clean_name(value):
    """The name cleaned only (escaped by the template as any text): for a ``<title>`` or an
    attribute, where an element cannot go."""
    return names.clean_name(value)
