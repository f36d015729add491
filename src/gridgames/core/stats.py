"""Counts and timings that a part of the program keeps about itself (the store, the live
pages, the requests), for the operators' `/metrics` (web/metrics.py renders them). Each is an
object with an owner and a lock; a snapshot is plain data that crosses processes."""

from __future__ import annotations

import bisect
import threading
from collections import Counter

# Seconds: from a cached read (well under a millisecond) to a request that waited too long.
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
                   5.0, 10.0)

Labels = tuple[str, ...]


class Histograms:
    """Observations by labels, counted into fixed buckets (Prometheus histograms: each bucket
    counts the observations at or under its bound, the last is +Inf)."""

    def __init__(self, buckets: tuple[float, ...] = LATENCY_BUCKETS) -> None:
        self.buckets = buckets
        self._counts: dict[Labels, list[int]] = {}  # per bucket, not cumulative; +Inf last
        self._sums: Counter[Labels] = Counter()
        self._lock = threading.Lock()

    def observe(self, labels: Labels, value: float) -> None:
        slot = bisect.bisect_left(self.buckets, value)
        with self._lock:
            counts = self._counts.get(labels)
            if counts is None:
                counts = self._counts[labels] = [0] * (len(self.buckets) + 1)
            counts[slot] += 1
            self._sums[labels] += value

    def snapshot(self) -> dict[Labels, tuple[list[int], float]]:
        """labels -> (cumulative counts per bucket, +Inf last; the sum of the values)."""
        with self._lock:
            return {labels: (_cumulative(counts), self._sums[labels])
                    for labels, counts in self._counts.items()}


class Counts:
    """Events by labels."""

    def __init__(self) -> None:
        self._counts: Counter[Labels] = Counter()
        self._lock = threading.Lock()

    def add(self, labels: Labels, amount: int = 1) -> None:
        with self._lock:
            self._counts[labels] += amount

    def snapshot(self) -> dict[Labels, int]:
        with self._lock:
            return dict(self._counts)


def _cumulative(counts: list[int]) -> list[int]:
    total, out = 0, []
    for count in counts:
        total += count
        out.append(total)
    return out
