"""``abgames warmup``: compile the engines' numba kernels once, so first moves are fast.

numba compiles a kernel on first use and caches the machine code on disk (beside the
package, or in the user's cache directory: see ``abgames.ai.kernel_cache``); this
command makes that first use happen now (``make`` runs it after the install) instead of
before a player's first move. It gets ready what ``abgames.ai.readiness.prepare`` gets
ready for the front-ends.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from abgames.ai.readiness import KERNELS, prepare


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "warmup",
        help="compile the engines' fast kernels now (make does this after installing)",
        description=__doc__,
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    for game, kernels in KERNELS.items():
        start = time.perf_counter()
        prepare(game, min(kernels.levels))
        elapsed = time.perf_counter() - start
        print(f"warm-up: {kernels.what} ready in {elapsed:.1f} s", flush=True)
    return 0
