"""Builders shared by the Russian game's tests: a JSON sheet and its settlement."""

from scoring.games.russian import InvalidInput, deal_from_json, settle_json


def sheet(game="sochi", **fields):
    """A JSON sheet of ``game`` (a convention name or a rules object), None fields left out."""
    rules = game if isinstance(game, dict) else {"game": game}
    return {"rules": rules, **{k: v for k, v in fields.items() if v is not None}}


def answer(game="sochi", **fields):
    return settle_json(sheet(game, **fields))


def codes(data) -> dict[str, list[str]]:
    """The message codes of a refused sheet, by field ({} when it is valid)."""
    try:
        deal_from_json(data)
    except InvalidInput as error:
        return error.problems.codes()
    return {}
