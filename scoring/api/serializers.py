"""The scoring API's serializers and the helpers they share: which event a request may read or write, a figure and a result as JSON (docs/api.md)."""

from __future__ import annotations

from fractions import Fraction

from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated

from events.access import api_event
from events.models import Event
from scoring.models import Adjustment, ScoreSheet, ScoreSheetVersion, TablePlay
from scoring.sheets import services


def _own_event(request, event_pk) -> Event:
    """The event, if the account sees it (else 404) and its role allows the operation
    (events.access.API_ACTIONS, by the operation's name and method; else 403)."""
    return api_event(request, event_pk)


def _readable_event(request, event_pk) -> Event:
    """Results: anyone once published; before that the director only. An event not yet
    published that is not his, and an id that is no event's, get one answer, so nobody
    learns which ids exist: an anonymous caller is refused as on every other operation,
    a director gets the 404 of an event not among his."""
    event = Event.objects.filter(pk=event_pk, results_public=True).first()
    if event is not None:
        return event
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    return _own_event(request, event_pk)


def _figure(num: int, den: int) -> float:
    return round(num / den, 4)


#: A deal's score per seat in every answer: a JSON number, rounded to 2 decimals as the
#: answer of ``manage.py settle --json`` (docs/game.md §9.6) in every game. The stored result
#: keeps the Russian balance exact as text («16/3», scoring.games.russian.sheet) so that ties stay
#: ties in the comparison; the figures (``figure``, ``net``, the standings' ``total``) carry
#: what is compared, to 4 decimals.
SCORE_PLACES = 2


def score_number(value) -> int | float | None:
    """A seat's score on a deal as a JSON number: the exact text «16/3» rounded to 2
    decimals (5.33); a number, as the Austrian result stores it, as it is (its amounts have
    at most one decimal: a trick is A/10 with a whole A)."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value
    try:
        exact = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        return None
    return float(round(exact, SCORE_PLACES)) + 0.0


def result_json(result):
    """A stored result as the API shows it: every score a JSON number (:func:`score_number`);
    the rest as stored."""
    if not isinstance(result, dict) or not isinstance(result.get("scores"), dict):
        return result
    scores = {seat: score_number(v) for seat, v in result["scores"].items()}
    return {**result, "scores": scores}


RESULT_HELP = (
    "the settled result: «scores», each active seat's score on the deal as a JSON number "
    "(the Russian game's vist balance rounded to 2 decimals, as «manage.py settle --json» "
    "answers), «failed», «sheet» (the essence); the Russian game adds «pool», «mountain», "
    "«whists» (writer → seat → amount) and «rules»"
)


class ResultField(serializers.JSONField):
    """A version's ``result`` with its scores as numbers (:func:`result_json`)."""

    def to_representation(self, value):
        return super().to_representation(result_json(value))


# --- serializers --------------------------------------------------------------------------


class VersionSerializer(serializers.ModelSerializer):
    entered_by = serializers.SerializerMethodField()

    class Meta:
        model = ScoreSheetVersion
        fields = ["number", "data", "result", "entered_by", "note", "created_at"]

    result = ResultField(read_only=True, help_text=RESULT_HELP)

    def get_entered_by(self, version) -> dict | None:
        """The director, or the player and how he showed it was he («link», «pin», or
        «seat»: only chosen on the table's phone — not proven; see scoring.sheets.proof)."""
        if version.entered_by_entry_id:
            return {"entry": version.entered_by_entry_id, "proof": version.proof}
        if version.entered_by_user_id:
            return {"director": version.entered_by_user_id}
        return None


class SheetSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="play.round.number")
    table = serializers.IntegerField(source="play.table.number")
    set = serializers.IntegerField(source="deal.board_set.number")
    deal = serializers.IntegerField(source="deal.number")
    version = serializers.IntegerField(source="current.number", allow_null=True)
    data = serializers.JSONField(source="current.data", allow_null=True)
    result = ResultField(source="current.result", allow_null=True, help_text=RESULT_HELP)
    confirmed_by = serializers.SerializerMethodField()

    class Meta:
        model = ScoreSheet
        fields = [
            "id",
            "play",
            "round",
            "table",
            "set",
            "deal",
            "status",
            "version",
            "data",
            "result",
            "late",
            "confirmed_by",
            "created_at",
            "updated_at",
        ]

    def get_confirmed_by(self, sheet) -> dict | None:
        """The player who confirmed the current result and how he proved it was he («link»
        or «pin»); null while unconfirmed or when the director's word confirmed it."""
        if sheet.status == ScoreSheet.Status.CONFIRMED and sheet.confirmed_by_entry_id:
            return {"entry": sheet.confirmed_by_entry_id, "proof": sheet.confirmed_proof}
        return None


class PlaySerializer(serializers.ModelSerializer):
    session = serializers.IntegerField(source="round.room.session.number")
    room = serializers.IntegerField(source="round.room.number")
    round = serializers.IntegerField(source="round.number")
    round_state = serializers.CharField(source="round.state")
    table = serializers.IntegerField(source="table.number")
    set = serializers.IntegerField(source="board_set.number")
    set_label = serializers.CharField(
        source="board_set.label",
        help_text="the set as every page names it («4», or «A4» in a session of two families)",
    )
    deals = serializers.SerializerMethodField(
        help_text="each deal of the set: its number, its label as every page names it "
        "(«4.1», «A4.1»), its active seats and first hand"
    )
    players = serializers.SerializerMethodField(
        help_text="may the table's players enter and confirm its sheets now (the table's "
        "page asks the same): open, late (after the round's end), the director's access "
        "(«», open, closed) and the reason"
    )

    class Meta:
        model = TablePlay
        fields = [
            "id",
            "session",
            "room",
            "round",
            "round_state",
            "table",
            "set",
            "set_label",
            "deals",
            "late",
            "players",
        ]

    def get_deals(self, play) -> list[dict]:
        return [
            {
                "number": d.number,
                "label": d.code,
                "active_seats": d.active_seats,
                "first_hand": d.first_hand,
            }
            for d in play.board_set.deals.all()
        ]

    def get_players(self, play) -> dict:
        known = self.context.get("access") or {}
        access = known.get(play.pk) or services.players_access(play)
        return {
            "open": access.open,
            "late": access.late,
            "access": play.players_access,
            "reason": access.reason,
        }


class CorrectSerializer(serializers.Serializer):
    """The sheet's own fields (declarer, contract, trump, defenders, tricks, auction, talon)
    are checked by the rules of the deal, not here."""

    expected_version = serializers.IntegerField(required=False, allow_null=True)
    note = serializers.CharField(required=False, allow_blank=True, max_length=200)
    declarer = serializers.JSONField(required=False)
    contract = serializers.JSONField(required=False)
    trump = serializers.JSONField(required=False)
    defenders = serializers.JSONField(required=False)
    tricks = serializers.JSONField(required=False)
    auction = serializers.JSONField(required=False)
    talon = serializers.JSONField(
        required=False,
        help_text="with a numeric contract, the two talon cards the declarer took "
        '(docs/game.md §2.7): ["SA", "H7"] or "SA H7"; refused when it is not the '
        "deal's known talon",
    )


class SheetWriteSerializer(CorrectSerializer):
    """A new sheet also names the table-round and the deal."""

    play = serializers.IntegerField()
    deal = serializers.IntegerField(help_text="the deal's number in the set (1–4)")


class AdjustmentSerializer(serializers.ModelSerializer):
    deal = serializers.IntegerField(source="deal.number", allow_null=True, read_only=True)
    kind = serializers.CharField(read_only=True, help_text="artificial | penalty")
    score = serializers.CharField(read_only=True, help_text="A+ | A | A- (artificial scores)")
    round = serializers.IntegerField(source="play.round.number", read_only=True)
    table = serializers.IntegerField(source="play.table.number", read_only=True)

    class Meta:
        model = Adjustment
        fields = [
            "id",
            "play",
            "round",
            "table",
            "deal",
            "entry",
            "kind",
            "score",
            "penalty",
            "reason",
            "created_at",
        ]


def _adjustments_seen() -> serializers.ListField:
    """A write's ``expected``: the table-round's adjustments the caller saw (events.meanwhile)."""
    return serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        allow_null=True,
        help_text="optional: the ids of the table-round's adjustments the caller saw (its "
        "state when he decided); if they changed meanwhile nothing is saved and the answer "
        "is 409 saying what changed. Absent: not compared",
    )


class AdjustmentWriteSerializer(serializers.Serializer):
    play = serializers.IntegerField()
    entry = serializers.IntegerField()
    kind = serializers.CharField(help_text="artificial | penalty")
    deal = serializers.IntegerField(required=False, allow_null=True)
    score = serializers.CharField(required=False, allow_blank=True)
    penalty = serializers.DecimalField(
        max_digits=8, decimal_places=2, required=False, allow_null=True
    )
    reason = serializers.CharField(max_length=200)
    expected = _adjustments_seen()


class TableAdjustmentWriteSerializer(serializers.Serializer):
    """Artificial scores for a whole table-round: name it by ``play``, or by ``round`` (a
    round's id) and ``table`` (its number), as the director's page does."""

    play = serializers.IntegerField(required=False, allow_null=True)
    round = serializers.IntegerField(required=False, allow_null=True)
    table = serializers.IntegerField(required=False, allow_null=True)
    deal = serializers.IntegerField(
        required=False, allow_null=True, help_text="one deal's number in the set; none: every deal"
    )
    score = serializers.CharField(help_text="A+ | A | A-: for every seated player")
    scores = serializers.DictField(
        child=serializers.CharField(allow_blank=True),
        required=False,
        help_text='a seat\'s own score, e.g. {"N": "A+"}',
    )
    reason = serializers.CharField(max_length=200)
    expected = _adjustments_seen()


class TableAdjustmentResultSerializer(serializers.Serializer):
    play = serializers.IntegerField()
    players = serializers.IntegerField()
    deals = serializers.IntegerField()
    adjustments = AdjustmentSerializer(many=True)


class PublishSerializer(serializers.Serializer):
    public = serializers.BooleanField()
