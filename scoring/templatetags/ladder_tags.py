"""The ladder pages' figures, written as the pages publish them: with a point and two
decimals (as the standings' percentages), a change with its sign (+1.23, −0.45)."""

from django import template

register = template.Library()


@register.filter
def grade(value) -> str:
    """51.2345 → «51.23»."""
    return "" if value is None else f"{float(value):.2f}"


@register.filter
def signed(value) -> str:
    """A change of grade: «+1.23», «−0.45» (a minus sign), «0.00»."""
    if value is None:
        return ""
    text = f"{abs(float(value)):.2f}"
    if text == "0.00":
        return text
    return f"+{text}" if value > 0 else f"−{text}"


@register.filter
def trend(value) -> str:
    """The class of a change's colour: «up», «down» or «same» (as :func:`signed` rounds)."""
    if value is None or f"{abs(float(value)):.2f}" == "0.00":
        return "same"
    return "up" if value > 0 else "down"


@register.filter
def parameter(value) -> str:
    """A parameter as typed: 0.0025, 50, 8 (no trailing zeros)."""
    return f"{float(value):g}" if isinstance(value, float) else str(value)
