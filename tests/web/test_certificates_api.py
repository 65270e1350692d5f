"""The workbench certifies the puzzle on show and serves its certificate as a zip (issue 29)."""

from __future__ import annotations

import io
import zipfile

import pytest

from nonolab.certcheck import check_certificate

from .conftest import PUZZLES

pytest.importorskip("dratify")


def test_certify_then_download_a_certificate_that_certify_check_accepts(client, tmp_path):
    puzzle = client.load(PUZZLES / "webpbn" / "webpbn-00023-edge.non")
    pid = puzzle["id"]
    status, body, _ = client.get(f"/api/puzzles/{pid}/certificate.zip")
    assert status == 404 and "certify it first" in body["error"]
    certificate = client.run(f"/api/puzzles/{pid}/certify")["certificate"]
    assert certificate["certified"] and certificate["verdict"] == "unique"
    assert certificate["path"] == f"/api/puzzles/{pid}/certificate.zip" and len(certificate["files"]) == 7
    status, body, headers = client.get(certificate["path"])
    assert status == 200 and headers["Content-Type"] == "application/zip"
    assert "attachment" in headers["Content-Disposition"]
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        archive.extractall(tmp_path)
    folder = next(tmp_path.iterdir())
    assert check_certificate(folder, "dratify").ok
