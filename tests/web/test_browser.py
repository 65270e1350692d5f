"""The workbench page in a real browser: headless Chromium (Debian's chromium and
chromium-driver) driven by Selenium, against the server on a free port.  A screenshot
of each state is saved under test-artifacts/browser/ (or $NONOLAB_TEST_ARTIFACTS)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nonolab.formats import load_bytes_all, loads

from .conftest import PUZZLES

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
ARTIFACTS = Path(os.environ.get("NONOLAB_TEST_ARTIFACTS") or Path(__file__).resolve().parents[2] / "test-artifacts")
WAIT = 60   # seconds a state may take to appear (the first check loads the engine)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if not (CHROMIUM and CHROMEDRIVER):
        if os.environ.get("CI"):   # .ci/run installs them: there, their absence is a failure
            pytest.fail("CI=true but chromium or chromedriver is missing (.ci/run should have installed them)")
        pytest.skip("headless Chromium is not installed here (apt-get install chromium chromium-driver; "
                    ".ci/run installs them)")
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is in the test extra")
    from selenium.webdriver.chrome.service import Service

    downloads = tmp_path_factory.mktemp("downloads")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1280,1800", "--no-first-run", "--disable-extensions"):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    driver.downloads = downloads
    yield driver
    driver.quit()


@pytest.fixture
def page(browser, server):
    browser.get(server.url)
    _until(browser, lambda: len(browser.find_elements("css selector", "#download-format option")) > 3)
    return browser


def _until(driver, condition, timeout: float = WAIT):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    _shot(driver, "timeout")
    raise AssertionError("the page did not reach the state in time; error line: "
                         + driver.find_element("id", "error").text)


def _shot(driver, name: str) -> Path:
    ARTIFACTS.joinpath("browser").mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / "browser" / f"{name}.png"
    driver.save_screenshot(str(path))
    return path


def _by(driver, selector: str):
    return driver.find_element("css selector", selector)


def _verdict(driver) -> str:
    """The verdict shown, once a puzzle is shown (``_load_text`` blanks the title until the
    puzzle it loads is shown: the sample puzzle a first visit opens with is multiple too, and
    its report may come in while the loaded puzzle is on its way)."""
    element = _by(driver, "#verdict")
    if not _by(driver, "#puzzle-title").text:
        return ""
    return element.get_attribute("data-verdict") if element.is_displayed() else ""


def _reported(driver, verdict: str) -> bool:
    """The report shows ``verdict`` and every part of it has come in (the page fills the
    parts in as they are answered: the verdict first, the grade last)."""
    return _verdict(driver) == verdict and driver.execute_script(
        "var parts = document.querySelectorAll('#parts li');"
        "return parts.length > 0 && Array.prototype.every.call(parts, function (li) {"
        "  return li.className === 'done' || li.className === 'skipped'; });")


def _load_text(driver, text: str) -> None:
    driver.execute_script("document.getElementById('puzzle-title').textContent = '';")
    area = _by(driver, "#paste")
    area.clear()
    driver.execute_script("arguments[0].value = arguments[1];", area, text)
    _by(driver, "#load-text").click()


def test_load_check_repair_explain_and_download(page):
    _load_text(page, (PUZZLES / "nonolab" / "switch.non").read_text())
    _until(page, lambda: _reported(page, "multiple"))
    assert _by(page, "#picture-diff svg") and _by(page, "#picture-why svg")
    assert "2x2 switch" in _by(page, "#ambiguity").text
    assert _shot(page, "1-loaded-multiple").stat().st_size > 0

    # A repair: the flip in the picture, then the new verdict.
    old_id = page.execute_script("return document.getElementById('download').href")
    _by(page, ".apply-repair[data-kind=flip]").click()
    _until(page, lambda: _verdict(page) == "unique")
    assert page.execute_script("return document.getElementById('download').href") != old_id
    assert "(repaired)" in _by(page, "#puzzle-title").text and _by(page, "#picture-solution svg")
    _shot(page, "2-repaired-unique")

    # Explain: the slider moves through the steps, frame by frame.
    _by(page, "#explain").click()
    _until(page, lambda: _by(page, "#steps").is_displayed())
    frames = page.find_elements("css selector", "#steps-picture g.step")
    slider = _by(page, "#step-slider")
    assert frames and slider.get_attribute("max") == str(len(frames))
    assert _by(page, "#step-counter").text == f"step 0 of {len(frames)}"
    from selenium.webdriver.common.keys import Keys
    slider.send_keys(Keys.ARROW_RIGHT)
    assert _by(page, "#step-counter").text == f"step 1 of {len(frames)}"
    assert _by(page, "#step-caption").text.startswith("step 1: ")
    shown = page.execute_script("return document.querySelectorAll('#steps-picture g.step:not(.off)').length")
    assert shown == 1 and "now" in frames[0].get_attribute("class")
    _shot(page, "3-explain-step-1")
    _by(page, "#step-next").click()
    assert _by(page, "#step-counter").text == f"step {min(2, len(frames))} of {len(frames)}"
    page.execute_script("var s = arguments[0]; s.value = s.max; s.dispatchEvent(new Event('input'));", slider)
    assert page.execute_script("return document.querySelectorAll('#steps-picture g.step.off').length") == 0
    _shot(page, "4-explain-last-step")

    # Download the repaired puzzle as a Tatham game ID.
    from selenium.webdriver.support.ui import Select
    Select(_by(page, "#download-format")).select_by_value("tatham")
    _by(page, "#download").click()
    files = _until(page, lambda: [p for p in page.downloads.iterdir() if p.suffix == ".tatham"], 20)
    text = files[0].read_text()
    repaired = loads(text, "tatham")
    switch = loads((PUZZLES / "nonolab" / "switch.non").read_text())
    assert repaired != switch and len(repaired.rows) == 2
    _shot(page, "5-downloaded")


def test_a_bad_file_shows_the_line_the_cli_prints(page, tmp_path):
    bad = tmp_path / "bad.non"
    bad.write_text("width 1\nheight 1\nrows\n2\ncolumns\n1\n")
    _by(page, "#file").send_keys(str(bad))
    message = _until(page, lambda: _by(page, "#error").text)
    cli = subprocess.run([sys.executable, "-m", "nonolab", "check", "bad.non"], cwd=tmp_path, capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert message == cli.stderr.strip() and message.startswith("nonolab: error: bad.non:4: ")
    _shot(page, "6-bad-input")


def test_a_drawing_shows_its_clues_live_and_is_checked(page):
    _by(page, "[data-tab=tab-draw]").click()
    for field, value in (("#draw-width", "3"), ("#draw-height", "2")):
        _by(page, field).clear()
        _by(page, field).send_keys(value)
    _by(page, "#draw-new").click()
    for r, c in ((0, 0), (0, 1), (1, 0)):
        _by(page, f"#draw-grid td[data-r='{r}'][data-c='{c}']").click()
    row_clues = [e.text for e in page.find_elements("css selector", "#draw-grid th.rowclue")]
    column_clues = [e.text for e in page.find_elements("css selector", "#draw-grid th.col")]
    assert row_clues == ["2", "1"] and column_clues == ["2", "1", "0"]
    _shot(page, "7-drawing")
    _by(page, "#draw-use").click()
    _until(page, lambda: _verdict(page) == "unique")
    assert _by(page, "#puzzle-title").text.startswith("drawn 3x2")


def test_cancel_stops_a_long_check(page):
    # 20-Dom (41x41, unique): its proof takes auto more than 20 s (a random 60x60 grid no
    # longer does: with lcg's phase hints auto counts it to 2 in 0.05 s).
    from reference import n_dom
    from nonolab.core import Puzzle
    from nonolab.formats import dumps
    rows, columns = n_dom(20)
    _load_text(page, dumps(Puzzle(rows=rows, columns=columns), "non"))
    _until(page, lambda: _by(page, "#job").is_displayed() and _by(page, "#job-stage").text)
    time.sleep(0.5)
    _shot(page, "8-working")
    _by(page, "#cancel").click()
    _until(page, lambda: _by(page, "#job").get_attribute("data-state") == "cancelled", 5)
    assert not _by(page, "#report").is_displayed()
    _shot(page, "9-cancelled")


def test_a_dropped_file_is_read_as_a_file_of_its_name(page):
    # A drop as the browser makes it: a File in a DataTransfer, dispatched on the drop zone.
    page.execute_script("""
        var data = new DataTransfer();
        data.items.add(new File([arguments[0]], 'heart.non'));
        var zone = document.getElementById('drop');
        zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: data, bubbles: true, cancelable: true}));
        zone.dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true, cancelable: true}));
    """, (PUZZLES / "nonolab" / "heart.non").read_text())
    _until(page, lambda: _reported(page, "unique"))
    assert _by(page, "#puzzle-title").text == "heart (10x10)" and _by(page, "#puzzle-origin").text == "from heart.non"
    assert _by(page, "#grade").text.startswith("line")
    _shot(page, "10-dropped")


def test_an_image_becomes_a_unique_puzzle(page, tmp_path):
    pytest.importorskip("PIL")
    from PIL import Image, ImageDraw
    image = Image.new("L", (100, 100), 255)
    ImageDraw.Draw(image).ellipse((20, 20, 80, 80), fill=0)
    image.save(tmp_path / "disc.png")
    _by(page, "[data-tab=tab-image]").click()
    _by(page, "#image-file").send_keys(str(tmp_path / "disc.png"))
    for field, value in (("#image-width", "10"), ("#image-height", "10")):
        _by(page, field).clear()
        _by(page, field).send_keys(value)
    _by(page, "#image-make").click()
    _until(page, lambda: _verdict(page) == "unique")
    assert _by(page, "#puzzle-title").text == "disc-10x10 (10x10)"
    _shot(page, "11-from-an-image")


def test_a_side_or_a_set_index_the_form_cannot_take_is_said_not_replaced(page):
    # Audit 8: a width of 0 drew 10 columns, 101 drew 100, 2.5 drew 2, and puzzle 0 or
    # 2.5 of a set loaded puzzle 1, all in silence.
    from selenium.webdriver.support.ui import Select
    _by(page, "[data-tab=tab-draw]").click()
    _by(page, "#draw-new").click()
    cells = len(page.find_elements("css selector", "#draw-grid td"))
    for width, height, said in (("0", "5", "Width must be a whole number from 1 to 100, not '0'"),
                                ("7", "101", "Height must be a whole number from 1 to 100, not '101'"),
                                ("2.5", "3", "Width must be a whole number from 1 to 100, not '2.5'")):
        page.execute_script("document.getElementById('draw-width').value = arguments[0];"
                            "document.getElementById('draw-height').value = arguments[1];", width, height)
        _by(page, "#draw-new").click()
        assert _by(page, "#error").text == "nonolab: error: " + said
        assert len(page.find_elements("css selector", "#draw-grid td")) == cells   # the drawing kept
    _by(page, "[data-tab=tab-text]").click()
    Select(_by(page, "#format")).select_by_value("taai")
    _load_text(page, "$1\n1\n1\n$2\n0\n0\n")
    _until(page, lambda: _by(page, "#puzzle-title").text == "$1 (1x1)")
    for index in ("0", "2.5"):
        page.execute_script("var i = arguments[0]; i.value = arguments[1]; i.dispatchEvent(new Event('change'));",
                            _by(page, "#set-index"), index)
        _until(page, lambda: "puzzle 0 is out of range" in _by(page, "#error").text if index == "0"
               else _by(page, "#error").text == "nonolab: error: index must be a whole number, not '2.5'")
    Select(_by(page, "#format")).select_by_value("")


def test_a_set_offers_each_of_its_puzzles(page):
    from selenium.webdriver.support.ui import Select
    Select(_by(page, "#format")).select_by_value("taai")
    _load_text(page, "$1\n1\n1\n$2\n0\n0\n")
    _until(page, lambda: _by(page, "#puzzle-title").text == "$1 (1x1)")
    assert _by(page, "#set").is_displayed() and _by(page, "#set-size").text == "2"
    page.execute_script("var i = arguments[0]; i.value = 2; i.dispatchEvent(new Event('change'));",
                        _by(page, "#set-index"))
    _until(page, lambda: _by(page, "#puzzle-title").text == "$2 (1x1)")
    _until(page, lambda: _verdict(page) == "unique")
    Select(_by(page, "#format")).select_by_value("")


def test_givens_applied_stay_in_the_puzzle_its_picture_and_its_downloads(page):
    # a2cd917: after "Apply: reveal N cells as givens" the page said unique, and the
    # downloads dropped the givens (check on them: multiple).
    from selenium.webdriver.support.ui import Select
    from nonolab.harness.uniqueness import check

    _load_text(page, (PUZZLES / "hakank" / "simple2.non").read_text())
    _until(page, lambda: _reported(page, "multiple"))
    assert "solutions" in _by(page, "#ambiguity").text and _by(page, "#warnings").text
    _shot(page, "12-multiple-with-warnings")
    _by(page, ".apply-repair[data-kind=givens]").click()
    _until(page, lambda: _verdict(page) == "unique")
    assert "given" in _by(page, "#puzzle-origin").text
    drawn = page.execute_script(
        "return document.querySelectorAll('#puzzle-picture g.cells rect, #puzzle-picture g.given-empty circle')"
        ".length")
    assert drawn == 1                              # the one given, drawn in the puzzle's picture
    _shot(page, "13-givens-applied-unique")
    for fmt, suffix in (("non", ".non"), ("json", ".json")):
        Select(_by(page, "#download-format")).select_by_value(fmt)
        _by(page, "#download").click()
        files = _until(page, lambda: [p for p in page.downloads.iterdir() if p.suffix == suffix], 20)
        back = load_bytes_all(files[0].read_bytes(), files[0].name)[0]
        assert len(back.givens) == 1 and check(back).verdict.value == "unique", fmt


def test_a_download_the_server_refuses_says_why_in_the_error_line(page):
    # Audit 18: the Download link was followed: a refusal (webpbn holds no givens) saved
    # nothing and the page said nothing.  It is fetched now: the refusal shows its line, and a
    # download the server makes still lands under its own name.
    from selenium.webdriver.support.ui import Select
    _load_text(page, (PUZZLES / "hakank" / "simple2.non").read_text())
    _until(page, lambda: _reported(page, "multiple"))
    _by(page, ".apply-repair[data-kind=givens]").click()
    _until(page, lambda: _verdict(page) == "unique")
    Select(_by(page, "#download-format")).select_by_value("webpbn")
    _by(page, "#download").click()
    line = _until(page, lambda: _by(page, "#error").text, 20)
    assert line == "nonolab: error: the 'webpbn' format cannot hold givens, and the puzzle has 1 (write json, tatham, non)"
    _shot(page, "14-download-refused")
    Select(_by(page, "#download-format")).select_by_value("picture:svg")
    _by(page, "#download").click()
    files = _until(page, lambda: [p for p in page.downloads.iterdir() if p.name == "simple2.svg"], 20)
    assert files[0].read_text().startswith("<svg") and _by(page, "#error").text == ""


def test_explain_says_the_verdict_and_marks_search(page):
    _load_text(page, (PUZZLES / "nonolab" / "switch.non").read_text())
    _until(page, lambda: _verdict(page) == "multiple")
    _by(page, "#explain").click()
    _until(page, lambda: _by(page, "#steps").is_displayed())
    summary = _by(page, "#steps-summary").text
    assert summary.startswith("multiple: ") and "solved" not in summary and "(search)" in summary
    assert "native" not in summary   # the answer `nonolab explain` gives, not one engine's (audit 8)
    _shot(page, "14-explain-multiple")


def test_a_puzzle_with_no_solution_is_not_graded_in_words_never_none(page):
    _load_text(page, (PUZZLES / "nonolab" / "contradiction.non").read_text())
    _until(page, lambda: _reported(page, "contradiction"))
    assert _by(page, "#grade").text == "not graded (a puzzle with no solution has no grade)"
    _shot(page, "contradiction-not-graded")


def test_a_colour_puzzle_shows_its_clues_in_their_colours(page):
    from nonolab.core import Puzzle, Solution
    from nonolab.formats import dumps
    picture = Solution.from_values([[1, 0, 2, 2], [0, 1, 2, 0], [3, 3, 0, 4], [0, 3, 4, 4]])
    _load_text(page, dumps(Puzzle.from_solution(picture, "colours"), "json"))
    _until(page, lambda: _verdict(page) == "multiple")
    swatches = page.execute_script(
        "return Array.from(document.querySelectorAll('#puzzle-picture rect.swatch')).map(r => r.getAttribute('fill'))")
    assert len(set(swatches)) == 4
    _shot(page, "15-colour-puzzle")


def test_the_page_carries_its_session_token_and_the_server_wants_it(page):
    """The page works under its Content-Security-Policy with the token it was served (every
    other test here goes through it); a request from the page without the token is refused."""
    token = page.execute_script("return document.querySelector('meta[name=\"nonolab-token\"]').content")
    assert len(token) >= 40
    answers = page.execute_async_script("""
        var done = arguments[arguments.length - 1], token = arguments[0];
        var send = function (headers) {
          return fetch('/api/load', {method: 'POST', body: '2x2:2/1/2/1', headers: headers})
            .then(function (r) { return r.status; });
        };
        Promise.all([send({}), send({'X-Nonolab-Token': token})]).then(done);
    """, token)
    assert answers == [403, 200]


def test_certify_shows_certified_and_downloads_a_certificate_the_checker_accepts(page, tmp_path):
    pytest.importorskip("dratify")
    import zipfile

    from nonolab.certcheck import check_certificate
    _load_text(page, (PUZZLES / "webpbn" / "webpbn-00023-edge.non").read_text())
    _until(page, lambda: _verdict(page) == "unique")
    _by(page, "#certify").click()
    link = _until(page, lambda: page.find_elements("id", "certificate-link"))[0]
    assert _by(page, "#certified").text.startswith("certified unique (proof by lcg,")
    _shot(page, "certified")
    link.click()
    zips = _until(page, lambda: [p for p in page.downloads.iterdir() if p.name.endswith("-certificate.zip")], 20)
    with zipfile.ZipFile(zips[0]) as archive:
        archive.extractall(tmp_path)
    assert check_certificate(next(tmp_path.iterdir()), "dratify").ok


def test_a_certificate_the_server_forgot_says_so_and_saves_nothing(page, server):
    # Before, the certificate link was followed: once the server had forgotten the zip (it
    # keeps the latest 20), the click left the page for the 404's JSON and the page said nothing.
    # It is fetched now, as the Download link is: the refusal shows its line, nothing lands.
    from urllib.parse import urlsplit

    from selenium.webdriver.support.ui import Select

    from nonolab.core import Puzzle, Solution
    from nonolab.formats import dumps

    from .conftest import Client
    _load_text(page, (PUZZLES / "nonolab" / "heart.non").read_text())
    _until(page, lambda: _reported(page, "unique"))
    _by(page, "#certify").click()
    link = _until(page, lambda: page.find_elements("id", "certificate-link"))[0]
    path = urlsplit(link.get_attribute("href")).path
    others = Client(server.url)
    for k in range(20):   # twenty certificates of other puzzles push this one out
        rows = [format(k + 1, "05b").replace("0", ".").replace("1", "#"), "#####"]
        text = dumps(Puzzle.from_solution(Solution.from_rows(rows), f"p{k}"), "non")
        pid = others.ok("POST", "/api/load?name=p.non", text)["puzzle"]["id"]
        assert others.run(f"/api/puzzles/{pid}/certify")["certificate"]["certified"]
    assert others.get(path)[0] == 404
    before = set(page.downloads.iterdir())
    link.click()
    line = _until(page, lambda: _by(page, "#error").text, 20)
    assert line == ("nonolab: error: no certificate of this puzzle: certify it first (the server keeps the most "
                    "recent ones)")
    assert page.current_url.rstrip("/") == server.url.rstrip("/")   # the page stays
    # and no longer offers the certificate it lost (it said "certified unique ... download the
    # certificate" under the error line): it says it is gone and how to make it again
    _until(page, lambda: not page.find_elements("id", "certificate-link"), 20)
    assert _by(page, "#certified").text == ("the certificate is gone (the server keeps the most recent ones): "
                                            "Certify again to make it")
    _shot(page, "certificate-forgotten")
    # a download that lands after it: the refused one saved nothing before it
    Select(_by(page, "#download-format")).select_by_value("non")
    _by(page, "#download").click()
    landed = _until(page, lambda: set(page.downloads.iterdir()) - before, 20)
    assert [p.name for p in landed] == ["heart.non"] and _by(page, "#error").text == ""


def test_showing_another_puzzle_cancels_the_jobs_of_the_one_left(page, monkeypatch):
    # Audit 8: Knotty's report and steps kept both workers until the job time limit (60 s by
    # default) after the page had moved on to the cat, whose verdict waited 11 s for them.
    # Here the first puzzle's analysis never ends unless cancelled (no clock races it).
    import threading

    from nonolab.web import work
    real, cancelled, release = work.analyse, threading.Event(), threading.Event()

    def endless(entry, job, time_limit):
        if entry.puzzle.name != "endless":
            return real(entry, job, time_limit)
        while not (job.cancel.wait(0.05) or release.is_set()):
            pass
        if job.cancel.is_set():
            cancelled.set()
        job.check()

    monkeypatch.setattr(work, "analyse", endless)
    try:
        _load_text(page, 'title "endless"\nwidth 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n')
        _until(page, lambda: _by(page, "#puzzle-title").text == "endless (2x2)")
        _until(page, lambda: _by(page, "#job-kind").text == "checking")
        _load_text(page, (PUZZLES / "nonolab" / "heart.non").read_text())
        _until(page, lambda: _verdict(page) == "unique")
        _until(page, cancelled.is_set)
    finally:
        release.set()


def test_a_puzzle_whose_check_ran_out_of_time_says_why_it_is_not_graded(browser, server):
    from nonolab.generate import random_grid
    from nonolab.web.server import Running
    rows = ["".join("#" if v else "." for v in row) for row in random_grid(80, 80, 0.5, seed=2).tolist()]
    # 80x80 noise: minutes to prove unique or not, so a limit of a hundredth of a second ends its check.
    with Running(port=0, time_limit=0.01) as running:
        browser.get(running.url)
        _until(browser, lambda: len(browser.find_elements("css selector", "#download-format option")) > 3)
        _load_text(browser, "\n".join(rows) + "\n")
        _until(browser, lambda: _reported(browser, "timeout"))
        assert _by(browser, "#grade").text == ("not graded (the time limit ran out before the verdict: a puzzle "
                                               "is graded once it is known to have a solution)")
        browser.execute_script("document.getElementById('verdict').scrollIntoView()")
        _shot(browser, "timeout-not-graded")
