"""A server process moves what it built at start-up out of the garbage collector's reach
(``scorekeeper.serving``): gunicorn's hook for each worker, and ``python -m scorekeeper``."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from scorekeeper import __main__ as served
from scorekeeper import serving


@pytest.fixture
def unfrozen() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()  # the test process's objects go back to the collector


def test_a_worker_that_built_the_app_leaves_it_out_of_full_collections(
    app: object, unfrozen: None
) -> None:
    gc.collect()  # what earlier tests left to collect is not what the hook freezes
    tracked = len(gc.get_objects())
    serving.post_worker_init(worker=None)
    # Everything there was is frozen: a full collection now walks none of it.
    assert gc.get_freeze_count() >= tracked * 0.9
    assert len(gc.get_objects()) < tracked * 0.1
    made_later = [[index] for index in range(1000)]
    assert any(item is made_later[0] for item in gc.get_objects())


def test_python_m_scorekeeper_freezes_before_it_serves(
    monkeypatch: pytest.MonkeyPatch, unfrozen: None
) -> None:
    seen: list[int] = []
    monkeypatch.setattr(served, "serve", lambda app, **options: seen.append(gc.get_freeze_count()))
    monkeypatch.setattr(served, "create_app", lambda: _app())
    served.main(["--port", "5999"])
    assert seen and seen[0] > 0


def _app() -> object:
    from flask import Flask

    app = Flask("x")
    app.config["PUBLIC_URL"] = None
    return app
