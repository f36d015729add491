"""One compute pool for several server processes: the pool runs in the `gridgames serve`
parent process behind a Unix socket (multiprocessing.connection, with a secret key), and
each server process asks it through `RemoteCompute`, which answers like the pool itself. So
the number of compute processes is set once, whatever the number of server processes."""

from __future__ import annotations

import threading
from concurrent.futures import Future
from multiprocessing.connection import Client, Connection, Listener
from typing import Any

from gridgames.compute.jobs import Job
from gridgames.compute.pool import Busy, Cancelled, ComputePool, JobFailed
from gridgames.core.errors import BadInput


class ComputeService:
    def __init__(self, pool: ComputePool, address: str, authkey: bytes) -> None:
        self.pool = pool
        self._listener = Listener(address, family="AF_UNIX", authkey=authkey)
        self._thread = threading.Thread(target=self._accept, name="compute-service",
                                        daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn = self._listener.accept()
            except (OSError, EOFError):
                return
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: Connection) -> None:
        with conn:
            try:
                request = conn.recv()
                if request[0] == "cancel":
                    conn.send(("ok", self.pool.cancel(request[1])))
                elif request[0] == "busy":
                    conn.send(("ok", self.pool.busy(request[1])))
                elif request[0] == "stats":
                    conn.send(("ok", self.pool.stats()))
                elif request[0] == "starting":
                    conn.send(("ok", self.pool.starting()))
                else:
                    _, job, client, key, seconds = request
                    conn.send(_outcome(lambda: self.pool.submit(job, client, key,
                                                                seconds).result()))
            except (EOFError, OSError):
                return  # the asking server process went away

    def close(self) -> None:
        self._listener.close()


def _outcome(run: Any) -> tuple:
    try:
        return ("ok", run())
    except Busy as err:
        return ("busy", str(err), err.retry_after, err.per_client)
    except BadInput as err:
        return ("bad", str(err))
    except Cancelled:
        return ("cancelled",)
    except JobFailed as err:
        return ("failed", str(err))


class RemoteCompute:
    """The pool of the parent process, asked over its socket (same methods as the pool)."""

    def __init__(self, address: str, authkey: bytes) -> None:
        self.address, self.authkey = address, authkey

    def _ask(self, request: tuple) -> tuple:
        with Client(self.address, family="AF_UNIX", authkey=self.authkey) as conn:
            conn.send(request)
            return conn.recv()

    def submit(self, job: Job, client: str, key: str, seconds: float) -> Future:
        future: Future = Future()

        def exchange() -> None:
            if not future.set_running_or_notify_cancel():  # its caller gave up already
                return
            try:
                answer = self._ask(("submit", job, client, key, seconds))
            except (OSError, EOFError) as err:
                future.set_exception(JobFailed(f"the compute service cannot be reached: "
                                               f"{err}"))
                return
            if answer[0] == "ok":
                future.set_result(answer[1])
            elif answer[0] == "busy":
                future.set_exception(Busy(answer[1], answer[2], answer[3]))
            elif answer[0] == "bad":
                future.set_exception(BadInput(answer[1]))
            elif answer[0] == "cancelled":
                future.set_exception(Cancelled("cancelled"))
            else:
                future.set_exception(JobFailed(answer[1]))

        threading.Thread(target=exchange, daemon=True).start()
        return future

    def cancel(self, key: str) -> bool:
        return bool(self._ask(("cancel", key))[1])

    def busy(self, key: str) -> bool:
        return bool(self._ask(("busy", key))[1])

    def stats(self) -> dict[str, Any]:
        return self._ask(("stats",))[1]

    def starting(self) -> str | None:
        return self._ask(("starting",))[1]

    def close(self) -> None:
        pass
