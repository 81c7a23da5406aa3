"""Where numba caches the compiled kernels: decided once, before a kernel module is imported.

numba keeps the machine code of ``@njit(cache=True)`` functions beside their source (the
package's ``__pycache__``) when it can write there, else in the user's cache directory
(``~/.cache/numba``); when it can write to neither (an install in a prefix the user cannot
write, run by an account whose home is missing or read-only: a service, ``nobody``, a
sandbox) it refuses to define the kernels at all ("cannot cache function ...: no locator
available"), so even ``abgames --help`` fails.

numba also checks a cached function against its own module's file only: code compiled
from ``search.py`` keeps the ``board.py`` kernels it inlined after ``board.py`` changes (a
``git pull`` that changes one module, not the other), and runs stale machine code. So
the cache is kept in a directory named by a digest of every kernel module's source
(``kernel_digest``): any change to any of them starts a fresh cache.

``configure()`` runs when ``abgames.ai`` is imported, so before any kernel module.
Unless the user set ``NUMBA_CACHE_DIR`` (then it is theirs, kept as it is), it sets it
to ``<digest>`` below the first writable of

1. the package's ``ai/__pycache__/numba`` (a checkout, a user's virtualenv: ``abgames
   warmup`` fills that cache for every user of the install); older digests' folders
   there are removed;
2. ``$XDG_CACHE_HOME/abgames/numba`` (``~/.cache/abgames/numba``), kept between runs;
3. ``<temp dir>/abgames-<uid>/numba``, private to the user (kept until the temp
   directory is cleaned);
4. a fresh private temporary directory (compiled again on every start, but it runs).

The variable is set in ``os.environ`` (with ``ABGAMES_KERNEL_CACHE`` naming it as ours),
so engines started as child processes (the arena, the web app's workers) use the same
cache, and a child running other kernel sources chooses its own.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

#: numba's environment variable for a cache directory of the user's choice.
CACHE_DIR_VARIABLE = "NUMBA_CACHE_DIR"
#: The sub-packages whose modules hold ``@njit(cache=True)`` kernels.
KERNEL_PACKAGES = ("connect4", "gomoku")
#: Below the user's cache directory (``~/.cache``).
USER_CACHE_SUBDIR = Path("abgames") / "numba"
#: Set beside ``NUMBA_CACHE_DIR`` when ``configure`` chose it (not the user).
OWN_MARK_VARIABLE = "ABGAMES_KERNEL_CACHE"
#: Below the ``abgames.ai`` package: the install's own cache.
PACKAGE_CACHE_SUBDIR = Path("__pycache__") / "numba"
#: Hex digits of the source digest in a cache folder's name.
DIGEST_LENGTH = 16


def kernel_dirs() -> tuple[Path, ...]:
    """The directories of the kernel modules (numba caches beside them when it can)."""
    here = Path(__file__).resolve().parent
    return tuple(here / name for name in KERNEL_PACKAGES)


def kernel_digest(dirs: tuple[Path, ...] | None = None) -> str:
    """A digest of every module of the kernel packages (names and bytes), in hex."""
    digest = hashlib.sha256()
    for directory in dirs if dirs is not None else kernel_dirs():
        for source in sorted(directory.glob("*.py")):
            digest.update(source.name.encode())
            digest.update(source.read_bytes())
    return digest.hexdigest()[:DIGEST_LENGTH]


def prune_other_digests(base: Path, keep: str) -> None:
    """Remove the cache folders of other sources below the install's own ``base``
    (folders named by a digest only; anything else there is left alone)."""
    try:
        entries = list(base.iterdir())
    except OSError:
        return
    for entry in entries:
        name = entry.name
        is_digest = len(name) == DIGEST_LENGTH and all(c in "0123456789abcdef" for c in name)
        if is_digest and name != keep and entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)


def can_write(directory: Path) -> bool:
    """Whether ``directory`` can be made and written, tested as numba tests it (a file)."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=directory).close()
    except OSError:
        return False
    return True


def user_cache_dir(environ: Mapping[str, str]) -> Path | None:
    """``$XDG_CACHE_HOME/abgames/numba``, else ``~/.cache/abgames/numba``; ``None`` when
    neither names an absolute path (no home)."""
    xdg = environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):
        return Path(xdg) / USER_CACHE_SUBDIR
    home = environ.get("HOME") or os.path.expanduser("~")
    if not os.path.isabs(home):
        return None
    return Path(home) / ".cache" / USER_CACHE_SUBDIR


def _user_id() -> str:
    getuid = getattr(os, "getuid", None)
    return str(getuid()) if getuid is not None else os.environ.get("USERNAME", "user")


def private_temp_dir(temp_root: Path) -> Path | None:
    """``<temp_root>/abgames-<uid>/numba`` if that is the user's own directory, closed to
    others (cached code is loaded and run: nobody else may plant it); else ``None``."""
    owner = temp_root / f"abgames-{_user_id()}"
    try:
        owner.mkdir(mode=0o700, exist_ok=True)
        info = owner.lstat()
    except OSError:
        return None
    getuid = getattr(os, "getuid", None)
    if not stat.S_ISDIR(info.st_mode) or info.st_mode & 0o077:
        return None
    if getuid is not None and info.st_uid != getuid():
        return None
    return owner / "numba"


def choose_cache_dir(
    environ: Mapping[str, str],
    *,
    package_dirs: tuple[Path, ...] | None = None,
    package_cache: Path | None = None,
    writable: Callable[[Path], bool] = can_write,
    temp_root: Path | None = None,
    digest: str | None = None,
) -> str | None:
    """The directory to give numba, or ``None`` to keep the user's own (see above).

    ``package_cache`` is the install's own cache folder (default
    ``abgames/ai/__pycache__/numba``), used when every kernel package is writable.
    """
    chosen = environ.get(CACHE_DIR_VARIABLE)
    if chosen and environ.get(OWN_MARK_VARIABLE) != chosen:
        return None
    dirs = kernel_dirs() if package_dirs is None else package_dirs
    key = digest if digest is not None else kernel_digest(dirs)
    own = package_cache if package_cache is not None else _package_cache()
    if all(writable(directory / "__pycache__") for directory in dirs) and writable(own / key):
        prune_other_digests(own, key)
        return str(own / key)
    user_dir = user_cache_dir(environ)
    if user_dir is not None and writable(user_dir / key):
        return str(user_dir / key)
    private = private_temp_dir(temp_root or Path(tempfile.gettempdir()))
    if private is not None and writable(private / key):
        return str(private / key)
    try:
        fresh = tempfile.mkdtemp(prefix="abgames-numba-")
    except OSError:
        return None  # nowhere to write: numba says so when a kernel is defined
    atexit.register(shutil.rmtree, fresh, ignore_errors=True)
    return fresh


def _package_cache() -> Path:
    return Path(__file__).resolve().parent / PACKAGE_CACHE_SUBDIR


def configure() -> str | None:
    """Apply ``choose_cache_dir`` to this process (and its children); returns the
    directory set, or ``None`` when the user's own choice stands."""
    chosen = choose_cache_dir(os.environ)
    if chosen is None:
        return None
    os.environ[CACHE_DIR_VARIABLE] = chosen
    os.environ[OWN_MARK_VARIABLE] = chosen
    config = sys.modules.get("numba.core.config")
    if config is not None and getattr(config, "CACHE_DIR", "") != chosen:
        setattr(config, "CACHE_DIR", chosen)  # noqa: B010 - numba read the environment before we were imported
    return chosen


_Function = TypeVar("_Function", bound=Callable[..., Any])


def named_variant(suffix: str) -> Callable[[_Function], _Function]:
    """A decorator, applied before ``njit``, that gives one variant of a kernel made
    by a factory (a closure compiled once per constant) a name of its own.

    numba names compiled code after the function's qualified name and a counter of
    the process that compiled it. Two variants of one closure share the qualified
    name, so when different processes compile them (workers on a cold cache, or one
    compiling what another left out) both can get the same symbol. A process that
    then loads both from the cache links one symbol for the two, and runs one
    variant's code in place of the other's without failing (numba issue #10486).
    """

    def rename(function: _Function) -> _Function:
        function.__name__ = f"{function.__name__}_{suffix}"
        function.__qualname__ = f"{function.__qualname__}_{suffix}"
        return function

    return rename


#: Beside the cache files of a kernel module: held while one process updates them.
SAVE_LOCK_NAME = ".abgames-save.lock"
_guarded = False


#: What numba imports, on its first compile or cache load, only to learn whether BLAS
#: is there (``numba.np.linalg.ensure_blas``): scipy's linear algebra, about 0.15 s.
BLAS_PROBE_MODULES = ("scipy", "scipy.linalg", "scipy.linalg.cython_blas")


def load_numba_registries() -> None:
    """Import numba's array registries now, without its BLAS probe.

    numba imports ``numba.np.arraymath`` before it compiles or loads its first kernel,
    and that module imports scipy's linear algebra (when installed: the ``rl`` extra
    brings it) to set ``_HAVE_BLAS``, a flag read only by ``np.convolve`` and
    ``np.correlate`` (which then use a plain loop: the same results). No kernel of
    ours uses either, and the import costs a fresh process's first move about
    0.15 s. So the probe is made to fail: the first of ``BLAS_PROBE_MODULES`` not yet
    imported is hidden while ``arraymath`` loads, and shown again at once (a later
    ``import scipy`` works as ever; ``np.dot`` checks for BLAS itself when compiled).
    """
    if "numba.np.arraymath" in sys.modules:
        return
    import numba  # numba's own start may import scipy: never hidden from it

    hidden = next((name for name in BLAS_PROBE_MODULES if name not in sys.modules), None)
    if hidden is not None:
        sys.modules[hidden] = None  # type: ignore[assignment]  # import raises ImportError
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        if hidden is not None and sys.modules.get(hidden, 0) is None:
            del sys.modules[hidden]


def guard_cache_writes() -> None:
    """Make numba's cache saves safe when several processes compile at once.

    numba saves a compiled overload by reading the module's index, taking the first
    free data file number, writing the index, then the data. Two processes compiling
    different overloads of one function (an arena's workers, two brains a tournament
    manager starts together) both take number 1: the index of one then names the
    machine code of the other, and every later run loads a kernel compiled for other
    argument types, which computes nonsense without failing. This wraps that save in
    an exclusive ``flock`` on a file in the cache directory, so the read and both writes
    are one step. Idempotent; kernel modules call it before defining their kernels.
    Without ``fcntl`` (Windows) or this numba's ``IndexDataCacheFile.save`` it does
    nothing.
    """
    global _guarded
    if _guarded:
        return
    _guarded = True
    load_numba_registries()  # here too: before the first kernel is compiled or loaded
    try:
        import fcntl

        from numba.core import caching
    except ImportError:
        return
    cache_file = getattr(caching, "IndexDataCacheFile", None)
    save = getattr(cache_file, "save", None)
    if cache_file is None or save is None:
        return

    def locked_save(self: Any, key: Any, data: Any) -> None:
        directory = getattr(self, "_cache_path", None) or os.path.dirname(self._index_path)
        try:
            lock = open(os.path.join(directory, SAVE_LOCK_NAME), "a+b")  # noqa: SIM115
        except OSError:  # numba then fails to save, as it would have, and warns
            save(self, key, data)
            return
        with lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                save(self, key, data)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    cache_file.save = locked_save


def is_cached(source: Path) -> bool | None:
    """Whether numba's cache holds compiled code for the kernels of the module file
    ``source``, compiled since the source last changed: ``False`` means that importing or
    calling them compiles. ``None`` when this numba's cache layout is not the one known.

    Cheap (a few ``stat`` calls) but imports numba: it asks numba's own locators, in
    numba's order, where the code of ``source`` is cached.
    """
    try:
        from numba.core import caching

        # CacheImpl since numba 0.60 or so, _CacheImpl before.
        impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
        locator_classes = list(impl._locator_classes)  # type: ignore[union-attr]
    except (ImportError, AttributeError, TypeError):
        return None

    def probe() -> None:
        """A function of ``source`` as numba's locators see one (only its file counts)."""

    directory: Path | None = None
    for locator_class in locator_classes:
        try:
            locator = locator_class.from_function(probe, str(source))
            if locator is not None:
                directory = Path(locator.get_cache_path())
                break
        except Exception:  # a layout this code does not know
            return None
    if directory is None:
        return False
    try:
        # Index files of functions an older version of the source had (other line
        # numbers) stay behind, older than the source: numba ignores them, and so
        # does this check. Code compiled since the source last changed counts as warm.
        modified = source.stat().st_mtime
        indexes = directory.glob(f"{source.stem}.*.nbi")
        return any(index.stat().st_mtime >= modified for index in indexes)
    except OSError:
        return None
