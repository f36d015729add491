"""A newcomer's first answers: from a fresh clone of this repository, the install `make run`
does (a virtual environment, the app, `gridgames warm`), then the server, and at once the
first answers of each kind against the next ones: AI moves on Trilobite 8x7, Polar hints,
Trilobite analyses. Prints the install's seconds and each answer's.

Usage: python bench/bench_cold_start.py [--repo .] [--keep DIR] [--ready]
(needs the package index, as `make run` does; takes about a minute here)
--ready: ask only once /readyz answers 200 (machine play loaded), not as soon as the server
answers at all; what is left between the first answer and the next is then the position's
own search, not the start.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Client:
    def __init__(self, base: str, started: float) -> None:
        self.base, self.started = base, started

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, object]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=300) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")

    def timed(self, label: str, method: str, path: str, body: dict | None = None) -> object:
        began = time.monotonic()
        status, answer = self.call(method, path, body)
        print(f"{label:28s} {status} in {time.monotonic() - began:5.2f} s "
              f"({time.monotonic() - self.started:5.1f} s after the server started)")
        return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", default=str(Path(__file__).resolve().parents[1]))
    parser.add_argument("--keep", help="clone here and keep it (default: a temporary one)")
    parser.add_argument("--ready", action="store_true", help="ask once /readyz says ready")
    args = parser.parse_args()
    home = Path(args.keep or tempfile.mkdtemp(prefix="gridgames-cold-"))
    clone = home / "gridgames"
    subprocess.run(["git", "clone", "--quiet", args.repo, str(clone)], check=True)
    began = time.monotonic()
    subprocess.run(["make", "--silent", ".venv/.installed-app"], cwd=clone, check=True)
    print(f"install (venv, app, gridgames warm): {time.monotonic() - began:.1f} s")
    port = free_port()
    env = {**os.environ, "GRIDGAMES_DB": str(home / "games.db")}
    server = subprocess.Popen([str(clone / ".venv" / "bin" / "gridgames"), "serve", "--port",
                               str(port), "--no-browser"], cwd=clone, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started = time.monotonic()
    client = Client(f"http://127.0.0.1:{port}", started)
    try:
        while True:  # answering at all: a player may ask from here on
            try:
                client.call("GET", "/healthz")
                break
            except OSError:
                time.sleep(0.05)
        print(f"answering {time.monotonic() - started:.2f} s after the start")
        while args.ready and client.call("GET", "/readyz")[0] != 200:
            time.sleep(0.05)
        if args.ready:
            print(f"ready {time.monotonic() - started:.2f} s after the start")
        game = client.timed("new Trilobite 8x7", "POST", "/api/v1/sessions",
                            {"game": "trilobite", "params": "width=8,height=7,line=4"})
        trilobite = game["session"]
        for number in range(1, 4):
            client.timed(f"AI move {number}", "POST", f"/api/v1/sessions/{trilobite}/ai")
        polar = client.call("POST", "/api/v1/sessions",
                            {"game": "polar", "params": "pack=original,level=3"})[1]["session"]
        for number in range(1, 3):
            client.timed(f"Polar hint {number}", "GET", f"/api/v1/sessions/{polar}/hint")
            client.call("POST", f"/api/v1/sessions/{polar}/move", {"move": "R"})
        for number in range(1, 3):
            client.timed(f"Trilobite analysis {number}", "GET",
                         f"/api/v1/sessions/{trilobite}/analysis")
            client.call("POST", f"/api/v1/sessions/{trilobite}/move", {"move": "1"})
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
