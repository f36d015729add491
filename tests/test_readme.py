"""The README's command-line block runs as written: every line, verbatim, in bash, except
`gridgames serve` (it runs until stopped); `gridgames play` runs with its input at its end
(it shows the board and stops), so its options are checked too. So the README cannot rot.
The lines run in an empty directory beside the repository's data/."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INTERACTIVE = ("gridgames play", "gridgames serve")
UNTIL_STOPPED = "gridgames serve"


def command_lines() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Command line", 1)[1]
    block = re.search(r"```\n(.*?)```", section, re.DOTALL)[1]
    return [line for line in block.splitlines() if line.strip()]


def test_the_block_is_there_and_names_the_interactive_few():
    lines = command_lines()
    assert len(lines) >= 15
    assert any(line.startswith(INTERACTIVE) for line in lines)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    here = tmp_path_factory.mktemp("readme")
    (here / "data").symlink_to(ROOT / "data")
    return here


@pytest.mark.slow
def test_every_command_runs(workdir):
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    for line in command_lines():
        if line.startswith(UNTIL_STOPPED):
            continue
        result = subprocess.run(["bash", "-c", f"set -o pipefail; {line}"], cwd=workdir,
                                env=env, capture_output=True, text=True, timeout=300,
                                stdin=subprocess.DEVNULL)
        assert result.returncode == 0, f"{line}\n{result.stderr[-2000:]}"
        assert "Traceback" not in result.stderr, line


# --- the README is a short guide; the detail lives in docs/ ---

MAX_LINES = 200


def readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_at_most_200_lines():
    lines = readme().count("\n")
    assert lines <= MAX_LINES, f"README.md has {lines} lines: move detail into docs/"


def test_the_quick_start_names_the_three_make_targets_and_what_each_runs():
    text = readme()
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("run", "test", "check"):
        assert f"make {target}" in quick
        assert re.search(rf"^{target}:", makefile, re.M), target
    # What `make check` runs, said as the Makefile says it.
    marker = re.search(r'^check:.*\n\t.*-m "([^"]+)"', makefile, re.M)[1]
    assert f'-m "{marker}"' in quick and "under a minute" in quick
    assert "gridgames serve" in quick and "ruff check src tests bench examples" in quick
    assert "ruff check src tests bench examples" in makefile


def test_the_readme_says_where_the_docs_are():
    text = readme()
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert f"docs/{page.name}" in text, f"README.md does not point to docs/{page.name}"
    assert "docs/rules/" in text and "CHANGELOG.md" in text
