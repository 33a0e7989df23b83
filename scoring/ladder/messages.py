"""The ladder core's messages: a problem is a code with parameters, worded in English here
(the msgid of the project's one catalogue, ``locale/*/LC_MESSAGES/django.po``) and shown in
Russian through :mod:`events.catalogue`. The input's shape is worded as the rules core
words it (the same msgids, so the same translations).

Part of the pure core ``scoring.ladder``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from events.catalogue import gettext_noop, translated
from scoring.games.common.messages import SHARED as RULES_MESSAGES

_SHAPE = (
    "json",
    "empty",
    "not_object",
    "not_list",
    "required",
    "unknown_field",
    "percent",
    "whole",
)

MESSAGES: dict[str, str] = {
    **{code: RULES_MESSAGES[code] for code in _SHAPE},
    "text": gettext_noop("a non-empty text is expected"),
    "date": gettext_noop("a date is a real calendar day written YYYY-MM-DD, e.g. 2026-03-01"),
    "whole_range": gettext_noop("a whole number from {minimum} to {maximum} is needed"),
    "rate": gettext_noop("a number above 0 and at most 1 is needed"),
    "grade": gettext_noop("a number from 0 to 100 is needed"),
    "person_twice": gettext_noop("this person is already in the session: players.{index}"),
    "session_twice": gettext_noop("this session id is already taken: sessions.{index}"),
}


@dataclass(frozen=True)
class Message:
    code: str
    params: Mapping[str, object] = field(default_factory=dict)

    def render(self, lang: str = "ru") -> str:
        return translated(MESSAGES[self.code], lang).format(**self.params)


class LadderInputError(ValueError):
    """A replay request that breaks the rules: ``problems`` maps each field (its JSON path:
    ``sessions.3.players.1.percent``, ``params.k``) to its messages."""

    def __init__(self, problems: Mapping[str, list[Message]]):
        self.problems = {name: list(messages) for name, messages in problems.items()}
        super().__init__("; ".join(f"{k}: {v}" for k, v in self.render("en").items()))

    def codes(self) -> dict[str, list[str]]:
        """field → message codes; what tests look at."""
        return {name: [m.code for m in messages] for name, messages in self.problems.items()}

    def render(self, lang: str = "ru") -> dict[str, str]:
        """field → text; several problems of one field joined with «; »."""
        return {
            name: "; ".join(m.render(lang) for m in messages)
            for name, messages in self.problems.items()
        }


class Problems:
    """Problems gathered by field before one :class:`LadderInputError` is raised."""

    def __init__(self) -> None:
        self.by_field: dict[str, list[Message]] = {}

    def add(self, name: str, code: str, **params: object) -> None:
        self.by_field.setdefault(name, []).append(Message(code, params))

    def __bool__(self) -> bool:
        return bool(self.by_field)

    def raise_if_any(self) -> None:
        if self.by_field:
            raise LadderInputError(self.by_field)
