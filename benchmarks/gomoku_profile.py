"""Where the Gomoku search spends its time: a ``perf`` profile by compiled kernel.

Usage: python benchmarks/gomoku_profile.py [--depth 8] [--net] [--rule freestyle]

Searches the speed benchmark's four positions (``gomoku_speed.POSITIONS``, root solvers
off, ``hard``'s search otherwise) to ``--depth`` under ``perf record`` and prints each
kernel's share of the samples taken in compiled search code, largest first. Needs
Linux's ``perf``.

``perf`` cannot name code that numba compiled at run time, so the searching process
writes ``/tmp/perf-PID.map`` (the form ``perf report`` reads for such code) from the
symbol tables of its compiled objects. numba keeps those objects only for kernels it
compiled itself, not for those it loaded from its cache, so the search runs on a fresh,
temporary cache: the first minute or so is compiling, and the table counts only the
samples that fall in search kernels. A kernel that the compiler inlined into another
counts as part of its caller.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

#: A line of ``nm -S --defined-only``: address, size, kind, name.
NM_LINE = re.compile(r"^([0-9a-f]+) ([0-9a-f]+) [tT] (\S+)$")
#: ``perf report --stdio``'s sample lines: the share, then ``[.] symbol``.
REPORT_LINE = re.compile(r"^\s*([\d.]+)%.*\[\.\] (\S+)")


def readable(symbol: str) -> str | None:
    """``module.function`` of a numba kernel's mangled symbol (``_ZN7abgames...``),
    closures as ``outer.<locals>.inner``; None for any other symbol."""
    if not symbol.startswith("_ZN"):
        return None
    parts: list[str] = []
    at = 3
    while at < len(symbol) and symbol[at].isdigit():
        end = at
        while symbol[end].isdigit():
            end += 1
        length = int(symbol[at:end])
        parts.append(symbol[end : end + length])
        at = end + length
    if len(parts) < 3 or parts[0] != "abgames":
        return None
    name = ".".join(parts[3:] if parts[1:3] == ["ai", "gomoku"] else parts[1:])
    return name.replace("_3clocals_3e", "<locals>")


def symbol_sizes(nm_output: str) -> dict[str, tuple[int, int]]:
    """Function symbols of an object file as ``{name: (offset, size)}`` from ``nm -S``."""
    sizes: dict[str, tuple[int, int]] = {}
    for line in nm_output.splitlines():
        found = NM_LINE.match(line.strip())
        if found:
            sizes[found.group(3)] = (int(found.group(1), 16), int(found.group(2), 16))
    return sizes


def kernel_shares(report: str) -> list[tuple[float, str]]:
    """Each kernel's share (percent of the samples in search kernels), largest first."""
    shares: dict[str, float] = defaultdict(float)
    for line in report.splitlines():
        found = REPORT_LINE.match(line)
        if found:
            name = readable(found.group(2))
            if name is not None:
                shares[name] += float(found.group(1))
    total = sum(shares.values())
    if total == 0:
        return []
    return sorted(((100 * share / total, name) for name, share in shares.items()), reverse=True)


def write_perf_map() -> int:
    """``/tmp/perf-PID.map`` for every kernel this process compiled; returns the count."""
    import gc

    from numba.core.dispatcher import Dispatcher

    addresses: dict[int, tuple[int, str]] = {}
    libraries: set[int] = set()
    for value in gc.get_objects():
        if not isinstance(value, Dispatcher):
            continue
        overloads: list[Any] = list(value.overloads.values())
        for compiled in overloads:
            library = compiled.library
            if id(library) in libraries:
                continue
            libraries.add(id(library))
            entry = compiled.fndesc.llvm_func_name
            try:
                obj = library._get_compiled_object()  # numba keeps no public one
                address = library.get_pointer_to_function(entry)
            except RuntimeError:
                continue  # loaded from a cache: no object kept
            with tempfile.NamedTemporaryFile(suffix=".o") as file:
                file.write(obj)
                file.flush()
                listing = subprocess.run(
                    ["nm", "-S", "--defined-only", file.name],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
            sizes = symbol_sizes(listing)
            if entry not in sizes or not address:
                continue
            base = address - sizes[entry][0]
            for name, (offset, size) in sizes.items():
                addresses[base + offset] = (size, name)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for address, (size, name) in sorted(addresses.items()):
            out.write(f"{address:x} {size:x} {name}\n")
    return len(addresses)


def speed_positions() -> tuple[str, ...]:
    """``gomoku_speed.POSITIONS`` (a script beside this one, not a module to import)."""
    spec = importlib.util.spec_from_file_location(
        "gomoku_speed", Path(__file__).with_name("gomoku_speed.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    positions: tuple[str, ...] = module.POSITIONS
    return positions


def search(depth: int, net: bool, rule: str) -> None:
    """The profiled work: each position to ``depth``; then the symbol map."""
    from abgames.ai.gomoku.engine import EngineSettings, GomokuEngine
    from abgames.games.gomoku import Gomoku
    from abgames.search.limit import Limit

    settings = EngineSettings(root_vcf_depth=0, root_vct_depth=0, defence_vct_depth=0, eval_net=net)
    for text in speed_positions():
        for _ in GomokuEngine(settings).search(
            Gomoku.from_notation(text, rule=rule), Limit(depth=depth)
        ):
            pass
    print(f"mapped {write_perf_map()} compiled symbols", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--net", action="store_true", help="with the learned evaluation")
    parser.add_argument("--rule", default="freestyle", choices=["freestyle", "standard", "renju"])
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        search(args.depth, args.net, args.rule)
        return
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "perf.data"
        child = [sys.executable, __file__, "--child", "--depth", str(args.depth)]
        child += ["--rule", args.rule] + (["--net"] if args.net else [])
        environment = dict(os.environ, NUMBA_CACHE_DIR=str(Path(folder) / "numba"))
        subprocess.run(
            ["perf", "record", "-q", "-F", "2999", "-o", str(data), "--", *child],
            env=environment,
            check=True,
        )
        report = subprocess.run(
            ["perf", "report", "-i", str(data), "--stdio", "--no-children", "--sort", "symbol"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    print(f"share of the samples in search kernels, depth {args.depth}, {args.rule}")
    for share, name in kernel_shares(report):
        if share >= 0.1:
            print(f"  {share:5.1f} %  {name}")


if __name__ == "__main__":
    main()
