"""What the events layer tells the layers above it, which it does not import, and what one
of its modules tells another that reads it (no import cycles) (the layers:
events → movements → scoring; see docs/architecture.md). A higher app connects its receivers
in its ``AppConfig.ready``.

- ``clock_changed(sender=Round, room_id=…)``: a round of the room changed its clock (start,
  pause, end…); ``events.clockdoc`` (which reads the rounds) bumps the room's tokens and
  rebuilds its clock documents after commit.
- ``round_ended(sender=Round, round=rnd)``: «Конец тура!» has just been committed to the row
  (sent inside the round's end, in its transaction); the scoring side marks the tables that
  are short of sheets late, and queues the analysis of the positions played when the
  session's cards are known.
- ``results_recorded(sender=Event, event=event)``: a question — does the event have recorded
  score sheets? A receiver answers True if it does; the rules they were settled with (the
  pot rule, the suit order) can then no longer change.
- ``register_changed(sender=Person, owner_id=…)``: the register of that owner changed who
  played what (a merge, an undo of a merge, a player linked to another person) after
  commit; the scoring side replays the owner's ladder (docs/ladder.md).
"""

from django.dispatch import Signal

clock_changed = Signal()
round_ended = Signal()
results_recorded = Signal()
register_changed = Signal()


def any_answer(signal: Signal, **kwargs) -> bool:
    """Whether any receiver of a question signal answers yes."""
    return any(answer for _receiver, answer in signal.send(**kwargs))
