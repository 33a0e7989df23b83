"""Steps the browser tests share."""

from playwright.sync_api import expect


def login(page, base: str, username: str = "judge", password: str = "s3cret-pass-1") -> None:
    """The director logs in through the form and lands on his events."""
    page.goto(f"{base}/director/login/")
    page.get_by_label("Имя пользователя").fill(username)
    page.get_by_label("Пароль").fill(password)
    page.get_by_role("button", name="Войти").click()
    expect(page.get_by_role("heading", name="Мои турниры")).to_be_visible()


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
    page.get_by_role("button", name=f"Добавить {count} игроков").click()
    expect(page.get_by_text(f"Добавлено {count} игроков.")).to_be_visible()
    return Event.objects.get(name=name)
