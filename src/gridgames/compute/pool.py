"""A bounded pool of compute worker processes: a fixed number of workers at a lower
scheduling priority, a bounded queue, a share for each client, a deadline for each job, and
cancellation. A job beyond the bounds is refused at once (Busy: 503 or 429 with Retry-After);
a worker that dies or runs past its deadline fails its job and is replaced.

How the threads, the queue and the settling of a job fit together: docs/server.md ("The
compute pool").
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections import Counter, deque
from concurrent.futures import Future
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from gridgames.compute.jobs import WORK, Job, Worker
from gridgames.core.errors import BadInput
from gridgames.core.stats import Histograms

POLL = 0.1  # seconds between two looks at a running job (cancel, deadline)
NICE = 10  # workers' scheduling priority below the server's
SERVER = ""  # the client of jobs the server asks for itself (previews): no per-client share
STARTUP_SECONDS = 120.0  # a worker loads (or compiles) the games' kernels before any job
# stats(): how jobs end, why jobs are refused, and the bounds (seconds) of the histograms of
# their running and queued times
OUTCOMES = ("ok", "bad", "failed", "cancelled", "timeout")
REFUSALS = ("full", "client")
DURATION_BUCKETS = (0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60)
STOPPING = "the server is stopping"
DIED = ("the computation failed: its worker stopped (killed, or out of memory); the game is "
        "unchanged")
TOO_LONG = "the computation took too long and was stopped; the game is unchanged"


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


@dataclass(eq=False)  # found in the queue and the books by identity
class _Task:
    job: Job
    client: str
    key: str  # what cancel() names: the session the job is for
    deadline_seconds: float
    future: Future = field(default_factory=Future)
    cancelled: threading.Event = field(default_factory=threading.Event)  # while running
    queued_at: float = field(default_factory=time.monotonic)
    started_at: float | None = None  # taken by a worker


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
                 = None, queue_limit: int | None = None, per_client: int | None = None,
                 warm: bool = False) -> None:
        if workers < 1:
            raise ValueError("a pool has at least one worker")
        self.workers = workers
        self.levels = levels
        self.memory_mb = memory_mb
        self.queue_limit = queue_limit if queue_limit is not None else 4 * workers + 4
        self.per_client = per_client if per_client is not None else max(2, workers + 1)
        self._context = multiprocessing.get_context("spawn")
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)  # a job queued, or the pool closed
        self._queue: deque[_Task] = deque()
        self._running: set[_Task] = set()
        self._by_client: Counter[str] = Counter()  # jobs queued or running
        self._by_key: dict[str, list[_Task]] = {}  # jobs queued or running
        self._processes: dict[str, Any] = {}  # thread name -> its worker process
        self._closed = False
        self._warm = warm  # start the worker processes now, not with the first job
        self._started = threading.Event()  # a worker has loaded every compiled search
        self._start_problem: str | None = None  # why the last worker could not start
        self.done = 0  # jobs a worker answered
        self.refused = 0
        self.replaced = 0  # workers ended and started again
        self._refusals = dict.fromkeys(REFUSALS, 0)
        self._finished = {(work, outcome): 0 for work in WORK for outcome in OUTCOMES}
        self._durations = Histograms(DURATION_BUCKETS)  # (work,): seconds on a worker
        self._waits = Histograms(DURATION_BUCKETS)  # (): seconds queued
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
                raise Busy(STOPPING, 5, per_client=False)
            if client != SERVER and self._by_client[client] >= self.per_client:
                self._refuse("client")
                raise Busy(f"you already have {self._by_client[client]} computations "
                           "running or waiting: let one finish first", 2, per_client=True)
            if len(self._queue) >= self.queue_limit:
                self._refuse("full")
                raise Busy("the server is busy thinking for other players: try again in a "
                           "few seconds", max(1, int(seconds)), per_client=False)
            task = _Task(job, client, key, seconds + grace(seconds))
            task.future.add_done_callback(self._abandoned)
            self._queue.append(task)
            self._by_client[client] += 1
            self._by_key.setdefault(key, []).append(task)
            self._changed.notify()
        return task.future

    def cancel(self, key: str) -> bool:
        """Stop the jobs for key: a queued one leaves the queue and fails with Cancelled at
        once, a running one's worker is ended (within POLL). Whether there was one."""
        with self._lock:
            tasks = list(self._by_key.get(key, ()))
            for task in tasks:
                if task in self._running:
                    task.cancelled.set()
            dropped = [task for task in tasks if task not in self._running and self._drop(task)]
        for task in dropped:
            task.future.set_exception(Cancelled("cancelled"))
        return bool(tasks)

    def busy(self, key: str) -> bool:
        with self._lock:
            return key in self._by_key

    def starting(self) -> str | None:
        """Why a warm pool cannot take a job at once yet (its first worker is still loading
        or compiling the searches, or could not start), else None: no move or hint then
        waits on a compiler. A pool that starts workers with the first job never says so."""
        if not self._warm or self._started.is_set():
            return None
        return self._start_problem or "machine play is starting (its searches are loading)"

    def _refuse(self, reason: str) -> None:
        self.refused += 1
        self._refusals[reason] += 1

    def _abandoned(self, future: Future) -> None:
        """A queued job whose caller cancelled its future (asyncio does when the request is
        cancelled) leaves the queue now, not when a worker would have taken it. (Given the
        future, not the task: a task in its own future's callbacks would be a cycle.)"""
        if not future.cancelled():
            return
        with self._lock:
            task = next((task for task in self._queue if task.future is future), None)
            if task is not None:
                self._drop(task)

    # --- the books (the lock held) ---

    def _dequeue(self, task: _Task) -> bool:
        """Take a job out of the queue; whether its future is ours to settle (marked running:
        False when its caller cancelled it)."""
        self._queue.remove(task)
        self._waits.observe((), time.monotonic() - task.queued_at)
        return task.future.set_running_or_notify_cancel()

    def _drop(self, task: _Task) -> bool:
        """A queued job out of the pool, as cancelled; whether its future is ours to settle."""
        ours = self._dequeue(task)
        self._leave(task, "cancelled")
        return ours

    def _leave(self, task: _Task, outcome: str) -> None:
        """Out of the pool's books, counted by how it ended (one of OUTCOMES)."""
        self._running.discard(task)
        self._by_client[task.client] -= 1
        if self._by_client[task.client] <= 0:
            del self._by_client[task.client]
        same = self._by_key[task.key]
        same.remove(task)
        if not same:
            del self._by_key[task.key]
        work = task.job.work
        self._finished[work, outcome] = self._finished.get((work, outcome), 0) + 1
        if task.started_at is not None:
            self._durations.observe((work,), time.monotonic() - task.started_at)

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
        """Worker processes, one at a time, fed jobs until the pool closes; one that had to
        be ended (cancel, deadline, crash) is replaced by a fresh one at once. Unless the pool
        is warm, the first starts with the first job: a test that never computes spawns none."""
        with self._changed:
            while not self._warm and not self._queue and not self._closed:
                self._changed.wait()
            if self._closed:
                return
            self._changed.notify_all()  # the other workers start too: more jobs may follow
        while True:
            process, conn = self._start_process()
            self._feed(conn)
            self._stop_process(process, conn)
            with self._lock:
                if self._closed:
                    return
                self.replaced += 1

    def _feed(self, conn: Connection) -> None:
        """Jobs for one worker process until it must be ended or the pool closes. The jobs
        wait in the queue (cancellable) while it starts; if it cannot, the next job fails
        with the reason."""
        problem = self._ready(conn)
        if problem is None:
            self._started.set()
        elif problem != STOPPING:
            self._start_problem = f"machine play cannot start: {problem}"
        while (task := self._take()) is not None:
            if problem is not None:
                self._finish(task, "failed", JobFailed(problem))
                return
            if not self._run(conn, task):
                return

    def _ready(self, conn: Connection) -> str | None:
        """None once the worker process is ready for jobs, else why it is not."""
        deadline = time.monotonic() + STARTUP_SECONDS
        try:
            while not conn.poll(POLL):
                if self._closed:
                    return STOPPING
                if time.monotonic() > deadline:
                    return "the compute worker took too long to start"
            kind, message = conn.recv()
        except (EOFError, OSError):
            return "the compute worker stopped while starting"
        return None if kind == "ready" else message

    def _take(self) -> _Task | None:
        """The next job, now running; None once the pool closes (close() empties the
        queue)."""
        with self._changed:
            while True:
                while not self._queue and not self._closed:
                    self._changed.wait()
                if self._closed:
                    return None
                task = self._queue[0]
                if self._dequeue(task):
                    task.started_at = time.monotonic()
                    self._running.add(task)
                    return task
                self._leave(task, "cancelled")  # by its caller

    def _run(self, conn: Connection, task: _Task) -> bool:
        """One job on the worker; whether the worker may take another."""
        if task.cancelled.is_set():  # as a worker took it: the job was not sent
            self._finish(task, "cancelled", self._cancelled())
            return True
        try:
            conn.send(task.job)
            kind, value = self._wait(conn, task)
        except (EOFError, OSError):
            self._finish(task, "failed", JobFailed(DIED))
            return False
        except Exception as err:  # a job or an answer that does not pickle: this job fails
            self._finish(task, "failed", JobFailed(
                f"the computation failed ({type(err).__name__}: {err})"))
            return False
        if kind == "cancelled":
            self._finish(task, "cancelled", self._cancelled())
            return False
        if kind == "timeout":
            self._finish(task, "timeout", JobFailed(TOO_LONG))
            return False
        if kind == "ok":
            self._finish(task, "ok", result=value, answered=True)
        elif kind == "bad":
            self._finish(task, "bad", BadInput(value), answered=True)
        else:
            self._finish(task, "failed", JobFailed(value), answered=True)
        return True

    def _cancelled(self) -> Exception:
        """What a running job cancelled raises: by close(), the server is stopping."""
        return JobFailed(STOPPING) if self._closed else Cancelled("cancelled")

    def _wait(self, conn: Connection, task: _Task) -> tuple[str, Any]:
        """The worker's answer ("ok", "bad" or "error", and its value), else ("cancelled",
        None) or ("timeout", None): the worker must be ended. EOFError when it died."""
        deadline = time.monotonic() + task.deadline_seconds
        while not conn.poll(POLL):
            if task.cancelled.is_set():
                return "cancelled", None
            if time.monotonic() > deadline:
                return "timeout", None
        return conn.recv()

    def _finish(self, task: _Task, outcome: str, error: Exception | None = None,
                result: Any = None, answered: bool = False) -> None:
        """A running job's end: out of the books, then its future settled."""
        with self._lock:
            self._leave(task, outcome)
            if answered:
                self.done += 1
        if error is not None:
            task.future.set_exception(error)
        else:
            task.future.set_result(result)

    def close(self) -> None:
        """No more jobs: the queued ones fail at once (JobFailed), the running ones' workers
        are ended, and the threads end."""
        with self._lock:
            self._closed = True
            dropped = [task for task in list(self._queue) if self._drop(task)]
            for task in self._running:
                task.cancelled.set()
            self._changed.notify_all()
        for task in dropped:
            task.future.set_exception(JobFailed(STOPPING))
        for thread in self._threads:
            thread.join(timeout=10)

    def pids(self) -> list[int]:
        """The worker processes' IDs (for their memory, and for tests)."""
        with self._lock:
            return [p.pid for p in self._processes.values() if p.is_alive()]

    def stats(self) -> dict[str, Any]:
        """Plain data (it crosses the service's socket): the counts now (`workers`,
        `waiting`: queued, `running`), counts since the start (`done`: answered by a worker,
        `refused`, `replaced`: workers ended), `finished`: {(work, outcome): jobs},
        `refusals`: {reason: jobs}, `durations`: {(work,): histogram of the seconds its jobs
        ran on a worker, whatever their outcome}, `queued`: {(): histogram of the seconds
        jobs waited in the queue (until a worker took them or they were cancelled)}; a
        histogram is (jobs at or under each of DURATION_BUCKETS, cumulative, and all of
        them last; the sum of their seconds), as core/stats.py keeps them."""
        with self._lock:
            return {"workers": self.workers, "waiting": len(self._queue),
                    "running": len(self._running), "done": self.done,
                    "refused": self.refused, "replaced": self.replaced,
                    "finished": dict(self._finished), "refusals": dict(self._refusals),
                    "durations": self._durations.snapshot(), "queued": self._waits.snapshot()}
