"""What the package keeps for the life of a process, found without a list: every functools
cache (``cache_clear``) defined in a ``scorekeeper`` module or on a class of one, and every
``cachetools`` cache held at a module's top level. The tests'
autouse fixture empties them all before each test (tests/conftest.py)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

PACKAGE = "scorekeeper"


def _stores() -> tuple[type, ...]:
    kinds: list[type] = []
    for module_name, class_name in (("cachetools", "Cache"),):
        module = sys.modules.get(module_name)
        if module is not None and isinstance(getattr(module, class_name, None), type):
            kinds.append(getattr(module, class_name))
    return tuple(kinds)


def _package_modules() -> list[ModuleType]:
    return [
        module
        for name, module in list(sys.modules.items())
        if module is not None and (name == PACKAGE or name.startswith(PACKAGE + "."))
    ]


def _own_values(module: ModuleType) -> Iterator[Any]:
    """The module's top-level values and those of the classes it defines."""
    for value in list(vars(module).values()):
        yield value
        if isinstance(value, type) and value.__module__ == module.__name__:
            yield from list(vars(value).values())


def process_caches() -> Iterator[Any]:
    """Every cache the imported ``scorekeeper`` modules hold (each once)."""
    stores = _stores()
    seen: set[int] = set()
    for module in _package_modules():
        for value in _own_values(module):
            # Only types are asked (a module may hold a proxy such as flask.request, which
            # any other question would try to resolve).
            if isinstance(value, (staticmethod, classmethod)):
                value = value.__func__
            kind = type(value)
            is_cache = (
                hasattr(kind, "cache_clear") and vars(value).get("__module__") == module.__name__
            ) or issubclass(kind, stores)
            if is_cache and id(value) not in seen:
                seen.add(id(value))
                yield value


_found: dict[frozenset[str], list[Any]] = {}


def clear_process_caches() -> int:
    """Empty them all; how many there were. They are looked for again whenever another
    ``scorekeeper`` module has been imported (a look costs some 20 ms, an emptying 0.1)."""
    names = frozenset(module.__name__ for module in _package_modules())
    if names not in _found:
        _found.clear()
        _found[names] = list(process_caches())
    count = 0
    for cache in _found[names]:
        if hasattr(cache, "cache_clear"):
            cache.cache_clear()
        else:
            cache.clear()
        count += 1
    return count
