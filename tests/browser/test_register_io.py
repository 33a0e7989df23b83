"""The register's CSV export and import in Chromium (issue 24; docs/register.md): the
director downloads his register, changes it, uploads it back, sees each row's update, new
person or choice in the preview, chooses, and imports; at 1280 and 360 px, nothing wider
than the screen."""

import pytest
from playwright.sync_api import expect

from events.models import Person
from tests.browser.a11y import check_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _login(page, base):
    page.goto(f"{base}/director/login/")
    page.get_by_label("Имя пользователя").fill("judge")
    page.get_by_label("Пароль").fill("s3cret-pass-1")
    page.get_by_role("button", name="Войти").click()


def _fits(page, width):
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert check_page(page) == []


@pytest.mark.parametrize("width", [1280, 360])
def test_the_register_goes_out_and_comes_back_through_the_preview(
    live_server, browser, django_user_model, tmp_path, shot, width
):
    user = django_user_model.objects.create_user(username="judge", password="s3cret-pass-1")
    semenov = Person.objects.create(
        owner=user, last_name="Семёнов", first_name="Пётр", patronymic="Ильич", club="ЦДШ"
    )
    semenov.identifiers.create(kind="club_card", value="77")
    ivanov = Person.objects.create(owner=user, last_name="Иванов", first_name="Иван", club="Тула")
    Person.objects.create(owner=user, last_name="Иванов", first_name="Иван", club="Пермь")
    context = browser.new_context(
        viewport={"width": width, "height": 800}, locale="ru-RU", accept_downloads=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        _login(page, live_server.url)
        page.goto(f"{live_server.url}/director/register/")
        _fits(page, width)
        with page.expect_download() as download:
            page.get_by_role("link", name="Windows-1251").click()
        exported = (tmp_path / "реестр.csv").resolve()
        download.value.save_as(exported)
        text = exported.read_bytes().decode("cp1251")
        assert text.startswith("ID;Фамилия;Имя;Отчество;Клуб;Клубная карта;Номер ФСПР;Скрыт")
        # He keeps Семёнов's row only (the others stay as they are), changes it, and adds
        # an Иванов without ID (two in the register: he chooses) and a newcomer.
        text = "".join(
            line for line in text.splitlines(keepends=True) if "Иванов" not in line
        ).replace(";ЦДШ;77;", ";Спартак;77, 80;")
        text += ";Иванов;Иван;;;;;\r\n;Новиков;Нил;Нилович;;;;да\r\n"
        exported.write_bytes(text.encode("cp1251"))

        page.get_by_role("link", name="Импорт CSV").click()
        page.get_by_label("Файл CSV (UTF-8 или Windows-1251)").set_input_files(str(exported))
        page.get_by_role("button", name="Просмотр").click()
        rows = page.locator("#preview tbody tr")
        expect(rows).to_have_count(3)
        expect(page.get_by_text("обновление: Семёнов Пётр Ильич")).to_be_visible()
        expect(page.get_by_text("Клуб: ЦДШ → Спартак")).to_be_visible()
        expect(rows.nth(1)).to_contain_text("несколько похожих")
        expect(rows.nth(2)).to_contain_text("новый")
        _fits(page, width)
        shot(page, f"register-io-preview-{width}")

        page.get_by_role("button", name="Импортировать").click()
        expect(page.get_by_text("Строки 3 не дают импортировать")).to_be_visible()
        assert Person.objects.count() == 3
        page.get_by_label("Кто игрок строки 3").select_option(str(ivanov.pk))
        page.get_by_role("button", name="Импортировать").click()
        expect(page.get_by_text("Реестр импортирован: новых — 1, обновлено — 1")).to_be_visible()
        _fits(page, width)
    finally:
        context.close()
    semenov.refresh_from_db()
    assert semenov.club == "Спартак"
    assert sorted(semenov.identifiers.values_list("value", flat=True)) == ["77", "80"]
    newcomer = Person.objects.get(last_name="Новиков")
    assert newcomer.patronymic == "Нилович" and newcomer.hidden
    assert Person.objects.filter(last_name="Иванов").count() == 2


def test_a_file_near_the_size_limit_comes_back_with_the_confirmation(
    live_server, laptop, django_user_model, tmp_path
):
    """800 KB of Windows-1251 (1.6 MB as UTF-8): percent-encoded, the confirmation's hidden
    text would pass Django's 2.5 MB limit for a request's fields; the form is multipart."""
    django_user_model.objects.create_user(username="judge", password="s3cret-pass-1")
    text = "Фамилия;Имя;Отчество;Клуб\r\n" + "".join(
        f"Ф{n}{'ж' * 95};И{n}{'ж' * 95};О{'ж' * 95};К{n}{'ж' * 95}\r\n" for n in range(2000)
    )
    big = tmp_path / "big.csv"
    big.write_bytes(text.encode("cp1251"))
    laptop.set_default_timeout(60_000)
    _login(laptop, live_server.url)
    laptop.goto(f"{live_server.url}/director/register/import/")
    laptop.get_by_label("Файл CSV (UTF-8 или Windows-1251)").set_input_files(str(big))
    laptop.get_by_role("button", name="Просмотр").click()
    laptop.get_by_role("button", name="Импортировать").click()
    expect(laptop.get_by_text("Реестр импортирован: новых — 2000")).to_be_visible()
    assert Person.objects.count() == 2000
