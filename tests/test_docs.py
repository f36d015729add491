"""docs/python-api.md: every example runs, in order, in one namespace, as a reader would
paste them (the printed results in its comments are checked where they are exact)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "python-api.md"


def blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


def test_every_example_of_the_python_api_runs():
    found = blocks()
    assert len(found) >= 8
    namespace: dict = {}
    printed = io.StringIO()
    for number, code in enumerate(found, 1):
        with contextlib.redirect_stdout(printed):
            exec(compile(code, f"{DOC.name} example {number}", "exec"), namespace)
    out = printed.getvalue()
    for expected in ("['tictactoe', 'trilobite', 'ishido', 'polar', 'twomino']",
                     "width=9,height=6,line=5", "trilobite:width=7,height=6,line=4:7/7/7/7/7/7",
                     "It's X's turn", "['a1', 'b2']", "refused:", "illegal:", "None None",
                     "True -1", "14 proven", "won", "(6, 7, 2) [1 1 1 1 1 1 1]", "-1.0"):
        assert expected in out, expected
