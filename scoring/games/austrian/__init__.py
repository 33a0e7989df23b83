"""The rules of one Preference deal (a package: one concern per module —
``names``, ``messages``, ``event_rules``, ``deal``, ``checks``, ``auction``,
``settlement``, ``json_io``; every public name is here as before): contract, defence, tricks, auction and settlement.

Pure: imports nothing from Django. Plain dataclasses and enums in, plain data out. The rules
are those of docs/game.md (§2 one deal, §3 settlement); docs/rules.md gives each check and
every choice the sources leave open.

Amounts are kept exact (``fractions.Fraction``), so a trick — A/10 — is never rounded. On the
way out (:func:`number`) an amount becomes an ``int`` when it is whole, else the nearest
``float`` (e.g. 13.5); the settlement itself never rounds.

Every check reports *all* problems it finds as :class:`Problems`: field name (the JSON path:
``trump``, ``defenders.E``, ``tricks.N``, ``auction.3``, ``rules.limit``) → messages. A
:class:`Message` is a code plus parameters; :meth:`Problems.render` gives the Russian text
(primary) or the English one.
"""

from __future__ import annotations

from events.boards import Seat
from scoring.games.austrian.auction import (
    check_auction,
)
from scoring.games.austrian.checks import (
    allowed_trumps,
    reached_level,
)
from scoring.games.austrian.deal import (
    AuctionOutcome,
    Call,
    Deal,
    Settlement,
)
from scoring.games.austrian.event_rules import (
    DEFAULT_TRUMP_STAKES,
    FixedPot,
    Pot,
    Rules,
    RunningPot,
    TrumpPot,
)
from scoring.games.austrian.json_io import (
    deal_from_json,
    parse_amount,
    parse_whole,
    settle_json,
    shown,
)
from scoring.games.austrian.messages import (
    MESSAGES,
    InvalidInput,
    Message,
    Problems,
    word,
)
from scoring.games.austrian.names import (
    AUSTRIAN_SUIT_ORDER,
    SEED_SUIT_ORDER,
    SUIT_ORDERS,
    Bid,
    Contract,
    Defence,
    Suit,
)
from scoring.games.austrian.settlement import (
    number,
    settle,
    settlement_json,
    stake_of,
    validate,
)

__all__ = [
    "AUSTRIAN_SUIT_ORDER",
    "DEFAULT_TRUMP_STAKES",
    "MESSAGES",
    "Pot",
    "SUIT_ORDERS",
    "shown",
    "SEED_SUIT_ORDER",
    "AuctionOutcome",
    "Bid",
    "Call",
    "Contract",
    "Deal",
    "Defence",
    "FixedPot",
    "InvalidInput",
    "Message",
    "Problems",
    "Rules",
    "RunningPot",
    "Seat",
    "Settlement",
    "Suit",
    "TrumpPot",
    "allowed_trumps",
    "reached_level",
    "check_auction",
    "deal_from_json",
    "number",
    "parse_amount",
    "parse_whole",
    "settle",
    "settle_json",
    "settlement_json",
    "stake_of",
    "validate",
    "word",
]
