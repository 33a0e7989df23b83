"""Sets and deals of a session, and which set each table plays in each round."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

POSITIONS = [("W", "W"), ("N", "N"), ("E", "E"), ("S", "S")]


class BoardSet(models.Model):
    """A set (комплект): the boxes a table plays in one round; equal numbers, same boards."""

    room = models.ForeignKey("events.Room", on_delete=models.CASCADE, related_name="board_sets")
    number = models.PositiveIntegerField(_("set"))
    players = models.PositiveSmallIntegerField(_("players at the table"))

    class Meta:
        ordering = ["room", "number"]
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="set_number_unique_in_room"),
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

    class Meta:
        ordering = ["round", "table__number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="one_set_per_table_per_round")
        ]

    def __str__(self):
        return f"{self.round}, {self.table}: {self.board_set}"
