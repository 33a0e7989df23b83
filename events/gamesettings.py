"""What an event's page lists of its game's settings (the director's event page): each game
says its own lines. The scoring side, which knows the games and which this layer does not
import, registers one function per game in its ``AppConfig.ready``; the events layer asks
here and never which game it is (docs/architecture.md, «Adding a game»)."""

from collections.abc import Callable

#: event → [(label, value), …]: the lines of the event page's facts.
Describe = Callable[[object], list[tuple[str, str]]]

_DESCRIBE: dict[str, Describe] = {}


def register(game: str, describe: Describe) -> None:
    """The lines ``describe(event)`` lists for the events of ``game``."""
    _DESCRIBE[game] = describe


def settings_lines(event) -> list[tuple[str, str]]:
    """The event's settings as its game lists them; with no game registered (the scoring
    app not loaded), the scoring method alone."""
    describe = _DESCRIBE.get(event.game)
    if describe is None:
        from django.utils.translation import gettext as _

        return [(_("Scoring"), event.get_scoring_method_display())]
    return describe(event)
