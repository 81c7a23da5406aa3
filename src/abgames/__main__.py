"""``python -m abgames``: the same as the ``abgames`` command."""

import sys

from abgames.cli import main

sys.exit(main())
