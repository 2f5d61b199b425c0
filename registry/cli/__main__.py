"""`python -m registry.cli`: the same command line as the `registry` script."""

import sys

from registry.cli import main

sys.exit(main())
