"""The one way `tts_parity` writes an output file, with the CLI's `--out` rules (electron/cli/write-output.ts):
an existing file is refused unless `force=True`; a folder, device, FIFO or socket is never replaced; missing
parent folders are created; the bytes go to a temporary file beside the target, renamed over it only when
complete, and the temporary file is removed on any failure (Ctrl-C included)."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from typing import IO, TYPE_CHECKING, Any

from .errors import ParityFileExistsError, ParityTypeError, ParityValueError

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["AtomicFile", "check_output_path", "write_atomically"]

_UMASK = os.umask(0)
os.umask(_UMASK)


def check_output_path(path: object, *, force: bool, what: str, taken: Mapping[str, str] | None = None) -> str:
    """`path` as a str once it may be written: not a folder, device, FIFO or socket; not an existing file (nor a
    symbolic link, dangling ones included: they are looked at themselves) unless `force`; never the same file
    as one of `taken` (path -> what it is, e.g. the trace being written), `force` or not. `what` starts the
    message ("TraceWriter: path"). Writes nothing."""
    if not isinstance(path, (str, os.PathLike)):
        raise ParityTypeError(f"{what}: expected a file path (str or os.PathLike), found {type(path).__name__}")
    text = os.fspath(path)
    if not isinstance(text, str) or not text:
        raise ParityValueError(f"{what}: expected a file path, found {text!r}")
    if text.endswith(("/", os.sep)):
        raise ParityValueError(f"{what}: {text} ends with a path separator, so it names a folder (give a file path)")
    for other, role in (taken or {}).items():
        if _same_file(text, other):
            raise ParityValueError(f"{what}: {text} is {role} ({other}); give another path")
    try:
        link = os.lstat(text)
    except FileNotFoundError:
        return text
    except OSError as error:
        raise ParityValueError(f"{what}: {text}: {error.strerror or error}") from None
    try:
        found = os.stat(text)
    except FileNotFoundError:  # a link whose target does not exist: writing would replace the link
        if not force:
            raise ParityFileExistsError(
                f"{what}: {text} is a symbolic link to {os.readlink(text)}, which does not exist "
                "(pass force=True to replace the link)"
            ) from None
        return text
    except OSError as error:
        raise ParityValueError(f"{what}: {text}: {error.strerror or error}") from None
    if stat.S_ISDIR(found.st_mode):
        raise ParityValueError(f"{what}: {text} is a folder (give a file path)")
    if not stat.S_ISREG(found.st_mode):
        raise ParityValueError(f"{what}: {text} is not a regular file (a device, FIFO or socket); give a file path")
    if not force:
        through = f" (a symbolic link to {os.readlink(text)})" if stat.S_ISLNK(link.st_mode) else ""
        raise ParityFileExistsError(f"{what}: {text}{through} already exists (pass force=True to replace it)")
    return text


def _same_file(a: str, b: str) -> bool:
    """The same file: the same path once links are resolved, or (both existing) the same inode."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


class AtomicFile:
    """A file written under a temporary name beside `path` and renamed onto it by `commit()`; `discard()` (or a
    failed commit) removes the temporary file, `keep_as(other)` renames it there instead (a `.partial`).

    Args:
        path: the target; checked by check_output_path when opened and again just before the rename.
        force: replace an existing regular file.
        what: how messages name the target ("TraceWriter: path").
        text: open the temporary file for text (UTF-8, `\\n` line ends) instead of bytes.
    """

    def __init__(self, path: object, *, force: bool, what: str, text: bool = False) -> None:
        self.path = check_output_path(path, force=force, what=what)
        self.force, self.what = force, what
        folder = os.path.dirname(os.path.abspath(self.path))
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as error:
            raise ParityValueError(f"{what}: cannot create the folder {folder}: {error.strerror or error}") from None
        descriptor, self.temporary = tempfile.mkstemp(
            dir=folder, prefix=f".{os.path.basename(self.path)}.", suffix=".tmp"
        )
        os.chmod(self.temporary, 0o666 & ~_UMASK)  # mkstemp makes 0600; the target gets what open() would give it
        self.file: IO[Any] = (
            os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") if text else os.fdopen(descriptor, "wb")
        )

    @property
    def closed(self) -> bool:
        return self.file.closed

    def commit(self) -> None:
        """Closes the file and renames it onto the target (re-checked first: a file that appeared meanwhile is
        refused unless `force`)."""
        try:
            self.file.close()
            check_output_path(self.path, force=self.force, what=self.what)
            os.replace(self.temporary, self.path)
        except BaseException:
            self.discard()
            raise

    def discard(self) -> None:
        """Closes and removes the temporary file (nothing appears under the target's name)."""
        self.file.close()
        with contextlib.suppress(FileNotFoundError):
            os.remove(self.temporary)

    def keep_as(self, other: str) -> None:
        """Closes the temporary file and renames it to `other` (replaced if it exists: a previous `.partial`)."""
        self.file.close()
        try:
            os.replace(self.temporary, other)
        except OSError:
            self.discard()
            raise


def write_atomically(data: bytes | Callable[[IO[bytes]], None], path: object, *, force: bool, what: str) -> str:
    """Writes `data` (bytes, or a function writing into the open binary file) to `path` by AtomicFile; returns
    the path written."""
    target = AtomicFile(path, force=force, what=what)
    try:
        if callable(data):
            data(target.file)
        else:
            target.file.write(data)
    except BaseException:
        target.discard()
        raise
    target.commit()
    return target.path
