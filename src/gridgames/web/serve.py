"""`gridgames serve`: run the app with uvicorn, on one process (SQLite or PostgreSQL) or
several (`--workers N`, PostgreSQL only), and say where it listens and where its games are."""

from __future__ import annotations

import argparse
import atexit
import gc
import json
import logging
import os
import queue
import secrets
import signal
import socket
import sys
import tempfile
import threading
import webbrowser
from dataclasses import asdict, replace
from logging.handlers import QueueHandler, QueueListener
from typing import Any, TextIO

from gridgames.core.errors import BadInput
from gridgames.registry import Games, default_games
from gridgames.store import default_db, open_store
from gridgames.web.config import ServerConfig, default_compute_workers

CONFIG_ENV = "GRIDGAMES_SERVE_CONFIG"  # how worker processes get the configuration
# --memory-mb is shared out so: each server process keeps SERVER_BASE_MB for itself and a
# cache of rooms (a quarter of the total, at most 256 MB, split between the processes);
# the compute workers share the rest, each bounded by its address space (RLIMIT_AS), which
# must leave room for the compiled kernels' runtime (MIN_WORKER_MB).
SWITCH_SECONDS = 0.0005
GC_THRESHOLDS = (20_000, 20, 20)
SERVER_BASE_MB = 200
FILES_BESIDE_PAGES = 1000  # open files a server process needs besides its live pages
MIN_WORKER_MB = 1024
MAX_MEMORY_MB = 16 << 20


def add_serve_options(p: argparse.ArgumentParser) -> None:
    _option(p, "--host", "127.0.0.1", "address to bind", env="GRIDGAMES_HOST")
    _option(p, "--port", 8000, "port", env="GRIDGAMES_PORT")
    p.add_argument("--db", default=None, metavar="URL",
                   help="where games are kept: a file path, sqlite:///PATH or "
                   "postgresql://... (default: env GRIDGAMES_DB, else games.db in the user's "
                   "data directory)")
    _option(p, "--db-timeout", 1.0, "how long a request waits for a PostgreSQL connection, "
            "or for another program's lock on the SQLite file, before it is answered 503",
            metavar="SECONDS")
    _option(p, "--workers", 1, "server processes; above 1 needs PostgreSQL",
            env="GRIDGAMES_WORKERS")
    _option(p, "--keep-days", 30.0, "remove games nobody has played for this many days")
    _option(p, "--think-seconds", ServerConfig.think_seconds, "cap on one AI move, hint, "
            "check or analysis; a solution may take ten times as long")
    p.add_argument("--compute-workers", type=int, default=None,
                   help="processes for machine play, shared by all server processes "
                   "(default: one less than the cores, at least 1, and as many as "
                   f"--memory-mb allows: here at most {default_compute_workers()})")
    p.add_argument("--compute-on-demand", action="store_true",
                   help="start the compute workers with the first piece of machine play, "
                   "not with the server: less memory and CPU while nobody asks for any, "
                   "and the first AI move or hint waits for them to load")
    _option(p, "--memory-mb", 4096, "memory of the server and its compute workers together: "
            f"each server process keeps {SERVER_BASE_MB} MB and a cache of games (a quarter, "
            "at most 256 MB), the compute workers share the rest",
            env="GRIDGAMES_MEMORY_MB")
    _option(p, "--games-per-minute", 60.0, "new games one client may start a minute, after a "
            "burst of twice as many", env="GRIDGAMES_GAMES_PER_MINUTE")
    _option(p, "--claim-seconds", 60.0, "online play: how long a player's opponent must have "
            "been gone before the player can claim the game")
    _option(p, "--client-timeout", 10.0, "a request's headers must arrive within this, its "
            "body within three times this; a client that reads nothing of what it is sent for "
            "three times this (a live page: once) is disconnected", metavar="SECONDS")
    _option(p, "--live-pages", 5000, "live connections (pages of online and watched games) "
            "one server process holds; more are refused with 503", metavar="N")
    _option(p, "--live-pages-per-client", 50, "live connections one client may hold; more "
            "are refused with 429", metavar="N")
    p.add_argument("--metrics", choices=("loopback", "public", "off"), default="loopback",
                   help="who may read /metrics (Prometheus): clients on this machine only "
                   "(default), anyone, or no one")
    p.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDRESS",
                   help="a proxy whose X-Forwarded-For names the client (repeatable; from "
                   "anyone else the header is ignored)")
    p.add_argument("--public-origin", default=None, metavar="URL",
                   help="behind a proxy: the origin pages come from (e.g. "
                   "https://games.example.org), accepted on state-changing requests")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument("--levels", metavar="PATH", action="append",
                   help="a Polar level file to add to the level select (repeatable)")


def _option(p: argparse.ArgumentParser, flag: str, default: str | float, help: str,
            env: str | None = None, **options: Any) -> None:
    """An option whose help ends with its default, and the environment variable that sets
    it when there is one (a whole number, for a number)."""
    shown = f"default {default:g}" if isinstance(default, float) else f"default {default}"
    if env is not None:
        shown += f", env {env}"
        default = os.environ.get(env, default) if isinstance(default, str) else \
            type(default)(_env_int(env, int(default)))
    if not isinstance(default, str):
        options["type"] = type(default)
    p.add_argument(flag, default=default, help=f"{help} ({shown})", **options)


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, str(default))
    if not raw.isdigit():
        raise BadInput(f"{name} must be a whole number, not {raw!r}")
    return int(raw)


def config_of(args: argparse.Namespace) -> ServerConfig:
    if not 0 < args.port < 65536:
        raise BadInput(f"port must be from 1 to 65535, not {args.port}")
    if not 1 <= args.workers <= 64:
        raise BadInput("--workers must be from 1 to 64")
    if not 0 < args.keep_days <= 36500:
        raise BadInput("--keep-days must be above 0")
    if not 0 < args.think_seconds <= 3600:
        raise BadInput("--think-seconds must be above 0 and at most 3600")
    if args.compute_workers is not None and not 1 <= args.compute_workers <= 256:
        raise BadInput("--compute-workers must be from 1 to 256")
    if not 0 < args.claim_seconds <= 86400:
        raise BadInput("--claim-seconds must be above 0 and at most a day")
    if not 1 <= args.live_pages <= 1_000_000:
        raise BadInput("--live-pages must be from 1 to 1000000")
    if not 1 <= args.live_pages_per_client <= args.live_pages:
        raise BadInput("--live-pages-per-client must be from 1 to --live-pages")
    if not 0 < args.client_timeout <= 3600:
        raise BadInput("--client-timeout must be above 0 and at most 3600 seconds")
    if not 0 < args.db_timeout <= 60:
        raise BadInput("--db-timeout must be above 0 and at most 60 seconds")
    if not 0 < args.games_per_minute <= 1_000_000:
        raise BadInput("--games-per-minute must be above 0")
    if args.memory_mb > MAX_MEMORY_MB:  # past it a worker's limit is no C long: it never starts
        raise BadInput(f"--memory-mb must be at most {MAX_MEMORY_MB} (16 TB)")
    db = args.db or default_db()
    if args.workers > 1 and not db.startswith(("postgresql://", "postgres://")):
        raise BadInput("--workers above 1 needs PostgreSQL (--db postgresql://...): an "
                       "SQLite database is served by one process")
    cache_mb = min(256, args.memory_mb // 4) // args.workers
    left_mb = args.memory_mb - (SERVER_BASE_MB + cache_mb) * args.workers
    compute = args.compute_workers or max(1, min(default_compute_workers(),
                                                 left_mb // MIN_WORKER_MB))
    worker_mb = left_mb // compute
    if worker_mb < MIN_WORKER_MB:
        needed = (SERVER_BASE_MB + cache_mb) * args.workers + MIN_WORKER_MB * compute
        raise BadInput(f"--memory-mb {args.memory_mb} is too small for {args.workers} server "
                       f"and {compute} compute processes: give at least {needed}")
    return ServerConfig(db=db, think_seconds=args.think_seconds, keep_days=args.keep_days,
                        levels=tuple(args.levels or ()), cache_mb=max(16, cache_mb),
                        compute_workers=compute, compute_memory_mb=worker_mb,
                        warm_compute=not args.compute_on_demand,
                        trusted_proxies=tuple(args.trusted_proxy),
                        public_origin=args.public_origin,
                        games_per_minute=args.games_per_minute,
                        claim_seconds=args.claim_seconds, db_timeout=args.db_timeout,
                        live_pages=args.live_pages, client_timeout=args.client_timeout,
                        metrics=args.metrics,
                        live_pages_per_client=args.live_pages_per_client,
                        games_burst=max(1, int(2 * args.games_per_minute)))


def app_from_env() -> Any:
    """The app of a worker process (uvicorn's factory): the configuration comes from the
    parent through the environment."""
    from gridgames.web.app import create_app

    _interpreter_setup()
    settings = json.loads(os.environ[CONFIG_ENV])
    config = ServerConfig(**{**settings, "levels": tuple(settings["levels"]),
                             "trusted_proxies": tuple(settings["trusted_proxies"])})
    games, _ = default_games().with_level_files(config.levels)
    app = create_app(config, games)
    _settled()
    return app


def serve(args: argparse.Namespace, games: Games, out: TextIO | None = None) -> None:
    import uvicorn

    from gridgames.web.app import create_app
    from gridgames.web.protocols import uvicorn_options

    out = out or sys.stdout
    config = config_of(args)
    _check_free(args.host, args.port)
    _enough_files(config.live_pages, out)
    store = open_store(config.db, config.db_timeout)  # one that cannot be opened stops us
    where = store.where
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    url = f"http://{shown}:{args.port}/"
    workers = f" with {args.workers} processes" if args.workers > 1 else ""
    print(f"gridgames: serving on {url}{workers}, listening on {args.host}:{args.port}; "
          f"games kept in {where} (Ctrl+C to stop)", file=out, flush=True)
    _interpreter_setup()
    if not args.no_browser and _has_display():
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    common = {"host": args.host, "port": args.port, "log_level": "warning",
              "access_log": False, "timeout_graceful_shutdown": 20, **uvicorn_options()}
    # uvicorn drains the requests in flight on SIGTERM, then raises the signal again for the
    # handler that was there before: this one makes that a clean exit.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    if args.workers == 1:
        app = create_app(config, games, store)
        _settled()
        uvicorn.run(app, **common)
        return
    store.close()  # each worker opens its own
    # One compute pool for all the server processes, here in the parent, behind a socket.
    from gridgames.compute.pool import ComputePool
    from gridgames.compute.service import ComputeService

    authkey = secrets.token_bytes(32)
    shared_dir = tempfile.mkdtemp(prefix="gridgames-")  # the pool's socket, the metrics
    address = os.path.join(shared_dir, "compute.sock")
    pool = ComputePool(config.compute_workers, config.levels, config.compute_memory_mb,
                       warm=config.warm_compute)
    service = ComputeService(pool, address, authkey)
    shared = replace(config, compute_address=address, compute_authkey=authkey.hex(),
                     metrics_dir=shared_dir)
    os.environ[CONFIG_ENV] = json.dumps({**asdict(shared), "levels": list(config.levels),
                                         "trusted_proxies": list(config.trusted_proxies)})
    try:
        uvicorn.run("gridgames.web.serve:app_from_env", factory=True, workers=args.workers,
                    **common)
    finally:
        service.close()
        pool.close()


def _interpreter_setup() -> None:
    """What holds every request of a server up is the interpreter itself (docs/operations.md,
    "Moves beside machine play"), so a server process sets it so:

    - the interpreter passes between threads every SWITCH_SECONDS, not every 5 ms: a thread
      back from the database or the network waited up to 5 ms for it behind one that
      computed, at each statement of a move's transaction (while holding the write lock),
      and the event loop likewise;
    - the garbage collector's young generation is collected every GC_YOUNG allocations, not
      700, and the older ones more rarely: a burst of connections made hundreds of small
      collections and full ones that each walked every object of the process."""
    sys.setswitchinterval(SWITCH_SECONDS)
    gc.set_threshold(*GC_THRESHOLDS)
    _log_setup()


def _settled() -> None:
    """What the start made (modules, the games' tables, the app) lives as long as the
    process: frozen out of the collector's sight, no collection walks it again."""
    gc.collect()
    gc.freeze()


def _log_setup() -> None:
    """One line per request and per error, from every server process; the connection
    pool's retries stay quiet (a database that cannot be reached stops us with one line).

    The lines are written by a thread of their own: a write to stderr lets go of the
    interpreter, and the event loop, which logs every request, would then wait for it behind
    whichever thread took it (up to the interpreter's switch interval, 5 ms)."""
    if any(isinstance(h, QueueHandler) for h in logging.getLogger().handlers):
        return  # set up already (the workers' factory, in the process that set it up)
    lines: queue.SimpleQueue = queue.SimpleQueue()
    out = logging.StreamHandler()
    out.setFormatter(logging.Formatter("%(asctime)s %(name)s %(message)s"))
    writer = QueueListener(lines, out)
    writer.start()
    atexit.register(writer.stop)  # every line is out before the process ends
    root = logging.getLogger()
    root.addHandler(_Unformatted(lines))
    root.setLevel(logging.INFO)
    logging.getLogger("psycopg.pool").setLevel(logging.CRITICAL)


def _enough_files(live_pages: int, out: TextIO) -> None:
    """Each live page holds a socket: the process may open as many files as its hard limit
    allows (the soft limit is often 1024), and says so when that is fewer than it needs."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = live_pages + FILES_BESIDE_PAGES
    if soft != resource.RLIM_INFINITY and soft < wanted:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    if soft != resource.RLIM_INFINITY and soft < wanted:
        print(f"gridgames: warning: this process may open {soft} files, fewer than the "
              f"{wanted} that --live-pages {live_pages} needs (raise its limit: LimitNOFILE "
              "in a systemd unit, ulimit -n in a shell)", file=out, flush=True)


class _Unformatted(QueueHandler):
    """Records go to the writing thread as they are, formatted there (QueueHandler formats
    them first, for a queue to another process; the writer is a thread of this one)."""

    def prepare(self, record: logging.LogRecord) -> logging.LogRecord:
        return record


def _has_display() -> bool:
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _check_free(host: str, port: int) -> None:
    """Fail with one clear line when the address cannot be bound (uvicorn would log and exit)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as err:  # UnicodeError: a name IDNA cannot encode
        raise BadInput(f"cannot serve on {host[:80]!r}: {err}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as err:
            raise BadInput(f"cannot serve on {host}:{port}: {err.strerror or err}") from err
