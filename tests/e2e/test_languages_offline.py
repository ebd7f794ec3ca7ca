"""Without signal the phone keeps its language (issue 25): the kept pages, the scripts' words
(their catalog kept by the service worker), what the worker writes into a kept page, and the
"No signal" page all stay in the language the phone chose.

Needs the compiled catalogs (``make test`` compiles them first)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.e2e.test_game_flow import NAMES, _start_game
from tests.e2e.test_offline import _keeps_game

pytestmark = pytest.mark.e2e


def _kept_copy(page: Page, path: str) -> str:
    return page.evaluate(
        "path => caches.open('pages').then(c => c.match(location.origin + path))"
        ".then(r => r ? r.text() : '')",
        path,
    )


def test_without_signal_the_phone_keeps_its_language(
    page: Page, context: BrowserContext, live_server: str, shoot: Any
) -> None:
    public_id = _start_game(page, live_server, NAMES)
    _keeps_game(page, public_id)

    # The phone switches to Spanish (the language buttons keep it in this cookie) and opens
    # its game once more with signal: the kept copy is now the Spanish page.
    context.add_cookies([{"name": "lang", "value": "es", "url": live_server}])
    page.goto(f"{live_server}/g/{public_id}")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    for _ in range(100):
        if 'lang="es"' in _kept_copy(page, f"/g/{public_id}"):
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError("the kept table view is not the Spanish one")

    context.set_offline(True)
    page.goto(f"{live_server}/g/{public_id}")
    # offline.js speaks Spanish: its catalog (/i18n/es.js) came from the worker's cache.
    expect(page.locator("#phone-status")).to_contain_text(
        "Sin señal. Las rondas que guarde se quedan en este teléfono y se envían cuando vuelva"
        " la señal."
    )
    # What the worker put in place of the edit code is in the page's language.
    expect(page.locator("[data-secret-removed]").first).to_have_text(
        "Solo se muestra con señal: no se guarda en este teléfono."
    )
    shoot("offline-kept-copy-in-spanish", full_page=False)

    # A page this phone never kept: "No signal", in Spanish too.
    page.goto(f"{live_server}/leagues")
    expect(page.locator("h1")).to_have_text("Sin señal")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    shoot("offline-no-signal-in-spanish", full_page=False)
    context.set_offline(False)
