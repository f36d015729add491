"""`python -m gridgames` and the `gridgames` command."""

import io
import os
import sys

from gridgames.cli import EXIT_USAGE, main


def run() -> None:
    # Bytes that are not UTF-8 (typed, piped in, or in a path) must not stop the program with
    # a traceback: read, they become lone surrogates, which the commands refuse with one line;
    # printed, they are shown escaped. (In a C.UTF-8 locale Python does so already; in a
    # desktop's en_US.UTF-8 it does not.)
    for stream, errors in ((sys.stdin, "surrogateescape"), (sys.stdout, "backslashreplace")):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors=errors)
    try:
        code = main()
        sys.stdout.flush()  # an output that cannot be written fails here, not at exit
        sys.exit(code)
    except BrokenPipeError:  # `gridgames ... | head`: the reader has gone
        code = 0
    except OSError as err:  # the output, or something else the system refused: a full
        print(f"gridgames: error: {err}", file=sys.stderr)  # disk, > /dev/full
        code = EXIT_USAGE
    # Python's last flush of what is still buffered would fail again, with a second message.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(code)


if __name__ == "__main__":
    run()
