"""The Russian game — the «Кодекс преферанса» in its three conventions, Сочи, Ленинград
and Ростов (our account of them and of every choice:
docs/game.md §9). A package, one concern per module:

- ``names``: strains, the bids in order (6♠ … 8БК, мизер, 9♠ … 10БК), contract, decisions;
- ``conventions``: the convention and its options (10 checked or whisted, full or half
  responsibility, «Сталинград»), each with the convention's default, and m, r, k_p;
- ``messages``: problems as codes with parameters, worded from the one catalogue;
- ``deal``: the sheet, the auction's calls, the settlement;
- ``auction``: the optional auction record and how the sheet agrees with it;
- ``checks``: the sheet's check (seats, decisions, tricks, board, talon);
- ``settlement``: пуля, гора, висты of one deal and its score, the vist balance;
- ``json_io``: the JSON form of ``manage.py settle``.

Pure: imports nothing from Django. Amounts are exact (``fractions.Fraction``); a score is
rounded to 2 decimals only in its JSON form.
"""

from __future__ import annotations

from scoring.games.russian.auction import check_auction
from scoring.games.russian.checks import Outcome, outcome_of, validate
from scoring.games.russian.conventions import Convention, Responsibility, Rules, Ten
from scoring.games.russian.deal import AuctionOutcome, Call, Deal, Settlement
from scoring.games.russian.json_io import deal_from_json, settle_json
from scoring.games.russian.messages import MESSAGES, InvalidInput, Message, Problems, word
from scoring.games.russian.names import (
    BIDS,
    MISERE,
    NORM,
    PASSED,
    PRICE,
    Contract,
    Defence,
    Say,
    Strain,
)
from scoring.games.russian.settlement import (
    balance,
    misses,
    score_number,
    settle,
    settle_valid,
    settlement_json,
)

__all__ = [
    "BIDS",
    "MESSAGES",
    "MISERE",
    "NORM",
    "PASSED",
    "PRICE",
    "AuctionOutcome",
    "Call",
    "Contract",
    "Convention",
    "Deal",
    "Defence",
    "InvalidInput",
    "Message",
    "Outcome",
    "Problems",
    "Responsibility",
    "Rules",
    "Say",
    "Settlement",
    "Strain",
    "Ten",
    "balance",
    "check_auction",
    "deal_from_json",
    "misses",
    "outcome_of",
    "score_number",
    "settle",
    "settle_json",
    "settle_valid",
    "settlement_json",
    "validate",
    "word",
]
