"""A director logs in, creates an event and imports 30 players from a Windows-1251 CSV."""

import pytest
from playwright.sync_api import expect

from events.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CSV = "Фамилия;Имя;Клуб\n" + "".join(
    f"Игроков{i:02d};Игорь;Клуб «Пика» {i % 4}\n" for i in range(30)
)


def test_a_director_creates_an_event_and_imports_30_players(
    live_server, laptop, django_user_model, tmp_path, shot
):
    django_user_model.objects.create_user(username="judge", password="s3cret-pass-1")
    csv_file = tmp_path / "игроки.csv"
    csv_file.write_bytes(CSV.encode("cp1251"))
    page = laptop

    page.goto(f"{live_server.url}/director/")
    page.get_by_label("Имя пользователя").fill("judge")
    page.get_by_label("Пароль").fill("wrong")
    page.get_by_role("button", name="Войти").click()
    expect(
        page.get_by_text("Пожалуйста, введите правильные имя пользователя и пароль")
    ).to_be_visible()
    page.get_by_label("Пароль").fill("s3cret-pass-1")
    page.get_by_role("button", name="Войти").click()
    page.get_by_role("link", name="Новый турнир").click()

    page.get_by_label("Название").fill("Кубок Арбата")
    page.get_by_label("Дата").fill("2026-12-12")
    page.get_by_label("Место проведения").fill("ЦДШ")
    page.get_by_label("Минут на сдачу").fill("0")
    page.get_by_role("button", name="Сохранить").click()
    # Refused with the field named; what was typed is kept.
    assert page.get_by_label("Название").input_value() == "Кубок Арбата"
    expect(page.locator(".has-error #id_minutes_per_deal")).to_have_count(1)
    page.get_by_label("Минут на сдачу").fill("5")
    page.get_by_role("button", name="Сохранить").click()
    expect(page.get_by_role("heading", name="Кубок Арбата")).to_be_visible()
    shot(page, "director-event-new")

    page.get_by_role("link", name="Импорт CSV").click()
    page.get_by_label("Файл CSV (UTF-8 или Windows-1251)").set_input_files(str(csv_file))
    page.get_by_role("button", name="Просмотр").click()
    expect(page.get_by_text("(Windows-1251): 30 игроков")).to_be_visible()
    expect(page.locator("#preview tbody tr")).to_have_count(30)
    shot(page, "director-import-preview")
    page.get_by_role("button", name="Добавить в турнир: 30 игроков").click()
    expect(page.get_by_text("Добавлено 30 игроков.")).to_be_visible()

    event = Event.objects.get(name="Кубок Арбата")
    assert event.entries.count() == 30
    assert event.entries.filter(last_name="Игроков07", club="Клуб «Пика» 3").exists()

    page.get_by_role("button", name="Разыграть номера").click()
    expect(page.get_by_text("Номера разыграны с ключом")).to_be_visible()
    assert sorted(event.entries.values_list("number", flat=True)) == list(range(1, 31))
    shot(page, "director-event-players")


def test_the_event_page_fits_a_360px_phone(live_server, phone, django_user_model, client, shot):
    user = django_user_model.objects.create_user(username="judge", password="s3cret-pass-1")
    event = Event.objects.create(owner=user, name="Турнир", date="2026-12-12")
    phone.goto(f"{live_server.url}/director/login/")
    phone.get_by_label("Имя пользователя").fill("judge")
    phone.get_by_label("Пароль").fill("s3cret-pass-1")
    phone.get_by_role("button", name="Войти").click()
    phone.goto(f"{live_server.url}{event.get_absolute_url()}")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360
    shot(phone, "director-event-phone")


def test_a_big_events_name_cards_come_page_by_page(live_server, laptop, phone, event, shot):
    from events.models import Entry
    from tests.browser.a11y import check_page
    from tests.browser.helpers import login

    Entry.objects.bulk_create(
        Entry(event=event, last_name=f"Игроков{i:03d}", first_name="Игорь", number=i)
        for i in range(1, 301)
    )
    url = f"{live_server.url}/director/events/{event.pk}/cards/names/"
    login(laptop, live_server.url)
    laptop.goto(url)
    expect(laptop.get_by_text("300 игроков: печатайте карточки по страницам.")).to_be_visible()
    expect(laptop.locator("[aria-current=page]")).to_have_text("Карточки 1–240")
    assert laptop.locator(".name-card").count() == 240
    laptop.get_by_role("link", name="Карточки 241–300").click()
    assert laptop.locator(".name-card").count() == 60
    expect(laptop.locator(".name-card-name").first).to_have_text("Игроков241 Игорь")
    assert check_page(laptop) == []
    shot(laptop, "name-cards-pages")
    login(phone, live_server.url)
    phone.goto(url)
    assert check_page(phone) == []
    shot(phone, "name-cards-pages-phone")
