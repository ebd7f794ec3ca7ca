"""The app behind a real Caddy, as docs/deploying.md runs it (issue 37, items 2 and 3).

``python -m scorekeeper`` (waitress) runs in a subprocess as a volunteer starts it, with
``TRUSTED_PROXIES=1``; Caddy runs the repository's own Caddyfiles (``tls internal``, its storage
in a temporary folder, never this machine's trust store). Two phones are two loopback source
addresses (127.0.0.2 and 127.0.0.3) speaking HTTPS to Caddy and trusting its root certificate,
so the app sees them only through Caddy's X-Forwarded-* headers: the session cookie must be
Secure, HSTS sent, and ten wrong edit codes from one phone must not lock out the other.

Item 3: Caddy in front of the hosted server (deploy/Caddyfile) must not turn a database outage
into a total one: what the app answers (its static files, its own 503) reaches the phones.
Skipped with the reason where Caddy is missing, except in CI.
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.web.helpers import start_game
from tests.web.test_lan import free_port, wait_for_port

pytestmark = pytest.mark.slow  # runs Caddy and the server in subprocesses

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NAME = "clubhouse.test"


def _wait_for(check: Callable[[], bool], what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)  # another process's port or file: nothing to wait on but polling
    raise AssertionError(f"{what} within {seconds:.0f} s")


def _listens(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


class Caddy:
    """Caddy running one of deploy/'s Caddyfiles on high ports, its certificates from its own
    authority (``local_certs``), its storage in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.http_port = free_port()
        self.https_port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.root = folder / ".local" / "share" / "caddy" / "pki" / "authorities" / "local"
        self.root = self.root / "root.crt"

    def start(self, caddyfile: str, **env: str) -> None:
        caddy = shutil.which("caddy")
        if caddy is None:
            message = "caddy is not installed (apt-get install caddy)"
            if os.environ.get("CI") == "true":
                pytest.fail(f"{message}: required in CI")
            pytest.skip(message)
        config = self.folder / "Caddyfile"
        config.write_text(
            "{\n\tadmin off\n\tskip_install_trust\n\tlocal_certs\n"
            f"\thttp_port {self.http_port}\n\thttps_port {self.https_port}\n}}\n\n"
            + (DEPLOY / caddyfile).read_text()
        )
        environment = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
        environment.update(HOME=str(self.folder), **env)
        self.log = (self.folder / "caddy.log").open("wb")
        self.process = subprocess.Popen(
            [caddy, "run", "--adapter", "caddyfile", "--config", str(config)],
            env=environment,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        _wait_for(
            lambda: (
                self.process is not None
                and self.process.poll() is None
                and self.root.exists()
                and _listens(self.https_port)
                and self.has_certificate()
            ),
            f"caddy did not serve {NAME} over HTTPS (log: {self.folder / 'caddy.log'})",
        )

    def has_certificate(self) -> bool:
        """Caddy issues the site's certificate after it starts listening: a TLS handshake for
        NAME succeeds once it has."""
        context = ssl.create_default_context(cafile=str(self.root))
        try:
            with (
                socket.create_connection(("127.0.0.1", self.https_port), timeout=5) as raw,
                context.wrap_socket(raw, server_hostname=NAME),
            ):
                return True
        except (ssl.SSLError, OSError):
            return False

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.log.close()


class Phone:
    """A phone on the club's Wi-Fi: HTTPS to Caddy from its own address, trusting Caddy's root
    certificate (as a phone does once it is installed), keeping its cookies."""

    def __init__(self, source: str, caddy: Caddy) -> None:
        self.origin = f"https://{NAME}:{caddy.https_port}"
        context = ssl.create_default_context(cafile=str(caddy.root))

        class FromSource(http.client.HTTPSConnection):
            def __init__(self, host: str, **options: Any) -> None:
                super().__init__(host, source_address=(source, 0), **options)
                # clubhouse.test is this machine: connect to 127.0.0.1, name it in TLS (SNI).
                self._create_connection = lambda address, *rest: socket.create_connection(
                    ("127.0.0.1", address[1]), *rest
                )

        class Handler(urllib.request.HTTPSHandler):
            def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
                return self.do_open(FromSource, req, context=context)

        class Stay(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args: Any) -> None:
                return None  # a redirect is an answer to look at, not to follow

        self.cookies = CookieJar()
        self.opener = urllib.request.build_opener(
            Handler(), Stay(), urllib.request.HTTPCookieProcessor(self.cookies)
        )

    def open(self, path: str, form: dict[str, str] | None = None) -> tuple[int, Any, str]:
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        request = urllib.request.Request(self.origin + path, data=data)
        if data is not None:  # as a browser does; Flask-WTF checks it on HTTPS
            request.add_header("Referer", self.origin + path)
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status, answer.headers, answer.read().decode()
        except urllib.error.HTTPError as answer:
            with answer:
                return answer.code, answer.headers, answer.read().decode()

    def post_form(self, path: str, fields: dict[str, str]) -> int:
        """GET the page, then POST its form with its CSRF token, as the browser does."""
        status, _, page = self.open(path)
        assert status == 200, page
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
        assert token, page
        return self.open(path, {"csrf_token": token.group(1), **fields})[0]


@pytest.fixture
def caddy(tmp_path: Path) -> Iterator[Caddy]:
    site = Caddy(tmp_path)
    yield site
    site.stop()


def serve(database_url: str, **settings: str) -> Iterator[int]:
    """``python -m scorekeeper --port PORT`` with the settings docs/deploying.md gives it."""
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PUBLIC_URL", "TRUSTED_HOSTS", "HTTPS", "TRUSTED_PROXIES")
    }
    env.update(DATABASE_URL=database_url, SECRET_KEY="caddy-test", **settings)
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def app_behind_proxy(migrated_database: str) -> Iterator[int]:
    yield from serve(migrated_database, TRUSTED_PROXIES="1")


def _edit_code(client: FlaskClient, public_id: str) -> str:
    from scorekeeper.games import services

    with client.application.app_context():
        game = services.load_game(public_id)
        assert game is not None
        return game.edit_code


def test_over_https_through_caddy_the_cookie_is_secure_hsts_is_sent_and_limits_are_per_phone(
    client: FlaskClient, caddy: Caddy, app_behind_proxy: int
) -> None:
    game = start_game(client, ["Ann", "Bob"])
    right = _edit_code(client, game)
    caddy.start("Caddyfile.lan", CLUB_ADDRESS=NAME, SCOREKEEPER_PORT=str(app_behind_proxy))
    guesser, neighbour = Phone("127.0.0.2", caddy), Phone("127.0.0.3", caddy)

    status, headers, _ = guesser.open(f"/g/{game}/unlock")
    assert status == 200
    assert headers["Strict-Transport-Security"] == "max-age=31536000"
    session = [c for c in headers.get_all("Set-Cookie") if c.startswith("session=")]
    assert session and "; Secure" in session[0], session

    for _ in range(10):
        assert guesser.post_form(f"/g/{game}/unlock", {"code": "WRONG1"}) == 200
    assert guesser.post_form(f"/g/{game}/unlock", {"code": right}) == 429
    # The other phone at the table comes through the same Caddy from its own address.
    assert neighbour.post_form(f"/g/{game}/unlock", {"code": right}) == 302


@pytest.fixture
def app_without_database(tmp_path: Path) -> Iterator[int]:
    """The app with its database gone (a folder that does not exist): every query fails."""
    yield from serve(f"sqlite:///{tmp_path / 'gone' / 'scorekeeper.sqlite'}", TRUSTED_PROXIES="1")


def test_a_database_outage_does_not_make_caddy_refuse_everything(
    caddy: Caddy, app_without_database: int
) -> None:
    """deploy/Caddyfile as deploy.sh installs it: Caddy keeps handing requests to the app while
    its database is down, so the phones get the app's static files, and its own answers (a 503
    the service worker takes for no signal) rather than Caddy's empty 503 for every address."""
    caddy.start("Caddyfile", SCOREKEEPER_DOMAIN=NAME, SCOREKEEPER_PORT=str(app_without_database))
    phone = Phone("127.0.0.2", caddy)
    status, headers, body = phone.open("/healthz")
    assert status == 503 and '"database"' in body  # the app's answer, not Caddy's
    status, headers, body = phone.open("/static/css/app.css")
    assert status == 200 and "Content-Security-Policy" in headers
