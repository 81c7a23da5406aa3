"""Files and streams the commands read and write: regular files only, bounded reads,
atomic writes. Every reader and writer of a user-named path goes through here.

- **Regular files only.** A FIFO, a device, a socket or a directory named where a
  file is read or written is refused with ``NotRegularFileError`` ("a FIFO (named
  pipe), not a regular file") before a byte moves. Reading opens with ``O_NONBLOCK`` and checks
  the open descriptor again, so a FIFO swapped in after the check cannot block the
  open either; writing checks the target, then writes a temporary file beside it.
- **Bounded reads.** ``read_bytes``/``read_text`` refuse a file over the caller's
  cap unread (``FileTooLargeError``); ``read_lines`` also refuses a line over its
  cap. ``read_line`` reads one line of a stream (stdin, a pipe) with a cap: a longer
  line comes back cut and flagged, its rest discarded up to ``MAX_DISCARD_CHARS``,
  past which the input is taken for endless (``EndlessLineError``). Memory stays
  bounded whatever the input (``/dev/zero`` included).
- **Atomic writes.** ``write_atomically`` writes a temporary file in the target's
  folder, syncs it, renames it over the target and syncs the folder: the target is
  whole or untouched. ``open_output`` opens a file that is appended to as it goes
  (records, labels, a work file), after the same checks.

The errors are ``OSError`` subclasses whose ``strerror`` is a reason in words and
whose ``str()`` is ``"NAME: reason"``, so every command's ``except OSError`` prints
them as one line. This module imports nothing of ours: any layer may use it.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, AnyStr, BinaryIO

#: How much of a file name an error message repeats.
NAME_ECHO_LIMIT = 200
#: What a stream reader discards of a line over its cap before taking the input
#: for endless (a line of a million characters with no end of line is not typed).
MAX_DISCARD_CHARS = 1_000_000
#: Temporary files older than this (seconds) are leftovers of a killed write.
STALE_TEMPORARY_AGE = 60.0
_CHUNK = 65_536

PathLike = str | os.PathLike[str]


def shown_name(path: PathLike) -> str:
    """A file name as an error message shows it: cut short if it is absurdly long."""
    text = os.fspath(path)
    return text if len(text) <= NAME_ECHO_LIMIT else text[: NAME_ECHO_LIMIT - 3] + "..."


class FileRefusedError(OSError):
    """A path refused by this module; ``strerror`` says why, ``str()`` names the file."""

    def __init__(self, path: PathLike, reason: str, code: int = errno.EINVAL) -> None:
        super().__init__(code, reason, os.fspath(path))

    def __str__(self) -> str:
        return f"{shown_name(self.filename)}: {self.strerror}"


class NotRegularFileError(FileRefusedError):
    """A FIFO, device, socket or directory where a regular file is read or written."""


class FileTooLargeError(FileRefusedError):
    """A file (or one of its lines) over the reader's cap; refused unread."""

    def __init__(self, path: PathLike, reason: str) -> None:
        super().__init__(path, reason, errno.EFBIG)


class EndlessLineError(ValueError):
    """A stream whose line goes on past ``MAX_DISCARD_CHARS`` without an end."""


def kind_of(mode: int) -> str:
    """What a file is, in words ("a FIFO (named pipe)", "a directory", ...)."""
    if stat.S_ISREG(mode):
        return "a regular file"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def _mode(path: PathLike) -> int:
    """``os.stat(path).st_mode``; ``FileRefusedError`` for a name holding a NUL (which
    ``os.stat`` refuses with ``ValueError``)."""
    try:
        return os.stat(path).st_mode
    except ValueError:
        raise FileRefusedError(path, "a file name cannot hold a NUL character") from None


def _refuse_unless_regular(path: PathLike, mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise NotRegularFileError(path, f"{kind_of(mode)}, not a regular file")


# --- reading ----------------------------------------------------------------------------
def open_regular(path: PathLike) -> BinaryIO:
    """``path`` open for reading in binary, if it is a regular file (links followed).

    ``NotRegularFileError`` otherwise, without blocking: the file is checked by
    ``os.stat``, opened with ``O_NONBLOCK`` and checked again by ``os.fstat``.
    ``FileNotFoundError`` and the other ``OSError`` of ``open`` pass through.
    """
    _refuse_unless_regular(path, _mode(path))
    flags = (
        os.O_RDONLY
        | getattr(os, "O_NONBLOCK", 0)
        | getattr(os, "O_NOCTTY", 0)
        | getattr(os, "O_CLOEXEC", 0)
        | getattr(os, "O_BINARY", 0)
    )
    descriptor = os.open(path, flags)
    try:
        _refuse_unless_regular(path, os.fstat(descriptor).st_mode)
        os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def _too_large(path: PathLike, limit: int) -> FileTooLargeError:
    return FileTooLargeError(path, f"over {limit:,} bytes, more than this file can hold")


def read_bytes(path: PathLike, limit: int) -> bytes:
    """The bytes of the regular file ``path``; ``FileTooLargeError`` past ``limit`` bytes.

    A file whose size is over ``limit`` is refused unread; one that grows while it
    is read is refused after ``limit + 1`` bytes.
    """
    with open_regular(path) as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > limit:
            raise _too_large(path, limit)
        # read(n) sets n bytes aside at once: ask for the size, then for what it grew by.
        chunks = [handle.read(size + 1)]
        total = len(chunks[0])
        while total > size and total <= limit:
            chunk = handle.read(min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    if total > limit:
        raise _too_large(path, limit)
    return b"".join(chunks)


def read_text(path: PathLike, limit: int, encoding: str = "utf-8", errors: str = "strict") -> str:
    """``read_bytes`` decoded (``UnicodeDecodeError`` if it is not ``encoding`` text)."""
    return read_bytes(path, limit).decode(encoding, errors)


def read_lines(path: PathLike, *, limit: int, line_limit: int) -> Iterator[bytes]:
    """The lines of the regular file ``path`` (bytes, ends of line kept), read as they go.

    ``FileTooLargeError`` for a file over ``limit`` bytes (before any line) or a line
    over ``line_limit`` bytes (when it is met; the lines before it were yielded).
    """
    with open_regular(path) as handle:
        if os.fstat(handle.fileno()).st_size > limit:
            raise _too_large(path, limit)
        total = 0
        number = 0
        while True:
            line = handle.readline(line_limit + 1)
            if not line:
                return
            number += 1
            total += len(line)
            if len(line) > line_limit and not line.endswith(b"\n"):
                raise FileTooLargeError(
                    path, f"line {number} is over {line_limit:,} bytes, more than a line can hold"
                )
            if total > limit:
                raise _too_large(path, limit)
            yield line


def read_line(stream: IO[AnyStr], limit: int) -> tuple[AnyStr, bool]:
    """One line of ``stream`` (text or binary) and whether it was cut; empty at the end.

    A line of at most ``limit`` characters (its end of line not counted) comes back
    whole. A longer one comes back as its first ``limit + 1`` characters, so it is
    still seen to be too long, with ``True``; the rest of it is read and dropped, up
    to ``MAX_DISCARD_CHARS``, beyond which ``EndlessLineError`` is raised (the input
    has no usable end). Memory stays within ``limit`` plus a chunk.
    """
    line = stream.readline(limit + 1)
    if len(line) <= limit or _ends_line(line):
        return line, False
    discarded = 0
    while True:
        chunk = stream.readline(_CHUNK)
        if not chunk or _ends_line(chunk):
            return line, True
        discarded += len(chunk)
        if discarded > MAX_DISCARD_CHARS:
            raise EndlessLineError(
                f"a line of over {MAX_DISCARD_CHARS:,} characters without an end of line"
            )


def _ends_line(text: str | bytes) -> bool:
    return text.endswith("\n") if isinstance(text, str) else text.endswith(b"\n")


# --- writing ----------------------------------------------------------------------------
def check_output(path: PathLike) -> None:
    """Refuse, before any work, a path that cannot take a file this program writes.

    Accepted: an existing regular file (links followed) or a new name in an
    existing folder. ``NotRegularFileError`` for a FIFO, device, socket or directory;
    ``FileRefusedError`` when the folder is missing or is not a folder; other
    ``OSError`` (permissions, a name too long) pass through. Writable rights are
    left to the write itself.
    """
    try:
        mode: int | None = _mode(path)
    except FileNotFoundError:
        mode = None
    except NotADirectoryError:
        raise FileRefusedError(path, "a folder in that path is a file") from None
    if mode is not None:
        _refuse_unless_regular(path, mode)
        return
    folder = Path(os.path.realpath(path)).parent
    try:
        folder_mode = os.stat(folder).st_mode
    except FileNotFoundError:
        raise FileRefusedError(
            path, f"there is no folder {shown_name(folder)}", errno.ENOENT
        ) from None
    if not stat.S_ISDIR(folder_mode):
        raise FileRefusedError(path, f"{shown_name(folder)} is not a folder", errno.ENOTDIR)


def open_output(path: PathLike, *, append: bool) -> BinaryIO:
    """``path`` open for writing in binary (truncated, or appended to), if it is a
    regular file or a new name (``check_output``); never blocks on a FIFO."""
    check_output(path)
    flags = (
        os.O_WRONLY
        | os.O_CREAT
        | (os.O_APPEND if append else 0)
        | getattr(os, "O_NONBLOCK", 0)
        | getattr(os, "O_NOCTTY", 0)
        | getattr(os, "O_CLOEXEC", 0)
        | getattr(os, "O_BINARY", 0)
    )
    try:
        descriptor = os.open(path, flags, 0o666)
    except OSError as error:
        if error.errno == errno.ENXIO:  # a FIFO without a reader, swapped in since the check
            raise NotRegularFileError(path, "a FIFO (named pipe), not a regular file") from None
        raise
    try:
        _refuse_unless_regular(path, os.fstat(descriptor).st_mode)
        os.set_blocking(descriptor, True)
        if not append:
            os.ftruncate(descriptor, 0)
        return os.fdopen(descriptor, "ab" if append else "wb")
    except BaseException:
        os.close(descriptor)
        raise


def write_atomically(path: PathLike, data: bytes) -> None:
    """Replace the file at ``path`` by one holding ``data``, atomically.

    The target must be a regular file or a new name in an existing folder
    (``check_output``). The data goes to a temporary file beside it, synced,
    renamed over it, the folder synced. A symbolic link is written through; an
    existing file keeps its permissions; leftovers of killed writes are removed.
    ``OSError`` on failure (no temporary file is left).
    """
    check_output(path)
    target = Path(os.path.realpath(path))
    directory = target.parent
    _remove_stale_temporaries(directory, target.name)
    try:
        mode: int | None = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None
    temporary, descriptor = _create_temporary(directory, target.name)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            if mode is not None:
                os.chmod(handle.fileno(), mode)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    _sync_directory(directory)


def _temporary_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"\.{re.escape(name)}\.[0-9a-f]{{16}}\.tmp")


def _create_temporary(directory: Path, name: str) -> tuple[Path, int]:
    """A new file ``.NAME.<16 hex digits>.tmp`` in ``directory``, open for writing."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        temporary = directory / f".{name}.{secrets.token_hex(8)}.tmp"
        try:
            return temporary, os.open(temporary, flags, 0o666)
        except FileExistsError:
            continue


def _remove_stale_temporaries(directory: Path, name: str) -> None:
    """Remove our own leftover temporary files of ``name`` from killed writes.

    Only regular files named as ``_create_temporary`` names them, owned by this
    user and older than ``STALE_TEMPORARY_AGE`` (a write running now is younger).
    """
    pattern = _temporary_pattern(name)
    now = time.time()
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            ours = not hasattr(os, "getuid") or info.st_uid == os.getuid()
            if stat.S_ISREG(info.st_mode) and ours and now - info.st_mtime > STALE_TEMPORARY_AGE:
                os.unlink(entry.path)
        except OSError:
            continue


def _sync_directory(directory: Path) -> None:
    """Make a rename in ``directory`` durable (where the system allows it)."""
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
