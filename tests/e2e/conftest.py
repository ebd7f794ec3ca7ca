"""Browser tests: Playwright drives the system Chromium on a Pixel 7 viewport against a live
server on 127.0.0.1. They skip with a message where no Chromium is installed, except in CI
(CI=true), where a missing browser fails the run.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import WSGIRequestHandler, make_server

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screenshots"


def _chromium() -> str | None:
    configured = os.environ.get("CHROMIUM_PATH")
    if configured:
        return configured if Path(configured).exists() else None
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    executable = _chromium()
    if executable is None:
        message = (
            "no Chromium found: install it (apt-get install chromium) or set CHROMIUM_PATH "
            "to run the browser tests"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs the browser tests: {message}")
        pytest.skip(message)
    return {
        **browser_type_launch_args,
        "executable_path": executable,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any], playwright: Any) -> dict[str, Any]:
    device = dict(playwright.devices["Pixel 7"])
    device.pop("default_browser_type", None)
    return {**browser_context_args, **device, "locale": "en-GB"}


@pytest.fixture
def live_app(csrf_app: Flask) -> Flask:
    return csrf_app


BODY = "tests.live_server.body"


class _Body:
    """A response body that says when it is done: closed once, by whoever gets there first."""

    def __init__(self, inner: Any, done: Any) -> None:
        self.inner = inner
        self.done = done
        self.closed = False

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.inner)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            if hasattr(self.inner, "close"):
                self.inner.close()
        finally:
            self.done()


class _ClosingHandler(WSGIRequestHandler):
    """Werkzeug's handler, closing the response body even when the browser reset the connection
    just after the last byte: werkzeug then drains the socket in a ``finally`` that raises
    ConnectionResetError before it closes the body, and the open file (a static file, served by
    WhiteNoise) would raise its ResourceWarning in whichever test ran at the next collection."""

    def run_wsgi(self) -> None:
        try:
            super().run_wsgi()
        finally:
            body = getattr(self, "environ", {}).get(BODY)
            if body is not None:
                body.close()


class LiveServer:
    """The app served on 127.0.0.1 by a threaded werkzeug server, which a test can stop and
    start again on the same address (the connection dies while the phone believes it has signal).

    Stopping waits until no request is being answered, its body sent and closed. Otherwise a
    request the page sent as the test ended (a poll) could still hold a database connection while
    the app fixture empties the database and disposes of the engine; that connection would then
    be dropped unclosed, and the ResourceWarning would fail whichever test was running at the next
    garbage collection.
    """

    def __init__(self, app: Any, port: int = 0) -> None:
        self.app = app
        self.port = port
        self._busy = 0
        self._idle = threading.Condition()
        self.start()

    def _done(self) -> None:
        with self._idle:
            self._busy -= 1
            self._idle.notify_all()

    def _counting(self, environ: dict[str, Any], start_response: Any) -> Any:
        with self._idle:
            self._busy += 1
        try:
            body = _Body(self.app(environ, start_response), self._done)
        except BaseException:
            self._done()
            raise
        environ[BODY] = body
        return body

    @property
    def answering(self) -> int:
        """How many requests are being answered (from the app's call until the body is closed)."""
        with self._idle:
            return self._busy

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.server = make_server(
            "127.0.0.1", self.port, self._counting, threaded=True, request_handler=_ClosingHandler
        )
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()  # serve_forever then closes the listening socket
        self.thread.join(timeout=5)
        with self._idle:
            if not self._idle.wait_for(lambda: self._busy == 0, timeout=10):
                raise RuntimeError("the live server still answers a request after 10 s")


@pytest.fixture
def server(live_app: Flask) -> Iterator[LiveServer]:
    running = LiveServer(live_app)
    yield running
    running.stop()


@pytest.fixture
def live_server(server: LiveServer) -> str:
    """The app served on a free port of 127.0.0.1 for the length of one test."""
    return server.url


@pytest.fixture
def shoot(page: Any) -> Any:
    """Save a full-page screenshot under test-results/screenshots/NAME.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(name: str, full_page: bool = True) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take


@pytest.fixture(autouse=True)
def _no_other_hosts(live_server: str, page: Any) -> Iterator[None]:
    """Every front-end file is vendored: no request may leave this server.

    It asks for the server before the page, so the page closes (and stops polling) before the
    server stops.
    """
    outside = requests_elsewhere(page, live_server)
    yield
    assert not outside, f"requests to other hosts: {outside}"


def requests_elsewhere(page: Any, origin: str) -> list[str]:
    """The list, filled as the page runs, of what it asks from anywhere but ``origin`` (every
    front-end file is vendored: it must stay empty)."""
    outside: list[str] = []

    def check(request: Any) -> None:
        if not request.url.startswith((origin, "data:", "blob:", "about:")):
            outside.append(request.url)

    page.on("request", check)
    return outside
