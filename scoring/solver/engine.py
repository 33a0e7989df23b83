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


def _jit(function=None, *, inline=False):
    """Compiled by numba, the machine code kept on disk (``__pycache__`` beside this file,
    or ``NUMBA_CACHE_DIR``); compiled in memory only where no cache can be written; the
    function itself without numba. ``inline``: a small helper of the search, compiled
    into its callers (no call, and no reference counting of the arrays it is given)."""
    if function is None:
        return lambda f: _jit(f, inline=inline)
    if njit is None:
        return function
    how = "always" if inline else "never"
    try:
        return njit(cache=True, inline=how)(function)
    except RuntimeError:  # no writable cache directory
        return njit(inline=how)(function)


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
    """The transposition table, the move buffer and the stack; the table's memory is
    touched at once, not page by page during the first searches. An entry is a key and,
    in one number, its generation (above bit 24) and its packed bounds and lead, so that
    the ``TT_PROBES`` entries where a key may be share one cache line."""
    raw = np.zeros(TT_SIZE * 2 + 8, dtype=np.int64)
    start = (-raw.ctypes.data % 64) // 8  # the buckets aligned on cache lines (64 bytes)
    tables = (
        raw[start : start + TT_SIZE * 2].reshape(TT_SIZE, 2),
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


#: ``_COMPRESS[seg, sub]``: the cards of ``sub`` (a suit's 8 bits) among those of ``seg``,
#: packed down (bit i: the i-th lowest card of ``seg``) — a table for what x86's pext does.
_BITS = np.arange(256, dtype=np.int64)
_COMPRESS = np.zeros((256, 256), dtype=np.uint8)
for _b in range(8):
    _below = np.zeros(256, dtype=np.int64)  # per seg: how many of its cards are below bit b
    for _c in range(_b):
        _below += (_BITS >> _c) & 1
    _take = ((_BITS[:, None] >> _b) & 1) & ((_BITS[None, :] >> _b) & 1)
    _COMPRESS |= (_take << _below[:, None]).astype(np.uint8)
#: ``_BASE3[v]``: the bits of ``v`` read as base-3 digits (Σ 3^i over its set bits i).
_BASE3 = np.zeros(256, dtype=np.int64)
for _b in range(8):
    _BASE3 += ((_BITS >> _b) & 1) * 3**_b
#: How many cards a suit's 8 bits hold.
_COUNT = np.zeros(256, dtype=np.int64)
for _b in range(8):
    _COUNT += (_BITS >> _b) & 1


@_jit
def _relative_key(hands, live, leader, decl, trump):
    """The position at a trick boundary by the relative order of the cards still in play:
    for each suit, the owners of its live cards from the highest down. Positions that
    differ only in which lower cards have gone are the same game (every rule compares
    cards only with cards still in play), so they share an entry.

    A suit's code is Σ owner · 3^i over its live cards, i the number of live cards below
    (owner 0, 1, 2: the players), read off two table look-ups per owner."""
    key = 0
    for s in range(4):
        shift = 8 * s
        seg = (live >> shift) & 0xFF
        first = (hands[1] >> shift) & seg
        other = seg & ~((hands[0] >> shift) | first)
        code = _BASE3[_COMPRESS[seg, first]] + 2 * _BASE3[_COMPRESS[seg, other]]
        key = key * SUIT_CODES + _OFFSET[_COUNT[seg]] + code
    return ((key * 4 + leader) * 4 + decl) * 8 + trump + 1


@_jit
def _bucket(key):
    """The first of the ``TT_PROBES`` entries (one cache line) where ``key`` may be."""
    return ((key * 0x5E3779B97F4A7C15) >> 24) & (TT_SIZE - TT_PROBES)


@_jit
def _tt_get(tt, key, gen):
    """Packed bounds (lo | hi << 8 | (lead + 1) << 16) of ``key`` or −1."""
    h = _bucket(key)
    for j in range(h, h + TT_PROBES):
        if (tt[j, 1] >> 24) != gen:
            return -1
        if tt[j, 0] == key:
            return tt[j, 1] & 0xFFFFFF
    return -1


@_jit
def _tt_put(tt, key, value, gen):
    h = _bucket(key)
    for j in range(h, h + TT_PROBES):
        if (tt[j, 1] >> 24) != gen or tt[j, 0] == key:
            tt[j, 0] = key
            tt[j, 1] = (gen << 24) | value
            return
    tt[h, 0] = key
    tt[h, 1] = (gen << 24) | value


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
def _store(fr, ply, result, card, tt, gen):
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
    _tt_put(tt, fr[ply, F_KEY], lo | (hi << 8) | ((card + 1) << 16), gen)


@_jit(inline=True)
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
            return 7 - rank if not beats else 8 + rank
    return 7 - rank if not beats else 8 + rank


@_jit
def search(hands, nxt, nplay, decl, trump, beat, maxd, leader, need, tt, buf, fr, gen):
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
                packed = _tt_get(tt, key, gen)
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
                _store(fr, ply, ret, -1, tt, gen)
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
                _store(fr, ply, ret, buf[ply, fr[ply, F_I]] & 63, tt, gen)
            else:
                fr[ply, F_I] += 1
                mode = _NEXT


@_jit
def value(hands, nxt, nplay, decl, trump, beat, maxd, leader, low, high, tt, buf, fr, gen):
    """The declarer's tricks under best play (``leader`` to lead), known to lie between
    ``low`` and ``high``: a binary search of null-window tests; at мизер, where the count
    is mostly small, upward from ``low`` (fewer nodes than halving, measured)."""
    lo = low
    hi = high
    if not maxd:
        while lo < hi and search(
            hands, nxt, nplay, decl, trump, beat, maxd, leader, lo + 1, tt, buf, fr, gen
        ):
            lo += 1
        return lo
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if search(hands, nxt, nplay, decl, trump, beat, maxd, leader, mid, tt, buf, fr, gen):
            lo = mid
        else:
            hi = mid - 1
    return lo


@_jit
def best_discard(
    hands, nxt, nplay, decl, trump, beat, maxd, leader, full, pairs, bound, tt, buf, fr, gen
):
    """The declarer holds ``full`` (his hand and the talon); ``pairs`` lists the discards
    (bitmasks) in the fixed order of choice; ``bound`` is what one of them is known to
    reach (the most tricks when he maximises, the fewest at мизер; there, the hand's size
    when nothing is known). Returns (tricks, index of the first best discard in that
    order)."""
    best = bound
    choice = -1
    for i in range(pairs.shape[0]):
        hands[decl] = full ^ pairs[i]
        if maxd:
            target = best if choice < 0 else best + 1
            while search(
                hands, nxt, nplay, decl, trump, beat, maxd, leader, target, tt, buf, fr, gen
            ):
                best = target
                choice = i
                target += 1
        elif choice < 0:
            # Until one reaches ``bound``: this discard's count, upward from 0 (or more
            # than ``bound``).
            count = 0
            while count <= best and search(
                hands, nxt, nplay, decl, trump, beat, maxd, leader, count + 1, tt, buf, fr, gen
            ):
                count += 1
            if count <= best:
                best = count
                choice = i
        else:
            if best == 0:
                break  # no trick at all: no later discard does better
            # Held to ``target`` tricks = the defence cannot force ``target + 1``.
            target = best - 1
            while target >= 0 and not search(
                hands, nxt, nplay, decl, trump, beat, maxd, leader, target + 1, tt, buf, fr, gen
            ):
                best = target
                choice = i
                target -= 1
    hands[decl] = full
    return best, choice
