"""The register in the players' import, seen in Chromium (issue 24): the preview says
«новый», «найден: …» or «несколько похожих» for each row, the director chooses in each
row's select, and the players are linked to the persons he chose; at 1280 and 360 px."""

import pytest
from playwright.sync_api import expect

from events.models import Event, Person
from tests.browser.a11y import check_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CSV = (
    "Фамилия;Имя;Клуб;Клубная карта\n"
    "Семенов;Петр;ЦДШ;\n"
    "Иванов;Иван;Сочи;\n"
    "Петров-Водкин;Кузьма;Тула;\n"
    "Новиков;Нил;;\n"
    "Орлов;Олег;Пермь;77\n"
)


def _login(page, base):
    page.goto(f"{base}/director/login/")
    page.get_by_label("Имя пользователя").fill("judge")
    page.get_by_label("Пароль").fill("s3cret-pass-1")
    page.get_by_role("button", name="Войти").click()


def _register(user):
    made = {}
    for last, first, club in [
        ("Семёнов", "Пётр", "ЦДШ"),
        ("Иванов", "Иван", "ЦДШ"),
        ("Иванов", "Иван", "Питер"),
        ("Петров Водкин", "Кузьма", "Тула"),
        ("Кузнецов", "Олег", "Пермь"),
    ]:
        made[(last, club)] = Person.objects.create(
            owner=user, last_name=last, first_name=first, club=club
        )
    made[("Кузнецов", "Пермь")].identifiers.create(kind="club_card", value="77")
    return made


@pytest.mark.parametrize("width", [1280, 360])
def test_the_import_preview_proposes_and_the_director_confirms(
    live_server, browser, django_user_model, tmp_path, shot, width
):
    user = django_user_model.objects.create_user(username="judge", password="s3cret-pass-1")
    persons = _register(user)
    event = Event.objects.create(owner=user, name="Кубок реестра", date="2026-12-12")
    csv_file = tmp_path / "игроки.csv"
    csv_file.write_bytes(CSV.encode("cp1251"))
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="ru-RU")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        _login(page, live_server.url)
        page.goto(f"{live_server.url}/director/events/{event.pk}/players/import/")
        page.get_by_label("Файл CSV (UTF-8 или Windows-1251)").set_input_files(str(csv_file))
        page.get_by_role("button", name="Просмотр").click()
        rows = page.locator("#preview tbody tr")
        expect(rows).to_have_count(5)
        expect(rows.nth(0)).to_contain_text("найден: Семёнов Пётр (ЦДШ)")
        expect(rows.nth(1)).to_contain_text("несколько похожих")
        expect(rows.nth(2)).to_contain_text("найден: Петров Водкин Кузьма (Тула)")
        expect(rows.nth(3)).to_contain_text("новый")
        expect(rows.nth(4)).to_contain_text("найден: Кузнецов Олег (Пермь)")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert check_page(page) == []
        shot(page, f"register-import-preview-{width}")

        # «Добавить» without choosing the similar one: refused, nothing saved, named line.
        page.get_by_role("button", name="Добавить в турнир: 5 игроков").click()
        expect(
            page.get_by_text("Выберите, кто игрок строки 3; ничего не сохранено.")
        ).to_be_visible()
        assert not event.entries.exists()
        piter = persons[("Иванов", "Питер")]
        page.get_by_label("Кто игрок строки 3").select_option(str(piter.pk))
        page.get_by_role("button", name="Добавить в турнир: 5 игроков").click()
        expect(page.get_by_text("Добавлено 5 игроков.")).to_be_visible()
        shot(page, f"register-import-done-{width}")
    finally:
        context.close()

    linked = {e.last_name: e.person for e in event.entries.select_related("person")}
    assert linked["Семенов"] == persons[("Семёнов", "ЦДШ")]
    assert linked["Иванов"] == piter
    assert linked["Петров-Водкин"] == persons[("Петров Водкин", "Тула")]
    assert linked["Орлов"] == persons[("Кузнецов", "Пермь")]
    assert linked["Новиков"].full_name == "Новиков Нил"
    assert Person.objects.count() == 6


def test_the_add_form_and_the_paste_ask_on_a_phone(live_server, phone, django_user_model, shot):
    user = django_user_model.objects.create_user(username="judge", password="s3cret-pass-1")
    persons = _register(user)
    event = Event.objects.create(owner=user, name="Кубок реестра", date="2026-12-12")
    _login(phone, live_server.url)
    phone.goto(f"{live_server.url}/director/events/{event.pk}/players/add/")
    phone.get_by_label("Фамилия").fill("Иванов")
    phone.get_by_label("Имя").fill("Иван")
    phone.get_by_role("button", name="Сохранить", exact=True).click()
    expect(phone.get_by_text("В вашем реестре: несколько похожих")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert check_page(phone) == []
    shot(phone, "register-add-form-360")
    phone.get_by_label("Человек").select_option(str(persons[("Иванов", "ЦДШ")].pk))
    phone.get_by_role("button", name="Сохранить", exact=True).click()
    expect(phone.get_by_text("Иванов Иван добавлен")).to_be_visible()

    phone.goto(f"{live_server.url}/director/events/{event.pk}/players/paste/")
    phone.get_by_label("Игроки, по одному в строке").fill("Семенов Петр; ЦДШ\nИванов Иван; Питер\n")
    phone.get_by_role("button", name="Добавить игроков").click()
    expect(phone.get_by_text("подтвердите ниже")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert check_page(phone) == []
    shot(phone, "register-paste-360")
    phone.get_by_label("Кто игрок строки 2").select_option(str(persons[("Иванов", "Питер")].pk))
    phone.get_by_role("button", name="Добавить игроков").click()
    expect(phone.get_by_text("Добавлено 2 игрока.")).to_be_visible()
    assert event.entries.get(last_name="Семенов").person == persons[("Семёнов", "ЦДШ")]
    assert event.entries.get(club="Питер").person == persons[("Иванов", "Питер")]


@pytest.mark.parametrize("width", [1280, 360])
def test_the_register_pages_search_and_edit(live_server, browser, django_user_model, shot, width):
    from events.models import Entry

    user = django_user_model.objects.create_user(username="judge", password="s3cret-pass-1")
    persons = _register(user)
    event = Event.objects.create(owner=user, name="Кубок реестра", date="2026-12-12")
    vodkin = persons[("Петров Водкин", "Тула")]
    Entry.objects.create(
        event=event, last_name="Петров-Водкин", first_name="Кузьма", club="Тула", person=vodkin
    )
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="ru-RU")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        _login(page, live_server.url)
        page.get_by_role("link", name="Реестр игроков").click()
        expect(page.locator("#register tbody tr")).to_have_count(5)
        page.get_by_label("Поиск по имени, клубу или номеру").fill("петров-водкин")
        page.get_by_role("button", name="Найти").click()
        expect(page.locator("#register tbody tr")).to_have_count(1)
        assert check_page(page) == []
        shot(page, f"register-list-{width}")
        page.get_by_role("link", name="Петров Водкин Кузьма").click()
        expect(page.locator("#person-events")).to_contain_text("Петров-Водкин Кузьма (Тула)")
        page.get_by_label("Отчество").fill("Сергеевич")
        page.get_by_label("Скрыт с открытых страниц").check()
        page.get_by_label("Клубные карты").fill("78, 79")
        assert check_page(page) == []
        shot(page, f"register-person-{width}")
        page.get_by_role("button", name="Сохранить").click()
        expect(page.get_by_text("Сохранено.")).to_be_visible()
        expect(page.locator("#register")).to_contain_text("скрыт")
    finally:
        context.close()
    vodkin.refresh_from_db()
    assert vodkin.patronymic == "Сергеевич" and vodkin.hidden
    assert sorted(vodkin.identifiers.values_list("value", flat=True)) == ["78", "79"]
