"""A small least-recently-used store of worked-out values, one per server process.

What is kept is always filed under a key that changes whenever the value would (a game's
version, a league's standings stamp), so nothing kept ever needs to be told it is stale: an old
key is simply never asked for again and drops out as new ones come in. Used by ``games.kept``
(what a game's pages show) and ``leagues.standings`` (standings and player pages).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")

_MISSING = object()  # nothing kept under a key (a kept value may itself be None)


class KeptValues:
    """At most ``size`` values; the least recently used go first. Thread-safe."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        """The value kept under ``key``, or ``make()`` kept under it."""
        value = self._find(key)
        if value is _MISSING:
            value = make()  # outside the lock: two requests may both work it out, with one result
            self.put(key, value)
        return value  # type: ignore[no-any-return]

    def peek(self, key: Hashable) -> Any:
        """The value kept under ``key`` (now the most recently used), or None."""
        value = self._find(key)
        return None if value is _MISSING else value

    def _find(self, key: Hashable) -> Any:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        return _MISSING

    def put(self, key: Hashable, value: Any) -> None:
        """Keep ``value`` under ``key``."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
