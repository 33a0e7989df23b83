"""What the printed cards carry (issue 21, finding 3): SITE_URL, when set, begins every QR code
and card link, whatever address the director's browser used; the cards and event pages warn,
in the reader's language, when that address is 127.0.0.1 / localhost / ::1, naming this
computer's addresses, and not for an address of the hall's network."""

import re

import pytest

from events import addresses
from events.models import Entry, Table
from events.qr import qr_svg

pytestmark = pytest.mark.django_db

LAN = "http://192.168.1.5:8000"
WARNING = 'id="hall-address"'


def _links(body: str) -> list[str]:
    """Every absolute address of the page but the SVG namespace."""
    found = re.findall(r"https?://[^\"'<>\s]+", body)
    return [link for link in found if not link.startswith("http://www.w3.org/")]


def _pages(event):
    base = f"/director/events/{event.pk}"
    entry = event.entries.order_by("number").first()
    return {
        "event": f"{base}/",
        "name_cards": f"{base}/cards/names/",
        "player_qr": f"{base}/players/{entry.pk}/qr/",
        "table_cards": f"{base}/sessions/1/tables/",
        "participant_cards": f"{base}/sessions/1/participants/",
    }


def test_site_url_is_in_every_qr_code_and_link_of_the_cards(director_client, session15, settings):
    settings.SITE_URL = LAN
    event = session15.event
    pages = _pages(event)
    names = director_client.get(pages["name_cards"]).content.decode()
    for entry in Entry.objects.filter(event=event):
        # The code drawn for exactly this address: the QR's data is the SITE_URL link.
        assert qr_svg(f"{LAN}/p/{entry.key}/", scale=4) in names
    entry = event.entries.order_by("number").first()
    big = director_client.get(pages["player_qr"]).content.decode()
    assert qr_svg(f"{LAN}/p/{entry.key}/", scale=12) in big
    assert f'<a href="{LAN}/p/{entry.key}/">{LAN}/p/{entry.key}/</a>' in big
    svg = director_client.get(f"/p/{entry.key}/qr.svg").content.decode()
    assert svg == qr_svg(f"{LAN}/p/{entry.key}/")
    tables = director_client.get(pages["table_cards"]).content.decode()
    for table in Table.objects.filter(room__session=session15):
        assert qr_svg(f"{LAN}/t/{table.key}/", scale=3) in tables
        assert f'<a href="{LAN}/t/{table.key}/">' in tables
    for body in (names, big, tables):
        assert "testserver" not in body
        links = _links(body)
        assert all(link.startswith(LAN + "/") for link in links), links


def test_without_site_url_the_cards_carry_the_address_the_browser_used(director_client, session15):
    entry = session15.event.entries.order_by("number").first()
    big = director_client.get(_pages(session15.event)["player_qr"], HTTP_HOST="127.0.0.1:8000")
    assert f'<a href="http://127.0.0.1:8000/p/{entry.key}/">' in big.content.decode()


@pytest.mark.parametrize(
    "page", ["event", "name_cards", "player_qr", "table_cards", "participant_cards"]
)
def test_the_cards_pages_warn_at_127_0_0_1_and_not_at_an_address_of_the_hall(
    director_client, session15, settings, page
):
    url = _pages(session15.event)[page]
    body = director_client.get(url, HTTP_HOST="127.0.0.1:8000").content.decode()
    assert WARNING in body
    if page in ("name_cards", "player_qr", "table_cards"):
        assert "Эти QR-коды ведут на 127.0.0.1 — телефоны в зале их не откроют." in body
    else:
        assert "QR-коды и ссылки на карточках ведут на 127.0.0.1" in body
    found = addresses.lan_addresses()
    if found:
        assert "Запустите <code>HOST=0.0.0.0 make run</code> и откройте эту страницу" in body
        for address in found:  # this page at each of this computer's addresses
            assert f'<a href="http://{address}:8000{url}">http://{address}:8000</a>' in body
    else:
        assert "сейчас адрес не найден" in body
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "192.168.1.5"]
    response = director_client.get(url, HTTP_HOST="192.168.1.5:8000")
    assert response.status_code == 200 and WARNING not in response.content.decode()


@pytest.mark.parametrize("host", ["localhost:8000", "[::1]:8000"])
def test_localhost_and_ipv6_loopback_warn_too_in_the_readers_language(
    director_client, session15, host
):
    url = _pages(session15.event)["table_cards"]
    body = director_client.get(url, HTTP_HOST=host, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert WARNING in body
    shown = host.rsplit(":", 1)[0].strip("[]")
    assert f"These QR codes lead to {shown} — phones in the hall will not open them." in body


def test_site_url_decides_whatever_address_the_browser_used(director_client, session15, settings):
    url = _pages(session15.event)["name_cards"]
    settings.SITE_URL = LAN
    body = director_client.get(url, HTTP_HOST="127.0.0.1:8000").content.decode()
    assert WARNING not in body
    settings.SITE_URL = "http://localhost:8000"
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "192.168.1.5"]
    body = director_client.get(url, HTTP_HOST="192.168.1.5:8000").content.decode()
    assert WARNING in body and "Эти QR-коды ведут на localhost" in body
    assert "SITE_URL указывает только на этот компьютер" in body
