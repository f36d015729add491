import sys

from gridgames.cli import main

sys.exit(main())
