"""The suite's own guards (tests/conftest.py): a test that starts a process is marked slow, and
what the package keeps for the life of the process is emptied before every test."""

from __future__ import annotations

import functools
import subprocess
import sys
import types

import pytest
from flask import request

from tests.process_caches import clear_process_caches


def test_a_test_not_marked_slow_cannot_start_a_process() -> None:
    with pytest.raises(pytest.fail.Exception, match="mark it @pytest.mark.slow"):
        subprocess.run(["true"], check=True)


@pytest.mark.slow
def test_a_slow_test_may_start_one() -> None:
    assert subprocess.run(["true"], check=True).returncode == 0


def test_every_test_empties_the_process_caches_first(request: pytest.FixtureRequest) -> None:
    assert "_fresh_process_caches" in request.fixturenames


def _probe_module() -> tuple[types.ModuleType, list[int]]:
    """A package module holding each kind of cache, and a proxy that must not be touched."""
    module = types.ModuleType("scorekeeper._probe_caches")
    calls: list[int] = []

    @functools.cache
    def worked_out(n: int) -> int:
        calls.append(n)
        return n * 2

    class Holder:
        @staticmethod
        @functools.lru_cache(maxsize=4)
        def kept(n: int) -> int:
            calls.append(n)
            return n

    for value in (worked_out, Holder.__dict__["kept"].__func__, Holder):
        value.__module__ = module.__name__
    module.worked_out, module.Holder = worked_out, Holder
    module.request = request  # flask's proxy: asking it anything outside a request raises
    return module, calls


def test_every_cache_of_the_package_is_found_and_emptied(monkeypatch: pytest.MonkeyPatch) -> None:
    module, calls = _probe_module()
    monkeypatch.setitem(sys.modules, module.__name__, module)
    module.worked_out(1)
    module.Holder.kept(2)

    assert clear_process_caches() >= 2
    module.worked_out(1)
    module.Holder.kept(2)
    assert calls == [1, 2, 1, 2]
