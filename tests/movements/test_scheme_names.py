"""The built-in schemes are named in the reader's language (issue 21, finding 11): the
fixture's names are Russian, the schemes page says them in English too."""

import re

import pytest

from movements.models import BUILTIN_NAMES, builtin_title
from movements.schemes import builtin_counts, load_schemes

pytestmark = pytest.mark.django_db


def test_every_built_in_scheme_has_a_name_in_the_catalogue():
    assert sorted(BUILTIN_NAMES) == sorted(builtin_counts())
    for count, scheme in load_schemes().items():
        assert scheme["name"].startswith(f"{count} участник"), scheme["name"]


def test_the_schemes_page_names_the_built_in_ones_in_the_readers_language(director_client):
    en = director_client.get("/director/schemes/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "9 participants: 2 tables and a pause, one set for both tables" in en
    assert not re.search("[а-яё]", en.split("Built-in schemes")[1], re.I)
    ru = director_client.get("/director/schemes/").content.decode()
    for scheme in load_schemes().values():
        assert scheme["name"] in ru  # the Russian names are the fixture's


def test_a_count_the_catalogue_does_not_know_keeps_the_fixtures_name():
    assert builtin_title(10, "10 участников") == "10 участников"
