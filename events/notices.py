"""What the director's pages tell him about the clock besides the change itself."""

from django.contrib import messages
from django.utils.translation import gettext_lazy

from events import rounds

#: What the director reads when the round changed but its timer could not be queued.
TIMERS_UNQUEUED = gettext_lazy(
    "Done, but the task queue does not answer: the server's timer could not be set. "
    "«Конец тура!» still comes on time — the first look at the room's clock after the end "
    "(the hall screen, any phone, this page) gives it. Check the worker and Redis "
    "(/healthz)."
)


def tell_unqueued(request) -> None:
    """Say so on the next page when a clock change of this request left no timer queued."""
    if rounds.timers_unqueued():
        messages.warning(request, TIMERS_UNQUEUED)
