"""The toy game's messages: the shared ones and its own (``scoring.games.common.messages``).
Its own words are in no catalogue: they read in English in both languages."""

from __future__ import annotations

from typing import ClassVar

from events.catalogue import gettext_noop
from scoring.games.common.messages import SHARED, Message, Problems

#: code → English text: what every game words alike, and the toy's own.
MESSAGES: dict[str, str] = SHARED | {
    "toy_contract": gettext_noop("a toy contract is a number of tricks from {low} to {high}"),
    "toy_tricks_all": gettext_noop("give every seat's tricks: {seats}"),
}


class ToyMessage(Message):
    MESSAGES: ClassVar = MESSAGES


class ToyProblems(Problems):
    message: ClassVar[type[Message]] = ToyMessage
