"""A bounded cache with a lock: the only kind of cache the package keeps (no module-level
mutable state). Its owner (a game object, the app, a command) creates it and decides its
size; least recently used entries go first."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    def __init__(self, max_entries: int) -> None:
        if max_entries < 1:
            raise ValueError("a cache holds at least one entry")
        self.max_entries = max_entries
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            if key not in self._entries:
                return None
            self._entries.move_to_end(key)
            return self._entries[key]

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        """The entry for key, made (outside the lock: making may be slow) when missing."""
        found = self.get(key)
        if found is None:
            found = make()
            self.put(key, found)
        return found

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._entries

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
