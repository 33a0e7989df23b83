"""Sets and deals of a session, and which set each table plays in each round."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

POSITIONS = [("W", "W"), ("N", "N"), ("E", "E"), ("S", "S")]


class BoardSet(models.Model):
    """A set (комплект): the boxes a table plays in one round; equal numbers, same boards.

    Sets belong to the session: rooms with the same movement (twin rooms, e.g. 26 = 13 + 13)
    play duplicated boxes of the same ``family``, so their results are compared together.
    """

    session = models.ForeignKey(
        "events.Session", on_delete=models.CASCADE, related_name="board_sets"
    )
    family = models.PositiveSmallIntegerField(default=1)
    number = models.PositiveIntegerField(_("set"))
    players = models.PositiveSmallIntegerField(_("players at the table"))

    class Meta:
        ordering = ["session", "family", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "family", "number"], name="set_number_unique_in_family"
            ),
            models.CheckConstraint(condition=Q(players__in=[3, 4]), name="set_players_3_or_4"),
        ]

    def __str__(self):
        return str(_("Set %(number)s") % {"number": self.number})


class Deal(models.Model):
    """One deal (a duplicate box) of a set, with the layout of the box."""

    board_set = models.ForeignKey(BoardSet, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField(_("deal"))
    dealer = models.CharField(max_length=1, choices=POSITIONS, blank=True)
    first_hand = models.CharField(max_length=1, choices=POSITIONS)
    talon_pocket = models.CharField(max_length=1, choices=POSITIONS)
    # Active seats in speaking order, first hand first, e.g. "NES".
    active_seats = models.CharField(max_length=3)

    class Meta:
        ordering = ["board_set", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["board_set", "number"], name="deal_number_unique_in_set"
            )
        ]

    def __str__(self):
        return f"{self.board_set.number}.{self.number}"

    @property
    def code(self) -> str:
        """How players call it: set 3, deal 2 → «3.2»."""
        return f"{self.board_set.number}.{self.number}"


class TablePlay(models.Model):
    """The set a table plays in a round (and where its N player takes it at the end)."""

    round = models.ForeignKey("events.Round", on_delete=models.CASCADE, related_name="plays")
    table = models.ForeignKey("events.Table", on_delete=models.CASCADE, related_name="plays")
    board_set = models.ForeignKey(BoardSet, on_delete=models.CASCADE, related_name="plays")
    # Marked at «Конец тура!» when not every deal of the set has a sheet (time penalties).
    late = models.BooleanField(default=False)

    class Meta:
        ordering = ["round", "table__number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="one_set_per_table_per_round")
        ]

    def __str__(self):
        return f"{self.round}, {self.table}: {self.board_set}"


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
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["sheet", "number"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "number"], name="sheet_version_number_unique")
        ]

    def __str__(self):
        return f"{self.sheet} v{self.number}"
