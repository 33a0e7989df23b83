"""What an event archive holds, table by table (docs/event-archive.md).

Each :class:`Part` is one member of the zip, ``data/<app>.<model>.json``: the rows of one
model that belong to the event, in the order the importer writes them (a row's references
point at rows of earlier members; the one cycle, a sheet's ``current`` version, is written
after the versions). The references are read off the models themselves, so a new foreign
key is carried without a word here; a new model linked to an event must be named in
:data:`PARTS` or in :data:`LEFT_OUT` (a test walks the app registry and holds this list to
it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import models

from events.models import (
    ActionLog,
    Announcement,
    BoardSet,
    BoxReport,
    CheckIn,
    Deal,
    DealVersion,
    Draw,
    Entry,
    Event,
    EventStaff,
    Person,
    PersonAlias,
    PersonIdentifier,
    Room,
    Round,
    Seat,
    Session,
    Substitution,
    Table,
    TableCall,
    TablePlay,
    new_private_key,
    new_public_slug,
)
from scoring.models import (
    Adjustment,
    DealScore,
    DealsShown,
    LadderRow,
    PinFailures,
    ScoreSheet,
    ScoreSheetVersion,
    SessionScoring,
    SessionTotal,
    TalonRefusal,
)

#: The archive's format and the one version this code reads and writes.
FORMAT = "duplicate-preference-event"
VERSION = 1
MANIFEST = "manifest.json"

#: A reference to a director's account: written as his login, imported as the importing
#: director (the accounts of one server mean nothing on another).
USER = "user"


@dataclass(frozen=True)
class Part:
    model: type[models.Model]
    rows: Callable[[Event], models.QuerySet]
    #: Fields renewed by ``--new-keys`` (the private links and the public address).
    renew: dict[str, Callable[[], str]] = field(default_factory=dict)
    #: Fields not carried: the importing server's own (owner) or computed again on import.
    skip: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return self.model._meta.label_lower

    @property
    def member(self) -> str:
        return f"data/{self.label}.json"

    def fields(self) -> list[models.Field]:
        """The fields carried: every concrete one but the key and :attr:`skip`."""
        found = _FIELDS.get(self.label)
        if found is None:
            found = _FIELDS[self.label] = [
                f
                for f in self.model._meta.concrete_fields
                if not f.primary_key and f.name not in self.skip
            ]
        return found


_FIELDS: dict[str, list[models.Field]] = {}


def _distinct(qs: models.QuerySet) -> models.QuerySet:
    return qs.distinct().order_by("pk")


PARTS: list[Part] = [
    Part(Event, lambda e: Event.objects.filter(pk=e.pk), {"slug": new_public_slug}, ("owner",)),
    # The register's persons the players are linked to (matched on import, docs).
    Part(
        Person,
        lambda e: _distinct(Person.objects.filter(entries__event=e)),
        skip=("owner", "merged_into", "key", "club_key"),
    ),
    Part(PersonAlias, lambda e: _distinct(PersonAlias.objects.filter(person__entries__event=e))),
    Part(
        PersonIdentifier,
        lambda e: _distinct(PersonIdentifier.objects.filter(person__entries__event=e)),
        skip=("owner",),
    ),
    Part(Entry, lambda e: Entry.objects.filter(event=e), {"key": new_private_key}),
    Part(Draw, lambda e: Draw.objects.filter(event=e)),
    Part(Session, lambda e: Session.objects.filter(event=e)),
    Part(Room, lambda e: Room.objects.filter(session__event=e)),
    Part(Table, lambda e: Table.objects.filter(room__session__event=e), {"key": new_private_key}),
    Part(Round, lambda e: Round.objects.filter(room__session__event=e)),
    Part(Announcement, lambda e: Announcement.objects.filter(room__session__event=e)),
    Part(Seat, lambda e: Seat.objects.filter(round__room__session__event=e)),
    Part(Substitution, lambda e: Substitution.objects.filter(session__event=e)),
    Part(BoardSet, lambda e: BoardSet.objects.filter(session__event=e)),
    Part(Deal, lambda e: Deal.objects.filter(board_set__session__event=e)),
    Part(
        TablePlay,
        lambda e: TablePlay.objects.filter(round__room__session__event=e),
        {"key": new_private_key},
    ),
    Part(DealVersion, lambda e: DealVersion.objects.filter(deal__board_set__session__event=e)),
    Part(BoxReport, lambda e: BoxReport.objects.filter(deal__board_set__session__event=e)),
    Part(ScoreSheet, lambda e: ScoreSheet.objects.filter(play__round__room__session__event=e)),
    Part(
        ScoreSheetVersion,
        lambda e: ScoreSheetVersion.objects.filter(sheet__play__round__room__session__event=e),
    ),
    Part(Adjustment, lambda e: Adjustment.objects.filter(play__round__room__session__event=e)),
    Part(TalonRefusal, lambda e: TalonRefusal.objects.filter(play__round__room__session__event=e)),
    Part(DealsShown, lambda e: DealsShown.objects.filter(session__event=e)),
]

#: Models linked to an event that the archive does not carry, and why.
LEFT_OUT = {
    # The comparison's cache: rebuilt from the sheets by the first read (scoring.standings,
    # a session without its SessionScoring row is computed again).
    DealScore: "cache of the comparison, rebuilt from the sheets",
    SessionTotal: "cache of the comparison, rebuilt from the sheets",
    SessionScoring: "cache of the comparison, rebuilt from the sheets",
    # Wrong PINs of the last minutes: a lock of this server's phones, not the event's.
    PinFailures: "a few minutes' lock on wrong PINs, of the phones of this server",
    # The ladder is its owner's register's, replayed from every event of his.
    LadderRow: "the ladder's cache of its owner's register, replayed from his events",
    # The team is accounts of this server: whoever loads the file is its owner and chief
    # director, and names his own team there.
    EventStaff: "the team's accounts are this server's; the loading director names his own",
    # Who did what is this server's record of its directors' accounts, kept where they work.
    ActionLog: "the directors' log names this server's accounts; it stays with them",
    # Who came to the hall that day («Я на месте»): the day's logistics, not a result; a
    # director's mark names this server's accounts.
    CheckIn: "the day's check-in, not a result; a director's mark names this server's accounts",
    # «Позвать судью»: a call is answered in the hall within minutes; its steps stay in the
    # log of this server, and who answered names this server's accounts.
    TableCall: "the tables' calls are answered in the hall; their steps are in this server's log",
}

BY_MODEL = {part.model: part for part in PARTS}
BY_MEMBER = {part.member: part for part in PARTS}
MEMBERS = frozenset([MANIFEST, *BY_MEMBER])


ORDER = {part.label: i for i, part in enumerate(PARTS)}


def target(fk: models.ForeignKey) -> str:
    """What a foreign key points at: :data:`USER` or the label of a part."""
    if fk.related_model is get_user_model():
        return USER
    part = BY_MODEL.get(fk.related_model)
    if part is None:
        raise LookupError(f"{fk.model._meta.label}.{fk.name} points outside the archive")
    return part.label


def is_deferred(part: Part, fk: models.ForeignKey) -> bool:
    """A reference to a later part (a sheet's ``current`` version): written once that part is."""
    there = target(fk)
    return there != USER and ORDER[there] >= ORDER[part.label]
