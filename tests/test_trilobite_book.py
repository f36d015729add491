"""The Trilobite opening book (games/trilobite/book.py, bookbuild.py): keys, the file, the
build (complete, exact, resumable, deterministic), its use by the analysis and the perfect
AI, and the commands."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gridgames.core.errors import BadInput
from gridgames.core.result import Budget
from gridgames.core.rng import Rng
from gridgames.games.trilobite import make_game
from gridgames.games.trilobite.analyzer import SolverPool, TrilobiteAnalyzer, make_solver
from gridgames.games.trilobite.bitboard import geometry
from gridgames.games.trilobite.book import (
    PACKAGE_BOOKS,
    Book,
    BookShelf,
    book_name,
    child_positions,
    decode_key,
    mirror,
    position_key,
)
from gridgames.games.trilobite.bookbuild import (
    Builder,
    children_values,
    lines_done,
    next_work,
    walk,
)
from gridgames.games.trilobite.solver import Solver

SMALL = (5, 4, 4)  # small enough to build a whole book in a second
# One worker runs the module, so the books of the `built` fixture are built once
# (`--dist loadgroup`, as `make test` runs).
pytestmark = pytest.mark.xdist_group("trilobite-book")


def random_positions(g, count, seed="book"):
    rng = Rng(seed)
    solver = Solver(g.width, g.height, g.line)
    out = []
    while len(out) < count:
        current = mask = moves = 0
        for _ in range(rng.below(g.cells - 2)):
            cols = [c for c in range(g.width) if not mask & g.tops[c]]
            col = rng.choice(cols)
            move = (mask + g.bottoms[col]) & g.columns[col]
            if g.winning_cells(current, mask) & move:
                break
            current, mask, moves = current ^ mask, mask | move, moves + 1
        if not solver.can_win_next(current, mask) and moves < g.cells:
            out.append((current, mask, moves))
    return out


def test_keys_are_shared_by_mirror_images_and_decode():
    g = geometry(7, 6, 4)
    for current, mask, moves in random_positions(g, 200):
        key = position_key(current, mask, g)
        assert key == position_key(mirror(current, g), mirror(mask, g), g)
        back = decode_key(key, g)
        assert back in ((current, mask, moves), (mirror(current, g), mirror(mask, g), moves))


@pytest.mark.slow
def test_floor_and_ceiling_clamp_the_exact_score():
    g = geometry(*SMALL)
    fast = make_solver(*SMALL)
    slow = Solver(*SMALL)
    for current, mask, moves in random_positions(g, 40, "clamp"):
        exact = slow.solve(current, mask, moves)
        for floor, ceiling in ((-1, 0), (0, 1), (exact, exact + 1), (exact - 1, exact),
                               (-3, 3)):
            want = min(max(exact, floor), ceiling)
            assert slow.solve(current, mask, moves, floor=floor, ceiling=ceiling) == want
            assert fast.solve(current, mask, moves, floor=floor, ceiling=ceiling) == want


def build(tmp_path: Path, depth: int, name="small.book") -> Book:
    path = tmp_path / name
    return Builder(*SMALL, depth, path, workers=1, memory_mb=16, say=lambda _: None).run()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """depth -> (the book a build from nothing returned, its file): each built once for the
    module (a build starts a worker process). Tests only read them."""
    folder = tmp_path_factory.mktemp("books")
    done: dict[int, tuple[Book, Path]] = {}

    def book(depth: int) -> tuple[Book, Path]:
        if depth not in done:
            done[depth] = build(folder, depth, f"depth-{depth}.book"), \
                folder / f"depth-{depth}.book"
        return done[depth]

    return book


@pytest.mark.slow
def test_a_built_book_is_complete_and_exact(built):
    book, path = built(5)
    assert book.depth == book.target + 1 == 6
    g = book.g
    # Every sixth entry of each ply in key order (about 250) against the reference
    # solver, not the kernel the build used: the reference is Python, 7 ms an entry. One
    # table for all: its entries are exact bounds of the positions they key, whichever
    # search stored them (the build solves families with one table too), and it makes this
    # 5 times cheaper than a fresh table an entry.
    solver = Solver(*SMALL)
    by_ply: dict[int, list[tuple[int, int, int]]] = {}
    for key, score in zip(book.keys.tolist(), book.scores.tolist(), strict=True):
        current, mask, moves = decode_key(key, g)
        by_ply.setdefault(moves, []).append((current, mask, score))
    assert set(by_ply) == set(range(1, book.depth + 1)), by_ply.keys()  # each ply it holds
    for moves, entries in by_ply.items():
        for current, mask, score in entries[::6]:
            assert solver.solve(current, mask, moves) == score
    # every book node's columns are a look-up: the walk finds nothing missing
    assert walk(book.entries(), g, 5)[1] == []
    assert Book.load(path).entries() == book.entries()


@pytest.mark.slow
def test_a_build_resumes_to_the_same_book(tmp_path, built):
    whole, whole_path = built(5)
    part = build(tmp_path, 2, "part.book")
    assert part.depth == 3 and len(part) < len(whole)
    again = build(tmp_path, 5, "part.book")  # continues the partial book
    assert again.entries() == whole.entries()
    assert (tmp_path / "part.book").read_bytes() == whole_path.read_bytes()


@pytest.mark.slow
def test_a_damaged_book_is_refused_and_the_game_searches_instead(tmp_path, built):
    good = built(4)[0].to_bytes()
    for bad in (b"", b"{}\n", good[:-5], good.replace(b'"width": 5', b'"width": 20'),
                b"not json\n" + good):
        with pytest.raises(BadInput):
            Book.from_bytes(bad)
    (tmp_path / book_name(*SMALL)).write_bytes(good[:-5])
    assert len(BookShelf([tmp_path]).get(*SMALL)) == 0


@pytest.mark.slow
def test_the_analysis_reads_the_book_and_agrees_with_the_solver(tmp_path, built):
    shutil.copy(built(4)[1], tmp_path / book_name(*SMALL))
    game = make_game()
    params = game.parse_params("width=5,height=4,line=4")
    state = game.new_state(params, game.new_desc(params, Rng("a")))
    booked = TrilobiteAnalyzer(SolverPool(16), BookShelf([tmp_path]))
    live = TrilobiteAnalyzer(SolverPool(16), BookShelf([]))
    for move in ["3", "3", "2", None]:
        scores, meter = booked.scores(state, Budget())
        assert meter.nodes == 0  # a look-up, no search
        assert scores == live.scores(state, Budget())[0]
        if move:
            state = game.apply(state, move)


def test_the_shipped_book_loads_and_is_symmetric():
    path = PACKAGE_BOOKS / book_name(7, 6, 4)
    book = Book.load(path)
    assert (book.width, book.height, book.line) == (7, 6, 4) and book.depth >= 1
    scores = book.column_scores(0, 0, 0)
    assert scores is not None and scores == scores[::-1]

    # the perfect level's first move is a look-up: proven, no search, the centre
    game = make_game()
    params = game.parse_params("")
    empty = game.new_state(params, "7/7/7/7/7/7")
    found = game.ai.choose(empty, "perfect", Rng("first"), Budget(nodes=1))
    assert found.proven and found.value == "4" and found.nodes == 0


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "gridgames", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=300)


@pytest.mark.slow
def test_book_commands(tmp_path):
    out = tmp_path / "cli.book"
    done = run_cli("trilobite", "book", "build", "--params", "width=5,height=4,line=4",
                   "--depth", "3", "--out", str(out), "--workers", "2", "--memory", "16")
    assert done.returncode == 0, done.stderr
    assert "complete (book nodes of up to 3 stones)" in done.stdout
    done = run_cli("trilobite", "book", "verify", "--book", str(out), "--sample", "15")
    assert done.returncode == 0 and "15 of 15 sampled entries agree" in done.stdout
    done = run_cli("trilobite", "book", "info", "--book", str(out))
    assert done.returncode == 0 and "5x4 line 4" in done.stdout
    for bad in (["build", "--depth", "-1"], ["build", "--depth", "3", "--workers", "0"],
                ["verify", "--book", str(tmp_path / "missing.book")],
                ["info", "--params", "width=5,height=4,line=4"]):
        done = run_cli("trilobite", "book", *bad, cwd=tmp_path)
        assert done.returncode == 2 and "Traceback" not in done.stderr, bad
        assert done.stderr.strip().count("\n") == 0, done.stderr


@pytest.mark.slow
def test_the_build_goes_first_where_two_perfect_players_go(built):
    """A book cut short is worth most where strong players go: the build's next work is the
    children of the book nodes both sides reach playing only best moves (ties included), and
    within a ply those families come before the others."""
    book = built(4)[0]
    g, entries = book.g, book.entries()
    main = {0: (0, 0, 0)}
    for _ in range(5):
        following = {}
        for node in main.values():
            values = children_values(entries, node, g)
            top = max(values.values())
            for col, child, child_mask, wins in child_positions(*node[:2], g):
                if values[col] == top and not wins:
                    following[position_key(child, child_mask, g)] = (child, child_mask,
                                                                     node[2] + 1)
        main = following
    children = {position_key(child, child_mask, g)
                for current, mask, _ in main.values()
                for _, child, child_mask, wins in child_positions(current, mask, g) if not wins}
    ply, strays, families = next_work(entries, g, 5)
    assert (ply, strays) == (5, 0)
    assert {position_key(c, m, g) for family in families for c, m, _ in family} == children
    # A book with only those: `book info` says the main lines are complete.
    whole = built(5)[0].entries()
    part = {key: score for key, score in whole.items()
            if key in entries or key in children}
    assert lines_done(Book.of_entries(*SMALL, part, 5, 5)) == \
        "the lines of two perfect players are complete to book nodes of 5 stones"
    assert lines_done(Book.of_entries(*SMALL, entries, 5, 5)) == ""
    _, every, _ = walk(entries, g, 5)  # every line of ply 5: those of the main lines first
    on_main = [all(position_key(c, m, g) in children for c, m, _ in family) for family in every]
    assert 0 < sum(on_main) < len(on_main)
    assert on_main == sorted(on_main, reverse=True)


SHIPPED = PACKAGE_BOOKS / book_name(7, 6, 4)


@pytest.mark.slow
@pytest.mark.parametrize("start", ["empty", "shipped"])
def test_a_build_stopped_by_kill_saves_and_stops_its_workers(tmp_path, start):
    """`kill` (SIGTERM) during a build: the book is saved, the command says how to go on,
    and no worker process is left solving the rest of the ply. From the shipped book the
    next ply queues tens of thousands of positions, more than a pipe holds: the build must
    not wait at exit for that queue to be read (it did, for ever)."""
    out = tmp_path / "killed.book"
    depth = "6"
    if start == "shipped":
        shutil.copy(SHIPPED, out)
        depth = str(Book.load(SHIPPED).target + 1)
    build = subprocess.Popen(
        [sys.executable, "-m", "gridgames", "trilobite", "book", "build", "--depth", depth,
         "--out", str(out), "--workers", "2", "--memory", "16"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    said = []
    for line in build.stderr:  # until a ply's work is queued
        said.append(line)
        if "positions to solve" in line:
            break
    workers = children_of(build.pid)
    assert len(workers) >= 2, f"the build's workers did not start: {said}"
    time.sleep(0.5)  # they are solving
    build.send_signal(signal.SIGTERM)
    try:
        _, rest = build.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        build.kill()  # the hang this test is for: leave no process behind
        raise
    err = "".join(said) + rest
    assert build.returncode == 130 and "Traceback" not in err
    assert "run the same command again to go on" in err
    assert Book.load(out).width == 7
    deadline = time.monotonic() + 5
    while (left := alive(workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, f"workers still running after the build ended: {left}"


def alive(pids: list[int]) -> list[int]:
    """The processes of `pids` still running (not gone, not zombies)."""
    running = []
    for pid in pids:
        try:
            if "Z" not in Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]:
                running.append(pid)
        except OSError:
            pass
    return running


def children_of(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found
