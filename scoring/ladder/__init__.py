"""The club ladder's pure core (issue 24): the grade ``pct_grade_v1`` replayed over a
ladder's sessions, a person's status, and the JSON of ``manage.py ladder replay --json``.

The pages and the worker call the same functions: :func:`replay` (sessions in, a
:class:`Ladder` of standings and history rows out) and :func:`status`. Pure: imports
nothing from Django (tests/test_layers.py). See docs/ladder.md «pct_grade_v1»."""

from scoring.ladder.grade import (
    ESTABLISHED,
    INACTIVE,
    METHOD,
    PROVISIONAL,
    REGULAR,
    Entry,
    Ladder,
    Params,
    Row,
    Session,
    Standing,
    StatusRules,
    expected,
    in_order,
    months_after,
    rated_entries,
    replay,
    status,
    statuses,
)
from scoring.ladder.json_io import answer_json_text, ladder_json, read_request, replay_json
from scoring.ladder.messages import MESSAGES, LadderInputError

__all__ = [
    "ESTABLISHED",
    "INACTIVE",
    "MESSAGES",
    "METHOD",
    "PROVISIONAL",
    "REGULAR",
    "Entry",
    "Ladder",
    "LadderInputError",
    "Params",
    "Row",
    "Session",
    "Standing",
    "StatusRules",
    "answer_json_text",
    "expected",
    "in_order",
    "ladder_json",
    "months_after",
    "rated_entries",
    "read_request",
    "replay",
    "replay_json",
    "status",
    "statuses",
]
