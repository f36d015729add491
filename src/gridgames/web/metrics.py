"""`/metrics`: what an operator watches, in Prometheus' text format (version 0.0.4).

Requests, live pages, the database, the live-game cache, the compute pool and what holds the
event loop up. With several server processes each writes its own numbers to a shared
directory every EXPORT_SECONDS and a scrape adds them up; the compute pool is counted once.
Who may read it: `--metrics` (loopback, public or off). docs/server.md ("Metrics") lists
the figures.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import ipaddress
import json
import logging
import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from gridgames import __version__
from gridgames.compute.pool import DURATION_BUCKETS
from gridgames.core.stats import LATENCY_BUCKETS, Histograms

log = logging.getLogger("gridgames")
EXPORT_SECONDS = 1.0
LAG_EVERY = 0.1  # seconds between two looks at the event loop's lateness
STALE_SECONDS = 10.0  # a process's numbers older than this are of a process gone
POLICIES = ("loopback", "public", "off")
# name -> help; its type comes from its name, Prometheus' way: a counter's ends in _total,
# a histogram's in _seconds, a gauge's in neither
HELP = {
    "gridgames_info": "The server's version (always 1).",
    "gridgames_server_processes": "Server processes whose numbers are added up.",
    "gridgames_requests_seconds": "Requests (and WebSocket upgrades) by method, route and "
    "status, and how long each took.",
    "gridgames_live_pages": "Live connections (pages of online and watched games).",
    "gridgames_live_refused_total": "Live connections refused, by reason (client: its share; "
    "total: the server's).",
    "gridgames_live_dropped_total": "Live connections the server ended, by reason (behind, "
    "deadline, gone, messages).",
    "gridgames_live_sent_total": "Messages sent to live pages, by kind.",
    "gridgames_loop_lag_seconds": "How late the event loop ran a timer due every LAG_EVERY "
    "seconds: whatever holds the loop (or the interpreter) delays every request as long.",
    "gridgames_gc_seconds": "Python's garbage collections, by generation, and how long each "
    "held the interpreter.",
    "gridgames_store_seconds": "Database transactions by kind (read, write).",
    "gridgames_store_failures_total": "Database operations refused (503), by reason.",
    "gridgames_cache_games": "Games (rooms) held in memory.",
    "gridgames_cache_bytes": "Their estimated size.",
    "gridgames_compute_workers": "Compute worker processes.",
    "gridgames_compute_waiting": "Machine-play jobs queued, not yet running.",
    "gridgames_compute_running": "Machine-play jobs running.",
    "gridgames_compute_jobs_total": "Machine-play jobs ended, by kind and outcome.",
    "gridgames_compute_refused_total": "Machine-play jobs refused (429/503), by reason.",
    "gridgames_compute_replaced_total": "Compute workers ended and started again.",
    "gridgames_compute_seconds": "Machine-play jobs' time on a worker, by kind.",
    "gridgames_compute_queued_seconds": "Time machine-play jobs waited in the queue.",
}


def family_type(name: str) -> str:
    return "counter" if name.endswith("_total") else \
        "histogram" if name.endswith("_seconds") else "gauge"


# A family's samples: {label values: number} or, for a histogram, {label values:
# (cumulative counts per bucket with +Inf last, sum)}; with its label names (and buckets).
Family = dict[str, Any]


def family(name: str, labels: tuple[str, ...], samples: dict, buckets: Iterable[float] = ()
           ) -> Family:
    return {"name": name, "labels": list(labels), "buckets": list(buckets),
            "samples": [[*key, value] for key, value in samples.items()]}


class Metrics:
    """The numbers of this process, and the sum over the server's processes."""

    def __init__(self, sources: Callable[[], list[Family]], compute: Any,
                 shared_dir: str | None = None) -> None:
        self.sources = sources  # this process's families
        self.compute = compute
        self.shared_dir = Path(shared_dir) if shared_dir else None
        self._mine = f"metrics-{os.getpid()}.json"

    # --- several processes ---

    async def export(self) -> None:
        """Write this process's numbers where the others read them, every EXPORT_SECONDS."""
        if self.shared_dir is None:
            return
        while True:
            try:
                await asyncio.to_thread(self._write)
            except OSError as err:
                log.warning("could not share this process's metrics: %s", err)
            await asyncio.sleep(EXPORT_SECONDS)

    def _write(self) -> None:
        assert self.shared_dir is not None
        partial = self.shared_dir / (self._mine + ".part")
        partial.write_text(json.dumps({"at": time.time(), "families": self.sources()}))
        partial.replace(self.shared_dir / self._mine)

    def _others(self) -> list[list[Family]]:
        if self.shared_dir is None:
            return []
        found = []
        for path in self.shared_dir.glob("metrics-*.json"):
            if path.name == self._mine:
                continue
            with contextlib.suppress(OSError, ValueError):
                shared = json.loads(path.read_text())
                if time.time() - shared["at"] < STALE_SECONDS:
                    found.append(shared["families"])
        return found

    # --- a scrape ---

    def render(self) -> str:
        processes = [self.sources(), *self._others()]
        families = _added_up(processes)
        families.append(family("gridgames_server_processes", (), {(): len(processes)}))
        families.append(family("gridgames_info", ("version",), {(__version__,): 1}))
        families.extend(compute_families(self.compute.stats()))
        return "".join(_text(f) for f in sorted(families, key=lambda f: f["name"]))


class Pauses:
    """What holds the server's event loop up: its lateness (a timer every LAG_EVERY) and
    the garbage collector's pauses, for /metrics."""

    def __init__(self) -> None:
        self.lag = Histograms()
        self.gc = Histograms()
        self._started: float | None = None

    async def watch_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + LAG_EVERY
            await asyncio.sleep(LAG_EVERY)
            self.lag.observe((), max(0.0, loop.time() - due))

    def watch_gc(self) -> None:
        gc.callbacks.append(self._collecting)

    def unwatch_gc(self) -> None:
        if self._collecting in gc.callbacks:
            gc.callbacks.remove(self._collecting)

    def _collecting(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif self._started is not None:
            self.gc.observe((str(info["generation"]),), time.perf_counter() - self._started)
            self._started = None

    def families(self) -> list[Family]:
        return [histogram_family("gridgames_loop_lag_seconds", (), self.lag.snapshot()),
                histogram_family("gridgames_gc_seconds", ("generation",),
                                 self.gc.snapshot())]


def compute_families(stats: dict[str, Any]) -> list[Family]:
    """The pool's stats() (compute/pool.py) as families: one pool for the server, counted
    once."""
    found = [family("gridgames_compute_workers", (), {(): stats["workers"]}),
             family("gridgames_compute_waiting", (), {(): stats["waiting"]}),
             family("gridgames_compute_running", (), {(): stats["running"]}),
             family("gridgames_compute_replaced_total", (), {(): stats["replaced"]}),
             family("gridgames_compute_jobs_total", ("kind", "outcome"), stats["finished"]),
             family("gridgames_compute_refused_total", ("reason",),
                    {(reason,): count for reason, count in stats["refusals"].items()})]
    found.append(family("gridgames_compute_seconds", ("kind",), stats["durations"],
                        DURATION_BUCKETS))
    found.append(family("gridgames_compute_queued_seconds", (), stats["queued"],
                        DURATION_BUCKETS))
    return found


def _added_up(processes: list[list[Family]]) -> list[Family]:
    merged: dict[str, Family] = {}
    for families in processes:
        for found in families:
            into = merged.setdefault(found["name"], {**found, "samples": []})
            by_key = {tuple(s[:-1]): s for s in into["samples"]}
            for sample in found["samples"]:
                key, value = tuple(sample[:-1]), sample[-1]
                if key not in by_key:
                    by_key[key] = [*key, value]
                    into["samples"].append(by_key[key])
                elif into["buckets"]:
                    counts, total = by_key[key][-1]
                    by_key[key][-1] = ([a + b for a, b in zip(counts, value[0], strict=True)],
                                       total + value[1])
                else:
                    by_key[key][-1] += value
    return list(merged.values())


def _text(found: Family) -> str:
    name = found["name"]
    kind, words = family_type(name), HELP[name]
    lines = [f"# HELP {name} {words}", f"# TYPE {name} {kind}"]
    labels = found["labels"]
    for sample in sorted(found["samples"], key=lambda s: [str(v) for v in s[:-1]]):
        pairs = list(zip(labels, sample[:-1], strict=True))
        if kind != "histogram":
            lines.append(f"{name}{_labels(pairs)} {_number(sample[-1])}")
            continue
        counts, total = sample[-1]
        bounds = [*(_number(b) for b in found["buckets"]), "+Inf"]
        for bound, count in zip(bounds, counts, strict=True):
            lines.append(f"{name}_bucket{_labels([*pairs, ('le', bound)])} {count}")
        lines.append(f"{name}_sum{_labels(pairs)} {_number(total)}")
        lines.append(f"{name}_count{_labels(pairs)} {counts[-1]}")
    return "\n".join(lines) + "\n"


def _labels(pairs: list[tuple[str, Any]]) -> str:
    if not pairs:
        return ""
    inner = ",".join(f'{key}="{_escape(str(value))}"' for key, value in pairs)
    return "{" + inner + "}"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _number(value: float) -> str:
    return repr(float(value)) if isinstance(value, float) else str(value)


def may_read(address: str, policy: str) -> bool:
    """Whether a client at this address (web/clients.py: client_address) may read /metrics
    under the policy."""
    if policy == "public":
        return True
    if policy == "off":
        return False
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:  # not an IP address (a Unix socket's peer): not known to be local
        return False


def histogram_family(name: str, labels: tuple[str, ...],
                     snapshot: dict[tuple[str, ...], tuple[list[int], float]]) -> Family:
    return family(name, labels, snapshot, LATENCY_BUCKETS)
