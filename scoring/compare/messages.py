"""The comparison's messages: its input's shape as every core words it (the games' shared
texts, ``scoring.games.common.messages``) and its own, in the project's one catalogue.

Part of the pure core ``scoring.compare``."""

from __future__ import annotations

from events.catalogue import gettext_noop
from scoring.games.common import messages as common
from scoring.games.common.messages import SHARED

MESSAGES: dict[str, str] = {
    **SHARED,
    "scores_empty": gettext_noop("at least one result is needed"),
    "score_value": gettext_noop("a result is a number or an artificial score A+, A, A-"),
    "expected_small": gettext_noop(
        "the expected number of results is not below the actual one ({count})"
    ),
    "same_length": gettext_noop("there must be as many items as results ({count})"),
}


class Message(common.Message):
    MESSAGES = MESSAGES


class Problems(common.Problems):
    """Everything wrong with a comparison's input, by field."""

    message = Message
