"""The workbench's certificates: ``check --certify`` for the puzzle on show, downloadable as a zip.

A certificate is written into a temporary folder (:func:`nonolab.certify.certify`), then
packed as a zip kept in memory beside the puzzle (the last one per puzzle, a few hundred
kilobytes to a few megabytes), and the folder removed: the server leaves nothing on disk.
"""

from __future__ import annotations

import io
import tempfile
import threading
import zipfile
from pathlib import Path
from typing import Any

__all__ = ["Certificates"]


#: The most bytes of zips kept in all: a proof grows with its search (a 60 s job on a large
#: puzzle writes hundreds of megabytes), so the bytes, not the count, bound the memory.
MAX_BYTES = 256 * 2**20


class Certificates:
    """The latest certificate of each puzzle id, as zip bytes: the ``keep`` most recent,
    at most ``max_bytes`` in all (the newest is always kept).

    >>> certificates = Certificates(max_bytes=10)
    >>> certificates.keep("a", "a.zip", b"123456"); certificates.keep("b", "b.zip", b"123456")
    >>> certificates.zip_of("a") is None, certificates.zip_of("b")
    (True, ('b.zip', b'123456'))
    """

    def __init__(self, keep: int = 20, max_bytes: int = MAX_BYTES):
        self._zips: dict[str, tuple[str, bytes]] = {}
        self._keep = keep
        self._max_bytes = max_bytes
        self._lock = threading.Lock()

    def keep(self, pid: str, name: str, data: bytes) -> None:
        """Keep ``data`` as the certificate of ``pid``, forgetting the oldest beyond the limits."""
        with self._lock:
            self._zips.pop(pid, None)
            self._zips[pid] = (name, data)
            while len(self._zips) > 1 and (len(self._zips) > self._keep or
                                           sum(len(z) for _, z in self._zips.values()) > self._max_bytes):
                self._zips.pop(next(iter(self._zips)))

    def make(self, pid: str, puzzle: Any, job: Any, time_limit: float | None) -> dict[str, Any]:
        """Certify ``puzzle`` (in a job: its cancel stops it) and keep the zip; the
        certificate's JSON (``nonolab/schemas/common.json#/$defs/certificate``), its path
        replaced by the zip's download address."""
        from nonolab.certify import certify
        from nonolab.solvers import DEFAULT, get

        job.step(0.05, "answering and proving")
        with tempfile.TemporaryDirectory(prefix="nonolab-certificate-") as work:
            folder = Path(work) / "certificate"
            made = certify(puzzle, folder, get(DEFAULT), time_limit, cancel=job.cancel)
            job.check()
            data = made.as_dict()
            if made.certified:
                stem = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in puzzle.name).strip("_")
                name = f"{stem or 'puzzle'}-certificate.zip"
                self.keep(pid, name, _zipped(folder, name[:-4]))
                data["path"] = f"/api/puzzles/{pid}/certificate.zip"
        return {"certificate": data}

    def zip_of(self, pid: str) -> tuple[str, bytes] | None:
        """``(file name, zip bytes)`` of the puzzle's latest certificate, if any."""
        with self._lock:
            return self._zips.get(pid)


def _zipped(folder: Path, top: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.iterdir()):
            archive.write(path, f"{top}/{path.name}")
    return buffer.getvalue()
