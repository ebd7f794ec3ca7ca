"""``python -m scorekeeper``: the server's options reach waitress; nonsense is refused."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper import __main__ as serve_module


def test_threads_and_connection_limit_reach_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr(serve_module, "serve", lambda app, **options: seen.update(options))
    monkeypatch.setattr(serve_module, "create_app", lambda: "app")
    serve_module.main(["--port", "8001", "--threads", "16", "--connection-limit", "400"])
    assert seen["port"] == 8001 and seen["threads"] == 16 and seen["connection_limit"] == 400


@pytest.mark.parametrize("option", ["--threads", "--connection-limit"])
def test_a_limit_below_one_is_refused(option: str) -> None:
    with pytest.raises(SystemExit):
        serve_module.main([option, "0"])
