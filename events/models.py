"""Events, the players entered in them, rooms and tables.

Names follow the glossary of docs/game.md §1: an *event* (турнир) is run by a director, an
*entry* is one player in one event with his participant number and private key.
"""

import secrets

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from events import boards, gamesettings, names
from events.register.matching import club_key, name_key

NAME_MAX = 100
#: Participant numbers run 1…NUMBER_MAX (a hall holds hundreds, never ten thousand).
NUMBER_MAX = 9999


class NameFormField(forms.CharField):
    """A form's name field: what was typed, cleaned as it will be stored, so that a name of
    invisible characters only is refused as empty, on its field, like a blank one."""

    def to_python(self, value):
        value = super().to_python(value)
        return names.clean_name(value) if isinstance(value, str) else value


class NameField(models.CharField):
    """A name people type and everyone reads (a player's, a person's, a club's, the event's
    and a room's). ``full_clean`` cleans it by :func:`events.names.clean_name` (so a name of
    invisible characters only is refused on its field, as a blank one); and whatever writes
    it through the ORM — a save, ``bulk_create``, ``update``, a script — writes it without
    the bidi controls and the invisible characters (trimming stays the doors' own)."""

    def to_python(self, value):
        value = super().to_python(value)
        return names.clean_name(value) if isinstance(value, str) else value

    def get_prep_value(self, value):
        # Not through to_python, which trims (for full_clean): every value written or compared.
        value = models.Field.get_prep_value(self, value)
        if value is None:
            return None
        return names.strip_invisible(str(value))

    def pre_save(self, model_instance, add):
        # The instance keeps what the database holds.
        value = getattr(model_instance, self.attname)
        if isinstance(value, str):
            value = names.strip_invisible(value)
            setattr(model_instance, self.attname, value)
        return value

    def formfield(self, **kwargs):
        return super().formfield(**{"form_class": NameFormField, **kwargs})


def new_public_slug() -> str:
    """The event's public address part (/e/<slug>/): short, and not the database id."""
    return secrets.token_hex(4)


def new_private_key() -> str:
    """An unguessable key for a player's private link (about 128 bits)."""
    return secrets.token_urlsafe(16)


#: Digits of a player's PIN (printed on his name card, typed on the table's device).
PIN_DIGITS = 4


def new_pin() -> str:
    """A player's personal PIN: four random digits. It proves him on the table's shared
    device; wrong PINs are counted (``scoring.sheets.proof``), so four digits are enough."""
    return f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"


class Game(models.TextChoices):
    """The names of the games the app registers today (docs/game.md §9), for the code and
    the tests: the seed's Austrian game (an event's default), or the Russian game of the
    «Кодекс преферанса» in one of its conventions. Which games an event may play, and their
    names on the pages, are the games' own (``scoring.games`` → ``events.gamesettings``)."""

    AUSTRIAN = "austrian"
    SOCHI = "sochi"
    LENINGRAD = "leningrad"
    ROSTOV = "rostov"


class Ten(models.TextChoices):
    """How the Russian game defends a contract of 10 tricks."""

    CHECKED = "checked", _("10 checked")
    WHISTED = "whisted", _("10 whisted")


class Responsibility(models.TextChoices):
    """The share of a missed trick's value a whister short of his norm writes."""

    FULL = "full", _("full responsibility")
    HALF = "half", _("half responsibility")


#: The event's game and its options: fixed once the event has a sheet.
GAME_FIELDS = ("game", "ten", "responsibility", "stalingrad")


class EventQuerySet(models.QuerySet):
    def visible_to(self, user):
        """A director sees his own events and those he serves on the staff (issue 34:
        ``EventStaff``); a superuser sees all. What he may do in each is ``events.staff``'s."""
        if not user.is_authenticated or not user.is_active:
            return self.none()
        if user.is_superuser:
            return self
        return self.filter(
            Q(owner=user) | Q(pk__in=EventStaff.objects.filter(user=user).values("event_id"))
        )


class Event(models.Model):
    class ScoringMethod(models.TextChoices):
        MATCHPOINTS = "matchpoints", _("Matchpoints (%)")
        POINTS = "points", _("Point totals")
        CROSS = "cross", _("Average difference (cross)")

    class PotRule(models.TextChoices):
        FIXED = "fixed", _("Duplicate: fixed stake every deal")
        RUNNING = "running", _("Running pot with ante")
        TRUMP = "trump", _("Stake depends on the trump")

    class SuitOrder(models.TextChoices):
        SPADES_LOWEST = "spades-clubs-diamonds-hearts", _("♠ < ♣ < ♦ < ♥ (spades lowest)")
        CLUBS_LOWEST = "clubs-spades-diamonds-hearts", _("♣ < ♠ < ♦ < ♥ (clubs lowest)")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="events",
        verbose_name=_("director"),
    )
    name = NameField(_("name"), max_length=200)
    date = models.DateField(_("date"))
    venue = NameField(_("venue"), max_length=200, blank=True)
    minutes_per_deal = models.PositiveSmallIntegerField(
        _("minutes per deal"),
        default=5,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
    )
    scoring_method = models.CharField(
        _("scoring method"),
        max_length=20,
        choices=ScoringMethod.choices,
        default=ScoringMethod.MATCHPOINTS,
    )
    pot_rule = models.CharField(
        _("pot rule"), max_length=20, choices=PotRule.choices, default=PotRule.FIXED
    )
    stake = models.PositiveIntegerField(
        _("stake per deal"),
        default=100,
        validators=[MinValueValidator(10), MaxValueValidator(100000)],
        help_text=_("The amount A at stake in a deal; one trick is worth A/10."),
    )
    suit_order = models.CharField(
        _("suit order"), max_length=40, choices=SuitOrder.choices, default=SuitOrder.SPADES_LOWEST
    )
    average_plus = models.PositiveSmallIntegerField(
        _("average plus, %"), default=60, validators=[MaxValueValidator(100)]
    )
    average = models.PositiveSmallIntegerField(
        _("average, %"), default=50, validators=[MaxValueValidator(100)]
    )
    average_minus = models.PositiveSmallIntegerField(
        _("average minus, %"), default=40, validators=[MaxValueValidator(100)]
    )
    # The games the scoring side registers (events.gamesettings: scoring.games, the one door).
    game = models.CharField(
        _("game"), max_length=20, choices=gamesettings.choices, default=Game.AUSTRIAN
    )
    # The Russian game's options; an Austrian event keeps them empty. Left empty for a
    # Russian event, they take the convention's default (``events.gamesettings``) when it is saved.
    ten = models.CharField(
        _("a contract of 10"), max_length=10, choices=Ten.choices, blank=True, default=""
    )
    responsibility = models.CharField(
        _("whister's responsibility"),
        max_length=10,
        choices=Responsibility.choices,
        blank=True,
        default="",
    )
    stalingrad = models.BooleanField(
        _("«Stalingrad»"),
        default=False,
        help_text=_("At 6♠ both defenders must whist."),
    )
    results_public = models.BooleanField(_("results are public"), default=False)
    warning_minutes = models.PositiveSmallIntegerField(
        _("warning before the end, minutes"),
        default=5,
        validators=[MaxValueValidator(30)],
        help_text=_("«Осталось N минут» is announced this long before the end; 0 turns it off."),
    )
    changeover_minutes = models.PositiveSmallIntegerField(
        _("automatic next round after, minutes"),
        default=0,
        validators=[MaxValueValidator(30)],
        help_text=_(
            "0: the director starts every round; otherwise the next round starts by itself "
            "this long after «Конец тура!»."
        ),
    )
    slug = models.CharField(max_length=16, unique=True, default=new_public_slug, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.CheckConstraint(
                condition=Q(average_minus__lte=models.F("average"))
                & Q(average__lte=models.F("average_plus")),
                name="event_artificial_scores_ordered",
                violation_error_message=_(
                    "Artificial scores must satisfy average minus ≤ average ≤ average plus."
                ),
            ),
        ]

    def __str__(self):
        return f"{self.name} ({self.date:%d.%m.%Y})"

    def save(self, *args, **kwargs):
        self._fill_game_options()
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("director:event_detail", args=[self.pk])

    def _option_defaults(self) -> tuple | None:
        """The defaults of the game's options (ten, responsibility), from the table of
        conventions; None for a game with no options. What the page lists of a game's
        settings, each game says itself (``events.gamesettings``)."""
        return gamesettings.option_defaults(self.game)

    def game_rules(self) -> dict:
        """The game and its options as plain data (``{"game": "sochi", "ten": "checked",
        "responsibility": "full", "stalingrad": false}``; only ``game`` for the Austrian
        game): what the scoring side hands its game's core."""
        defaults = self._option_defaults()
        if defaults is None:
            return {"game": self.game}
        return {
            "game": self.game,
            "ten": self.ten or defaults["ten"],
            "responsibility": self.responsibility or defaults["responsibility"],
            "stalingrad": bool(self.stalingrad),
        }

    def game_line(self) -> str:
        """The game and its options in one line, in the language of the request:
        «Сочи · 10 проверяется · ответственность полная», «Австрийский (котёл)»."""
        parts = [gamesettings.label(self.game)]
        if self._option_defaults() is not None:
            rules = self.game_rules()
            parts += [
                str(Ten(rules["ten"]).label),
                str(Responsibility(rules["responsibility"]).label),
            ]
            if rules["stalingrad"]:
                parts.append(str(_("Stalingrad")))
        return " · ".join(parts)

    def _fill_game_options(self) -> None:
        """An Austrian event keeps no Russian options; a Russian one has every option,
        the convention's default where none was chosen."""
        if not gamesettings.known(self.game):
            return  # the field's own check names it
        defaults = self._option_defaults()
        if defaults is None:
            self.ten, self.responsibility, self.stalingrad = "", "", False
            return
        self.ten = self.ten or defaults["ten"]
        self.responsibility = self.responsibility or defaults["responsibility"]

    def clean(self):
        """The order of the artificial scores, named on the field that breaks it (the
        constraint is then not checked again with a message of its own); the game's
        options filled in."""
        super().clean()
        self._fill_game_options()
        minus, average, plus = self.average_minus, self.average, self.average_plus
        if None in (minus, average, plus):
            return
        errors = {}
        if minus > average:
            errors["average_minus"] = _(
                "«Average minus» (%(minus)s %%) cannot be above «average» (%(average)s %%)."
            ) % {"minus": minus, "average": average}
        if average > plus:
            errors["average_plus"] = _(
                "«Average plus» (%(plus)s %%) cannot be below «average» (%(average)s %%)."
            ) % {"plus": plus, "average": average}
        if errors:
            raise ValidationError(errors)


class EntryQuerySet(models.QuerySet):
    def active(self):
        return self.filter(status=Entry.Status.ACTIVE)

    def numbered(self):
        return self.exclude(number__isnull=True)

    def holding_numbers(self):
        """Entries that hold their number now: a replaced player's number is his substitute's."""
        return self.exclude(status=Entry.Status.REPLACED)


class Entry(models.Model):
    """One player entered in one event.

    A substitute plays under the number of the participant he replaces: both entries carry
    that number, the replaced one with the status ``replaced`` (see :class:`Substitution`).
    """

    class Status(models.TextChoices):
        ACTIVE = "active", _("playing")
        WITHDRAWN = "withdrawn", _("withdrawn")
        REPLACED = "replaced", _("replaced")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    last_name = NameField(_("last name"), max_length=NAME_MAX)
    first_name = NameField(_("first name"), max_length=NAME_MAX)
    club = NameField(_("club"), max_length=NAME_MAX, blank=True)
    number = models.PositiveIntegerField(
        _("participant number"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(NUMBER_MAX)],
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.ACTIVE
    )
    key = models.CharField(max_length=32, unique=True, default=new_private_key, editable=False)
    # Printed on his name card: typed on the table's device, it shows that he himself
    # confirms (or enters) a sheet there (the two-person rule, scoring.sheets.proof).
    pin = models.CharField(_("PIN"), max_length=PIN_DIGITS, default=new_pin, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    #: The person of the register this player is (docs/register.md), linked only with the
    #: director's word; the name and club above stay as published in this event. PROTECT:
    #: a person with a history is merged, never deleted.
    person = models.ForeignKey(
        "Person",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("person"),
    )

    objects = EntryQuerySet.as_manager()

    class Meta:
        ordering = ["number", "last_name", "first_name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            # One holder per number; the players a substitute replaced keep it for the record.
            models.UniqueConstraint(
                fields=["event", "number"],
                condition=~Q(status="replaced"),
                name="entry_number_held_once_in_event",
            ),
            # Two players of one event are never one person.
            models.UniqueConstraint(
                fields=["event", "person"],
                condition=Q(person__isnull=False),
                name="entry_person_once_in_event",
            ),
        ]

    def __str__(self):
        return self.full_name

    @property
    def full_name(self) -> str:
        return f"{self.last_name} {self.first_name}".strip()


class Draw(models.Model):
    """A draw of participant numbers (жеребьёвка), kept so it can be shown and repeated."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="draws")
    seed = models.CharField(_("seed"), max_length=64)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    made_at = models.DateTimeField(auto_now_add=True)
    # entry id -> number, as drawn: the record stays true even if numbers change later.
    numbers = models.JSONField(default=dict)

    class Meta:
        ordering = ["-made_at", "-id"]

    def __str__(self):
        return f"{self.event} draw {self.seed}"


class Session(models.Model):
    """A sequence of rounds under the movement the director chose from the planner."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="sessions")
    number = models.PositiveSmallIntegerField(_("session number"), default=1)
    participants = models.PositiveIntegerField(_("participants"))
    # The planner option as chosen (rooms with kind, tables, seats, rounds and metrics).
    plan = models.JSONField(default=dict)
    round_seconds = models.PositiveIntegerField(
        _("round length, seconds"),
        null=True,
        blank=True,
        help_text=_("Leave empty for deals in the set × minutes per deal."),
    )

    class Dealing(models.TextChoices):
        """Who deals the boxes (docs/game.md §8)."""

        BY_HAND = "", _("by hand, before the session")
        APP = "app", _("by the app, from a published seed")

    dealing = models.CharField(
        _("dealing"), max_length=3, choices=Dealing.choices, blank=True, default=Dealing.BY_HAND
    )
    #: Whether the players check in before each round too, not only before the session
    #: (issue 34, ``events.checkin``).
    checkin_each_round = models.BooleanField(_("check-in before each round"), default=False)
    # Computer-dealt sets: the seed stays secret until the results are published; its
    # SHA-256 is shown from the start (events.cards.seed_hash).
    deal_seed = models.CharField(max_length=64, blank=True, editable=False)
    deal_seed_hash = models.CharField(max_length=64, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "number"], name="session_number_unique_in_event"
            )
        ]

    def __str__(self):
        return str(_("Session %(number)s") % {"number": self.number})


class RoomQuerySet(models.QuerySet):
    def of_event(self, event):
        return self.filter(session__event=event)


class Room(models.Model):
    """A group of tables with its own movement and clock."""

    class Kind(models.TextChoices):
        PRIME = "prime", _("prime rule")
        SKIP = "skip", _("skip procedure")
        SCHEME = "scheme", _("special scheme")

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="rooms")
    number = models.PositiveSmallIntegerField(_("room number"), validators=[MinValueValidator(1)])
    name = NameField(_("room name"), max_length=100, blank=True)
    kind = models.CharField(_("movement"), max_length=10, choices=Kind.choices)
    seats = models.PositiveSmallIntegerField(_("seats per table"), default=4)
    rounds_planned = models.PositiveSmallIntegerField(_("rounds"))
    # Participant numbers first..first+participants-1 play in this room.
    first_participant = models.PositiveIntegerField(default=1)
    participants = models.PositiveIntegerField()
    scheme = models.PositiveSmallIntegerField(null=True, blank=True)
    metrics = models.JSONField(default=dict)

    objects = RoomQuerySet.as_manager()

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "number"], name="room_number_unique_in_session"
            )
        ]

    def __str__(self):
        return self.name or str(_("Room %(number)s") % {"number": self.number})


class Table(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table number"), validators=[MinValueValidator(1)])
    seats = models.PositiveSmallIntegerField(
        _("seats"), default=4, validators=[MinValueValidator(3), MaxValueValidator(4)]
    )
    # The table's scoring link (/t/<key>/), printed as a QR code on the table card.
    key = models.CharField(max_length=32, unique=True, default=new_private_key, editable=False)

    class Meta:
        ordering = ["room__number", "number"]
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="table_number_unique_in_room"),
            models.CheckConstraint(condition=Q(seats__in=[3, 4]), name="table_seats_3_or_4"),
        ]

    def __str__(self):
        return str(_("Table %(number)s") % {"number": self.number})


class RoundQuerySet(models.QuerySet):
    def running(self):
        return self.filter(state=Round.State.RUNNING)

    def on_clock(self):
        """The round on the clock: running or paused (a room has at most one)."""
        return self.filter(state__in=Round.ON_CLOCK)


class Round(models.Model):
    """One round of a room: every table plays one set; ends with «Конец тура!».

    The clock: ``ends_at`` is the instant the round ends while it runs; while paused,
    ``paused_remaining`` holds what was left. Tasks decide nothing themselves: a conditional
    update on ``state`` and ``ends_at`` picks who fires, so stale tasks do nothing.
    """

    class State(models.TextChoices):
        PENDING = "pending", _("not started")
        RUNNING = "running", _("running")
        PAUSED = "paused", _("paused")
        FINISHED = "finished", _("finished")

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    length_seconds = models.PositiveIntegerField(
        _("round length, seconds"),
        null=True,
        blank=True,
        help_text=_("Leave empty for the session's length."),
    )
    started_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)
    paused_remaining = models.DurationField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    warned_at = models.DateTimeField(null=True, blank=True)
    # A pending round that starts by itself at this instant (changeover); None: the director
    # starts it.
    auto_start_at = models.DateTimeField(null=True, blank=True)

    objects = RoundQuerySet.as_manager()

    class Meta:
        ordering = ["room", "number"]
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="round_number_unique_in_room")
        ]
        indexes = [models.Index(fields=["state", "ends_at"], name="round_state_ends_at")]

    #: The states of the round on the clock (its time runs or is held).
    ON_CLOCK = (State.RUNNING, State.PAUSED)

    def __str__(self):
        return str(_("Round %(number)s") % {"number": self.number})

    @property
    def is_on_clock(self) -> bool:
        return self.state in self.ON_CLOCK


class Announcement(models.Model):
    """«Начало тура!», «Конец тура!», a warning, a pause: stored with its real firing time."""

    class Kind(models.TextChoices):
        START = "start", _("Round starts")
        END = "end", _("Round ends")
        WARNING = "warning", _("Time warning")
        PAUSE = "pause", _("Clock paused")
        RESUME = "resume", _("Clock resumed")
        CHANGE = "change", _("Time changed")

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="announcements")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="announcements")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # Figures the text is made of (minutes, moves…), rendered in the reader's language.
    data = models.JSONField(default=dict)
    due_at = models.DateTimeField(null=True, blank=True)
    fired_at = models.DateTimeField()

    class Meta:
        ordering = ["-fired_at", "-id"]
        constraints = [
            # Exactly once: one start and one end per round, whoever tries to fire them.
            models.UniqueConstraint(
                fields=["round", "kind"],
                condition=Q(kind__in=["end", "start"]),
                name="announcement_once_per_round",
            ),
        ]

    def __str__(self):
        return f"{self.round}: {self.kind} @ {self.fired_at:%H:%M:%S}"


class Seat(models.Model):
    """Where a participant sits in a round; a pause (bye) has no table and no position."""

    class Position(models.TextChoices):
        W = "W", "W"
        N = "N", "N"
        E = "E", "E"
        S = "S", "S"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="placements")
    participant = models.PositiveIntegerField(_("participant number"))
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="placements")
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, null=True, blank=True, related_name="placements"
    )
    position = models.CharField(max_length=1, choices=Position.choices, blank=True)

    class Meta:
        ordering = ["round", "table__number", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "participant"], name="seat_participant_once_per_round"
            ),
            models.UniqueConstraint(
                fields=["round", "table", "position"],
                condition=Q(table__isnull=False),
                name="seat_taken_once_per_round",
            ),
            models.CheckConstraint(
                condition=(Q(table__isnull=True) & Q(position=""))
                | (Q(table__isnull=False) & ~Q(position="")),
                name="seat_pause_has_no_position",
            ),
        ]

    def __str__(self):
        where = f"{self.table_id and self.table.number}{self.position}" if self.table_id else "P"
        return f"{self.round}: {self.participant} → {where}"

    @property
    def is_pause(self) -> bool:
        return self.table_id is None


class Substitution(models.Model):
    """``arriving`` takes over participant ``number`` from ``leaving`` in ``session`` from
    round ``from_round`` on: the seats of the number change hands, the number and its
    standing stay. Written by ``movements.services.seat_substitute`` only."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="substitutions")
    number = models.PositiveIntegerField(_("participant number"))
    from_round = models.PositiveSmallIntegerField(_("from round"))
    leaving = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="substituted_by")
    arriving = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="substitutes_for")
    made_at = models.DateTimeField(auto_now_add=True)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["session__number", "from_round", "id"]
        verbose_name = _("substitution")
        verbose_name_plural = _("substitutions")

    def __str__(self):
        return f"{self.session}: {self.number} {self.leaving} → {self.arriving} ({self.from_round})"


# --- the boxes each table plays ---------------------------------------------------------------
# What the movement makes of a session besides the seats: its sets and deals (the duplicate
# boxes, laid out by events.boards) and which set each table plays in each round. The score
# sheets of those deals are one layer up (scoring.models).

POSITIONS = [("W", "W"), ("N", "N"), ("E", "E"), ("S", "S")]


class BoardSet(models.Model):
    """A set (комплект): the boxes a table plays in one round; equal numbers, same boards.

    Sets belong to the session: rooms with the same movement (twin rooms, e.g. 26 = 13 + 13)
    play duplicated boxes of the same ``family``, so their results are compared together.
    """

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="board_sets")
    family = models.PositiveSmallIntegerField(default=1)
    number = models.PositiveIntegerField(_("set"))
    players = models.PositiveSmallIntegerField(_("players at the table"))
    # The family's letter when the session has several families («A», «B»: events.boards.
    # family_letter), fixed when the session's sets are made; blank with one family.
    letter = models.CharField(max_length=4, blank=True, default="")

    class Meta:
        db_table = "scoring_boardset"  # made by the scoring app before it moved here
        ordering = ["session", "family", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "family", "number"], name="set_number_unique_in_family"
            ),
            models.CheckConstraint(condition=Q(players__in=[3, 4]), name="set_players_3_or_4"),
        ]

    def __str__(self):
        return str(_("Set %(number)s") % {"number": self.label})

    @property
    def label(self) -> str:
        """How players call it: «3», or «A3» in a session of several families."""
        return boards.set_label(self.letter, self.number)


class Deal(models.Model):
    """One deal (a duplicate box) of a set, with the layout of the box."""

    board_set = models.ForeignKey(BoardSet, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField(_("deal"))
    dealer = models.CharField(max_length=1, choices=POSITIONS, blank=True)
    first_hand = models.CharField(max_length=1, choices=POSITIONS)
    talon_pocket = models.CharField(max_length=1, choices=POSITIONS)
    # Active seats in speaking order, first hand first, e.g. "NES".
    active_seats = models.CharField(max_length=3)
    # A sheet or an adjustment of this deal changed: its comparison is to be recomputed.
    scores_stale = models.BooleanField(default=False)

    class Source(models.TextChoices):
        """Where the box's cards (version 1, as dealt) come from."""

        UNKNOWN = "", _("not known")
        APP = "app", _("dealt by the app")
        ENTERED = "entered", _("entered in full")

    # The cards as dealt, in PPN (events.cards): the active seats' hands in speaking order,
    # then the talon; empty while unknown.
    cards = models.CharField(max_length=32, blank=True)
    cards_source = models.CharField(
        max_length=7, choices=Source.choices, blank=True, default=Source.UNKNOWN
    )
    # The talon of version 1 as first recorded on a sheet (card names, e.g. "SA H7"), for
    # boxes whose cards are otherwise unknown; with known cards it is the cards' talon.
    talon = models.CharField(max_length=7, blank=True)
    # Double-dummy table of version 1's cards (scoring.solver), filled by the worker:
    # {"N": {"spades": {"talon": 7, "no_talon": 6}, …}, …, "positions": {key: tricks}}.
    analysis = models.JSONField(null=True, blank=True)
    analysed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "scoring_deal"
        ordering = ["board_set", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["board_set", "number"], name="deal_number_unique_in_set"
            )
        ]

    def __str__(self):
        return self.code

    @property
    def code(self) -> str:
        """Its label, the one every surface shows: set 3, deal 2 → «3.2»; «A3.2» in a session
        of several families of sets (``events.boards.deal_label``)."""
        return boards.deal_label(self.board_set.label, self.number)


class TablePlay(models.Model):
    """The set a table plays in a round (and where its N player takes it at the end)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="plays")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="plays")
    board_set = models.ForeignKey(BoardSet, on_delete=models.CASCADE, related_name="plays")
    # Marked at «Конец тура!» when not every deal of the set has a sheet (time penalties).
    late = models.BooleanField(default=False)

    class Access(models.TextChoices):
        """Whether the table's players may still write this round's sheets: by the clock
        (``scoring.sheets.services.players_access``), or as the director decided."""

        CLOCK = "", _("by the clock")
        OPEN = "open", _("opened by the director")
        CLOSED = "closed", _("closed by the director")

    players_access = models.CharField(
        max_length=6, choices=Access.choices, blank=True, default=Access.CLOCK
    )
    # The round link (/t/<key>/): the table's page of this one round. Only the players seated
    # at the table in this round are led to it (from the table's QR code with their PIN, or
    # from their own page), so a table's earlier players never read its later rounds.
    key = models.CharField(max_length=32, unique=True, default=new_private_key, editable=False)

    class Meta:
        db_table = "scoring_tableplay"
        ordering = ["round", "table__number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="one_set_per_table_per_round")
        ]

    def __str__(self):
        return f"{self.round}, {self.table}: {self.board_set}"


class DealVersion(models.Model):
    """A fouled box (docs/game.md §2.7): from the table play ``from_play`` on, the deal is
    played with other cards than before, and its results are compared only within the
    same version. Version 1 is the deal as dealt (the ``Deal`` row itself); each fouling
    makes the next number."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveSmallIntegerField()
    # The first table play with these cards; later rounds' plays of the deal follow it.
    from_play = models.ForeignKey(TablePlay, on_delete=models.CASCADE, related_name="+")
    # The talon as found at that table (card names), when it was reported.
    talon = models.CharField(max_length=7, blank=True)
    cards = models.CharField(max_length=32, blank=True)
    made_at = models.DateTimeField(auto_now_add=True)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        db_table = "events_dealversion"
        ordering = ["deal", "number"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "number"], name="deal_version_unique"),
            models.CheckConstraint(condition=Q(number__gte=2), name="deal_version_from_2"),
        ]

    def __str__(self):
        return f"{self.deal} v{self.number}"


class BoxReport(models.Model):
    """«Коробка не совпадает»: a table found the box other than its protocol says."""

    class Kind(models.TextChoices):
        TALON = "talon", _("the talon differs")
        HAND = "hand", _("a hand of the wrong size")
        OTHER = "other", _("other")

    class State(models.TextChoices):
        OPEN = "open", _("to decide")
        FOULED = "fouled", _("marked fouled")
        DISMISSED = "dismissed", _("dismissed")

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="box_reports")
    play = models.ForeignKey(TablePlay, on_delete=models.CASCADE, related_name="box_reports")
    kind = models.CharField(_("what differs"), max_length=5, choices=Kind.choices)
    # What the table found: the talon's two cards (names) for a talon report.
    talon = models.CharField(_("talon found"), max_length=7, blank=True)
    note = models.CharField(_("note"), max_length=200, blank=True)
    reported_at = models.DateTimeField(auto_now_add=True)
    state = models.CharField(max_length=9, choices=State.choices, default=State.OPEN)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    version = models.ForeignKey(
        DealVersion, on_delete=models.SET_NULL, null=True, blank=True, related_name="reports"
    )

    class Meta:
        ordering = ["reported_at", "id"]

    def __str__(self):
        return f"{self.deal}: {self.get_kind_display()}"


# The register of players across events (issue 24; docs/register.md). A register belongs
# to its owner, the director's (or club's) account that keeps it, as an event does; an
# event's player (Entry) links to a person of his director's register, keeping the name
# and club as published in that event whatever later happens to the person.


class Person(models.Model):
    """One real player in a director's register."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="persons",
        verbose_name=_("register keeper"),
    )
    last_name = NameField(_("last name"), max_length=NAME_MAX)
    first_name = NameField(_("first name"), max_length=NAME_MAX)
    patronymic = NameField(_("patronymic"), max_length=NAME_MAX, blank=True)
    club = NameField(_("club"), max_length=NAME_MAX, blank=True)
    #: Hidden on request: public pages do not name him in the register's pages.
    hidden = models.BooleanField(_("hidden from public pages"), default=False)
    #: name_key(last, first, patronymic) and club_key(club): what matching compares
    #: (events.register.matching), kept on save.
    key = models.CharField(max_length=3 * NAME_MAX, editable=False, db_index=True)
    club_key = models.CharField(max_length=NAME_MAX, editable=False, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    #: The person he was merged into (events.register.merging): set, he has given his
    #: events, spellings and numbers to that person and is in no list, search or proposal;
    #: his page still opens and says so. PROTECT: the person kept is never deleted while
    #: someone is merged into him (the merge's undo needs both).
    merged_into = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="merged_persons",
        verbose_name=_("merged into"),
        editable=False,
    )

    class Meta:
        ordering = ["last_name", "first_name", "patronymic", "id"]
        verbose_name = _("person")
        verbose_name_plural = _("persons")
        indexes = [models.Index(fields=["owner", "key"], name="person_owner_key")]

    def __str__(self):
        return self.full_name

    def save(self, *args, **kwargs):
        self.key = name_key(self.last_name, self.first_name, self.patronymic)
        self.club_key = club_key(self.club)
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "key", "club_key"}
        super().save(*args, **kwargs)

    @property
    def full_name(self) -> str:
        return " ".join(p for p in (self.last_name, self.first_name, self.patronymic) if p)


class PersonAlias(models.Model):
    """A spelling of the person seen in some event (or typed in the register)."""

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="aliases")
    last_name = NameField(_("last name"), max_length=NAME_MAX)
    first_name = NameField(_("first name"), max_length=NAME_MAX)
    patronymic = NameField(_("patronymic"), max_length=NAME_MAX, blank=True)
    club = NameField(_("club"), max_length=NAME_MAX, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["person", "id"]
        verbose_name = _("spelling")
        verbose_name_plural = _("spellings")
        constraints = [
            models.UniqueConstraint(
                fields=["person", "last_name", "first_name", "patronymic", "club"],
                name="person_alias_once",
            )
        ]

    def __str__(self):
        name = " ".join(p for p in (self.last_name, self.first_name, self.patronymic) if p)
        return f"{name} ({self.club})" if self.club else name


class PersonIdentifier(models.Model):
    """A number the person carries (a club card, a federation number): one person per
    (register, kind, value)."""

    class Kind(models.TextChoices):
        CLUB_CARD = "club_card", _("club card")
        FEDERATION = "federation", _("federation number")

    #: The register's owner, the person's own (kept here for the uniqueness per register).
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", editable=False
    )
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="identifiers")
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    value = models.CharField(_("number"), max_length=40)

    class Meta:
        ordering = ["person", "kind", "value"]
        verbose_name = _("identifier")
        verbose_name_plural = _("identifiers")
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "kind", "value"], name="person_identifier_once_per_register"
            )
        ]

    def __str__(self):
        return f"{self.get_kind_display()} {self.value}"

    def save(self, *args, **kwargs):
        self.owner_id = self.person.owner_id
        super().save(*args, **kwargs)


class PersonMerge(models.Model):
    """One merge of two persons of a register (docs/register.md «Merging»): ``absorbed``
    gave his events, spellings and numbers to ``kept``. It records exactly what it moved,
    so that its undo moves back that and nothing else."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="person_merges",
        verbose_name=_("register keeper"),
    )
    kept = models.ForeignKey(
        Person, on_delete=models.PROTECT, related_name="merges_kept", verbose_name=_("kept")
    )
    absorbed = models.ForeignKey(
        Person,
        on_delete=models.PROTECT,
        related_name="merges_absorbed",
        verbose_name=_("absorbed"),
    )
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    made_at = models.DateTimeField(auto_now_add=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    undone_at = models.DateTimeField(null=True, blank=True)
    #: Ids of the absorbed person's players (Entry), spellings and numbers moved to kept.
    entry_ids = models.JSONField(default=list)
    alias_ids = models.JSONField(default=list)
    identifier_ids = models.JSONField(default=list)
    #: Ids of his spellings the kept person already had: not moved (no spelling twice),
    #: they stay with him, so his undo finds them where they were.
    alias_ids_left = models.JSONField(default=list)

    class Meta:
        ordering = ["-id"]
        verbose_name = _("merge")
        verbose_name_plural = _("merges")
        constraints = [
            models.CheckConstraint(
                condition=~Q(kept=models.F("absorbed")), name="person_merge_two_persons"
            )
        ]

    def __str__(self):
        return f"{self.absorbed} → {self.kept}"

    @property
    def in_force(self) -> bool:
        return self.undone_at is None


# The team of an event (issue 34): the owner is its chief director and is never a row here;
# everyone else who runs it is a staff member with a role. What each role may do is decided
# in one place, ``events.staff``; the log of what every director did is ``ActionLog``,
# written only by ``events.actionlog.log_action``.


class EventStaff(models.Model):
    """One account serving one event, with its role (and, for a room director, his rooms)."""

    class Role(models.TextChoices):
        DIRECTOR = "director", pgettext_lazy("staff role", "Director")
        ROOM = "room", pgettext_lazy("staff role", "Room director")
        SECRETARY = "secretary", pgettext_lazy("staff role", "Secretary")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_roles"
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    #: The room numbers (``Room.number``, in every session) a room director is given; empty
    #: for the other roles.
    rooms = models.JSONField(_("rooms"), default=list, blank=True)
    added_at = models.DateTimeField(auto_now_add=True)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["event", "id"]
        verbose_name = _("staff member")
        verbose_name_plural = _("staff")
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="event_staff_once"),
            models.CheckConstraint(
                condition=Q(role__in=["director", "room", "secretary"]),
                name="event_staff_role_known",
            ),
        ]

    def __str__(self):
        return f"{self.user} ({self.get_role_display()})"


class ActionLogQuerySet(models.QuerySet):
    """The log is append-only from the app: no update but the one the database's SET_NULL
    makes when an account is deleted (its login copy stays), no delete but the cascade of
    the event's own deletion (which the collector makes without this method)."""

    def update(self, **kwargs):
        if kwargs.keys() != {"user"} or kwargs["user"] is not None:
            raise TypeError("the action log is append-only: its lines are never updated")
        return super().update(**kwargs)

    def delete(self):
        raise TypeError("the action log is append-only: its lines are never deleted")


class ActionLog(models.Model):
    """One director's action on an event, as it was done: who, when, where, what changed.

    ``kind`` is a short code («sheet.correct», «round.start», «staff.add» …, listed in
    ``events.actionlog.KINDS``); the line is drawn in the reader's language from the kind
    and ``before``/``after``, so nothing here is stored in one language but ``summary``,
    a free text (a reason typed by the director). Written by ``events.actionlog.log_action``
    only, in the transaction of the change itself."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="action_log")
    at = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    #: The author's login as it was: kept when the account is deleted.
    login = models.CharField(max_length=150, blank=True)
    kind = models.CharField(max_length=40)
    room = models.PositiveSmallIntegerField(null=True, blank=True)
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    summary = models.CharField(max_length=500, blank=True)
    before = models.JSONField(null=True, blank=True, encoder=DjangoJSONEncoder)
    after = models.JSONField(null=True, blank=True, encoder=DjangoJSONEncoder)

    objects = ActionLogQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("log line")
        verbose_name_plural = _("log")
        indexes = [models.Index(fields=["event", "-at"], name="action_log_event_at")]

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.login or '—'} {self.kind}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise TypeError("the action log is append-only: a line once written is never changed")
        if self.user_id is not None and not self.login:
            self.login = self.user.get_username()
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError("the action log is append-only: its lines are never deleted")


# --- the tables' calls and the players' check-in (issue 34) ---------------------------------
# Written by ``events.calls`` and ``events.checkin`` only, each step with its log line.


class TableCall(models.Model):
    """A table's «Позвать судью»: open until a director says «Иду» (going), then «Решено»
    (closed). One call open (or going) per table at a time, so a table cannot flood."""

    class Reason(models.TextChoices):
        DISPUTE = "dispute", pgettext_lazy("call reason", "Dispute")
        SHEET = "sheet", pgettext_lazy("call reason", "Error in the score sheet")
        BOX = "box", pgettext_lazy("call reason", "Box")
        OTHER = "other", pgettext_lazy("call reason", "Other")

    class State(models.TextChoices):
        OPEN = "open", pgettext_lazy("call state", "waiting")
        GOING = "going", pgettext_lazy("call state", "director on the way")
        CLOSED = "closed", pgettext_lazy("call state", "resolved")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="calls")
    #: The round the table was playing when it called (None before the first).
    round = models.ForeignKey(
        Round, on_delete=models.SET_NULL, null=True, blank=True, related_name="calls"
    )
    #: The seat that called («» when the table's phone did not say).
    position = models.CharField(max_length=1, choices=Seat.Position.choices, blank=True)
    #: The player who called, when his own link or PIN says who he is.
    entry = models.ForeignKey(
        Entry, on_delete=models.SET_NULL, null=True, blank=True, related_name="calls"
    )
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    opened_at = models.DateTimeField(auto_now_add=True)
    going_at = models.DateTimeField(null=True, blank=True)
    going_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    #: The phone's own id of the request (the outbox sends it again after a lost answer):
    #: the same id twice is the same call.
    client_id = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["opened_at", "id"]
        verbose_name = _("call")
        verbose_name_plural = _("calls")
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(state__in=["open", "going"]),
                name="table_call_one_open",
            ),
            models.CheckConstraint(
                condition=Q(state__in=["open", "going", "closed"]), name="table_call_state_known"
            ),
        ]
        indexes = [models.Index(fields=["table", "state"], name="table_call_table_state")]

    def __str__(self):
        return f"{self.table}: {self.reason} ({self.state})"


class CheckIn(models.Model):
    """A player's «Я на месте» in a session: before the session (``round`` 0) or, when the
    session asks it (``Session.checkin_each_round``), before round ``round``."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="checkins")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="checkins")
    round = models.PositiveSmallIntegerField(default=0)
    at = models.DateTimeField(auto_now_add=True)
    #: The director who checked him in by hand; None: the player himself.
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["session", "round", "at", "id"]
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        constraints = [
            models.UniqueConstraint(
                fields=["session", "entry", "round"], name="checkin_once_per_round"
            )
        ]

    def __str__(self):
        return f"{self.session}: {self.entry} ({self.round})"
