"""Filters that show score sheets and figures (``{% load scoring_tags %}``)."""

from django import template
from django.urls import reverse

from scoring import display

register = template.Library()


@register.filter
def contract(result):
    return display.contract_text(display.sheet_of(result))


@register.filter
def defence(result):
    return display.defence_text(display.sheet_of(result))


@register.filter
def tricks(result):
    return display.tricks_text(display.sheet_of(result))


@register.filter
def tricks_for(result, position):
    return display.tricks_of(display.sheet_of(result), position)


@register.filter
def points_for(result, position):
    scores = (result or {}).get("scores") or {}
    return display.number_text(scores.get(position)) if position in scores else ""


@register.filter
def figure(score, method):
    """A DealScore's net figure in the event's method."""
    if score is None or score == "":
        return ""
    return display.figure_text(score.net_num, score.net_den, method)


@register.filter
def number(value):
    return display.number_text(value)


@register.filter
def word(value):
    return display.word(value)


@register.filter
def suit(value):
    return display.suit(value)


@register.filter
def get(mapping, key):
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def actor(version):
    return display.actor_text(version)


@register.simple_tag(takes_context=True)
def card_url(context, entry, kind: str = "") -> str:
    """The public address of ``entry``'s score card (``kind``: "", "csv" or "xlsx"): by
    his participant number (``scoring.card_address``, the page's ``card_refs``), by id for a
    player with no number."""
    event = context["event"]
    refs = context.get("card_refs")
    ref = refs.get(entry.pk) if refs is not None else None
    suffix = f"_{kind}" if kind else ""
    if ref is None:
        return reverse(f"public:card_by_id{suffix}", args=[event.slug, entry.pk])
    return reverse(f"public:card{suffix}", args=[event.slug, ref])
