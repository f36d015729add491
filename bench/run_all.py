"""Run every benchmark in bench/ and print their figures."""

import runpy
import sys
from pathlib import Path

for script in sorted(Path(__file__).parent.glob("bench_*.py")):
    print(f"== {script.stem}", flush=True)
    sys.argv = [str(script)]
    runpy.run_path(str(script), run_name="__main__")
