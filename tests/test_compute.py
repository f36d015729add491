"""The compute pool with real worker processes: jobs run beside the caller, a cancelled job
frees its worker's CPU within a second and a queued one leaves the queue at once, a worker
that dies fails its job clearly and is replaced, the queue and each client's share are
bounded however many jobs are cancelled, and stats() counts it all. The same through the
socket service (several server processes) and through the real server."""

from __future__ import annotations

import os
import pickle
import signal
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from gridgames.compute.jobs import WORK, Job
from gridgames.compute.pool import (
    DURATION_BUCKETS,
    OUTCOMES,
    Busy,
    Cancelled,
    ComputePool,
    JobFailed,
)
from gridgames.compute.service import ComputeService, RemoteCompute
from gridgames.core.result import Budget
from gridgames.registry import default_games
from gridgames.session import Session
from tests.servers import Server, process_tree

pytestmark = pytest.mark.slow  # every test drives real compute worker processes

GAMES = default_games()
LONG = Budget(seconds=120)  # far more than any test waits: the job is still running


UNSOLVED = "width=8"  # an empty board with no opening book that no test has time to solve


def state_of(game: str, moves: str = "", params: str = "") -> object:
    session = Session.new(game, params, "compute-test", GAMES)
    for move in moves.split():
        session.play(move)
    return session.state


def long_job() -> Job:
    # 8x6: no opening book, and far too big to solve in the tests' time
    return Job("analysis", "trilobite", state_of("trilobite", params=UNSOLVED), LONG)


QUICK = Job("ai", "tictactoe", state_of("tictactoe"), Budget(), level="easy", seed="x")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_running(pool: ComputePool, key: str) -> list[int]:
    """The worker pids once the job for key is on a worker (not just queued)."""
    deadline = time.monotonic() + 120  # a worker starting loads (or compiles) its kernels
    while time.monotonic() < deadline:
        stats = pool.stats()
        if stats["running"] and not stats["waiting"] and pool.busy(key) and pool.pids():
            time.sleep(0.5)  # sent to the worker, which is now searching
            return pool.pids()
        time.sleep(0.05)
    raise AssertionError("the job never started")


@pytest.fixture(scope="module")
def shared_pool():
    """One pool for the module: its worker starts once (a test that ends it waits for the
    next)."""
    pool = ComputePool(workers=1, queue_limit=2, per_client=2)
    yield pool
    pool.close()


@pytest.fixture
def pool(shared_pool):
    """The module's pool; each test leaves it with nothing queued or running."""
    yield shared_pool
    deadline = time.monotonic() + 10
    while shared_pool.stats()["waiting"] or shared_pool.stats()["running"]:
        assert time.monotonic() < deadline, f"jobs left in the pool: {shared_pool.stats()}"
        time.sleep(0.05)


def grown(before: dict, after: dict) -> dict:
    """What each count of stats()['finished'] (or ['refusals']) grew by, the zeros left out."""
    return {key: after[key] - before.get(key, 0) for key in after
            if after[key] != before.get(key, 0)}


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
    assert pool.submit(QUICK, "me", "game", 10).result(timeout=180).value


def test_a_queued_job_cancelled_fails_at_once_while_the_running_one_goes_on(pool):
    running = pool.submit(long_job(), "a", "long", 120)
    [pid] = wait_running(pool, "long")
    queued = pool.submit(QUICK, "b", "queued", 10)
    assert pool.stats()["waiting"] == 1
    assert pool.cancel("queued")
    assert queued.done()  # settled before cancel() returned, not when a worker is free
    with pytest.raises(Cancelled):
        queued.result(timeout=0)
    assert pool.stats()["waiting"] == 0 and not pool.busy("queued")
    assert not pool.cancel("queued")  # nothing left to cancel
    # The long job was not touched: same worker, still searching.
    assert not running.done() and pool.busy("long") and alive(pid) and pool.pids() == [pid]
    assert pool.cancel("long")
    with pytest.raises(Cancelled):
        running.result(timeout=5)


def test_cancels_leave_nothing_behind_and_the_bounds_stay_exact(pool):
    running = pool.submit(long_job(), "a", "long", 120)  # a's first of 2
    wait_running(pool, "long")
    before = pool.stats()
    cycles = 300
    for n in range(cycles):  # the worker busy all along: nothing leaves the queue but cancels
        mine = pool.submit(QUICK, "a", f"a{n}", 10)  # a's second
        with pytest.raises(Busy) as share:
            pool.submit(QUICK, "a", "x", 10)
        assert share.value.per_client
        other = pool.submit(QUICK, f"client{n}", f"b{n}", 10)  # the queue (2) is full
        with pytest.raises(Busy) as full:
            pool.submit(QUICK, "c", "y", 10)
        assert not full.value.per_client
        assert pool.cancel(f"a{n}") and pool.cancel(f"b{n}")
        for future in (mine, other):
            with pytest.raises(Cancelled):
                future.result(timeout=0)
    after = pool.stats()
    assert after["waiting"] == 0 and after["running"] == 1
    assert not any(pool.busy(f"{who}{n}") for who in "ab" for n in range(cycles))
    assert grown(before["finished"], after["finished"]) == {("ai", "cancelled"): 2 * cycles}
    assert grown(before["refusals"], after["refusals"]) == {"client": cycles, "full": cycles}
    assert after["refused"] - before["refused"] == 2 * cycles
    assert after["queued"][()][0][-1] - before["queued"][()][0][-1] == 2 * cycles

    # The same from four threads at once: every job accepted is settled and counted once.
    def flood(who: str) -> tuple[int, int]:
        accepted = refused = 0
        for n in range(200):
            try:
                future = pool.submit(QUICK, who, f"{who}{n}", 10)
            except Busy:
                refused += 1
                continue
            accepted += 1
            pool.cancel(f"{who}{n}")
            assert isinstance(future.exception(timeout=0), Cancelled)
        return accepted, refused

    before = pool.stats()
    with ThreadPoolExecutor(4) as threads:
        counts = list(threads.map(flood, ("w", "x", "y", "z")))
    accepted, refused = sum(n for n, _ in counts), sum(n for _, n in counts)
    after = pool.stats()
    assert accepted + refused == 800 and accepted > 0
    assert grown(before["finished"], after["finished"]) == {("ai", "cancelled"): accepted}
    assert after["refused"] - before["refused"] == refused
    assert after["waiting"] == 0 and after["running"] == 1

    # Two jobs for one key: cancel stops both, and one that leaves does not hide the other.
    first = pool.submit(QUICK, "b", "same", 10)
    second = pool.submit(QUICK, "c", "same", 10)
    assert second.cancel()  # its caller gives up: its place is free at once
    assert pool.busy("same") and pool.stats()["waiting"] == 1
    third = pool.submit(QUICK, "c", "same", 10)
    assert pool.cancel("same") and first.done() and third.done() and not pool.busy("same")

    # The bounds are where they were: a's one more place, the queue's two.
    again = [pool.submit(QUICK, "a", "a-again", 10)]
    with pytest.raises(Busy):
        pool.submit(QUICK, "a", "x", 10)
    again.append(pool.submit(QUICK, "b", "b-again", 10))
    with pytest.raises(Busy):
        pool.submit(QUICK, "c", "y", 10)
    for key in ("a-again", "b-again", "long"):
        assert pool.cancel(key)
    for future in (*again, running):
        with pytest.raises(Cancelled):
            future.result(timeout=5)


def test_stats_count_jobs_by_kind_and_outcome_with_their_durations(pool):
    before = pool.stats()
    assert pool.submit(QUICK, "me", "ok", 10).result(timeout=180).value
    with pytest.raises(Exception, match="no AI player"):
        pool.submit(Job("ai", "polar", state_of("polar"), Budget()), "me", "bad",
                    10).result(timeout=60)
    # A search given 120 s but a deadline of 0.1 s plus the grace (5 s): stopped.
    late = pool.submit(long_job(), "me", "late", 0.1)
    wait_running(pool, "late")
    assert pool.stats()["running"] == 1
    queued = [pool.submit(QUICK, "me", "queued", 10)]
    with pytest.raises(Busy):  # me: the share (2) is full
        pool.submit(QUICK, "me", "x", 10)
    queued.append(pool.submit(QUICK, "you", "queued", 10))
    with pytest.raises(Busy):  # the queue (2) is full
        pool.submit(QUICK, "someone", "x", 10)
    assert pool.cancel("queued")
    for future in queued:
        with pytest.raises(Cancelled):
            future.result(timeout=0)
    with pytest.raises(JobFailed, match="took too long"):
        late.result(timeout=30)
    after = pool.stats()

    assert grown(before["finished"], after["finished"]) == {
        ("ai", "ok"): 1, ("ai", "bad"): 1, ("ai", "cancelled"): 2, ("analysis", "timeout"): 1}
    assert grown(before["refusals"], after["refusals"]) == {"client": 1, "full": 1}
    assert after["done"] - before["done"] == 2  # answered by a worker: ok and bad
    assert after["running"] == 0 and after["waiting"] == 0
    assert set(after["finished"]) == {(work, outcome) for work in WORK for outcome in OUTCOMES}
    for counts, _ in (*after["durations"].values(), *after["queued"].values()):
        assert len(counts) == len(DURATION_BUCKETS) + 1  # and +Inf: every job
        assert counts == sorted(counts)  # cumulative
    at = {bound: n for n, bound in enumerate(DURATION_BUCKETS)}
    empty = ([0] * (len(DURATION_BUCKETS) + 1), 0.0)

    def grown_by(name: str, labels: tuple) -> tuple[list[int], float]:
        (now, total), (was, was_total) = after[name][labels], before[name].get(labels, empty)
        return [a - b for a, b in zip(now, was, strict=True)], total - was_total

    ai, seconds = grown_by("durations", ("ai",))
    assert ai[-1] == 2 and seconds > 0  # ran on a worker: ok and bad, not the cancelled
    assert ai[at[60]] == 2
    analysis, seconds = grown_by("durations", ("analysis",))
    assert analysis[-1] == 1 and 5.0 < seconds < 60  # stopped past its deadline
    assert analysis[at[5]] == 0 and analysis[at[60]] == 1
    assert grown_by("queued", ())[0][-1] == 5  # every job submitted
    assert pickle.loads(pickle.dumps(after)) == after


def test_a_worker_that_dies_fails_its_job_and_is_replaced(pool):
    before = pool.stats()
    future = pool.submit(long_job(), "me", "game", 120)
    [pid] = wait_running(pool, "game")
    os.kill(pid, signal.SIGKILL)  # as the kernel does at a memory limit
    with pytest.raises(JobFailed, match="unchanged"):
        future.result(timeout=10)
    assert pool.submit(QUICK, "me", "game", 10).result(timeout=180).value
    after = pool.stats()
    assert after["replaced"] > before["replaced"] and pid not in pool.pids()
    assert grown(before["finished"], after["finished"]) == {("analysis", "failed"): 1,
                                                            ("ai", "ok"): 1}


def test_the_queue_and_each_clients_share_are_bounded(pool):
    refused = pool.stats()["refused"]
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
    assert pool.stats()["refused"] - refused == 2
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


def test_a_queued_job_cancelled_through_the_service_fails_at_once(pool, tmp_path):
    service = ComputeService(pool, str(tmp_path / "compute.sock"), b"key")
    remote = RemoteCompute(str(tmp_path / "compute.sock"), b"key")
    try:
        running = remote.submit(long_job(), "a", "long", 120)
        wait_running(pool, "long")
        queued = remote.submit(QUICK, "b", "queued", 10)
        deadline = time.monotonic() + 10
        while not remote.busy("queued"):  # the submit crosses the socket in a thread
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert remote.stats()["waiting"] == 1
        assert remote.cancel("queued")
        with pytest.raises(Cancelled):
            queued.result(timeout=5)  # not when the long job ends (120 s)
        stats = remote.stats()
        assert stats["waiting"] == 0 and stats["running"] == 1 and not running.done()
        assert stats["finished"] == pool.stats()["finished"]  # tuple keys cross the socket
        assert remote.cancel("long")
        with pytest.raises(Cancelled):
            running.result(timeout=5)
    finally:
        service.close()


def test_a_warm_pool_says_it_is_starting_until_its_searches_are_loaded(tmp_path):
    """So that /readyz waits for them, and no move or hint waits on a compiler; the same
    answer comes through the service to the other server processes."""
    warm = ComputePool(workers=1, warm=True)
    service = ComputeService(warm, str(tmp_path / "compute.sock"), b"key")
    remote = RemoteCompute(str(tmp_path / "compute.sock"), b"key")
    try:
        assert "machine play is starting" in warm.starting()  # the worker is still spawning
        assert remote.starting() == warm.starting()
        deadline = time.monotonic() + 90  # a fresh install compiles the searches here
        while warm.starting():
            assert time.monotonic() < deadline, warm.starting()
            time.sleep(0.05)
        assert remote.starting() is None
    finally:
        service.close()
        warm.close()
    cold = ComputePool(workers=1)  # its workers start with the first job: nothing to wait for
    assert cold.starting() is None
    cold.close()


def test_on_demand_the_compute_workers_start_with_the_first_ai_move(tmp_path):
    server = Server(str(tmp_path / "games.db"), "--compute-workers", "1")  # on demand
    try:
        assert process_tree(server.process.pid) == [server.process.pid]  # ready, and no worker
        game = new_game(server, game="tictactoe")
        status, answer = server.call("POST", f"/api/v1/sessions/{game}/ai")
        assert status == 200 and len(answer["moves"]) == 1
        assert len(process_tree(server.process.pid)) >= 2
    finally:
        server.stop()


def test_a_queued_ai_move_cancelled_on_the_server_answers_at_once(tmp_path):
    # One compute worker, kept busy by an analysis of up to 60 s.
    server = Server(str(tmp_path / "games.db"), "--compute-workers", "1",
                    "--think-seconds", "60", warm=True)
    calls = ThreadPoolExecutor(2)
    busy = ""
    try:
        busy = new_game(server, game="trilobite", params=UNSOLVED)
        game = new_game(server, game="tictactoe")
        before = server.call("GET", f"/api/v1/sessions/{game}")[1]
        analysis = calls.submit(server.call, "GET", f"/api/v1/sessions/{busy}/analysis")
        time.sleep(2)  # its job is queued first (it waits while the worker starts)
        ai = calls.submit(server.call, "POST", f"/api/v1/sessions/{game}/ai")
        time.sleep(1)  # the AI's job is queued behind it
        assert server.call("POST", f"/api/v1/sessions/{game}/cancel") == \
            (200, {"cancelled": True})
        status, answer = ai.result(timeout=5)  # at once, not when the analysis ends
        assert status == 409 and "cancelled" in answer["error"]
        assert not analysis.done()  # the worker was busy with it all along
        after = server.call("GET", f"/api/v1/sessions/{game}")[1]
        assert after == before  # nothing changed in that game
        assert server.call("POST", f"/api/v1/sessions/{busy}/cancel")[1] == {"cancelled": True}
        assert analysis.result(timeout=10)[0] == 409
    finally:
        if busy:  # the analysis ends now, whatever failed
            server.call("POST", f"/api/v1/sessions/{busy}/cancel")
        calls.shutdown(wait=True)
        server.stop()


def new_game(server: Server, **body: str) -> str:
    status, answer = server.call("POST", "/api/v1/sessions", body)
    assert status == 201, answer
    return answer["session"]


def test_a_worker_sets_numpys_page_choice_before_numpy_is_imported():
    """NumPy reads NUMPY_MADVISE_HUGEPAGE once, when it is imported: a spawned worker has not
    imported it by the time the worker starts (the pool's module and the registry need none)."""
    import subprocess
    import sys

    code = ("import sys, gridgames.compute.pool, gridgames.compute.jobs, gridgames.cli; "
            "print('numpy' in sys.modules)")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(
                               sys.path)})
    assert found.stdout.strip() == "False"
