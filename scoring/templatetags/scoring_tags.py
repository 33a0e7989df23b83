"""Filters that show score sheets and figures (``{% load scoring_tags %}``)."""

from django import template
from django.urls import reverse

from scoring import games
from scoring.sheets import display

register = template.Library()


@register.filter
def contract(result):
    """A stored result's contract in its game's words: «N: три ♦», «N: 6♠», «распасы»."""
    return display.result_contract(result)


@register.filter
def defence(result, order=""):
    """The defenders' decisions, round the table (``scoring.sheets.display.result_defence``)."""
    return display.result_defence(result, order)


@register.filter
def tricks(result, order=""):
    return display.result_tricks(result, order)


@register.filter
def tricks_for(result, position):
    return display.result_tricks_of(result, position)


@register.filter
def seat_figures(result, position):
    """What ``position`` writes on the deal besides tricks and score, one text per
    ``event|figure_heads`` (none in the Austrian game)."""
    return display.seat_figures(result, position)


@register.filter
def labelled_figures(result, position):
    """(heading, text) of each figure :func:`seat_figures` gives (none without a result)."""
    if not result:
        return []
    heads = games.of_result(result).sheets.figure_heads()
    return list(zip(heads, display.seat_figures(result, position), strict=True))


@register.filter
def figure_heads(event):
    """The headings of :func:`seat_figures` for the event's game (пуля, гора, висты)."""
    return games.sheets_of(event).figure_heads()


@register.filter
def score_head(event):
    """The heading of a seat's score on a deal in the event's game: «Очки», «Баланс»."""
    return games.sheets_of(event).score_head()


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
    his participant number (``scoring.standings.card_address``, the page's ``card_refs``), by id for a
    player with no number."""
    event = context["event"]
    refs = context.get("card_refs")
    ref = refs.get(entry.pk) if refs is not None else None
    suffix = f"_{kind}" if kind else ""
    if ref is None:
        return reverse(f"public:card_by_id{suffix}", args=[event.slug, entry.pk])
    return reverse(f"public:card{suffix}", args=[event.slug, ref])
