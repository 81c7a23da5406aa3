"""Where the compiled kernels are cached, also for an install the user cannot write."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import abgames
from abgames.ai import kernel_cache, readiness

#: Run as root, a child that drops these capabilities obeys file permissions again.
DROP_ROOT_POWERS = (
    "setpriv",
    "--bounding-set=-dac_override,-dac_read_search,-fowner",
    "--inh-caps=-all",
    "--",
)
#: Imports a Connect Four and a Gomoku kernel module, calls a kernel of each, and tells
#: where numba keeps their code and whether it was compiled or loaded from that cache.
CHILD = """
import json
import abgames
from abgames.ai.connect4 import kernel
from abgames.ai.gomoku import patterns
kernel.popcount(11)
patterns._is_win(5, False)
stats = [kernel.popcount.stats, patterns._is_win.stats]
print(json.dumps({
    "package": abgames.__file__,
    "paths": [s.cache_path for s in stats],
    "hits": sum(sum(s.cache_hits.values()) for s in stats),
    "misses": sum(sum(s.cache_misses.values()) for s in stats),
}))
"""


def test_a_writable_package_caches_in_its_own_folder_named_by_the_sources(
    tmp_path: Path,
) -> None:
    own = tmp_path / "pkg" / "ai" / "__pycache__" / "numba"
    chosen = kernel_cache.choose_cache_dir(
        {"HOME": str(tmp_path)},
        package_dirs=(tmp_path / "pkg",),
        package_cache=own,
        writable=lambda _: True,
        digest="0123456789abcdef",
    )
    assert chosen == str(own / "0123456789abcdef")


def test_a_cache_dir_the_user_chose_is_kept_and_ours_is_chosen_again(tmp_path: Path) -> None:
    mine = str(tmp_path / "mine")
    common: dict[str, Any] = {
        "package_dirs": (tmp_path / "pkg",),
        "package_cache": tmp_path / "own",
        "writable": lambda _: True,
        "digest": "00000000000000aa",
    }
    assert kernel_cache.choose_cache_dir({"NUMBA_CACHE_DIR": mine}, **common) is None
    # Set by an abgames parent (marked): a child with other sources chooses its own.
    inherited = {"NUMBA_CACHE_DIR": mine, "ABGAMES_KERNEL_CACHE": mine}
    assert kernel_cache.choose_cache_dir(inherited, **common) == str(
        tmp_path / "own" / "00000000000000aa"
    )


def test_the_digest_follows_every_kernel_module_and_old_folders_are_pruned(
    tmp_path: Path,
) -> None:
    package = tmp_path / "gomoku"
    package.mkdir()
    (package / "board.py").write_text("X = 1\n")
    (package / "search.py").write_text("Y = 2\n")
    before = kernel_cache.kernel_digest((package,))
    (package / "board.py").write_text("X = 3\n")  # search.py unchanged
    after = kernel_cache.kernel_digest((package,))
    assert before != after and len(after) == kernel_cache.DIGEST_LENGTH
    own = tmp_path / "own"
    for name in (before, "keep-me-not-a-digest"):
        (own / name).mkdir(parents=True)
    chosen = kernel_cache.choose_cache_dir({}, package_dirs=(package,), package_cache=own)
    assert chosen == str(own / after)
    assert sorted(p.name for p in own.iterdir()) == sorted([after, "keep-me-not-a-digest"])


def test_a_read_only_package_caches_in_the_users_cache_dir(tmp_path: Path) -> None:
    package = tmp_path / "site" / "abgames" / "ai" / "gomoku"

    def writable(directory: Path) -> bool:
        return not directory.is_relative_to(tmp_path / "site")

    home = tmp_path / "home"
    key = "00000000000000bb"
    own = tmp_path / "site" / "abgames" / "ai" / "__pycache__" / "numba"
    chosen = kernel_cache.choose_cache_dir(
        {"HOME": str(home)},
        package_dirs=(package,),
        package_cache=own,
        writable=writable,
        digest=key,
    )
    assert chosen == str(home / ".cache" / "abgames" / "numba" / key)
    xdg = tmp_path / "xdg"
    chosen = kernel_cache.choose_cache_dir(
        {"HOME": str(home), "XDG_CACHE_HOME": str(xdg)},
        package_dirs=(package,),
        package_cache=own,
        writable=writable,
        digest=key,
    )
    assert chosen == str(xdg / "abgames" / "numba" / key)


def test_without_a_writable_home_the_cache_is_a_private_temp_dir(tmp_path: Path) -> None:
    temp_root = tmp_path / "tmp"
    temp_root.mkdir()

    def writable(directory: Path) -> bool:
        return directory.is_relative_to(temp_root)

    chosen = kernel_cache.choose_cache_dir(
        {"HOME": "/nonexistent"},
        package_dirs=(tmp_path / "site",),
        package_cache=tmp_path / "site" / "own",
        writable=writable,
        temp_root=temp_root,
        digest="00000000000000cc",
    )
    assert chosen is not None and Path(chosen).parent.parent.parent == temp_root
    assert Path(chosen).name == "00000000000000cc"
    assert stat.S_IMODE(Path(chosen).parent.parent.stat().st_mode) == 0o700


def test_a_temp_dir_others_can_write_is_not_trusted(tmp_path: Path) -> None:
    temp_root = tmp_path / "tmp"
    temp_root.mkdir()
    mine = kernel_cache.private_temp_dir(temp_root)
    assert mine is not None and mine.parent.parent == temp_root
    planted = mine.parent
    planted.chmod(0o777)  # someone made it first, open to all
    assert kernel_cache.private_temp_dir(temp_root) is None


def unprivileged_prefix(probe_dir: Path) -> list[str]:
    """A command prefix under which file permissions hold (they do not for root)."""
    if not hasattr(os, "geteuid"):
        pytest.skip("file permissions are checked this way on POSIX systems only")
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: root ignores file permissions")
    probe_dir.mkdir()
    probe_dir.chmod(0o555)
    check = "import os, sys; sys.exit(0 if not os.access(sys.argv[1], os.W_OK) else 1)"
    probe = subprocess.run(
        [*DROP_ROOT_POWERS, sys.executable, "-c", check, str(probe_dir)], capture_output=True
    )
    if probe.returncode != 0:
        pytest.skip(f"cannot drop root's file-permission powers here: {probe.stderr[:200]!r}")
    return list(DROP_ROOT_POWERS)


def read_only_copy(site: Path) -> Path:
    """A copy of the abgames package under ``site`` that nobody may write."""
    package = site / "abgames"
    shutil.copytree(
        Path(abgames.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__")
    )
    for directory, _, _ in os.walk(site):
        Path(directory).chmod(0o555)
    return package


def files_under(root: Path) -> set[Path]:
    return set(root.rglob("*"))


@pytest.mark.parametrize("home", ["writable", "missing"])
def test_an_install_the_user_cannot_write_still_caches_the_kernels(
    tmp_path: Path, home: str
) -> None:
    prefix = unprivileged_prefix(tmp_path / "probe")
    site = tmp_path / "site"
    package = read_only_copy(site)
    before = files_under(site)
    locked = tmp_path / "locked"  # a home that does not exist and cannot be made
    temp_dir = tmp_path / "tmp"
    for made in (tmp_path / "home", temp_dir, locked):
        made.mkdir()
    locked.chmod(0o555)
    home_dir = tmp_path / "home" if home == "writable" else locked / "home"
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME", "PYTHONPATH")
    }
    env.update(HOME=str(home_dir), TMPDIR=str(temp_dir), PYTHONPATH=str(site))
    try:
        runs = []
        for _ in range(2):  # the second start must load what the first compiled
            result = subprocess.run(
                [*prefix, sys.executable, "-c", CHILD],
                capture_output=True,
                text=True,
                env=env,
                cwd=tmp_path,
                timeout=300,
            )
            assert result.returncode == 0, result.stderr[-2000:]
            runs.append(json.loads(result.stdout))
    finally:
        for directory, _, _ in os.walk(site):
            Path(directory).chmod(0o755)
        locked.chmod(0o755)
    first, second = runs
    assert Path(first["package"]).parent == package
    assert first["misses"] == 2 and first["hits"] == 0
    assert second["misses"] == 0 and second["hits"] == 2
    expected_root = tmp_path / "home" if home == "writable" else temp_dir
    for path in first["paths"]:
        assert Path(path).is_relative_to(expected_root), path
    assert files_under(site) == before  # nothing written into the install


def test_a_changed_kernel_module_starts_a_fresh_cache_for_the_modules_that_did_not_change(
    tmp_path: Path,
) -> None:
    # numba checks a cached kernel against its own file only; a change elsewhere in the
    # kernel packages (here a module neither kernel is in) must not reuse the old code.
    site = tmp_path / "site"
    package = site / "abgames"
    shutil.copytree(
        Path(abgames.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__")
    )
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("NUMBA_CACHE_DIR", "ABGAMES_KERNEL_CACHE", "PYTHONPATH")
    }
    env.update(PYTHONPATH=str(site))

    def run_child() -> dict[str, Any]:
        result = subprocess.run(
            [sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, timeout=300
        )
        assert result.returncode == 0, result.stderr[-2000:]
        answer: dict[str, Any] = json.loads(result.stdout)
        return answer

    first, again = run_child(), run_child()
    assert first["misses"] == 2 and again["hits"] == 2  # the cache works
    weights = package / "ai" / "gomoku" / "weights.py"
    weights.write_text(weights.read_text() + "\n# changed\n")
    changed = run_child()
    assert changed["misses"] == 2 and changed["hits"] == 0
    own = package / "ai" / "__pycache__" / "numba"
    assert len(list(own.iterdir())) == 1  # the old sources' folder is gone
    for path in changed["paths"]:
        assert Path(path).is_relative_to(own)


def test_overloads_compiled_at_once_by_two_processes_keep_their_own_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """numba saves an overload as: read the index, take the first free data file, write
    the index, write the data. Two savers of different overloads interleaved there
    (threads here, with the window held open; processes in an arena) once both took
    file 1, and one overload's index entry named the other's code. With the save guarded
    each key loads its own data."""
    import threading
    import time

    from numba.core import caching

    kernel_cache.guard_cache_writes()
    original_save_index: Any = caching.IndexDataCacheFile._save_index
    cache_file_class: Any = caching.IndexDataCacheFile

    def slow_save_index(self: Any, overloads: Any) -> None:
        time.sleep(0.2)  # another saver, unguarded, reads the old index meanwhile
        original_save_index(self, overloads)

    monkeypatch.setattr(caching.IndexDataCacheFile, "_save_index", slow_save_index)

    def cache_file() -> Any:
        return cache_file_class(str(tmp_path), "module.kernel-1.py311", ("stamp", 1))

    savers = [
        threading.Thread(target=cache_file().save, args=(key, f"code for {key}"))
        for key in ("int32 arguments", "int64 arguments")
    ]
    for saver in savers:
        saver.start()
    for saver in savers:
        saver.join()
    reader = cache_file()
    assert reader.load("int32 arguments") == "code for int32 arguments"
    assert reader.load("int64 arguments") == "code for int64 arguments"


#: The modules that define ``@njit(cache=True)`` kernels: those ``readiness`` prepares.
KERNEL_MODULES = tuple(
    "abgames.ai." + source.removesuffix(".py").replace("/", ".")
    for kernels in readiness.KERNELS.values()
    for source in kernels.sources
)


def test_the_kernel_modules_listed_are_every_module_that_defines_kernels() -> None:
    """``readiness.KERNELS`` names the modules whose cache ``will_compile`` checks: a
    kernel module left out would be compiled inside a move's clock unannounced."""
    root = Path(kernel_cache.__file__).resolve().parent
    defining = {
        "abgames.ai." + str(path.relative_to(root).with_suffix("")).replace("/", ".")
        for package in kernel_cache.KERNEL_PACKAGES
        for path in (root / package).glob("*.py")
        if "@njit" in path.read_text()
    }
    assert defining == set(KERNEL_MODULES)


def test_every_cached_kernel_has_a_qualified_name_of_its_own() -> None:
    """numba names compiled code after the qualified name and a counter of the process
    that compiled it. Two kernels sharing a name (the variants of one closure) could get
    one symbol when different processes compile them, and a process loading both from
    the cache then ran ``play``'s code for ``play_threat`` or the reverse: the engine
    claimed wins in quiet positions. Every kernel, the closures' variants too, is named
    apart."""
    import importlib

    from numba.core.dispatcher import Dispatcher

    names: list[str] = []
    for module_name in KERNEL_MODULES:
        module = importlib.import_module(module_name)
        for value in vars(module).values():
            if isinstance(value, Dispatcher) and value.py_func.__module__ == module_name:
                names.append(f"{module_name}.{value.py_func.__qualname__}")
    from abgames.ai.gomoku import board

    variants = [board.play, board.play_threat, board.undo, board.undo_threat]
    variants += [board._update_line_cells, board._update_line_threats]
    variants += [board._revert_line_cells, board._revert_line_threats]
    assert all(f"abgames.ai.gomoku.board.{k.py_func.__qualname__}" in names for k in variants)
    assert len(names) > 50
    assert sorted(set(names)) == sorted(names), [n for n in names if names.count(n) > 1]


#: Loads a kernel in a fresh process, then uses scipy and numba's own BLAS as a user would.
BLAS_CHILD = """
import json, sys
import numpy as np
from abgames.ai.connect4 import kernel
kernel.popcount(11)
loaded_scipy_linalg = "scipy.linalg" in sys.modules
import numba
import numba.np.arraymath
import scipy.linalg
@numba.njit
def dot(a, b):
    return np.dot(a, b)
print(json.dumps({
    "scipy_linalg_before": loaded_scipy_linalg,
    "have_blas": numba.np.arraymath._HAVE_BLAS,
    "dot": dot(np.ones(3), np.arange(3.0)),
    "det": float(scipy.linalg.det(np.eye(2))),
}))
"""


def test_loading_a_kernel_skips_numbas_blas_probe_and_scipy_still_works() -> None:
    pytest.importorskip("scipy.linalg")  # with the rl extra (open_spiel brings scipy)
    result = subprocess.run(
        [sys.executable, "-c", BLAS_CHILD], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    # The probe's import of scipy's linear algebra (0.15 s of a first move) was skipped ...
    assert answer["scipy_linalg_before"] is False
    assert answer["have_blas"] is False
    # ... and neither scipy nor numba's BLAS-backed np.dot lost anything by it.
    assert answer["dot"] == 3.0
    assert answer["det"] == 1.0
