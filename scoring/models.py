"""The scoring side's rows: score sheets and their versions, the director's adjustments, and
the cached comparison (deal scores, session totals).

The boxes the sheets are of — a session's sets and deals, and which set each table plays in
each round — are the movement's product and live one layer down, in ``events.models``;
they are named here too so that the scoring code reads them from its own models module."""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from events.models import POSITIONS, BoardSet, Deal, TablePlay

__all__ = [
    "POSITIONS",
    "Adjustment",
    "BoardSet",
    "Deal",
    "DealScore",
    "DealsShown",
    "PinFailures",
    "Proof",
    "ScoreSheet",
    "ScoreSheetVersion",
    "SessionScoring",
    "SessionTotal",
    "TablePlay",
    "TalonRefusal",
]


class Proof(models.TextChoices):
    """How a player writing on a table's page showed that he is the seat he names
    (``scoring.sheets.proof``): his own private link, his PIN, or nothing but the seat chosen on the
    table's shared device — which may enter a sheet (marked for the director), never confirm
    one. Empty: the director wrote it, or it was written before the rule."""

    NONE = "", _("not recorded")
    LINK = "link", _("from his own page")
    PIN = "pin", _("with his PIN")
    SEAT = "seat", _("on the table's device without a PIN: not proven")


class ScoreSheet(models.Model):
    """One deal's recorded result at one table in one round (протокол)."""

    class Status(models.TextChoices):
        ENTERED = "entered", _("entered")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")

    play = models.ForeignKey(TablePlay, on_delete=models.CASCADE, related_name="sheets")
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="sheets")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ENTERED)
    current = models.ForeignKey(
        "ScoreSheetVersion", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # A player entered or confirmed it after «Конец тура!»: the director's console marks it.
    late = models.BooleanField(default=False)
    # The player who confirmed it and how he showed it was he (a director's word: none).
    confirmed_by_entry = models.ForeignKey(
        "events.Entry", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    confirmed_proof = models.CharField(max_length=4, choices=Proof.choices, blank=True)
    # The phone it was confirmed from (``scoring.sheets.device.device_hash``): the director sees it.
    confirmed_device = models.CharField(max_length=24, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["play", "deal__number"]
        constraints = [
            models.UniqueConstraint(fields=["play", "deal"], name="one_sheet_per_deal_per_table")
        ]

    def __str__(self):
        return f"{self.play}: {self.deal.code}"


class ScoreSheetVersion(models.Model):
    """Every entry or correction of a sheet is kept: a correction never overwrites silently."""

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    data = models.JSONField()  # as entered: declarer, contract, trump, defenders, tricks…
    result = models.JSONField()  # the settlement: scores per seat, failed seats
    entered_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_by_entry = models.ForeignKey(
        "events.Entry", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # How the player who entered it showed it was he (see Proof).
    proof = models.CharField(max_length=4, choices=Proof.choices, blank=True)
    # Where it was written from: the phone (``scoring.sheets.device.device_hash``) and, when the
    # page carried a player's own link, that player — who may be another than the seat named.
    # A sheet entered unproven is never confirmed from the same phone or the same link
    # (docs/game.md §7.2): one person cannot be both of its two people.
    device = models.CharField(max_length=24, blank=True)
    via_entry = models.ForeignKey(
        "events.Entry", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["sheet", "number"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "number"], name="sheet_version_number_unique")
        ]

    def __str__(self):
        return f"{self.sheet} v{self.number}"


class Adjustment(models.Model):
    """A director's decision for one player: an artificial score on a deal, or a time
    penalty on a deal or on the whole table-round.

    - ``artificial`` (A+, A, A−) replaces the player's result on ``deal`` at ``play``; it
      stays out of the comparison of the others but counts towards the expected number of
      results (``scoring.compare``).
    - ``penalty`` is in the unit of the event's method (percentage points, points, IMPs):
      with a ``deal`` it comes off the player's figure on that deal; without one it comes off
      his standing total of the session.
    """

    class Kind(models.TextChoices):
        ARTIFICIAL = "artificial", _("artificial score")
        PENALTY = "penalty", _("time penalty")

    class Score(models.TextChoices):
        PLUS = "A+", _("average plus")
        AVERAGE = "A", _("average")
        MINUS = "A-", _("average minus")

    play = models.ForeignKey(TablePlay, on_delete=models.CASCADE, related_name="adjustments")
    deal = models.ForeignKey(
        Deal, on_delete=models.CASCADE, null=True, blank=True, related_name="adjustments"
    )
    entry = models.ForeignKey("events.Entry", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    score = models.CharField(_("artificial score"), max_length=2, choices=Score.choices, blank=True)
    penalty = models.DecimalField(
        _("penalty"), max_digits=8, decimal_places=2, null=True, blank=True
    )
    reason = models.CharField(_("reason"), max_length=200)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["play", "deal__number", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["play", "deal", "entry"],
                condition=Q(kind="artificial"),
                name="one_artificial_score_per_player_and_deal",
            ),
            models.CheckConstraint(
                condition=(
                    Q(kind="artificial", deal__isnull=False, penalty__isnull=True) & ~Q(score="")
                )
                | (Q(kind="penalty", score="", penalty__gt=0)),
                name="adjustment_kind_fields",
            ),
        ]

    def __str__(self):
        what = self.score if self.kind == self.Kind.ARTIFICIAL else f"-{self.penalty}"
        return f"{self.play}: {self.entry_id} {what}"


class DealScore(models.Model):
    """Cached comparison: one player's figure on one deal at one table (a seat that took
    part). Rebuilt from the sheets by ``scoring.standings``; never edited by hand.

    Figures are exact fractions (``*_num`` / ``*_den``) so that ties stay ties."""

    # No database-level foreign keys and no index but those the reads use: tens of thousands
    # of rows are rewritten at once, and every check or index costs more than the rewrite.
    # Deletions still cascade (Django's collector); only scoring.standings writes here.
    session = models.ForeignKey(
        "events.Session",
        on_delete=models.CASCADE,
        related_name="+",
        db_constraint=False,
        db_index=False,
    )
    deal = models.ForeignKey(
        Deal, on_delete=models.CASCADE, related_name="scores", db_constraint=False, db_index=False
    )
    play = models.ForeignKey(
        TablePlay,
        on_delete=models.CASCADE,
        related_name="scores",
        db_constraint=False,
        db_index=False,
    )
    entry = models.ForeignKey(
        "events.Entry", on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    position = models.CharField(max_length=1, choices=POSITIONS)
    # The settlement of this seat (None for an artificial score) and the artificial score.
    points = models.DecimalField(max_digits=14, decimal_places=4, null=True)
    artificial = models.CharField(max_length=2, blank=True)
    figure_num = models.BigIntegerField()  # the method's main figure: %, points or IMPs
    figure_den = models.BigIntegerField()
    penalty = models.DecimalField(max_digits=8, decimal_places=2, default=0)
    net_num = models.BigIntegerField()  # figure − penalty on this deal
    net_den = models.BigIntegerField()
    # The second figure for show: matchpoints, the rank among the results, or the difference.
    second = models.CharField(max_length=24, blank=True)

    class Meta:
        ordering = ["deal", "play", "position"]
        indexes = [
            models.Index(fields=["session", "entry"], name="dealscore_session_entry"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["deal", "play", "position"], name="one_score_per_seat_and_deal"
            )
        ]

    def __str__(self):
        return f"{self.deal} {self.play_id}{self.position}: {self.net_num}/{self.net_den}"


class SessionTotal(models.Model):
    """Cached standing of one player in one session: the exact sum of his net figures and the
    number of deals he was scored on. Kept up to date deal by deal."""

    session = models.ForeignKey("events.Session", on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey("events.Entry", on_delete=models.CASCADE, related_name="+")
    total = models.CharField(max_length=200, default="0")  # exact: "num/den"
    deals = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["session", "entry"]
        constraints = [
            models.UniqueConstraint(fields=["session", "entry"], name="one_total_per_session")
        ]

    def __str__(self):
        return f"{self.session_id}/{self.entry_id}: {self.total} ({self.deals})"


class SessionScoring(models.Model):
    """Which rules the cached figures of a session were computed with; a change of the
    event's method or artificial scores makes the next read rebuild them."""

    session = models.OneToOneField(
        "events.Session", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    rules_key = models.CharField(max_length=200)
    built_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"{self.session_id}: {self.rules_key}"


class DealsShown(models.Model):
    """The director showed every deal of a session to everyone before each was played out
    (``scoring.standings.disclosure``): say, rounds he will not play. Without this row a deal is shown
    once every table that plays it is done with it."""

    session = models.OneToOneField(
        "events.Session", on_delete=models.CASCADE, related_name="deals_shown"
    )
    shown_at = models.DateTimeField()
    shown_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    def __str__(self):
        return f"{self.session}: {self.shown_at:%Y-%m-%d %H:%M}"


class TalonRefusal(models.Model):
    """A talon a table typed that is not the known talon of the deal it plays (before its
    sheet was saved). The refusal names no card (``scoring.sheets.boxes``); the director sees the
    talons tried on the deal's box report. A table is refused a check after
    ``boxes.TALON_TRIES`` different such talons: each answer tells a little about the real
    one."""

    play = models.ForeignKey(TablePlay, on_delete=models.CASCADE, related_name="talon_refusals")
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="talon_refusals")
    talon = models.CharField(max_length=7)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["play", "deal", "at"]
        constraints = [
            models.UniqueConstraint(
                fields=["play", "deal", "talon"], name="one_refusal_per_talon_and_table_deal"
            )
        ]

    def __str__(self):
        return f"{self.play}, {self.deal}: {self.talon}"


class PinFailures(models.Model):
    """Wrong PINs typed for one player on the tables' phones (``scoring.sheets.proof``): how many
    within the window that began with the first of them, and when that window ends. One row
    per phone that typed them (``device``: ``scoring.sheets.device.device_hash``) and one for the
    player across phones (``device`` empty), so that a guesser locks his own phone, not the
    player. In the database, so that the rule holds — and a guesser is stopped — with Redis
    down."""

    #: ``device`` of the row that counts the player's wrong PINs from every phone.
    EVERY_PHONE = ""

    entry = models.ForeignKey("events.Entry", on_delete=models.CASCADE, related_name="+")
    device = models.CharField(max_length=24, blank=True)
    count = models.PositiveIntegerField(default=0)
    until = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["entry", "device"], name="pin_failures_once_per_player_and_phone"
            )
        ]

    def __str__(self):
        phone = self.device or "every phone"
        return f"{self.entry_id} ({phone}): {self.count} until {self.until:%H:%M:%S}"


# --- the club ladder (docs/ladder.md) ------------------------------------------------------


class Ladder(models.Model):
    """A club's ladder: the grades ``pct_grade_v1`` of its register's persons over every
    published session of its owner's matchpoint events. One per register (the director's or
    the club's account). The replay's results (:class:`LadderGrade`, :class:`LadderRow`) are
    rebuilt from scratch by the worker on every change that touches them; ``wanted`` counts
    those changes and ``built`` says which of them the rows reflect."""

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder"
    )
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(
        _("address"),
        max_length=60,
        unique=True,
        help_text=_("Latin letters, digits and hyphens: the ladder's address /ladder/…/."),
    )
    # pct_grade_v1's parameters (scoring.ladder.Params), shown on the ladder's page.
    k = models.FloatField(_("k"), default=0.0025, validators=[MinValueValidator(0)])
    k_provisional = models.FloatField(
        _("k while provisional"), default=0.0075, validators=[MinValueValidator(0)]
    )
    start = models.FloatField(
        _("start grade"), default=50.0, validators=[MinValueValidator(0), MaxValueValidator(100)]
    )
    provisional_deals = models.PositiveIntegerField(_("provisional below, deals"), default=100)
    min_deals = models.PositiveIntegerField(_("fewest deals to be rated"), default=8)
    min_tables = models.PositiveIntegerField(_("fewest tables of a rated session"), default=2)
    created_at = models.DateTimeField(auto_now_add=True)
    wanted = models.PositiveIntegerField(default=1, editable=False)
    built = models.PositiveIntegerField(default=0, editable=False)
    built_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("ladder")

    def __str__(self):
        return self.name

    @property
    def is_current(self) -> bool:
        """Whether the rows reflect every change that touched the ladder."""
        return self.built >= self.wanted


class LadderGrade(models.Model):
    """A person's place on the ladder after the last replay."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="grades")
    person = models.ForeignKey("events.Person", on_delete=models.CASCADE, related_name="+")
    grade = models.FloatField()
    deals = models.PositiveIntegerField()
    sessions = models.PositiveIntegerField()
    last_rated = models.DateField()
    #: His grade's move in his last rated session (after − before).
    change = models.FloatField()

    class Meta:
        ordering = ["ladder", "-grade", "person"]
        constraints = [
            models.UniqueConstraint(fields=["ladder", "person"], name="one_grade_per_ladder_person")
        ]

    def __str__(self):
        return f"{self.ladder_id}/{self.person_id}: {self.grade:.2f}"


class LadderRow(models.Model):
    """One rated session of one person in the last replay: his grade before, the percentage
    expected of him, his actual one, his grade after (scoring.ladder.Row)."""

    # The rows are the replay's cache, rewritten whole by every replay (8,000 for 200 sessions
    # of 40): only the index the pages read by, and no database constraint on the links the
    # replay takes from the rows it has just read (the database checked each of the 8,000 ×
    # 3 at commit, a third of the write). Django still deletes a row with its person, session
    # or player (on_delete is Django's, not the database's).
    ladder = models.ForeignKey(
        Ladder, on_delete=models.CASCADE, related_name="rows", db_index=False
    )
    person = models.ForeignKey(
        "events.Person",
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        db_constraint=False,
    )
    session = models.ForeignKey(
        "events.Session",
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        db_constraint=False,
    )
    entry = models.ForeignKey(
        "events.Entry",
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        db_constraint=False,
    )
    order = models.PositiveIntegerField()  # the session's place in the replay
    date = models.DateField()
    before = models.FloatField()
    expected = models.FloatField()
    actual = models.FloatField()
    after = models.FloatField()
    deals = models.PositiveIntegerField()
    k = models.FloatField()

    class Meta:
        ordering = ["ladder", "order", "person"]
        indexes = [models.Index(fields=["ladder", "person", "order"], name="ladder_row_person")]

    def __str__(self):
        return f"{self.ladder_id}/{self.person_id}@{self.session_id}: {self.after:.2f}"
