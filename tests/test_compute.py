"""The compute pool with real worker processes: jobs run beside the caller, a cancelled job
frees its worker's CPU within a second, a worker that dies fails its job clearly and is
replaced, and the queue and each client's share are bounded."""

from __future__ import annotations

import os
import signal
import time

import pytest

from gridgames.compute.jobs import Job
from gridgames.compute.pool import Busy, Cancelled, ComputePool, JobFailed
from gridgames.core.result import Budget
from gridgames.registry import default_games
from gridgames.session import Session

GAMES = default_games()
LONG = Budget(seconds=120)  # the empty 7x6 board: minutes to solve, so it is still running


UNSOLVED = "width=8"  # an empty board with no opening book that no test has time to solve


def state_of(game: str, moves: str = "", params: str = "") -> object:
    session = Session.new(game, params, "compute-test", GAMES)
    for move in moves.split():
        session.play(move)
    return session.state


def long_job() -> Job:
    # 8x6: no opening book, and far too big to solve in the tests' time
    return Job("analysis", "trilobite", state_of("trilobite", params=UNSOLVED), LONG)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_running(pool: ComputePool, key: str) -> list[int]:
    """The worker pids once the job for key is on a worker (not just queued)."""
    deadline = time.monotonic() + 120  # the first job waits for the worker to start
    while time.monotonic() < deadline:
        if pool.stats()["waiting"] == 0 and pool.busy(key) and pool.pids():
            time.sleep(0.5)  # sent to the worker, which is now searching
            return pool.pids()
        time.sleep(0.05)
    raise AssertionError("the job never started")


@pytest.fixture
def pool():
    pool = ComputePool(workers=1, queue_limit=2, per_client=2)
    yield pool
    pool.close()


def test_a_job_runs_in_a_worker_process(pool):
    found = pool.submit(Job("ai", "tictactoe", state_of("tictactoe", "a1"), Budget(),
                            level="perfect", seed="s"), "me", "g1", 10).result(timeout=180)
    assert found.value == "b2" and found.proven  # the only move that holds against a corner
    assert pool.pids() and os.getpid() not in pool.pids()
    with pytest.raises(Exception, match="Polar has no AI player"):  # a game without that capability
        pool.submit(Job("ai", "polar", state_of("polar"), Budget()), "me", "g2",
                    10).result(timeout=60)


def test_cancel_frees_the_cpu_within_a_second(pool):
    future = pool.submit(long_job(), "me", "game", 120)
    [pid] = wait_running(pool, "game")
    assert alive(pid)
    asked = time.monotonic()
    assert pool.cancel("game")
    with pytest.raises(Cancelled):
        future.result(timeout=5)
    while alive(pid) and time.monotonic() - asked < 1.0:
        time.sleep(0.02)
    assert not alive(pid), "the cancelled job's worker still runs after 1 s"
    # A fresh worker answers the next job.
    quick = Job("ai", "tictactoe", state_of("tictactoe"), Budget(), level="easy", seed="x")
    assert pool.submit(quick, "me", "game", 10).result(timeout=180).value


def test_a_worker_that_dies_fails_its_job_and_is_replaced(pool):
    future = pool.submit(long_job(), "me", "game", 120)
    [pid] = wait_running(pool, "game")
    os.kill(pid, signal.SIGKILL)  # as the kernel does at a memory limit
    with pytest.raises(JobFailed, match="unchanged"):
        future.result(timeout=10)
    quick = Job("ai", "tictactoe", state_of("tictactoe"), Budget(), level="easy", seed="x")
    assert pool.submit(quick, "me", "game", 10).result(timeout=180).value
    assert pool.stats()["replaced"] >= 1 and pid not in pool.pids()


def test_the_queue_and_each_clients_share_are_bounded(pool):
    running = pool.submit(long_job(), "a", "g1", 120)
    wait_running(pool, "g1")
    waiting = pool.submit(long_job(), "a", "g2", 120)  # a's second: its share is 2
    with pytest.raises(Busy) as mine:
        pool.submit(long_job(), "a", "g3", 120)
    assert mine.value.per_client and mine.value.retry_after >= 1
    also = pool.submit(long_job(), "b", "g4", 120)  # the queue (2) is now full
    with pytest.raises(Busy) as everyone:
        pool.submit(long_job(), "c", "g5", 120)
    assert not everyone.value.per_client
    assert pool.stats()["refused"] == 2
    for key in ("g2", "g4", "g1"):
        pool.cancel(key)
    for future in (running, waiting, also):
        with pytest.raises(Cancelled):
            future.result(timeout=10)


def test_a_search_cut_by_its_budget_answers_best_found(pool):
    found = pool.submit(Job("analysis", "trilobite", state_of("trilobite", params=UNSOLVED),
                            Budget(seconds=1.0)), "me", "g", 1.0).result(timeout=180)
    assert not found.proven  # the empty 8x6 board is not solved in a second
    assert found.to_dict()["proven"] is False
