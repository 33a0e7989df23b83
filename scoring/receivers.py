"""The scoring side's answers to what the lower layers announce (events.signals,
movements.signals): connected once, in ``ScoringConfig.ready``."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from events import dealing
from events import signals as events_signals
from events.models import Event
from movements import signals as movements_signals
from scoring.ladder import services as ladders
from scoring.models import ScoreSheet
from scoring.queue import queue_after_commit
from scoring.sheets.services import late_tables_mark
from scoring.standings import session_recompute


@receiver(events_signals.round_ended, dispatch_uid="scoring.late_tables_mark")
def _mark_late_tables(sender, round, **kwargs):
    late_tables_mark(round)


@receiver(events_signals.round_ended, dispatch_uid="scoring.positions_analyse")
def _analyse_positions(sender, round, **kwargs):
    """The round's sheets are in: the worker adds what the cards allowed in each (a session
    whose cards are known; docs/hand-records.md)."""
    session_id = round.room.session_id
    if dealing.session_deals_known(session_id):
        dealing.analysis_queue(session_id)


@receiver(events_signals.clock_changed, dispatch_uid="scoring.room_fragments_build")
def _clock_changed(sender, room_id, **kwargs):
    """Every phone of the session fetches its seat blocks after a clock change, the whole
    hall within seconds: the worker builds them first, once the change is committed
    (its tokens bumped by ``events.clockdoc`` before this is queued). Without a broker the
    phones build their own, as before."""
    queue_after_commit("scoring.room_fragments_build", [room_id])


@receiver(events_signals.results_recorded, dispatch_uid="scoring.results_recorded")
def _has_results(sender, event, **kwargs) -> bool:
    return ScoreSheet.objects.filter(play__round__room__session__event=event).exists()


@receiver(movements_signals.seats_changed_hands, dispatch_uid="scoring.session_recompute")
def _recompute(sender, session, **kwargs):
    session_recompute(session)


@receiver(events_signals.round_ended, dispatch_uid="scoring.ladder_session_over")
def _session_over(sender, round, **kwargs):
    """The session's last round has ended: a published event's session joins its ladder."""
    ladders.event_touched(round.room.session.event)


@receiver(events_signals.register_changed, dispatch_uid="scoring.ladder_register")
def _register_changed(sender, owner_id, **kwargs):
    ladders.ladder_touch(owner_id)


@receiver(post_save, sender=Event, dispatch_uid="scoring.ladder_event_saved")
def _event_saved(sender, instance, update_fields=None, **kwargs):
    """An event published, hidden again, or edited while published (its date, its scoring
    method): its owner's ladder is replayed."""
    if instance.results_public or (update_fields and "results_public" in update_fields):
        ladders.ladder_touch(instance.owner_id)


@receiver(post_delete, sender=Event, dispatch_uid="scoring.ladder_event_deleted")
def _event_deleted(sender, instance, **kwargs):
    if instance.results_public:
        ladders.ladder_touch(instance.owner_id)
