"""`python -m gridgames` and the `gridgames` command."""

import io
import sys

from gridgames.cli import main


def run() -> None:
    # Bytes that are not UTF-8 (typed, piped in, or in a path) must not stop the program with
    # a traceback: read, they become lone surrogates, which the commands refuse with one line;
    # printed, they are shown escaped. (In a C.UTF-8 locale Python does so already; in a
    # desktop's en_US.UTF-8 it does not.)
    for stream, errors in ((sys.stdin, "surrogateescape"), (sys.stdout, "backslashreplace")):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors=errors)
    sys.exit(main())


if __name__ == "__main__":
    run()
