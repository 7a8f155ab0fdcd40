"""`python -m interpreter` is the `meeple` command."""

import sys

from .cli import main

sys.exit(main())
