"""What the movements layer tells the scoring layer above it (which it does not import).

- ``seats_changed_hands(sender=Session, session=session)``: a substitute took over seats
  of the session (committed with the change): the results recorded in those seats now
  belong to him, so the scoring side recomputes the session's standings.
"""

from django.dispatch import Signal

seats_changed_hands = Signal()
