"""Writing a file so that readers see the old content or the new, never a part of either."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat


def write_atomically(path: str | os.PathLike[str], data: bytes, *, durable: bool) -> None:
    """Write `data` to a private temporary file in `path`'s folder, then rename it over `path`.

    A file that exists keeps its permission bits; a new one gets the umask's, as `open` gives.
    `durable` also flushes the data to disk before the rename (a fixed source file, not a cache
    entry that can be recomputed).
    """
    directory, name = os.path.split(os.fspath(path))
    try:
        mode: int | None = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = None
    temporary = os.path.join(directory, f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
