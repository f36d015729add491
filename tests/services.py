"""Real services for the tests and the benchmarks: a throwaway PostgreSQL server.

It runs Debian's (or any) PostgreSQL server programs on a Unix socket in a temporary
directory, as the `postgres` user when we are root (PostgreSQL refuses to run as root), and
is stopped and removed afterwards.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


class NoPostgres(RuntimeError):
    pass


def pg_bin() -> Path | None:
    """The directory of PostgreSQL's server programs (Debian's layout, or the PATH)."""
    def version(path: str) -> int:
        part = path.split("/")[4]
        return int(part) if part.isdigit() else 0

    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=version)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


@dataclass(frozen=True)
class PostgresServer:
    host: str  # the socket directory
    port: int
    control: tuple[str, ...] = ()  # pg_ctl with the cluster's directory, run as its owner
    settings: str = ""  # the server's options, to start it again the same way

    def stop(self) -> None:
        """Stop the server now (connections are cut: what a crash or a restart does)."""
        subprocess.run([*self.control, "-m", "fast", "stop"], check=True,
                       capture_output=True, timeout=60)

    def start(self) -> None:
        subprocess.run([*self.control, "-w", "-o", self.settings, "start"], check=True,
                       capture_output=True, timeout=60)

    def dsn(self, database: str) -> str:
        return f"host={self.host} port={self.port} user=gridgames dbname={database}"

    def url(self, database: str) -> str:
        return f"postgresql://gridgames@/{database}?host={self.host}&port={self.port}"

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.dsn("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def throwaway_postgres(fsync: bool = False) -> Iterator[PostgresServer]:
    bindir = pg_bin()
    if bindir is None:
        raise NoPostgres("PostgreSQL is not installed (run scripts/install-system-deps)")
    home = Path(tempfile.mkdtemp(prefix="gg-pg-", dir="/tmp"))
    as_postgres: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(home, "postgres", "postgres")
        as_postgres = ["runuser", "-u", "postgres", "--"]
    port = _free_port()
    data = home / "data"

    def run(*args: str) -> None:
        subprocess.run([*as_postgres, *args], check=True, capture_output=True, timeout=120)

    try:
        run(str(bindir / "initdb"), "-D", str(data), "-U", "gridgames", "-A", "trust",
            "--no-sync", "-E", "UTF8")
        settings = (f"-k {home} -p {port} -c listen_addresses='' -c max_connections=300"
                    + ("" if fsync else " -c fsync=off"))
        control = (*as_postgres, str(bindir / "pg_ctl"), "-D", str(data), "-l",
                   str(home / "log"))
        server = PostgresServer(str(home), port, control, settings)
        server.start()
        yield server
    finally:
        subprocess.run([*as_postgres, str(bindir / "pg_ctl"), "-D", str(data), "-m",
                        "immediate", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(home, ignore_errors=True)
