"""Steps the browser tests share."""

from playwright.sync_api import expect


def login(page, base: str, username: str = "judge", password: str = "s3cret-pass-1") -> None:
    """The director logs in through the form and lands on his events."""
    page.goto(f"{base}/director/login/")
    page.get_by_label("Имя пользователя").fill(username)
    page.get_by_label("Пароль").fill(password)
    page.get_by_role("button", name="Войти").click()
    expect(page.get_by_role("heading", name="Мои турниры")).to_be_visible()
