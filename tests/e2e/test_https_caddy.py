"""The installable app over HTTPS on a name other than localhost (issue 23): Caddy in front,
its own certificate authority (``tls internal``), as a club would run it on its Wi-Fi.

Caddy runs deploy/Caddyfile.lan (the README's LAN setup) on high ports, with its storage in a
temporary folder (it never touches this machine's trust store: ``skip_install_trust``).
``clubhouse.test`` is mapped to 127.0.0.1 by Chromium's ``--host-resolver-rules``, and the
test browser trusts Caddy's root certificate the way a phone does once it is installed: in
the browser's own certificate store (an NSS database in the browser's home folder, made with
``certutil``), not by ignoring certificate errors. Skipped with the reason where caddy or
certutil is missing, except in CI.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.conftest import running_app
from tests.e2e.conftest import SCREENSHOTS, LiveServer, requests_elsewhere
from tests.e2e.test_game_flow import NAMES, _enter, _start_game
from tests.e2e.test_offline import (
    _controlled,
    _keeps_game,
    _queue,
    _saved_rounds,
    _wait_for_kept,
)

pytestmark = pytest.mark.e2e

NAME = "clubhouse.test"
DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def _needed(tool: str, package: str) -> str:
    found = shutil.which(tool)
    if found is None:
        message = f"{tool} is not installed (apt-get install {package})"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{message}: required in CI")
        pytest.skip(message)
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_for(check: Any, what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)  # a port or a file of another process: nothing to wait on but polling
    raise AssertionError(f"{what} within {seconds:.0f} s")


def _listens(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


class Caddy:
    """Caddy serving https://clubhouse.test:PORT with its internal CA, in front of the app."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.https_port = _free_port()
        self.http_port = _free_port()
        self.origin = f"https://{NAME}:{self.https_port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, app_port: int) -> None:
        """deploy/Caddyfile.lan as the README runs it, on high ports and without touching this
        machine's trust store (the global options put in front)."""
        caddy = _needed("caddy", "caddy")
        config = self.folder / "Caddyfile"
        config.write_text(
            "{\n"
            "\tadmin off\n"
            "\tskip_install_trust\n"
            f"\thttp_port {self.http_port}\n"
            f"\thttps_port {self.https_port}\n"
            "}\n\n" + (DEPLOY / "Caddyfile.lan").read_text()
        )
        env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
        env.update(HOME=str(self.folder), CLUB_ADDRESS=NAME, SCOREKEEPER_PORT=str(app_port))
        self.log = (self.folder / "caddy.log").open("wb")
        self.process = subprocess.Popen(
            [caddy, "run", "--adapter", "caddyfile", "--config", str(config)],
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        pki = self.folder / ".local" / "share" / "caddy" / "pki" / "authorities" / "local"
        self.root = pki / "root.crt"
        _wait_for(
            lambda: (
                self.process.poll() is None and self.root.exists() and _listens(self.https_port)
            ),
            f"caddy did not serve (log: {self.folder / 'caddy.log'})",
        )

    def handed_out_root(self) -> bytes:
        """What a phone downloads from http://ADDRESS/club-root.crt."""
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.http_port}/club-root.crt", headers={"Host": NAME}
        )
        with urllib.request.urlopen(request) as answer:
            assert answer.headers["Content-Type"] == "application/x-x509-ca-cert"
            return answer.read()

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.log.close()


@pytest.fixture
def caddy(tmp_path: Path) -> Iterator[Caddy]:
    site = Caddy(tmp_path)
    yield site
    site.stop()


@pytest.fixture
def live_app(migrated_database: str, caddy: Caddy) -> Iterator[Flask]:
    """Configured as deploy/ says for a proxy: the address phones open, the proxy believed."""
    with running_app(
        migrated_database,
        WTF_CSRF_ENABLED=True,
        PUBLIC_URL=caddy.origin,
        TRUSTED_PROXIES=1,
    ) as app:
        yield app


@pytest.fixture
def https_browser(
    playwright: Any, browser_type_launch_args: dict[str, Any], caddy: Caddy, server: LiveServer
) -> Iterator[Browser]:
    caddy.start(server.port)
    # The phone's one step: download the club's root certificate and trust it.
    assert caddy.handed_out_root() == caddy.root.read_bytes()
    certutil = _needed("certutil", "libnss3-tools")
    home = caddy.folder / "browser-home"
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run([certutil, "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    subprocess.run(
        [certutil, "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "Caddy local CA"]
        + ["-i", str(caddy.root)],
        check=True,
    )
    args = [
        *browser_type_launch_args.get("args", []),
        f"--host-resolver-rules=MAP {NAME} 127.0.0.1",
    ]
    browser = playwright.chromium.launch(
        **{**browser_type_launch_args, "args": args}, env={**os.environ, "HOME": str(home)}
    )
    yield browser
    browser.close()


@pytest.fixture
def https_context(
    https_browser: Browser, browser_context_args: dict[str, Any]
) -> Iterator[BrowserContext]:
    context = https_browser.new_context(**browser_context_args)
    yield context
    context.close()


@pytest.fixture
def https_page(https_context: BrowserContext, caddy: Caddy) -> Iterator[Page]:
    page = https_context.new_page()
    outside = requests_elsewhere(page, caddy.origin)
    yield page
    page.close()
    assert not outside, f"requests to other hosts: {outside}"


@pytest.fixture(autouse=True)
def _no_other_hosts() -> None:
    """Replaced: the requests of this module's own page are checked in ``https_page``."""


def _shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def test_the_app_works_offline_over_https_behind_caddy(
    https_page: Page, https_context: BrowserContext, caddy: Caddy, live_app: Flask
) -> None:
    page = https_page
    page.goto(f"{caddy.origin}/")
    assert page.evaluate("window.isSecureContext") is True
    assert page.evaluate("location.protocol") == "https:"
    _controlled(page)
    expect(page.locator("#https-notice")).to_be_hidden()

    # Installable: the manifest is valid and nothing but incognito stands in the way.
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == f"{caddy.origin}/manifest.webmanifest"
    assert manifest["errors"] == []
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []

    # A round saved with the network cut is kept, then arrives once.
    public_id = _start_game(page, caddy.origin, NAMES)
    share = page.locator(f"a[href='/g/{public_id}/watch']").first
    expect(share).to_have_text(f"{caddy.origin}/g/{public_id}/watch")
    _keeps_game(page, public_id)
    page.get_by_role("link", name="Enter round 1 scores").click()
    https_context.set_offline(True)
    _enter(page, [0, 12, 30, 8], 0)
    page.get_by_role("button", name="Save round 1").click()
    waiting = page.locator("[data-queued-round='1']")
    expect(waiting).to_contain_text("Round 1: saved on this phone, not sent yet")
    assert _saved_rounds(live_app) == []
    assert len(_queue(page)) == 1
    _shot(page, "https-caddy-queued")
    https_context.set_offline(False)
    expect(page.get_by_text("Round 1 was sent and saved.")).to_be_visible(timeout=15_000)
    expect(page.get_by_text("Round 2 of 13")).to_be_visible(timeout=10_000)
    assert _saved_rounds(live_app) == [(1, [0, 12, 30, 8])]
    assert _queue(page) == []

    # The page moved on in place and asked the worker to keep it again: wait for the kept copy
    # (signal lost before then opens the copy kept before the round, as it should).
    _wait_for_kept(
        page,
        f"/g/{public_id}",
        lambda kept: "Round 2 of 13" in kept,
        "the kept table view never showed round 2",
        tries=150,
    )

    # The app shell and the game open with no network at all.
    https_context.set_offline(True)
    page.goto(f"{caddy.origin}/")
    expect(page.get_by_role("link", name="Start a new game")).to_be_visible()
    page.goto(f"{caddy.origin}/g/{public_id}")
    expect(page.get_by_role("link", name="Enter round 2 scores")).to_be_visible()
    _shot(page, "https-caddy-offline-table")
    https_context.set_offline(False)
    assert _saved_rounds(live_app) == [(1, [0, 12, 30, 8])]
