"""Issue 22's acceptance, the API half: a Ленинград event of 8 players (the 8-player special
scheme, 2 tables of 4, 7 rounds, both tables playing each set) is created, seated, scored and
published through the API alone. Every deal of the session gets a sheet at both tables, and
the sheets hold every outcome of the note at least once — made with two whisters, a lone
whister, both pass, полвиста (on a 6 and a 7), down with консоляция, a whister short (of a
pair, alone, and two whisters at 8 who took nothing), мизер made and caught, распасы, and a
whisted 10 (made against a lone whister short of its norm, made with both passing, and down).
A checked 10 is Ленинград's only with the option: left to the Сочи test.

The published standings, every traveller and every personal card equal an independent
computation written here from docs/game.md §9 alone — what each seat writes
(пуля, гора, висты with Ленинград's m = 2, r = ½), the vist balance «по средней горе» with
k_p = 20, k_m = 10, and matchpoints with Neuberg (docs/game.md §4.1): nothing of
``scoring.games`` or ``scoring.compare`` is asked for a figure. Bad Russian sheets posted
through the API are a 400 naming the field, in the language asked for."""

from collections import defaultdict
from fractions import Fraction

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.models import ScoreSheet

pytestmark = pytest.mark.django_db

GAME_LINE = "Ленинград · 10 вистуется · ответственность половинная"
RULES = {"game": "leningrad", "ten": "whisted", "responsibility": "half", "stalingrad": False}
CLOCKWISE = "WNES"

# --- the note's Ленинград, written out -----------------------------------------------------

PRICE = {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}  # p of a level; мизер 10
NORM = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}  # n, the pair's norm (10: whisted in Ленинград)
M = 2  # гора and whists doubled
R = Fraction(1, 2)  # half responsibility
K_POOL, K_MOUNTAIN = 20, 10  # a pool point and a mountain point, in whists
MISERE = 10


def level_of(contract: str) -> int:
    return int(contract[:-2] if contract.endswith("NT") else contract[:-1])


def written(sheet: dict, seats: str) -> tuple[dict, dict, dict]:
    """(pool, mountain, whists[writer][on]) of one deal played by ``seats``, from the note's
    table «Writing one deal» (and «Распасы»: Ленинград, гора 2 a trick, pool 2 for none)."""
    pool = dict.fromkeys(seats, 0)
    mountain = dict.fromkeys(seats, 0)
    whists: dict[str, dict[str, Fraction]] = {s: {} for s in seats}

    def write(writer, on, amount):
        if amount:
            whists[writer][on] = whists[writer].get(on, 0) + amount

    contract, tricks = sheet["contract"], sheet.get("tricks", {})
    if contract == "passed":
        for seat in seats:
            if tricks[seat]:
                mountain[seat] += 2 * tricks[seat]
            else:
                pool[seat] += 2
        return pool, mountain, whists
    declarer = sheet["declarer"]
    if contract == "misere":
        took = tricks[declarer]
        if took:
            mountain[declarer] += MISERE * took * M
        else:
            pool[declarer] += MISERE
        return pool, mountain, whists
    level = level_of(contract)
    p, n = PRICE[level], NORM[level]
    decisions = sheet["defenders"]
    whisters = [s for s, d in decisions.items() if d == "whist"]
    passers = [s for s, d in decisions.items() if d == "pass"]
    halves = [s for s, d in decisions.items() if d == "half"]
    if halves:  # полвиста: the half-whister writes half the norm, the deal is not played
        pool[declarer] += p
        write(halves[0], declarer, Fraction(n, 2) * p * M)
        return pool, mountain, whists
    if not whisters:  # both pass: made
        pool[declarer] += p
        return pool, mountain, whists
    defence = 10 - tricks[declarer]
    own = {w: defence if len(whisters) == 1 else tricks[w] for w in whisters}
    if tricks[declarer] >= level:
        pool[declarer] += p
        for w in whisters:
            write(w, declarer, own[w] * p * M)
        missed = {}
        if defence < n:
            if len(whisters) == 1:
                missed = {whisters[0]: n - defence}
            elif level in (6, 7):
                half = n // 2
                missed = {w: half - own[w] for w in whisters if own[w] < half}
            else:
                missed = dict.fromkeys(whisters, 1)
        for w, k in missed.items():
            mountain[w] += k * p * M * R
        return pool, mountain, whists
    down = level - tricks[declarer]
    mountain[declarer] += down * p * M
    for w in whisters:
        write(w, declarer, own[w] * p * M + down * p * M)
    for other in passers:  # консоляция
        write(other, declarer, down * p * M)
    return pool, mountain, whists


def balance(pool: dict, mountain: dict, whists: dict) -> dict[str, Fraction]:
    """score(X) = k_p·(pool(X) − mean pool) − k_m·(mountain(X) − mean mountain)
    + Σ whists X wrote − Σ whists written on X."""
    seats = list(pool)
    mean_pool = Fraction(sum(pool.values()), len(seats))
    mean_mountain = Fraction(sum(mountain.values()), len(seats))
    scores = {}
    for x in seats:
        wrote = sum(whists[x].values())
        on_him = sum(whists[y].get(x, 0) for y in seats)
        scores[x] = (
            K_POOL * (pool[x] - mean_pool)
            - K_MOUNTAIN * (mountain[x] - mean_mountain)
            + wrote
            - on_him
        )
    return scores


def percents(results: list[Fraction | None], expected: int) -> list[Fraction | None]:
    """Matchpoints (docs/game.md §4.1): 2 for each result beaten, 1 for each tie, on a top of
    2(n − 1), as a percentage (a result alone 50 %); restated by Neuberg to the ``expected``
    number of results when fewer were scored. None: no result."""
    real = [r for r in results if r is not None]
    n = len(real)
    found = []
    for mine in results:
        if mine is None:
            found.append(None)
            continue
        if n == 1:
            found.append(Fraction(50))
            continue
        points = sum(2 if mine > other else 1 if mine == other else 0 for other in real) - 1
        percent = Fraction(100 * points, 2 * (n - 1))
        if n < expected:
            percent = (percent - 50) * Fraction(n - 1, n) * Fraction(expected, expected - 1) + 50
        found.append(percent)
    return found


def ranks(totals: dict[int, Fraction]) -> dict[int, str]:
    """Best first; ties share the range «3–4»."""
    order = sorted(totals, key=lambda k: -totals[k])
    labels, place = {}, 0
    while place < len(order):
        end = place
        while end + 1 < len(order) and totals[order[end + 1]] == totals[order[place]]:
            end += 1
        label = str(place + 1) if end == place else f"{place + 1}\u2013{end + 1}"
        for k in order[place : end + 1]:
            labels[k] = label
        place = end + 1
    return labels


def rounded(value: Fraction, places: int) -> float:
    return round(float(value), places)


# --- the sheets: each outcome as a sheet of declarer d, left defender l, right r -----------


def _numeric(contract, tricks=None, **decisions):
    def make(d, left, right):
        sheet = {
            "declarer": d,
            "contract": contract,
            "defenders": {left: decisions["left"], right: decisions["right"]},
        }
        if tricks is not None:
            named = {"d": d, "l": left, "r": right}
            sheet["tricks"] = {named[k]: v for k, v in tricks.items()}
        return sheet

    return make


def _misere(took):
    return lambda d, left, right: {"declarer": d, "contract": "misere", "tricks": {d: took}}


def _passed(first, second, third):
    # The three in speaking order from the declarer-to-be; the tricks add up to 10.
    return lambda a, b, c: {"contract": "passed", "tricks": {a: first, b: second, c: third}}


OUTCOMES = {
    "made, two whisters": _numeric("6S", {"d": 6, "l": 3, "r": 1}, left="whist", right="whist"),
    "made, a lone whister": _numeric("7H", {"d": 7, "l": 3}, left="whist", right="pass"),
    "both pass": _numeric("8D", left="pass", right="pass"),
    "полвиста on a 6": _numeric("6C", left="pass", right="half"),
    "down, консоляция": _numeric("7S", {"d": 6, "l": 4}, left="whist", right="pass"),
    "мизер made": _misere(0),
    "распасы": _passed(5, 0, 5),
    "a whister short of his half": _numeric(
        "6H", {"d": 8, "l": 2, "r": 0}, left="whist", right="whist"
    ),
    "a whisted 10 made, a lone whister short": _numeric(
        "10S", {"d": 10, "l": 0}, left="whist", right="pass"
    ),
    "мизер caught": _misere(2),
    "a lone whister short": _numeric("6D", {"d": 7, "l": 3}, left="whist", right="pass"),
    "down, two whisters": _numeric("6S", {"d": 5, "l": 3, "r": 2}, left="whist", right="whist"),
    "полвиста on a 7": _numeric("7D", left="pass", right="half"),
    "two whisters at 8 with nothing": _numeric(
        "8NT", {"d": 10, "l": 0, "r": 0}, left="whist", right="whist"
    ),
    "a whisted 10 down": _numeric("10NT", {"d": 9, "l": 1, "r": 0}, left="whist", right="whist"),
    "распасы, all took": _passed(3, 3, 4),
    "a 9 made, the pair its norm": _numeric(
        "9H", {"d": 9, "l": 1, "r": 0}, left="whist", right="whist"
    ),
    "a 7 made, each his half": _numeric(
        "7C", {"d": 8, "l": 1, "r": 1}, left="whist", right="whist"
    ),
    "a whisted 10, both pass": _numeric("10D", left="pass", right="pass"),
    "down two, a lone whister": _numeric("6NT", {"d": 4, "r": 6}, left="pass", right="whist"),
    "made, the first passes": _numeric("7NT", {"d": 8, "r": 2}, left="pass", right="whist"),
}
NAMES = list(OUTCOMES)


def speaking(deal: dict) -> str:
    """The deal's three seats clockwise from first hand."""
    start = CLOCKWISE.index(deal["first_hand"])
    turn = CLOCKWISE[start:] + CLOCKWISE[:start]
    return "".join(s for s in turn if s in deal["active_seats"])


def sheet_for(index: int, table: int, deal: dict) -> tuple[str, dict]:
    """The outcome and sheet of the ``index``-th deal of the session (0–27) at ``table``
    (1, 2): table 1 goes through the outcomes in turn, the declarer moving round the three;
    table 2 plays another outcome, except on every fifth deal, where both tables agree (so
    that their pockets tie)."""
    order = speaking(deal)
    if table == 1 or index % 5 == 0:
        name, turn = NAMES[index % len(NAMES)], index % 3
    else:
        name, turn = NAMES[(index * 3 + 5) % len(NAMES)], (index + 1) % 3
    seats = order[turn:] + order[:turn]
    return name, OUTCOMES[name](*seats)


# --- the API --------------------------------------------------------------------------------


def _post(api, url, data, status=(200, 201)):
    response = api.post(url, data, format="json")
    assert response.status_code in ((status,) if isinstance(status, int) else status), (
        url,
        response.content.decode(),
    )
    return response.json()


def _get(api, url):
    response = api.get(url)
    assert response.status_code == 200, (url, response.content.decode())
    return response.json()


@pytest.fixture
def api(director):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=director).key}")
    return client


def _leningrad_event(api) -> dict:
    event = _post(
        api,
        "/api/v1/events/",
        {"name": "Кубок Петербурга", "date": "2026-12-19", "game": "leningrad"},
        status=201,
    )
    base = f"/api/v1/events/{event['id']}"
    for i in range(8):
        _post(api, f"{base}/entries/", {"last_name": f"Игроков{i + 1}", "first_name": "Пётр"})
    _post(api, f"{base}/draws/", {"seed": "ленинград"}, status=201)
    plan = _get(api, f"{base}/plan/")
    (choice,) = [
        i
        for i, option in enumerate(plan["options"])
        if all(r["kind"] == "scheme" and r["seats"] == 4 for r in option["rooms"])
    ]
    session = _post(api, f"{base}/sessions/", {"option": choice}, status=201)
    return event | {"base": base, "session": session}


def test_a_leningrad_event_of_8_on_the_api_equals_the_note(api, client):
    event = _leningrad_event(api)
    base = event["base"]
    # The event names its game and every option (the convention's defaults filled in).
    assert {k: event[k] for k in RULES} == RULES and event["game_line"] == GAME_LINE
    assert _get(api, f"{base}/")["game_line"] == GAME_LINE
    (room,) = event["session"]["rooms"]
    assert (room["kind"], room["seats"], room["tables"]) == ("scheme", 4, 2)

    # Who sits where, round by round (the movements API).
    seated: dict[tuple[int, int], dict[str, int]] = {}
    for number in range(1, 8):
        found = _get(api, f"/api/v1/sessions/{event['session']['id']}/rounds/{number}/")
        for table in found["rooms"][0]["tables"]:
            seated[(number, table["table"])] = {
                p: who["entry"] for p, who in table["seats"].items() if who
            }
    plays = _get(api, f"{base}/plays/")
    assert len(plays) == 14 and all(len(p["deals"]) == 4 for p in plays)

    # Every deal at both tables, by the director: his word confirms it.
    expected: dict[tuple[int, int, int], dict] = {}  # (set, deal, table) → what the note says
    seen = set()
    sets = sorted({p["set"] for p in plays})
    assert len(sets) == 7
    for play in sorted(plays, key=lambda p: (p["round"], p["table"])):
        for deal in play["deals"]:
            index = sets.index(play["set"]) * 4 + deal["number"] - 1
            name, data = sheet_for(index, play["table"], deal)
            seen.add(name)
            body = _post(
                api, f"{base}/sheets/", {"play": play["id"], "deal": deal["number"]} | data
            )
            assert body["outcome"] == "created" and body["status"] == "confirmed", body
            pool, mountain, whists = written(data, deal["active_seats"])
            scores = balance(pool, mountain, whists)
            result = body["result"]
            # What each seat writes, and the balance as a JSON number (2 decimals).
            assert result["scores"] == {s: rounded(v, 2) for s, v in scores.items()}, name
            assert all(type(v) is float for v in result["scores"].values())
            assert result["pool"] == pool and result["mountain"] == mountain, name
            assert result["whists"] == {w: on for w, on in whists.items() if on}, name
            assert result["rules"] == RULES
            assert sum(scores.values()) == 0
            expected[(play["set"], deal["number"], play["table"])] = {
                "play": play,
                "deal": deal,
                "name": name,
                "sheet": data,
                "pool": pool,
                "mountain": mountain,
                "whists": whists,
                "scores": scores,
                "players": seated[(play["round"], play["table"])],
            }
    assert seen == set(OUTCOMES), set(OUTCOMES) - seen
    assert len(expected) == 56
    # The sheet's own answers agree: listed, each confirmed, its scores numbers.
    listed = _get(api, f"{base}/sheets/")
    assert len(listed) == 56 and {s["status"] for s in listed} == {"confirmed"}
    history = _get(api, f"{base}/sheets/{listed[0]['id']}/history/")
    assert all(type(v) is float for v in history["versions"][0]["result"]["scores"].values())

    # The independent comparison: each pocket against the same pocket at the other table.
    figures: dict[tuple[int, int, int], dict[str, Fraction]] = defaultdict(dict)
    per_player: dict[int, list[Fraction]] = defaultdict(list)
    for set_number in sets:
        for deal_number in range(1, 5):
            at = [expected[(set_number, deal_number, t)] for t in (1, 2)]
            for pocket in at[0]["deal"]["active_seats"]:
                got = percents([row["scores"][pocket] for row in at], expected=2)
                for row, table, percent in zip(at, (1, 2), got, strict=True):
                    figures[(set_number, deal_number, table)][pocket] = percent
                    per_player[row["players"][pocket]].append(percent)
    assert {len(v) for v in per_player.values()} == {21}  # 7 rounds × 3 deals, one sat out
    totals = {entry: sum(v) / len(v) for entry, v in per_player.items()}
    places = ranks(totals)

    published = _post(api, f"{base}/results-public/", {"public": True})
    assert published == {"public": True, "deals": {"shown": 28, "total": 28}}

    # The public standings (anyone: no credentials).
    standing = _get(client, f"{base}/standings/")
    assert {k: standing[k] for k in ("game", "rules", "game_line")} == {
        "game": "leningrad",
        "rules": RULES,
        "game_line": GAME_LINE,
    }
    assert standing["method"] == "matchpoints" and standing["by"] == "average"
    assert [(r["entry"], r["rank"], r["total"], r["deals"]) for r in standing["standings"]] == [
        (entry, places[entry], rounded(totals[entry], 4), 21)
        for entry in sorted(totals, key=lambda k: (-totals[k], _number_of(standing, k)))
    ]
    assert _get(client, f"{base}/standings/?session=1")["standings"] == standing["standings"]
    english = client.get(f"{base}/standings/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert english["game_line"] == "Leningrad · 10 whisted · half responsibility"

    # Every personal card, row by row; the first one gives the deals' ids for the travellers.
    deal_ids = {}
    for entry in totals:
        card = _get(client, f"{base}/players/{entry}/card/")
        assert (card["game"], card["rules"], card["game_line"]) == ("leningrad", RULES, GAME_LINE)
        assert len(card["deals"]) == 28
        for row in card["deals"]:
            set_number, deal_number = map(int, row["deal"].split("."))
            mine = expected[(set_number, deal_number, row["table"])]
            assert mine["players"][row["position"]] == entry
            assert not row["in_play"] and row["session"] == 1
            assert row["round"] == mine["play"]["round"]
            deal_ids[row["deal"]] = row["deal_id"]
            pocket = row["position"]
            assert row["result"]["scores"] == {s: rounded(v, 2) for s, v in mine["scores"].items()}
            if row["sits_out"]:
                assert pocket not in mine["deal"]["active_seats"]
                assert row["score"] is None
                assert (row["pool"], row["mountain"], row["whists"]) == (None, None, None)
                continue
            assert row["pool"] == mine["pool"][pocket], (row["deal"], mine["name"])
            assert row["mountain"] == mine["mountain"][pocket], (row["deal"], mine["name"])
            assert row["whists"] == mine["whists"][pocket], (row["deal"], mine["name"])
            percent = figures[(set_number, deal_number, row["table"])][pocket]
            assert row["score"] == {
                "points": rounded(mine["scores"][pocket], 2),
                "artificial": None,
                "figure": rounded(percent, 4),
                "penalty": 0.0,
                "net": rounded(percent, 4),
                "second": f"{float(percent / 50):g}",  # matchpoints on a top of 2
            }, (row["deal"], mine["name"])
        (session_row,) = card["sessions"]
        assert session_row["rank"] == places[entry]
        assert session_row["total"] == rounded(totals[entry], 4)

    # Every traveller: both tables' rows and figures.
    assert len(deal_ids) == 28
    for code, deal_id in deal_ids.items():
        set_number, deal_number = map(int, code.split("."))
        traveller = _get(client, f"{base}/deals/{deal_id}/traveller/")
        assert (traveller["game"], traveller["rules"]) == ("leningrad", RULES)
        assert traveller["game_line"] == GAME_LINE
        assert traveller["deal"] == code and traveller["expected"] == 2
        active = expected[(set_number, deal_number, 1)]["deal"]["active_seats"]
        assert traveller["active_seats"] == active
        assert traveller["played"] == dict.fromkeys(active, 2)
        assert [t["table"] for t in traveller["tables"]] == [1, 2]
        for table in traveller["tables"]:
            mine = expected[(set_number, deal_number, table["table"])]
            assert table["round"] == mine["play"]["round"] and table["status"] == "confirmed"
            assert table["players"] == mine["players"]
            assert table["result"]["scores"] == {
                s: rounded(v, 2) for s, v in mine["scores"].items()
            }
            assert table["result"]["sheet"]["contract"] == mine["sheet"]["contract"]
            percent = figures[(set_number, deal_number, table["table"])]
            assert table["figures"] == {
                pocket: {
                    "points": rounded(mine["scores"][pocket], 2),
                    "artificial": None,
                    "figure": rounded(percent[pocket], 4),
                    "penalty": 0.0,
                    "net": rounded(percent[pocket], 4),
                    "second": f"{float(percent[pocket] / 50):g}",
                }
                for pocket in active
            }, (code, mine["name"])
    assert ScoreSheet.objects.count() == 56


def _number_of(standing: dict, entry: int) -> int:
    """Rows of one figure keep the standing's own order; compare them by it."""
    return next(i for i, r in enumerate(standing["standings"]) if r["entry"] == entry)


# --- bad sheets: a 400 naming the field, never a 500 ---------------------------------------

SIX_MADE = {
    "declarer": "N",
    "contract": "6S",
    "defenders": {"E": "whist", "S": "whist"},
    "tricks": {"N": 6, "E": 3, "S": 1},
}
#: (what replaces the good sheet's fields — None leaves one out —, the field named).
BAD_SHEETS = [
    ({"contract": "6X"}, "contract"),
    ({"contract": ["6S"]}, "contract"),
    ({"contract": None}, "contract"),
    ({"declarer": "Q"}, "declarer"),
    ({"defenders": "whist"}, "defenders"),
    ({"defenders": {"E": "maybe", "S": "whist"}}, "defenders.E"),
    ({"contract": "8S", "defenders": {"E": "pass", "S": "half"}, "tricks": None}, "defenders.S"),
    ({"defenders": {"E": "half", "S": "pass"}, "tricks": None}, "defenders.E"),
    ({"contract": "misere", "defenders": {"E": "whist", "S": "pass"}}, "defenders"),
    ({"contract": "passed", "defenders": None, "tricks": {"N": 5, "E": 5}}, "declarer"),
    ({"tricks": {"N": 6, "E": 3, "S": 3}}, "tricks"),
    ({"tricks": {"N": True, "E": 3, "S": 1}}, "tricks.N"),
    ({"tricks": {"N": 6.5, "E": 3, "S": 1}}, "tricks.N"),
    ({"tricks": {"N": "1e400", "E": 3, "S": 1}}, "tricks.N"),
    ({"tricks": {"N": 10**30, "E": 3, "S": 1}}, "tricks.N"),
    ({"tricks": {"X": 6, "E": 3, "S": 1}}, "tricks.X"),
    ({"tricks": [6, 3, 1]}, "tricks"),
    ({"trump": "spades"}, "trump"),  # the Austrian sheet's field
    ({"rules": {"game": "leningrad", "ten": "checked"}}, "rules"),  # the event's, not his
    ({"seats": ["N", "E", "W"]}, "seats"),
    ({"auction": "N 6S"}, "auction"),
    ({"auction": ["N 6S", "E pass"]}, "auction"),
    ({"auction": [{"seat": "N"}]}, "auction.0"),
    ({"auction": ["N 7S", "E pass", "S pass"]}, "contract"),
    ({"talon": "SA SA"}, "talon"),
    ({"talon": 5}, "talon"),
    ({"expected_version": "x"}, "expected_version"),
    ({"deal": 5}, "deal"),
]


def test_bad_russian_sheets_are_a_400_naming_the_field(api):
    event = _leningrad_event(api)
    play = _get(api, f"{event['base']}/plays/")[0]
    url = f"{event['base']}/sheets/"
    for change, field in BAD_SHEETS:
        data = {"play": play["id"], "deal": 1} | SIX_MADE | change
        data = {k: v for k, v in data.items() if v is not None}
        response = api.post(url, data, format="json")
        assert response.status_code == 400, (change, response.content.decode())
        assert field in response.json(), (change, response.json())
    # Malformed JSON and a body that is not an object: 400 too.
    for raw in (f'{{"play": {play["id"]}, "deal": 1, "tricks": {{"N": 1e400}}}}', "[1, 2]", "{"):
        assert api.post(url, raw, content_type="application/json").status_code == 400, raw
    assert not ScoreSheet.objects.exists()
    # In the request's language: Russian first, English when asked.
    bad = {"play": play["id"], "deal": 1, "declarer": "N", "contract": "8S"}
    bad["defenders"] = {"E": "pass", "S": "half"}
    russian = api.post(url, bad, format="json")
    assert russian.json() == {"defenders.S": ["полвиста бывает только на шестерной и семерной"]}
    english = api.post(url, bad, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 400
    assert english.json() == {"defenders.S": ["half whist is only on a 6 or a 7"]}
    short = {"play": play["id"], "deal": 1} | SIX_MADE | {"tricks": {"N": 6, "E": 3, "S": 3}}
    assert api.post(url, short, format="json", HTTP_ACCEPT_LANGUAGE="en").json() == {
        "tricks": ["the tricks must add up to 10, they add up to 12"]
    }
