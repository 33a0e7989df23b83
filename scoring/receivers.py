"""The scoring side's answers to what the lower layers announce (events.signals,
movements.signals): connected once, in ``ScoringConfig.ready``."""

from django.dispatch import receiver

from events import signals as events_signals
from movements import signals as movements_signals
from scoring.models import ScoreSheet
from scoring.services import late_tables_mark
from scoring.standings import session_recompute


@receiver(events_signals.round_ended, dispatch_uid="scoring.late_tables_mark")
def _mark_late_tables(sender, round, **kwargs):
    late_tables_mark(round)


@receiver(events_signals.results_recorded, dispatch_uid="scoring.results_recorded")
def _has_results(sender, event, **kwargs) -> bool:
    return ScoreSheet.objects.filter(play__round__room__session__event=event).exists()


@receiver(movements_signals.seats_changed_hands, dispatch_uid="scoring.session_recompute")
def _recompute(sender, session, **kwargs):
    session_recompute(session)
