"""`python -m gridgames` and the `gridgames` command."""

import sys

from gridgames.cli import main


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
