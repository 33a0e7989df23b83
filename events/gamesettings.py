"""What the events layer needs of an event's game, each game saying it itself: its name as
the pages show it, the games an event may play (``Event.game``'s choices), the lines its page
lists of the game's settings (the director's event page) and its options' defaults (``ten``,
``responsibility``, … — None for a game with no options). The scoring side, which
knows the games (``scoring.games``, the one source) and which this layer does not import,
registers each game in its ``AppConfig.ready``; the events layer asks here and never which
game it is (docs/architecture.md, «Adding a game»)."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass

#: event → [(label, value), …]: the lines of the event page's facts.
Describe = Callable[[object], list[tuple[str, str]]]


@dataclass(frozen=True)
class Part:
    """A game's own part of the event's form: the fields of ``Event`` only its events use,
    in a group of their own (``id`` the group's, ``legend`` and ``help`` lazily translated).
    The conventions of one game share their part."""

    id: str
    legend: object
    help: object
    fields: tuple[str, ...]


_DESCRIBE: dict[str, Describe] = {}
_DEFAULTS: dict[str, dict[str, object]] = {}
_LABELS: dict[str, object] = {}
_PARTS: dict[str, Part] = {}


def register(
    game: str,
    describe: Describe,
    defaults: Mapping[str, object] | None = None,
    label: object = None,
    part: Part | None = None,
) -> None:
    """Make ``game`` one an event may play: its name on the pages (``label``, lazily
    translated; the game's own name without one), the lines ``describe(event)`` lists for
    its events, its options' defaults (none: a game with no options) and its own part of
    the event's form (none: a game with no fields of its own)."""
    _LABELS[game] = label if label is not None else game
    if part is not None:
        _PARTS[game] = part
    else:
        _PARTS.pop(game, None)
    _DESCRIBE[game] = describe
    if defaults:
        _DEFAULTS[game] = dict(defaults)
    else:
        _DEFAULTS.pop(game, None)


def unregister(game: str) -> None:
    """Forget ``game`` (a test's toy game)."""
    for table in (_LABELS, _DESCRIBE, _DEFAULTS, _PARTS):
        table.pop(game, None)


def choices() -> list[tuple[str, object]]:
    """The games an event may play, as ``Event.game``'s choices, in the order registered."""
    return list(_LABELS.items())


def parts() -> list[tuple[Part, list[str]]]:
    """The games' parts of the event's form, each with the conventions that show it, in the
    order the games registered."""
    found: dict[str, tuple[Part, list[str]]] = {}
    for game, part in _PARTS.items():
        found.setdefault(part.id, (part, []))[1].append(game)
    return list(found.values())


def known(game: str) -> bool:
    return game in _LABELS


def label(game: str) -> str:
    """The game's name as the pages show it, in the request's language."""
    return str(_LABELS.get(game, game))


def option_defaults(game: str) -> dict[str, object] | None:
    """The defaults of the options of ``game`` (a copy), None for a game with none."""
    found = _DEFAULTS.get(game)
    return dict(found) if found is not None else None


def all_option_defaults() -> dict[str, dict[str, object]]:
    """Every game with options → their defaults (what the event form's script follows)."""
    return {game: dict(values) for game, values in _DEFAULTS.items()}


def settings_lines(event) -> list[tuple[str, str]]:
    """The event's settings as its game lists them; with no game registered (the scoring
    app not loaded), the scoring method alone."""
    describe = _DESCRIBE.get(event.game)
    if describe is None:
        from django.utils.translation import gettext as _

        return [(_("Scoring"), event.get_scoring_method_display())]
    return describe(event)
