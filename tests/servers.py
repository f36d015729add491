"""Real server processes for the service tests: `gridgames serve` started as a subprocess,
and a small JSON client."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.conftest import free_port


class Server:
    """`warm`: the compute workers start with the server and /readyz waits for them, as
    `gridgames serve` runs by default; otherwise (--compute-on-demand) with the first piece
    of machine play, which most of these tests never ask for."""

    def __init__(self, db: str, *options: str, port: int | None = None,
                 warm: bool = False) -> None:
        self.db = db
        if not warm:
            options = ("--compute-on-demand", *options)
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        # The output goes to a file: a pipe nobody reads would fill and stop the server.
        self.output = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115 (lives with the server)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gridgames", "serve", "--no-browser", "--port",
             str(self.port), "--db", db, *options],
            stdout=self.output, stderr=subprocess.STDOUT, env=env, text=True)
        deadline = time.monotonic() + 90
        while True:
            try:
                if self.call("GET", "/readyz")[0] == 200:
                    return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                output = self.stop()
                raise RuntimeError(f"the server did not start:\n{output}")
            time.sleep(0.1)

    def call(self, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        status, _, answer = self.answer(method, path, body, headers)
        return status, answer

    def answer(self, method: str, path: str, body: Any = None,
               headers: dict[str, str] | None = None) -> tuple[int, Any, Any]:
        """(status, headers, the JSON body)"""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json",
                                                  **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, answer.headers, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as err:
            return err.code, err.headers, json.loads(err.read() or b"null")

    def rss_mb(self) -> float:
        """The resident memory of the server and every process under it (its compute
        workers), in MB."""
        return sum(_rss_kb(pid) for pid in process_tree(self.process.pid)) / 1024

    def kill(self) -> None:
        """kill -9: no clean shutdown at all."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> str:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.output.seek(0)
        return self.output.read()


def process_tree(root: int) -> list[int]:
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(parents.get(pid, []))
    return found


def _rss_kb(pid: int) -> int:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    return next((int(line.split()[1]) for line in status.splitlines()
                 if line.startswith("VmRSS:")), 0)


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used (user and system), in seconds: what it did, whatever
    the wait for a core on a busy machine. 0 when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
