"""The designer's desk in a real browser (issue 28, item 4): the sample on first open, the
report filling in part by part, the CLI's repairs with before/after and undo/redo, locked
cells, large puzzles that scroll and zoom, and the image flow with its before/after.
A screenshot of each state goes to test-artifacts/browser/ (see test_browser.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from nonolab.web.work import SAMPLE

from .conftest import PUZZLES
from .test_browser import _by, _load_text, _shot, _until, _verdict, browser, page  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def _parts(driver) -> dict[str, str]:
    return {li.get_attribute("data-part"): li.get_attribute("class")
            for li in driver.find_elements("css selector", "#parts li")}


def _cli_repair(tmp_path, rows) -> str:
    (tmp_path / "house.txt").write_text("\n".join(rows) + "\n")
    done = subprocess.run([sys.executable, "-m", "nonolab", "repair", "house.txt", "-o", "fixed.non"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    return done.stdout + done.stderr


def test_a_first_visit_opens_the_sample_with_its_whole_report(page):
    _until(page, lambda: _verdict(page) == "multiple")
    assert "sample" in _by(page, "#puzzle-title").text
    _until(page, lambda: set(_parts(page).values()) == {"done"})       # every part shown done, the grade too
    assert _by(page, "#grade").text.startswith("search")
    assert page.find_elements("css selector", ".apply-repair[data-kind=flip]")
    assert "rows" in _by(page, "#paste").get_attribute("value")          # the text box holds the puzzle
    _shot(page, "20-first-open-sample")


def test_repairs_are_the_cli_s_with_before_after_undo_and_redo(page, tmp_path):
    # The repairs part done, not only the first repair shown: the page fills the list in as
    # the parts come (a reveal from the ambiguity part first, the fewest flips after).
    _until(page, lambda: _verdict(page) == "multiple" and _parts(page).get("repair") == "done")
    offered = _by(page, "#repairs li").text
    cli = _cli_repair(tmp_path, SAMPLE)                                 # repaired: flip (7,4) to . (the fewest...)
    flip = cli.split("repaired: ")[1].split(" (")[0]
    assert flip in offered and "the fewest flips" in offered            # the same fewest flips as the CLI
    before_text = _by(page, "#paste").get_attribute("value")
    _by(page, ".apply-repair[data-kind=flip]").click()
    _until(page, lambda: _verdict(page) == "unique")
    changed = _by(page, "#changed")
    assert changed.is_displayed() and "before" in changed.text and "after" in changed.text
    assert page.execute_script("return document.querySelectorAll('#changed g.marks rect').length") == 2   # one cell, framed twice
    after_text = _by(page, "#paste").get_attribute("value")
    assert after_text != before_text and "(repaired)" in after_text
    _shot(page, "21-repaired-before-after")
    _by(page, "#undo").click()
    _until(page, lambda: _verdict(page) == "multiple")
    assert _by(page, "#paste").get_attribute("value") == before_text and not _by(page, "#changed").is_displayed()
    _by(page, "#redo").click()
    _until(page, lambda: _verdict(page) == "unique")
    assert _by(page, "#paste").get_attribute("value") == after_text
    _shot(page, "22-redo")


def test_locked_cells_are_never_flipped_by_a_repair(page):
    _by(page, "[data-tab=tab-draw]").click()
    height, width = len(SAMPLE), len(SAMPLE[0])
    for field, value in (("#draw-width", str(width)), ("#draw-height", str(height))):
        _by(page, field).clear()
        _by(page, field).send_keys(value)
    _by(page, "#draw-new").click()
    page.execute_script("""
        var rows = arguments[0];
        rows.forEach(function (row, r) { row.split('').forEach(function (ch, c) {
          if (ch !== '#') return;
          var td = document.querySelector("#draw-grid td[data-r='" + r + "'][data-c='" + c + "']");
          td.dispatchEvent(new MouseEvent('mousedown', {bubbles: true}));
          document.dispatchEvent(new MouseEvent('mouseup', {bubbles: true}));
        }); });
    """, list(SAMPLE))
    _by(page, "#draw-lock").click()
    for r, c in ((6, 3), (7, 4), (6, 4), (7, 3)):         # the window: the switch's four cells
        _by(page, f"#draw-grid td[data-r='{r}'][data-c='{c}']").click()
    assert len(page.find_elements("css selector", "#draw-grid td.locked")) == 4
    _shot(page, "23-locked-cells")
    _by(page, "#draw-use").click()
    _until(page, lambda: "4 cells locked" in _by(page, "#puzzle-origin").text)
    _until(page, lambda: _verdict(page) == "multiple" and _parts(page).get("repair") == "done")
    flips = [li.text for li in page.find_elements("css selector", "#repairs li") if "flip" in li.text]
    assert flips, "a repair away from the locked window"
    for text in flips:
        for cell in ("(7,4)", "(8,5)", "(7,5)", "(8,4)"):
            assert cell not in text.split(" in the picture")[0], text
    _shot(page, "24-repairs-around-locked-cells")


def test_a_large_puzzle_scrolls_in_its_box_and_zooms(page):
    from nonolab.formats import dumps
    from nonolab.generate import puzzle_from_array, smooth_grid
    _load_text(page, dumps(puzzle_from_array(smooth_grid(59, 99, seed=2)), "non"))
    _until(page, lambda: "(99x59)" in _by(page, "#puzzle-title").text)
    overflow = "return document.documentElement.scrollWidth <= window.innerWidth + 1"
    assert page.execute_script(overflow)                      # fitted: the page does not overflow
    _shot(page, "25-large-fitted")
    page.execute_script("var z = arguments[0]; z.value = 200; z.dispatchEvent(new Event('input'));", _by(page, "#zoom"))
    box = _by(page, "#puzzle-picture")
    assert page.execute_script("return arguments[0].scrollWidth > arguments[0].clientWidth", box)   # it scrolls
    assert page.execute_script(overflow)                      # in its box: the page still does not overflow
    page.execute_script("arguments[0].scrollLeft = 400; arguments[0].scrollTop = 200;", box)
    _shot(page, "26-large-zoomed-scrolled")
    _until(page, lambda: _verdict(page) != "", 300)           # the report answers for it too
    page.execute_script("document.getElementById('report').scrollIntoView()")
    _shot(page, "27-large-report")


def test_the_image_flow_offers_uniform_lines_and_shows_before_and_after(page, tmp_path):
    pytest.importorskip("PIL")
    from PIL import Image, ImageDraw
    image = Image.new("L", (120, 120), 255)
    draw = ImageDraw.Draw(image)
    draw.ellipse((25, 35, 95, 105), fill=0)
    draw.rectangle((57, 12, 63, 38), fill=0)
    image.save(tmp_path / "apple.png")
    _by(page, "[data-tab=tab-image]").click()
    assert _by(page, "#image-uniform").is_selected()          # the default: an image's background may be whole lines
    _by(page, "#image-file").send_keys(str(tmp_path / "apple.png"))
    for field, value in (("#image-width", "12"), ("#image-height", "12")):
        _by(page, field).clear()
        _by(page, field).send_keys(value)
    _by(page, "#image-make").click()
    _until(page, lambda: _verdict(page) == "unique", 300)
    preview = _by(page, "#image-preview")
    assert "before" in preview.text and "after" in preview.text and "changed" in preview.text
    assert not _by(page, "#changed").is_displayed()           # shown once, beside the form
    # No stray cell on the white background: the image's empty rows stay empty after the repairs.
    after = _by(page, "#puzzle-title").text
    assert after.startswith("apple-12x12")
    _shot(page, "28-image-before-after")
