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


class Certificates:
    """The latest certificate of each puzzle id, as zip bytes, the ``keep`` most recent.

    >>> Certificates().zip_of("nothing") is None
    True
    """

    def __init__(self, keep: int = 20):
        self._zips: dict[str, tuple[str, bytes]] = {}
        self._keep = keep
        self._lock = threading.Lock()

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
                with self._lock:
                    self._zips[pid] = (name, _zipped(folder, name[:-4]))
                    while len(self._zips) > self._keep:
                        self._zips.pop(next(iter(self._zips)))
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
