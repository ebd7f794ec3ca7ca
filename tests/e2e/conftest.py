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
from werkzeug.serving import make_server

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


@pytest.fixture
def live_server(live_app: Flask) -> Iterator[str]:
    """The app served on a free port of 127.0.0.1 for the length of one test."""
    server = make_server("127.0.0.1", 0, live_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)


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
def _no_other_hosts(page: Any, live_server: str) -> Iterator[None]:
    """Every front-end file is vendored: no request may leave this server."""
    outside: list[str] = []

    def check(request: Any) -> None:
        url = request.url
        if not url.startswith((live_server, "data:", "blob:", "about:")):
            outside.append(url)

    page.on("request", check)
    yield
    assert not outside, f"requests to other hosts: {outside}"
