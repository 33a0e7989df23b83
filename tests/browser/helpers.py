"""Steps the browser tests share."""

from playwright.sync_api import expect


def login(page, base: str, username: str = "judge", password: str = "s3cret-pass-1") -> None:
    """The director logs in through the form and lands on his events."""
    page.goto(f"{base}/director/login/")
    page.get_by_label("Имя пользователя").fill(username)
    page.get_by_label("Пароль").fill(password)
    page.get_by_role("button", name="Войти").click()
    expect(page.get_by_role("heading", name="Мои турниры")).to_be_visible()


def players_word(count: int) -> str:
    """«игрок» in the form Russian gives a count (1 игрок, 2 игрока, 5 игроков, 21 игрок)."""
    if count % 10 == 1 and count % 100 != 11:
        return "игрок"
    if 2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14:
        return "игрока"
    return "игроков"


def new_event_with_players(page, name: str, date: str, csv_file, count: int):
    """From the director's events: a new event, then its players imported from a CSV file
    through the preview. Returns the event."""
    from events.models import Event

    page.get_by_role("link", name="Новый турнир").click()
    page.get_by_label("Название").fill(name)
    page.get_by_label("Дата").fill(date)
    page.get_by_role("button", name="Сохранить").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    page.get_by_role("link", name="Импорт CSV").click()
    page.get_by_label("Файл CSV (UTF-8 или Windows-1251)").set_input_files(str(csv_file))
    page.get_by_role("button", name="Просмотр").click()
    page.get_by_role("button", name=f"Добавить в турнир: {count} {players_word(count)}").click()
    expect(page.get_by_text(f"Добавлено {count} {players_word(count)}.")).to_be_visible()
    return Event.objects.get(name=name)


def new_phone(browser):
    """A phone's page (360 px, Russian, touch) and its context, to close after."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="ru-RU", is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def new_laptop(browser, height: int = 860):
    """A laptop's page (1280 px, Russian) and its context, to close after."""
    context = browser.new_context(viewport={"width": 1280, "height": height}, locale="ru-RU")
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def drawn_event(page, base: str, csv_file, name: str, date: str, count: int):
    """The director logs in, makes an event with ``count`` players from ``csv_file`` and
    draws their numbers. Returns the event."""
    login(page, base)
    event = new_event_with_players(page, name, date, csv_file, count)
    page.get_by_role("button", name="Разыграть номера").click()
    expect(page.get_by_text("Номера разыграны с ключом")).to_be_visible()
    return event


def confirm_round_as_east(page, base: str, play) -> None:
    """E of the table opens its QR code («Кто вы?»: his seat and the PIN of his name card
    lead to the round's link) and confirms every deal of the set with his PIN — the
    table's link alone does not confirm. On the phone that entered them the sheets must
    have been entered with a PIN: an entry without one is never confirmed from the phone
    that entered it (docs/game.md §7.2)."""
    from playwright.sync_api import expect

    from events.models import Seat
    from tests.factories import round_link

    east = Seat.objects.get(round=play.round, table=play.table, position="E").entry
    page.goto(f"{base}/t/{play.table.key}/")
    page.locator('input[name="as"][value="E"]').check()
    page.fill("#id_pin", east.pin)
    page.get_by_role("button", name="Открыть протоколы тура").click()
    expect(page).to_have_url(f"{base}{round_link(play, '?as=E')}")
    deals = play.board_set.deals.count()
    for _ in range(deals):
        form = page.locator(".confirm-form").first
        form.locator('input[name="pin"]').fill(east.pin)
        form.get_by_role("button", name="Подтвердить").click()
        expect(page.get_by_text("подтверждена.")).to_be_visible()
    expect(page.locator("#deals .deal-card.state-confirmed")).to_have_count(deals)


def read_again(page, url: str):
    """A public page as it is now, read by someone who read it a moment ago. A browser
    keeps a public page a few seconds (``Cache-Control: public, max-age=5``,
    docs/public-pages.md), so after a change he reloads it: a conditional request, which
    the new version answers. Returns the reload's response."""
    page.goto(url)
    return page.reload()
