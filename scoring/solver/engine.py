"""The search itself: null-window tests «can the declarer's tricks be made at least ``need``
of the remaining ones?» on bitmask hands, with a transposition table at trick boundaries.

One engine for every game's play rules (docs/analysis.md): each search takes them as
arguments — ``beat`` (the duty to beat the card led, Austrian) or not (Russian), the
``leader`` of the first trick, ``trump`` a suit 0–3 or :data:`NOTRUMP`, and ``maxd``: the
declarer maximises his tricks (1) or, at мизер, minimises them (0) — the defenders always
playing the other way. The count is always the declarer's tricks; only who is the
maximising side changes.

Compiled with numba when it is installed (``cache=True``: compiled once, kept on disk);
without numba the very same functions run as plain Python (exact, only slower).

Conventions (see docs/analysis.md):

- a hand is an ``int`` bitmask of cards (bit ``suit * 8 + rank``, as in :mod:`events.cards`);
- the three given seats are players 0, 1, 2 in clockwise order; ``nxt[p]`` is the next
  player in play after ``p`` (a lone whister's partner is skipped: his hand is empty);
- the transposition table maps a trick boundary — the relative order of the cards still
  in play, suit by suit, by owner, with the leader, the declarer and the trump — to a
  lower and an upper bound on the declarer's tricks from there on, and the lead that
  decided it. Entries hold across the discards and the two talon cases of one call; an
  entry of an older call (generation) counts as empty.
"""

from __future__ import annotations

import contextlib

import numpy as np

try:  # pragma: no cover - which branch runs depends on the machine
    from numba import njit

    COMPILED = True
except ImportError:  # pragma: no cover
    COMPILED = False
    njit = None


def _jit(function):
    """Compiled by numba, the machine code kept on disk (``__pycache__`` beside this file,
    or ``NUMBA_CACHE_DIR``); compiled in memory only where no cache can be written; the
    function itself without numba."""
    if njit is None:
        return function
    try:
        return njit(cache=True)(function)
    except RuntimeError:  # no writable cache directory
        return njit(function)


TT_BITS = 20
TT_SIZE = 1 << TT_BITS
TT_PROBES = 4
MAX_PLY = 40
MAX_MOVES = 16
#: ``trump`` of a contract without one (БК, мизер): no card is a trump.
NOTRUMP = 4

_DEBRUIJN = np.zeros(32, dtype=np.int64)
for _i in range(32):
    _DEBRUIJN[((0x077CB531 << _i) & 0xFFFFFFFF) >> 27] = _i


def quiet():
    """Around calls to the engine: in plain Python, numpy's int64 wraps silently in the
    hash, as it does in the compiled code."""
    return contextlib.nullcontext() if COMPILED else np.errstate(over="ignore")


def new_tables():
    """The transposition table (keys, packed bounds), the move buffer and the stack; the
    table's memory is touched at once, not page by page during the first searches."""
    tables = (
        np.zeros(TT_SIZE, dtype=np.int64),
        np.zeros((2, TT_SIZE), dtype=np.int64),
        np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64),
        np.zeros((MAX_PLY, FRAME), dtype=np.int64),
    )
    for table in tables:
        table.fill(0)
    return tables


@_jit
def _bit_index(bit):
    return _DEBRUIJN[((bit * 0x077CB531) & 0xFFFFFFFF) >> 27]


@_jit
def popcount(x):
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@_jit
def legal(hand, led, trump):
    """The cards of ``hand`` that may be played to a trick led with ``led`` (−1: leading)."""
    if led < 0:
        return hand
    same = hand & (0xFF << ((led >> 3) * 8))
    if same:
        higher = same & ~((2 << led) - 1)
        return higher if higher else same
    trumps = hand & (0xFF << (trump * 8))
    return trumps if trumps else hand


@_jit
def legal_free(hand, led, trump):
    """The same without the duty to beat (the Russian game): follow suit with any card of
    it; void, trump if you can (any trump); else any card. No trump (:data:`NOTRUMP`): a
    void player plays any card."""
    if led < 0:
        return hand
    same = hand & (0xFF << ((led >> 3) * 8))
    if same:
        return same
    trumps = hand & (0xFF << (trump * 8))
    return trumps if trumps else hand


@_jit
def _beats(card, winning, trump):
    """Does ``card`` take the trick from the card now winning it?"""
    if (card >> 3) == (winning >> 3):
        return card > winning
    return (card >> 3) == trump


#: Offsets making (length, owners in base 3) of a suit's live cards one number: the codes
#: of a suit are below 9841 = 1 + 3 + … + 3⁸.
_OFFSET = np.zeros(10, dtype=np.int64)
for _i in range(1, 10):
    _OFFSET[_i] = _OFFSET[_i - 1] + 3 ** (_i - 1)
SUIT_CODES = 9841


@_jit
def _relative_key(hands, live, leader, decl, trump):
    """The position at a trick boundary by the relative order of the cards still in play:
    for each suit, the owners of its live cards from the highest down. Positions that
    differ only in which lower cards have gone are the same game (every rule compares
    cards only with cards still in play), so they share an entry."""
    key = 0
    for s in range(4):
        seg = (live >> (8 * s)) & 0xFF
        code = 0
        length = 0
        for r in range(7, -1, -1):
            if (seg >> r) & 1:
                bit = 1 << (8 * s + r)
                owner = 0 if hands[0] & bit else (1 if hands[1] & bit else 2)
                code = code * 3 + owner
                length += 1
        key = key * SUIT_CODES + _OFFSET[length] + code
    return ((key * 4 + leader) * 4 + decl) * 8 + trump + 1


@_jit
def _slot(key):
    return ((key * 0x5E3779B97F4A7C15) >> 24) & (TT_SIZE - 1)


@_jit
def _tt_get(tk, tv, key, gen):
    """Packed bounds (lo | hi << 8) of ``key`` or −1."""
    h = _slot(key)
    for i in range(TT_PROBES):
        j = (h + i) & (TT_SIZE - 1)
        if tv[0, j] != gen:
            return -1
        if tk[j] == key:
            return tv[1, j]
    return -1


@_jit
def _tt_put(tk, tv, key, value, gen):
    h = _slot(key)
    for i in range(TT_PROBES):
        j = (h + i) & (TT_SIZE - 1)
        if tv[0, j] != gen or tk[j] == key:
            tk[j] = key
            tv[0, j] = gen
            tv[1, j] = value
            return
    tk[h] = key
    tv[1, h] = value


# The fields of a frame of the search stack (one per card played, and one per trick
# boundary reached).
F_P = 0  # the player to play
F_POS = 1  # how many cards of the trick are down (0: he leads)
F_LED = 2  # the card led (−1 when leading)
F_WC = 3  # the card now winning the trick
F_WP = 4  # and its player
F_NEED = 5  # the declarer's tricks asked of the rest of the play
F_LIVE = 6  # every card still in play, the current trick's included
F_KEY = 7  # the transposition key (trick boundaries only)
F_LO = 8  # its known bounds
F_HI = 9
F_N = 10  # the moves to try (in buf[ply])
F_I = 11  # the one being tried
F_HAND = 12  # the player's hand before his move
F_BEST = 13  # the lead that decided this boundary last time (−1: none known)
FRAME = 14

_ENTER = 0
_NEXT = 1
_RETURN = 2


@_jit
def _store(fr, ply, result, card, tk, tv, gen):
    """Note what a trick-boundary test found in the table, and the lead that decided it
    (``card``; −1 when every lead was tried), to be tried first next time."""
    if fr[ply, F_POS] != 0:
        return
    if card < 0:
        card = fr[ply, F_BEST]
    need = fr[ply, F_NEED]
    lo = fr[ply, F_LO]
    hi = fr[ply, F_HI]
    if result:
        if need > lo:
            lo = need
    elif need - 1 < hi:
        hi = need - 1
    _tt_put(tk, tv, fr[ply, F_KEY], lo | (hi << 8) | ((card + 1) << 16), gen)


@_jit
def _order(c, pos, p, decl, maxd, led, wcard, wp, trump, nxt, nplay):
    """A move's place in the order of search (lower first). Maximising (the declarer of a
    suit or БК): taking the trick for one's side first, cheap cards first; leading, high
    cards first. At мизер: leading, low cards first; the declarer ducks with his highest
    card under the trick's winner; a defender stays under the declarer's winning card
    with his highest, plays low while the declarer is still to play, and sheds his highest
    on a trick the defence has anyway."""
    rank = c & 7
    if maxd:
        if pos == 0:
            return 7 - rank
        ours = (wp == decl) == (p == decl)
        if _beats(c, wcard, trump):
            score = rank if not ours else 16 + rank
        else:
            score = 8 + rank if not ours else rank
        if (c >> 3) == trump and (led >> 3) != trump:
            score += 4
        return score
    if pos == 0:
        return rank
    beats = _beats(c, wcard, trump)
    if p == decl:
        return 7 - rank if not beats else 15 - rank
    if wp == decl:
        return 7 - rank if not beats else 8 + rank
    q = p
    for _ in range(nplay - 1 - pos):
        q = nxt[q]
        if q == decl:
            return rank
    return 7 - rank


@_jit
def search(hands, nxt, nplay, decl, trump, beat, maxd, leader, need, tk, tv, buf, fr, gen):
    """Can the declarer's tricks from here be made at least ``need``, ``leader`` to lead?
    The maximising side is the declarer (``maxd`` 1) or, at мизер, the defenders (0);
    ``beat``: the duty to beat the card led. A depth-first search on an explicit stack
    (``fr``, one frame per ply; ``buf`` holds each ply's moves), ``hands`` changed in
    place and restored."""
    rules = maxd * 2 + beat
    ply = 0
    fr[0, F_P] = leader
    fr[0, F_POS] = 0
    fr[0, F_LED] = -1
    fr[0, F_WC] = 0
    fr[0, F_WP] = 0
    fr[0, F_NEED] = need
    fr[0, F_LIVE] = 0
    mode = _ENTER
    ret = False
    while True:
        if mode == _ENTER:
            p = fr[ply, F_P]
            pos = fr[ply, F_POS]
            if pos == 0:
                want = fr[ply, F_NEED]
                if want <= 0:
                    ret = True
                    mode = _RETURN
                    continue
                left = popcount(hands[p])
                if want > left:
                    ret = False
                    mode = _RETURN
                    continue
                live = hands[0] | hands[1] | hands[2]
                fr[ply, F_LIVE] = live
                if left == 1:
                    # The last trick plays itself.
                    q = p
                    wc = _bit_index(hands[q])
                    wq = q
                    for _ in range(nplay - 1):
                        q = nxt[q]
                        c = _bit_index(hands[q])
                        if _beats(c, wc, trump):
                            wc = c
                            wq = q
                    ret = wq == decl
                    mode = _RETURN
                    continue
                key = _relative_key(hands, live, p, decl, trump) * 4 + rules
                fr[ply, F_KEY] = key
                packed = _tt_get(tk, tv, key, gen)
                if packed >= 0:
                    lo = packed & 0xFF
                    hi = (packed >> 8) & 0xFF
                    if lo >= want:
                        ret = True
                        mode = _RETURN
                        continue
                    if hi < want:
                        ret = False
                        mode = _RETURN
                        continue
                    fr[ply, F_LO] = lo
                    fr[ply, F_HI] = hi
                    fr[ply, F_BEST] = (packed >> 16) - 1
                else:
                    fr[ply, F_LO] = 0
                    fr[ply, F_HI] = left
                    fr[ply, F_BEST] = -1
            live = fr[ply, F_LIVE]
            led = fr[ply, F_LED]
            wcard = fr[ply, F_WC]
            wp = fr[ply, F_WP]
            hand = hands[p]
            fr[ply, F_HAND] = hand
            moves = legal(hand, led, trump) if beat else legal_free(hand, led, trump)
            # One card of each run of equivalent cards (no other card still in play
            # between them), scored for the order of search.
            n = 0
            m = moves
            while m:
                bit = m & -m
                m ^= bit
                c = _bit_index(bit)
                above = live & (0xFF << ((c >> 3) * 8)) & ~((bit << 1) - 1)
                if above & -above & moves:
                    continue
                score = _order(c, pos, p, decl, maxd, led, wcard, wp, trump, nxt, nplay)
                buf[ply, n] = score * 64 + c
                n += 1
            for i in range(1, n):
                v = buf[ply, i]
                j = i - 1
                while j >= 0 and buf[ply, j] > v:
                    buf[ply, j + 1] = buf[ply, j]
                    j -= 1
                buf[ply, j + 1] = v
            if pos == 0 and fr[ply, F_BEST] >= 0:
                # The lead that decided this position before goes first.
                best = fr[ply, F_BEST]
                for i in range(n):
                    if buf[ply, i] & 63 == best:
                        v = buf[ply, i]
                        for j in range(i, 0, -1):
                            buf[ply, j] = buf[ply, j - 1]
                        buf[ply, 0] = v
                        break
            fr[ply, F_N] = n
            fr[ply, F_I] = 0
            mode = _NEXT
        elif mode == _NEXT:
            p = fr[ply, F_P]
            i = fr[ply, F_I]
            if i >= fr[ply, F_N]:
                # Every move tried: the maximising side found none, the other no refutation.
                ret = (p == decl) != (maxd == 1)
                _store(fr, ply, ret, -1, tk, tv, gen)
                mode = _RETURN
                continue
            pos = fr[ply, F_POS]
            c = buf[ply, i] & 63
            if pos == 0:
                nled = c
                nwc = c
                nwp = p
            else:
                nled = fr[ply, F_LED]
                nwc = fr[ply, F_WC]
                nwp = fr[ply, F_WP]
                if _beats(c, nwc, trump):
                    nwc = c
                    nwp = p
            hands[p] = fr[ply, F_HAND] ^ (1 << c)
            child = ply + 1
            if pos == nplay - 1:
                fr[child, F_P] = nwp
                fr[child, F_POS] = 0
                fr[child, F_LED] = -1
                fr[child, F_WC] = 0
                fr[child, F_WP] = 0
                fr[child, F_NEED] = fr[ply, F_NEED] - (1 if nwp == decl else 0)
                fr[child, F_LIVE] = 0
            else:
                fr[child, F_P] = nxt[p]
                fr[child, F_POS] = pos + 1
                fr[child, F_LED] = nled
                fr[child, F_WC] = nwc
                fr[child, F_WP] = nwp
                fr[child, F_NEED] = fr[ply, F_NEED]
                fr[child, F_LIVE] = fr[ply, F_LIVE]
            ply = child
            mode = _ENTER
        else:
            if ply == 0:
                return ret
            ply -= 1
            p = fr[ply, F_P]
            hands[p] = fr[ply, F_HAND]
            if ret == ((p == decl) == (maxd == 1)):
                # The maximising side found a way, or the other a refutation: done here.
                _store(fr, ply, ret, buf[ply, fr[ply, F_I]] & 63, tk, tv, gen)
            else:
                fr[ply, F_I] += 1
                mode = _NEXT


@_jit
def value(hands, nxt, nplay, decl, trump, beat, maxd, leader, low, high, tk, tv, buf, fr, gen):
    """The declarer's tricks under best play (``leader`` to lead), known to lie between
    ``low`` and ``high``: a binary search of null-window tests."""
    lo = low
    hi = high
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if search(hands, nxt, nplay, decl, trump, beat, maxd, leader, mid, tk, tv, buf, fr, gen):
            lo = mid
        else:
            hi = mid - 1
    return lo


@_jit
def best_discard(
    hands, nxt, nplay, decl, trump, beat, maxd, leader, full, pairs, bound, tk, tv, buf, fr, gen
):
    """The declarer holds ``full`` (his hand and the talon); ``pairs`` lists the discards
    (bitmasks) in the fixed order of choice; ``bound`` is what one of them is known to
    reach (the most tricks when he maximises, the fewest at мизер). Returns (tricks,
    index of the first best discard in that order)."""
    best = bound
    choice = -1
    for i in range(pairs.shape[0]):
        hands[decl] = full ^ pairs[i]
        if maxd:
            target = best if choice < 0 else best + 1
            while search(
                hands, nxt, nplay, decl, trump, beat, maxd, leader, target, tk, tv, buf, fr, gen
            ):
                best = target
                choice = i
                target += 1
        else:
            if choice >= 0 and best == 0:
                break  # no trick at all: no later discard does better
            # Held to ``target`` tricks = the defence cannot force ``target + 1``.
            target = best if choice < 0 else best - 1
            while target >= 0 and not search(
                hands, nxt, nplay, decl, trump, beat, maxd, leader, target + 1, tk, tv, buf, fr, gen
            ):
                best = target
                choice = i
                target -= 1
    hands[decl] = full
    return best, choice
