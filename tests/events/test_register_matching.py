"""The register's pure matching core (issue 24; docs/register.md): the name key and what
``propose`` proposes — identifier first, then the name and the club; never a silent merge."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events.register.matching import (
    FOUND,
    NEW,
    SEVERAL,
    Candidate,
    Row,
    club_key,
    name_key,
    propose,
)


@pytest.mark.parametrize(
    "spellings",
    [
        [("Семёнов", "Пётр"), ("Семенов", "Петр"), ("семенов", "петр"), ("СЕМЁНОВ", "ПЁТР")],
        [("Петров-Водкин", "Кузьма"), ("Петров Водкин", "Кузьма"), ("петров водкин", "кузьма")],
        [("  Иванов ", "Иван"), ("Иванов", " Иван  "), ("Ива нов", "Иван")],
        [("Салтыков–Щедрин", "Михаил"), ("Салтыков-Щедрин", "Михаил")],
    ],
)
def test_one_name_written_differently_has_one_key(spellings):
    assert len({name_key(last, first) for last, first in spellings}) == 1


def test_different_names_have_different_keys():
    assert name_key("Семенов", "Петр") != name_key("Семенова", "Петр")
    assert name_key("Иванов", "Иван") != name_key("Иванов", "Иван", "Иванович")
    assert name_key("Ель", "Ян") == name_key("Ёль", "Ян")


def test_the_patronymic_typed_in_the_first_name_is_the_same_key():
    # A pasted «Иванов Иван Иванович» has the first name «Иван Иванович».
    assert name_key("Иванов", "Иван Иванович") == name_key("Иванов", "Иван", "Иванович")


def test_club_keys_follow_the_same_rules():
    assert club_key("ЦДШ") == club_key("цдш") == club_key(" Ц-Д Ш ")
    assert club_key("Ёлки") == club_key("елки")
    assert club_key("") == ""


_letters = st.text(alphabet="абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВЁЕЖ -", max_size=12)


@given(_letters, _letters, _letters)
def test_key_ignores_case_yo_spaces_and_hyphens(last, first, patronymic):
    key = name_key(last, first, patronymic)
    assert key == name_key(last.upper(), first.lower(), patronymic.swapcase())
    assert key == name_key(last.replace("ё", "е").replace("Ё", "Е"), first, patronymic)
    assert key == name_key(last.replace(" ", "-"), f" {first} ", patronymic.replace("-", " "))
    assert " " not in key and "-" not in key and "ё" not in key


def _c(pk, last, first, club="", patronymic="", ids=()):
    return Candidate(pk, last, first, patronymic, club, frozenset(ids))


SEMENOV = _c(1, "Семёнов", "Пётр", "ЦДШ")
SEMENOV_SPB = _c(2, "Семенов", "Петр", "Питер")
IVANOV = _c(3, "Иванов", "Иван", "", ids={("club_card", "77")})


def test_nobody_of_that_name_is_new():
    assert propose(Row("Сидоров", "Сидор", club="ЦДШ"), [SEMENOV, IVANOV]).state == NEW
    assert propose(Row("Сидоров", "Сидор"), []).state == NEW


def test_same_name_and_club_is_found_by_name():
    proposal = propose(Row("семенов", "петр", club="цдш"), [SEMENOV, IVANOV])
    assert (proposal.state, proposal.person, proposal.by) == (FOUND, SEMENOV, "name")


def test_same_name_other_club_is_several():
    proposal = propose(Row("Семенов", "Петр", club="Сочи"), [SEMENOV])
    assert proposal.state == SEVERAL and proposal.persons == (SEMENOV,)
    assert proposal.person is None


def test_two_namesakes_are_several_even_when_one_has_the_club():
    proposal = propose(Row("Семенов", "Петр", club="ЦДШ"), [SEMENOV, SEMENOV_SPB, IVANOV])
    assert proposal.state == SEVERAL
    assert set(proposal.persons) == {SEMENOV, SEMENOV_SPB}


def test_a_blank_club_says_nothing():
    # A row with no club and one namesake: found; a person with no club: found too.
    assert propose(Row("Семенов", "Петр"), [SEMENOV]).person == SEMENOV
    assert propose(Row("Иванов", "Иван", club="ЦДШ"), [IVANOV]).person == IVANOV
    assert propose(Row("Семенов", "Петр"), [SEMENOV, SEMENOV_SPB]).state == SEVERAL


def test_identifier_first_whatever_the_name():
    row = Row("Петров", "Пётр", club="Сочи", identifiers=frozenset({("club_card", " 77 ")}))
    proposal = propose(row, [SEMENOV, IVANOV])
    assert (proposal.state, proposal.person, proposal.by) == (FOUND, IVANOV, "identifier")


def test_an_identifier_of_another_kind_does_not_match():
    row = Row("Петров", "Пётр", identifiers=frozenset({("federation", "77")}))
    assert propose(row, [IVANOV]).state == NEW


def test_an_unknown_identifier_falls_back_to_the_name():
    row = Row("Семенов", "Петр", club="ЦДШ", identifiers=frozenset({("club_card", "5")}))
    assert propose(row, [SEMENOV]).person == SEMENOV


def test_a_namesake_with_another_number_of_the_kind_is_only_similar():
    row = Row("Иванов", "Иван", identifiers=frozenset({("club_card", "78")}))
    proposal = propose(row, [IVANOV])
    assert proposal.state == SEVERAL and proposal.persons == (IVANOV,)


def test_identifiers_of_two_persons_are_several():
    a = _c(4, "А", "А", ids={("club_card", "1")})
    b = _c(5, "Б", "Б", ids={("federation", "2")})
    row = Row("А", "А", identifiers=frozenset({("club_card", "1"), ("federation", "2")}))
    proposal = propose(row, [a, b])
    assert proposal.state == SEVERAL and set(proposal.persons) == {a, b}


def test_a_patronymic_on_one_side_only_is_similar_not_found():
    with_patronymic = _c(6, "Кузнецов", "Олег", "ЦДШ", patronymic="Ильич")
    proposal = propose(Row("Кузнецов", "Олег", club="ЦДШ"), [with_patronymic])
    assert proposal.state == SEVERAL
    # Both patronymics given and different: another man.
    other = Row("Кузнецов", "Олег", patronymic="Петрович", club="ЦДШ")
    assert propose(other, [with_patronymic]).state == NEW
    # The same patronymic typed in the first name: found.
    assert propose(Row("Кузнецов", "Олег Ильич", club="ЦДШ"), [with_patronymic]).state == FOUND


@given(st.sampled_from([SEMENOV, SEMENOV_SPB, IVANOV]), st.booleans())
def test_a_persons_own_spelling_never_comes_back_new(person, with_club):
    row = Row(person.last_name, person.first_name, person.patronymic, person.club * with_club)
    proposal = propose(row, [SEMENOV, SEMENOV_SPB, IVANOV])
    assert proposal.state in (FOUND, SEVERAL) and person in proposal.persons


_part = st.sampled_from(["Иванов", "иванов", "Иван", "Иван Иванович", "Иванович", "Ёж", "еж", ""])
_candidates = st.lists(
    st.builds(
        lambda pk, last, first, patronymic, club, ids: Candidate(
            pk, last, first, patronymic, club, frozenset(ids)
        ),
        st.integers(1, 10**6),
        _part,
        _part,
        _part,
        st.sampled_from(["", "ЦДШ", "цдш", "Тула"]),
        st.sets(st.tuples(st.sampled_from(["club_card", "federation"]), st.sampled_from("12"))),
    ),
    max_size=6,
    unique_by=lambda c: c.id,
)


@given(_part, _part, _part, st.sampled_from(["", "ЦДШ", "Тула"]), _candidates)
def test_the_lookup_keys_lose_no_namesake(last, first, patronymic, club, candidates):
    """The register looks a row up by its lookup keys and numbers only: the proposal over
    those persons is the proposal over the whole register."""
    from events.register.matching import lookup_keys

    row = Row(last, first, patronymic, club, frozenset({("club_card", "1")}))
    keys = lookup_keys(last, first, patronymic)
    near = [
        c
        for c in candidates
        if keys & lookup_keys(c.last_name, c.first_name, c.patronymic)
        or c.identifiers & row.identifiers
    ]
    whole = propose(row, candidates)
    assert propose(row, near) == whole
