"""The address links carry (issue 22 item 6, issue 23): absolute links and QR codes use
PUBLIC_URL, or the request's host only when it names this server; ``Host: evil.example`` never
reaches a link, and per-game QR codes are cached by the phone only."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest
import segno
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.games.registry import sources
from scorekeeper.web import public_url
from tests.conftest import running_app
from tests.web.helpers import start_game
from tests.web.league_helpers import start_league

EVIL = {"Host": "evil.example"}


def qr_of(url: str) -> bytes:
    """The SVG the app serves for a QR code of ``url`` (as scorekeeper.web.responses)."""
    buffer = io.BytesIO()
    code = segno.make(url, error="m")
    code.save(buffer, kind="svg", scale=8, border=2, dark="#000", light="#fff")
    return buffer.getvalue()


def visit_as(client: FlaskClient, host: str) -> None:
    """Give ``host`` the cookies this client has (the test client keeps them per host), so a
    page asked for with ``Host: host`` is the page this phone sees."""
    for cookie in list(client._cookies.values()):
        client.set_cookie(cookie.key, cookie.value, domain=host.split(":")[0])


def absolute_links(page: str) -> set[str]:
    return set(re.findall(r"https?://[^\s\"<']+", page))


@pytest.fixture
def public_app(migrated_database: str) -> Iterator[Flask]:
    with running_app(migrated_database, PUBLIC_URL="https://scores.example.org/") as app:
        yield app


def test_a_spoofed_host_reaches_no_link_nor_qr_code(client: FlaskClient) -> None:
    game = start_game(client, ["Ann", "Bob"])
    page = client.get(f"/g/{game}", headers=EVIL).get_data(as_text=True)
    assert f"http://localhost/g/{game}/watch" in page or f"/g/{game}" in page
    assert "evil.example" not in page
    qr = client.get(f"/g/{game}/qr.svg", headers=EVIL)
    assert qr.status_code == 200
    assert b"evil" not in qr.data
    # The code carries this machine's address, the same as for an honest request.
    honest = client.get(f"/g/{game}/qr.svg")
    assert qr.data != qr_of(f"http://evil.example/g/{game}/watch")
    assert honest.data == qr_of(f"http://localhost/g/{game}/watch")


def test_a_spoofed_host_reaches_no_league_link(client: FlaskClient) -> None:
    code = start_league(client)
    visit_as(client, "evil.example")
    for path in (f"/leagues/{code}/manage", f"/leagues/{code}/settings"):
        response = client.get(path, headers=EVIL)
        page = response.get_data(as_text=True)
        assert response.status_code == 200, path
        assert f"/leagues/{code}/members/" in page or "settings" in path
        assert "evil.example" not in page, path
        assert all("evil" not in link for link in absolute_links(page))


def test_a_spoofed_forwarded_host_is_not_trusted_without_proxies(client: FlaskClient) -> None:
    game = start_game(client, ["Ann", "Bob"])
    page = client.get(f"/g/{game}", headers={"X-Forwarded-Host": "evil.example"})
    assert "evil.example" not in page.get_data(as_text=True)


def test_public_url_starts_every_absolute_link(public_app: Flask) -> None:
    client = public_app.test_client()
    game = start_game(client, ["Ann", "Bob"])
    page = client.get(f"/g/{game}", headers=EVIL).get_data(as_text=True)
    assert f"https://scores.example.org/g/{game}/watch" in page
    # The app's own links start with the public address; the others are the published rule
    # pages the deal's "Why 15 each?" cites.
    cited = {source.url for source in sources().values() if source.url}
    assert (
        absolute_links(page)
        <= {link for link in absolute_links(page) if link.startswith("https://scores.example.org/")}
        | {"http://www.w3.org/2000/svg"}
        | cited
    )
    qr = client.get(f"/g/{game}/qr.svg", headers=EVIL)
    assert qr.data == qr_of(f"https://scores.example.org/g/{game}/watch")
    code = start_league(client)
    visit_as(client, "evil.example")
    manage = client.get(f"/leagues/{code}/manage", headers=EVIL).get_data(as_text=True)
    assert f"https://scores.example.org/leagues/{code}/members/" in manage
    assert absolute_links(manage) and all(
        link.startswith("https://scores.example.org/") for link in absolute_links(manage)
    )


def test_per_game_qr_codes_are_private(client: FlaskClient) -> None:
    game = start_game(client, ["Ann", "Bob"])
    cache = client.get(f"/g/{game}/qr.svg").headers["Cache-Control"]
    assert "private" in cache and "public" not in cache


def test_trusted_hosts_refuse_other_hosts_and_serve_their_own(migrated_database: str) -> None:
    with running_app(migrated_database, TRUSTED_HOSTS="scores.example.org, .club.example") as app:
        client = app.test_client()
        assert client.get("/", headers=EVIL).status_code == 400
        game = start_game(client, ["Ann", "Bob"])  # the test client's Host: localhost, kept
        page = client.get(f"/g/{game}", headers={"Host": "tables.club.example"})
        assert f"http://tables.club.example/g/{game}/watch" in page.get_data(as_text=True)
        assert client.get(f"/g/{game}", headers={"Host": "scores.example.org"}).status_code == 200


def test_this_machines_own_addresses_are_trusted(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        public_url,
        "local_interfaces",
        lambda: [public_url.Interface("wlan0", "192.168.1.20", True)],
    )
    public_url.own_host_names.cache_clear()
    try:
        game = start_game(client, ["Ann", "Bob"])
        page = client.get(f"/g/{game}", headers={"Host": "192.168.1.20:5000"})
        assert f"http://192.168.1.20:5000/g/{game}/watch" in page.get_data(as_text=True)
        # A Host that is not this machine: the link carries this machine's address instead.
        spoofed = client.get(f"/g/{game}", headers={"Host": "10.9.9.9:5000"})
        assert "10.9.9.9" not in spoofed.get_data(as_text=True)
        assert "192.168.1.20" in spoofed.get_data(as_text=True)
    finally:
        public_url.own_host_names.cache_clear()


@pytest.mark.parametrize("value", ["scores.example.org", "ftp://x.example", "https://a b"])
def test_a_public_url_that_is_no_address_is_refused_at_start(
    migrated_database: str, value: str
) -> None:
    with (
        pytest.raises(ValueError, match="PUBLIC_URL"),
        running_app(migrated_database, PUBLIC_URL=value),
    ):
        pass


If = public_url.Interface


@pytest.mark.parametrize(
    ("interfaces", "chosen"),
    [
        ([], None),
        ([If("lo", "127.0.0.1")], None),
        ([If("lo", "127.0.0.1"), If("wlan0", "192.168.1.20", True)], "192.168.1.20"),
        # Docker's bridge is private too, but the Wi-Fi carries the default route.
        ([If("docker0", "172.17.0.1"), If("wlan0", "192.168.1.20", True)], "192.168.1.20"),
        # No default route (a club's Wi-Fi without internet): private beats the bridge's order.
        ([If("docker0", "172.17.0.1"), If("wlan0", "10.0.0.7")], "10.0.0.7"),
        ([If("eth0", "169.254.3.4"), If("wlan0", "192.168.0.5")], "192.168.0.5"),
        ([If("eth0", "169.254.3.4")], None),
        ([If("eth0", "203.0.113.9", True), If("wlan0", "192.168.0.5")], "203.0.113.9"),
        ([If("eth0", "not an address"), If("wlan0", "192.168.0.5")], "192.168.0.5"),
    ],
)
def test_the_lan_address_is_chosen_from_the_interfaces(
    interfaces: list[public_url.Interface], chosen: str | None
) -> None:
    assert public_url.choose_lan_address(interfaces) == chosen


@pytest.mark.parametrize(
    ("host", "own"),
    [
        ("localhost", True),
        ("127.0.0.1:5000", True),
        ("127.9.9.9", True),
        ("[::1]:8000", True),
        ("evil.example", False),
        ("localhost.evil.example", False),
        ("127.0.0.1.nip.io", False),
        ("127.0.0.1:80/evil", False),
        ("evil@127.0.0.1", False),
        ("127.0.0.1 evil", False),
    ],
)
def test_only_this_machines_plain_names_are_its_own(host: str, own: bool) -> None:
    assert public_url.host_is_own(host) is own
