"""What the standings' pages mark (``{% load standing_tags %}``): the rows scored on few deals
(``standings.few_deals``) and a session's progress (``scoring.console.progress``, handed to every
public page by ``public_access.base_context``)."""

from django import template

from scoring import standings

register = template.Library()


@register.filter
def few_deals(rows):
    """``{% with few=rows|few_deals %}…{% if row in few %}``."""
    return standings.few_deals(rows or ())


@register.filter
def progress_of(progress, session):
    """The progress of ``session`` (a Session or its number) in the event's progress."""
    if progress is None or session in (None, ""):
        return None
    return progress.of(getattr(session, "number", session))
