"""File input and output for the formats package: bytes in, text out, atomic writes."""

from __future__ import annotations

import os
import re
import secrets
import stat
from pathlib import Path

from nonolab.errors import ParseError


def read_bytes(path: str | os.PathLike) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as err:
        raise ParseError(f"cannot read the file: {err.strerror or err}", path=str(path)) from None


def decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        m = re.match(rb"<\?xml[^>]*encoding=[\"']([A-Za-z0-9._-]+)", data)
        if m:   # an XML file may declare another encoding
            try:
                return data.decode(m.group(1).decode("ascii"))
            except (LookupError, UnicodeDecodeError):
                pass
        raise ParseError(f"the file is not UTF-8 text (byte 0x{data[err.start]:02x})",
                         line=data.count(b"\n", 0, err.start) + 1) from None


def write_atomically(path: str | os.PathLike, text: str | bytes) -> None:
    """Replace ``path`` by ``text`` (UTF-8) or bytes so that no reader ever sees a partial file."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    # O_EXCL: never follow or reuse an existing file; the mode honours the umask.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        if target.exists():
            os.chmod(fd, stat.S_IMODE(target.stat().st_mode))
        with os.fdopen(fd, "wb") as out:
            out.write(text if isinstance(text, bytes) else text.encode("utf-8"))
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
