"""A bounded pool of compute worker processes.

- Bounded: `workers` processes (at a lower scheduling priority than the server), a queue of
  at most `queue_limit` jobs, and at most `per_client` jobs queued or running for any one
  client. Beyond them a job is refused at once (Busy: the server answers 503 or 429 with
  Retry-After), so a crowd of requests cannot pile up.
- Each job has a deadline: its budget's seconds (the search ends itself then and answers
  its best so far) plus a grace; a job still running past it is stopped by ending its
  worker.
- A job can be cancelled: queued, it is dropped; running, its worker is ended at once, so
  the CPU is free within the poll interval. A worker that dies (crash, memory limit) fails
  its job with a clear error; in every case a fresh worker takes its place.

Each worker process has a thread here that feeds it jobs one at a time and waits for the
answer, so nothing of the server's own threads waits on a job but the request that asked.
"""

from __future__ import annotations

import multiprocessing
import queue
import threading
import time
from collections import Counter
from concurrent.futures import Future
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from gridgames.compute.jobs import Job, Worker
from gridgames.core.errors import BadInput

POLL = 0.1  # seconds between two looks at a running job (cancel, deadline)
NICE = 10  # workers' scheduling priority below the server's
SERVER = ""  # the client of jobs the server asks for itself (previews): no per-client share


def grace(seconds: float) -> float:
    """How long a job may run past its budget before its worker is ended: searches check
    the clock now and then, and a loaded machine stretches everything."""
    return max(5.0, seconds / 2)


class Busy(RuntimeError):
    """The pool is full (for everyone, or for this client). `retry_after` in seconds."""

    def __init__(self, message: str, retry_after: int, per_client: bool) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.per_client = per_client


class JobFailed(RuntimeError):
    """The job's worker died or had to be stopped; the game is unchanged."""


class Cancelled(RuntimeError):
    pass


@dataclass
class _Task:
    job: Job
    client: str
    key: str  # what cancel() names: the session the job is for
    deadline_seconds: float
    future: Future = field(default_factory=Future)
    cancelled: threading.Event = field(default_factory=threading.Event)


def _serve(conn: Connection, levels: tuple[str, ...], memory_mb: int | None) -> None:
    """A worker process: run jobs until the pool closes the pipe."""
    try:
        worker = Worker(levels, memory_mb, NICE)
    except Exception as err:  # reported to the first job
        conn.send(("error", f"the compute worker could not start: {err}"))
        return
    conn.send(("ready", None))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send(("ok", worker.run(job)))
        except BadInput as err:
            conn.send(("bad", str(err)))
        except MemoryError:
            conn.send(("error", "the computation ran out of memory"))
        except Exception as err:  # a bug in machine play: the job fails, the worker lives
            conn.send(("error", f"the computation failed ({type(err).__name__}: {err})"))


class ComputePool:
    def __init__(self, workers: int = 1, levels: tuple[str, ...] = (), memory_mb: int | None
                 = None, queue_limit: int | None = None, per_client: int | None = None) -> None:
        if workers < 1:
            raise ValueError("a pool has at least one worker")
        self.workers = workers
        self.levels = levels
        self.memory_mb = memory_mb
        self.queue_limit = queue_limit if queue_limit is not None else 4 * workers + 4
        self.per_client = per_client if per_client is not None else max(2, workers + 1)
        self._context = multiprocessing.get_context("spawn")
        self._tasks: queue.Queue[_Task | None] = queue.Queue()
        self._lock = threading.Lock()
        self._waiting = 0  # queued, not yet taken by a worker
        self._by_client: Counter[str] = Counter()
        self._by_key: dict[str, _Task] = {}
        self._processes: dict[str, Any] = {}  # thread name -> its worker process
        self._closed = False
        self.done = 0
        self.refused = 0
        self.replaced = 0  # workers ended and started again
        self._threads = [threading.Thread(target=self._run_worker, name=f"compute-{n}",
                                          daemon=True) for n in range(workers)]
        for thread in self._threads:
            thread.start()

    # --- asking ---

    def submit(self, job: Job, client: str, key: str, seconds: float) -> Future:
        """Queue a job; its Future gives the answer (or raises BadInput, JobFailed,
        Cancelled). Busy at once when the pool or this client's share is full."""
        with self._lock:
            if self._closed:
                raise Busy("the server is stopping", 5, per_client=False)
            if client != SERVER and self._by_client[client] >= self.per_client:
                self.refused += 1
                raise Busy(f"you already have {self._by_client[client]} computations "
                           "running or waiting: let one finish first", 2, per_client=True)
            if self._waiting >= self.queue_limit:
                self.refused += 1
                raise Busy("the server is busy thinking for other players: try again in a "
                           "few seconds", max(1, int(seconds)), per_client=False)
            task = _Task(job, client, key, seconds + grace(seconds))
            self._waiting += 1
            self._by_client[client] += 1
            self._by_key[key] = task
        task.future.add_done_callback(lambda _: self._forget(task))
        self._tasks.put(task)
        return task.future

    def cancel(self, key: str) -> bool:
        """Stop the job for key, queued or running; whether there was one."""
        with self._lock:
            task = self._by_key.get(key)
        if task is None or task.future.done():
            return False
        task.cancelled.set()
        return True

    def busy(self, key: str) -> bool:
        with self._lock:
            task = self._by_key.get(key)
        return task is not None and not task.future.done()

    def _forget(self, task: _Task) -> None:
        with self._lock:
            self._by_client[task.client] -= 1
            if self._by_client[task.client] <= 0:
                del self._by_client[task.client]
            if self._by_key.get(task.key) is task:
                del self._by_key[task.key]

    # --- the workers ---

    def _start_process(self) -> tuple[Any, Connection]:
        mine, theirs = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(theirs, self.levels,
                                                              self.memory_mb), daemon=True)
        process.start()
        theirs.close()
        with self._lock:
            self._processes[threading.current_thread().name] = process
        return process, mine

    def _stop_process(self, process: Any, conn: Connection) -> None:
        conn.close()
        process.kill()
        process.join(timeout=5)

    def _run_worker(self) -> None:
        process, conn = self._start_process()
        started = False
        while True:
            task = self._tasks.get()
            if task is None:
                self._stop_process(process, conn)
                return
            with self._lock:
                self._waiting -= 1
            if task.cancelled.is_set():
                task.future.set_exception(Cancelled("cancelled"))
                continue
            if not task.future.set_running_or_notify_cancel():
                continue
            if not started:  # the first job waits for the worker to be ready
                ready = self._wait(conn, task, startup=True)
                if ready is None:
                    process, conn = self._replace(process, conn)
                    continue
                started = ready[0] == "ready"
                if not started:
                    task.future.set_exception(JobFailed(ready[1]))
                    process, conn = self._replace(process, conn)
                    continue
            try:
                conn.send(task.job)
            except (OSError, ValueError):
                task.future.set_exception(JobFailed("the compute worker stopped"))
                process, conn = self._replace(process, conn)
                started = False
                continue
            answer = self._wait(conn, task)
            if answer is None:  # cancelled, too long, or the worker died: a fresh one
                process, conn = self._replace(process, conn)
                started = False
                continue
            kind, value = answer
            self.done += 1
            if kind == "ok":
                task.future.set_result(value)
            elif kind == "bad":
                task.future.set_exception(BadInput(value))
            else:
                task.future.set_exception(JobFailed(value))

    def _replace(self, process: Any, conn: Connection) -> tuple[Any, Connection]:
        self.replaced += 1
        self._stop_process(process, conn)
        return self._start_process()

    def _wait(self, conn: Connection, task: _Task, startup: bool = False) -> tuple | None:
        """The worker's answer; None (and the task's future settled) when the task was
        cancelled, ran past its deadline, or the worker died."""
        deadline = time.monotonic() + (task.deadline_seconds + (120 if startup else 0))
        while True:
            if task.cancelled.is_set():
                task.future.set_exception(Cancelled("cancelled"))
                return None
            try:
                if conn.poll(POLL):
                    return conn.recv()
            except (EOFError, OSError):
                task.future.set_exception(JobFailed(
                    "the computation failed: its worker stopped (out of memory?); the "
                    "game is unchanged"))
                return None
            if time.monotonic() > deadline:
                task.future.set_exception(JobFailed(
                    "the computation took too long and was stopped; the game is unchanged"))
                return None

    def close(self) -> None:
        with self._lock:
            self._closed = True
        for _ in self._threads:
            self._tasks.put(None)
        for thread in self._threads:
            thread.join(timeout=10)

    def pids(self) -> list[int]:
        """The worker processes' IDs (for their memory, and for tests)."""
        with self._lock:
            return [p.pid for p in self._processes.values() if p.is_alive()]

    def stats(self) -> dict[str, int]:
        with self._lock:
            return {"workers": self.workers, "waiting": self._waiting, "done": self.done,
                    "refused": self.refused, "replaced": self.replaced}

