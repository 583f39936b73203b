"""A bounded cache the cycle collector never walks: int keys, int or str values, two generations.

The engine's caches hold hundreds of thousands of entries. Held in an ``OrderedDict`` (or any dict holding a
tuple), each full collection of the cycle collector visits every key and value, one cache miss each: long
pauses inside a single position's time (measured in docs/naked-diagonal.md, "The exact engine"). A plain
``dict`` whose keys and values are all ints or strings is never tracked by the collector, so it costs nothing
there. Such a dict cannot drop its oldest entry cheaply, so this cache keeps two generations: new entries go
into the young one; when it holds half the limit it becomes the old one, which loses one entry (the cheap end)
per entry added, and is empty by the time the young one fills again. A hit in the old generation moves the
entry to the young one. No step frees many entries at once, so there is no pause of that kind either.

>>> c = UntrackedCache(4)
>>> for k in range(5):
...     c.put(k, str(k))
>>> len(c), c.get(4), c.get(0)
(2, '4', None)
"""

from __future__ import annotations

Value = int | str


class UntrackedCache:
    """At most ``limit`` entries from int keys to int or str values (see the module docstring)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._young: dict[int, Value] = {}
        self._old: dict[int, Value] = {}

    def get(self, key: int) -> Value | None:
        """The value stored under ``key``, or ``None``."""
        value = self._young.get(key)
        if value is None:
            value = self._old.get(key)
            if value is not None:
                self.put(key, value)
        return value

    def put(self, key: int, value: Value) -> None:
        """Store ``value`` under ``key`` (an int or a str: anything else would be walked again)."""
        if len(self._young) >= max(1, self.limit // 2):
            self._old, self._young = self._young, {}
        self._young[key] = value
        if self._old:
            self._old.popitem()

    def clear(self) -> None:
        """Forget every entry."""
        self._young.clear()
        self._old.clear()

    def __len__(self) -> int:
        return len(self._young) + len(self._old)
