"""`gridgames serve`'s options: --memory-mb is shared out between the server processes and
the compute workers, the default number of compute workers fits the memory, bad values get
one clear line."""

from __future__ import annotations

import argparse
from unittest import mock

import pytest

from gridgames.core.errors import BadInput
from gridgames.web.serve import MIN_WORKER_MB, SERVER_BASE_MB, add_serve_options, config_of


def config(*argv: str, cores: int = 2):
    parser = argparse.ArgumentParser()
    add_serve_options(parser)
    with mock.patch("os.cpu_count", return_value=cores):
        return config_of(parser.parse_args(["--db", "/tmp/x.db", *argv]))


def test_memory_is_shared_out_within_the_bound():
    made = config("--memory-mb", "4096")
    assert made.compute_workers == 1  # two cores: one for the server, one for machine play
    assert made.cache_mb == 256
    assert SERVER_BASE_MB + made.cache_mb + made.compute_workers * made.compute_memory_mb \
        <= 4096


def test_the_default_compute_workers_fit_the_memory():
    many = config("--memory-mb", "4096", cores=16)  # 15 cores to spare, memory for 3
    assert many.compute_workers == 3 and many.compute_memory_mb >= MIN_WORKER_MB
    small = config("--memory-mb", "1500", cores=16)
    assert small.compute_workers == 1


def test_too_little_memory_for_the_asked_workers_is_refused():
    with pytest.raises(BadInput, match="too small for 1 server and 4 compute"):
        config("--memory-mb", "2048", "--compute-workers", "4")
    with pytest.raises(BadInput, match="needs PostgreSQL"):  # said before any memory sum
        config("--workers", "3", "--memory-mb", "600")


@pytest.mark.parametrize("argv, message", [
    (["--port", "0"], "port"), (["--keep-days", "0"], "keep-days"),
    (["--think-seconds", "0"], "think-seconds"), (["--compute-workers", "0"], "compute"),
    (["--games-per-minute", "0"], "games-per-minute"), (["--claim-seconds", "0"], "claim"),
    # a compute worker's address-space limit past a C long: it never started (503s)
    (["--memory-mb", "9" * 21], "memory-mb must be at most"),
])
def test_bad_values_are_refused(argv, message):
    with pytest.raises(BadInput, match=message):
        config(*argv)
