"""``--cluster [ADDRESS]``, shared by the commands whose work can run on Ray."""

from __future__ import annotations

import argparse

from abgames.cluster import Cluster

#: ``--cluster`` given without an address: a local Ray started for the run.
LOCAL_RAY = ""


def add_cluster_option(parser: argparse.ArgumentParser, what: str) -> None:
    """Add ``--cluster [ADDRESS]``: run the work as Ray tasks (the ``abgames[cluster]`` extra)."""
    parser.add_argument(
        "--cluster",
        nargs="?",
        const=LOCAL_RAY,
        metavar="ADDRESS",
        help=f"run the {what} on Ray: a local Ray for the run without ADDRESS, or a running "
        "cluster at HOST:PORT, ray://HOST:PORT or auto (see docs/cluster.md)",
    )


def cluster_of(args: argparse.Namespace) -> Cluster | None:
    """The cluster ``--cluster`` asks for (not connected yet), or ``None``."""
    if args.cluster is None:
        return None
    return Cluster(args.cluster or None)
