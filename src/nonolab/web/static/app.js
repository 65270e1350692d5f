// The nonolab workbench page: plain JavaScript over the JSON API of nonolab.web.api.
// No build step, no network beyond this server.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var current = null;       // the puzzle shown (the API's summary)
  var jobShown = null;      // the id of the job whose progress is shown

  // ---- talking to the server --------------------------------------------------------
  // n and the noun, singular for one: core/words.py's counted, as the page says counts.
  function counted(n, noun) { return n + " " + noun + (n === 1 ? "" : "s"); }
  function showError(message) { $("error").textContent = message ? "nonolab: error: " + message : ""; }

  // The session token the server issued with this page: every request carries it (the
  // server refuses a change without it, and shows a job only to the page that started it).
  var TOKEN = (document.querySelector('meta[name="nonolab-token"]') || {}).content || "";

  function api(path, options) {
    options = options || {};
    options.headers = Object.assign({"X-Nonolab-Token": TOKEN}, options.headers || {});
    options.credentials = "same-origin";
    return fetch(path, options).then(function (response) {
      return response.json().then(function (body) {
        if (!response.ok) { showError(body.error || response.statusText); throw new Error(body.error); }
        return body;
      });
    });
  }

  function post(path, body, type) {
    var headers = {};
    if (type) headers["Content-Type"] = type;
    return api(path, {method: "POST", body: body, headers: headers});
  }

  function postJSON(path, value) { return post(path, JSON.stringify(value), "application/json"); }

  // A job: started by a POST, polled until it ends; the progress bar shows the latest one.
  // onPartial(partial, stage): what the job has found so far, shown before it ends.
  // The jobs still running, each with the puzzle it works on (null: a puzzle from an image):
  // showing another puzzle cancels those of the others, which would hold the workers for
  // up to the server's time limit while the puzzle shown waits its turn.
  var running = {};
  function cancelJobsOfOtherPuzzles(shownId) {
    Object.keys(running).forEach(function (id) {
      if (running[id] !== null && running[id] !== shownId) {
        delete running[id];
        post("/api/jobs/" + id + "/cancel").then(function () {}, function () {});
      }
    });
  }
  function runJob(path, body, type, label, onPartial) {
    var of = /^\/api\/puzzles\/([^\/]+)\//.exec(path);
    return post(path, body, type).then(function (started) {
      var job = started.job;
      running[job.id] = of ? of[1] : null;
      jobShown = job.id;
      $("job").classList.remove("hidden");
      $("job-kind").textContent = label;
      $("job").dataset.state = "running";
      return new Promise(function (resolve, reject) {
        function poll() {
          api("/api/jobs/" + job.id).then(function (state) {
            if (jobShown === job.id) {
              $("job-stage").textContent = state.stage;
              $("job-progress").value = state.progress;
            }
            if (onPartial && state.partial && (state.state === "queued" || state.state === "running")) {
              onPartial(state.partial, state.stage);
            }
            if (state.state === "queued" || state.state === "running") { setTimeout(poll, 150); return; }
            delete running[job.id];
            if (jobShown === job.id) {
              $("job").dataset.state = state.state;
              if (state.state === "done") $("job").classList.add("hidden");
            }
            if (state.state === "done") resolve(state.result);
            else { if (state.state === "failed") showError(state.error); reject(new Error(state.state)); }
          }, reject);
        }
        poll();
      });
    });
  }

  $("cancel").addEventListener("click", function () {
    if (jobShown) post("/api/jobs/" + jobShown + "/cancel");
  });

  // ---- the puzzle, and its history (undo, redo) --------------------------------------
  var history = [], at = -1;     // the puzzles shown, each with the picture of its change

  function showPuzzle(puzzle, changed) {
    history = history.slice(0, at + 1);
    history.push({puzzle: puzzle, changed: changed || null});
    at = history.length - 1;
    display();
  }

  function display() {
    var shown = history[at], puzzle = shown.puzzle;
    current = puzzle;
    cancelJobsOfOtherPuzzles(puzzle.id);
    showError("");
    $("undo").disabled = at <= 0;
    $("redo").disabled = at >= history.length - 1;
    $("current").classList.remove("hidden");
    $("puzzle-title").textContent = (puzzle.name || "puzzle") + " (" + puzzle.width + "x" + puzzle.height + ")";
    var givens = puzzle.givens.length ? "; " + counted(puzzle.givens.length, "given") + " fixed" : "";
    $("puzzle-origin").textContent = "from " + puzzle.origin + givens;
    if (puzzle.svg) $("puzzle-picture").innerHTML = puzzle.svg;
    else $("puzzle-picture").textContent = puzzle.svg_note;
    $("changed").classList.toggle("hidden", !shown.changed);
    $("changed").innerHTML = shown.changed || "";
    $("paste").value = puzzle.text;          // the text box holds the puzzle shown
    $("steps").classList.add("hidden");
    applyZoom();
    updateDownload();
    if (shown.report) showReport(shown.report, null);
    else analyse();
  }

  $("undo").addEventListener("click", function () { if (at > 0) { at--; display(); } });
  $("redo").addEventListener("click", function () { if (at < history.length - 1) { at++; display(); } });

  // ---- zoom: 0 fits the pictures to the page; otherwise a share of their drawn size ------
  function applyZoom() {
    var zoom = parseInt($("zoom").value, 10) || 0;
    $("zoom-value").textContent = zoom ? zoom + "%" : "fit";
    document.body.classList.toggle("zoomed", zoom > 0);
    Array.prototype.forEach.call(document.querySelectorAll(".picture svg, #pictures svg"), function (svg) {
      var width = parseFloat(svg.getAttribute("width"));
      svg.style.width = zoom && width ? (width * zoom / 100) + "px" : "";
    });
  }
  $("zoom").addEventListener("input", applyZoom);

  function analyse() {
    if (!current) return;
    var shown = current.id;
    $("report").classList.add("hidden");
    partsShown(null, "checking uniqueness");
    runJob("/api/puzzles/" + shown + "/analyse", null, null, "checking", function (partial, stage) {
      if (current && current.id === shown) showReport(partial, stage);
    }).then(function (report) {
      history.forEach(function (h) { if (h.puzzle.id === shown) h.report = report; });   // undo shows it again
      if (current && current.id === shown) showReport(report, null);
    }, function () {});
  }

  // Each part of the report: done, running (the job's stage), waiting, or not asked.
  var STAGES = {check: "checking uniqueness", ambiguity: "finding where the solutions differ",
                repair: "looking for the fewest flips", grade: "grading"};
  function partsShown(report, stage) {
    Array.prototype.forEach.call(document.querySelectorAll("#parts li"), function (li) {
      var part = li.dataset.part, done = report && report.parts.indexOf(part) >= 0;
      li.className = done ? "done" : (stage === STAGES[part] ? "running" : (stage === null ? "skipped" : ""));
    });
  }

  // Why a report has no grade: a puzzle is graded once its verdict says it has a solution.
  var NOT_GRADED = {contradiction: " (a puzzle with no solution has no grade)",
                    timeout: " (the time limit ran out before the verdict: a puzzle is graded once it is known to have a solution)"};

  function words(report, stage) {
    var grade = report.grade;
    if (!grade && report.parts.indexOf("grade") < 0 && stage !== null &&
        (report.verdict === "unique" || report.verdict === "multiple")) return "grading (it fills in when done)";
    if (!grade) return "not graded" + (NOT_GRADED[report.verdict] || "");
    if (!grade.grade) return (report.stopped || "not graded") + (grade.harder_than ? ": harder than " + grade.harder_than : "");
    var steps = Object.keys(grade.steps).map(function (k) { return grade.steps[k] + " " + k; }).join(", ");
    return grade.grade + " (pbnsolve class: " + grade.pbnsolve_class + "); difficulty " + report.difficulty.toFixed(3) +
      (steps ? "; steps: " + steps : "");
  }

  function figure(svg, caption) {
    var f = document.createElement("figure");
    f.innerHTML = svg;
    var c = document.createElement("figcaption");
    c.textContent = caption;
    f.appendChild(c);
    return f;
  }

  function showReport(report, stage) {
    if (stage === undefined) stage = null;
    partsShown(report, stage);
    $("report").classList.remove("hidden");
    $("certified").textContent = "";
    var verdict = $("verdict");
    verdict.textContent = report.verdict;
    verdict.dataset.verdict = report.verdict;
    $("verdict-note").textContent = "(" + report.backend + (report.stopped ? "; " + report.stopped +
      ": part of the report was cut short" : "") + ")";
    $("grade").textContent = words(report, stage);
    var warnings = $("warnings");
    warnings.textContent = "";
    report.warnings.forEach(function (w) {
      var li = document.createElement("li"); li.textContent = "warning: " + w.message; warnings.appendChild(li);
    });
    var amb = $("ambiguity");
    amb.textContent = "";
    if (report.verdict === "multiple" && report.parts.indexOf("ambiguity") < 0) {
      var wait = document.createElement("p");
      wait.className = "hint";
      wait.textContent = "finding where the solutions differ...";
      amb.appendChild(wait);
    } else if (report.verdict === "multiple") {
      var p = document.createElement("p");
      var count = (report.exact ? "" : "at least ") + report.count + " solutions; ";
      if (report.regions === null) {
        p.textContent = count + "regions where they differ: " + (report.stopped || "timeout") + " (not computed)";
        amb.appendChild(p);
      } else {
        p.textContent = count + report.backbone.size + " cells are the same in every solution; " +
          counted(report.regions.length, "region") + " where they differ:";
        amb.appendChild(p);
        var ul = document.createElement("ul");
        report.regions.forEach(function (r) { var li = document.createElement("li"); li.textContent = r.text; ul.appendChild(li); });
        amb.appendChild(ul);
      }
    }
    var list = $("repairs");
    list.textContent = "";
    report.repairs.forEach(function (repair) {
      var li = document.createElement("li"), b = document.createElement("button");
      b.textContent = "Apply";
      b.className = "apply-repair";
      b.dataset.kind = repair.kind;
      b.addEventListener("click", function () { applyRepair(repair); });
      li.appendChild(b);
      li.appendChild(document.createTextNode(" " + repair.text));
      list.appendChild(li);
    });
    $("repairs-box").classList.toggle("hidden", report.repairs.length === 0);
    var pics = $("pictures");
    pics.textContent = "";
    var captions = {solution: "the solution", diff: "two solutions: the cells where they differ are framed",
                    why: "where the solutions differ (check --why)"};
    ["solution", "diff", "why"].forEach(function (k) {
      if (report.pictures[k]) { var f = figure(report.pictures[k], captions[k]); f.id = "picture-" + k; pics.appendChild(f); }
    });
    (report.picture_notes || []).forEach(function (note) {
      var n = document.createElement("p"); n.className = "hint"; n.textContent = note; pics.appendChild(n);
    });
    applyZoom();
  }

  // A certificate: the verdict proven to anyone (a DRAT proof or two solutions), as a zip.
  $("certify").addEventListener("click", function () {
    var shown = current.id, out = $("certified");
    out.textContent = "";
    runJob("/api/puzzles/" + shown + "/certify", null, null, "certifying").then(function (result) {
      if (!current || current.id !== shown) return;
      var c = result.certificate;
      if (!c.certified) { out.textContent = "not certified: " + c.reason; return; }
      var a = document.createElement("a");
      a.id = "certificate-link";
      a.href = c.path;
      a.textContent = "download the certificate";
      a.download = "certificate.zip";   // a download link: fetched (the server may have forgotten it)
      a.dataset.gone = "the certificate is gone (the server keeps the most recent ones): Certify again to make it";
      out.appendChild(document.createTextNode("certified " + c.verdict +
        (c.prover ? " (proof by " + c.prover + ", " + c.proof_lines + " lines) " : " ")));
      out.appendChild(a);
    }, function () {});
  });

  // A repair makes a new puzzle: shown with the picture before and after (the changed cells
  // framed), its text in the text box, and Undo to go back.
  function applyRepair(repair) {
    postJSON("/api/puzzles/" + current.id + "/repair", repair).then(function (body) {
      showPuzzle(body.puzzle, body.changed);
    }, function () {});
  }

  $("analyse").addEventListener("click", analyse);

  // ---- explain: the steps with a slider -------------------------------------------
  var frames = [], captions = [], start = "the empty grid";
  function showStep(k) {
    k = Math.max(0, Math.min(frames.length, k));
    var slider = $("step-slider");
    slider.value = k;
    frames.forEach(function (g, i) { g.classList.toggle("off", i >= k); g.classList.toggle("now", i === k - 1); });
    $("step-counter").textContent = "step " + k + " of " + frames.length;
    $("step-caption").textContent = k ? captions[k - 1] : start;
  }
  $("explain").addEventListener("click", function () {
    var shown = current.id;
    runJob("/api/puzzles/" + shown + "/explain", null, null, "explaining").then(function (result) {
      if (!current || current.id !== shown) return;
      $("steps").classList.remove("hidden");
      $("steps-summary").textContent = result.summary;
      $("steps-picture").innerHTML = result.svg;
      applyZoom();
      frames = Array.prototype.slice.call($("steps-picture").querySelectorAll("g.step"));
      captions = result.captions;
      start = result.start;
      $("step-slider").max = frames.length;
      showStep(0);
    }, function () {});
  });
  $("step-slider").addEventListener("input", function () { showStep(parseInt(this.value, 10)); });
  $("step-prev").addEventListener("click", function () { showStep(parseInt($("step-slider").value, 10) - 1); });
  $("step-next").addEventListener("click", function () { showStep(parseInt($("step-slider").value, 10) + 1); });

  // ---- download ----------------------------------------------------------------------
  function updateDownload() {
    if (!current) return;
    var choice = $("download-format").value, kind = "format=";
    if (choice.indexOf("picture:") === 0) { kind = "picture="; choice = choice.slice(8); }
    $("download").href = "/api/puzzles/" + current.id + "/download?" + kind + encodeURIComponent(choice);
  }
  $("download-format").addEventListener("change", updateDownload);
  // Every <a download> of the page is fetched, not followed (downloads.js).
  window.nonolabDownloads(TOKEN, showError);

  // ---- input: paste, open, drop ----------------------------------------------------
  var lastLoad = null;   // the bytes and name of the last file or text, to pick another puzzle of a set
  function loadBytes(body, name, index) {
    var q = [];
    if (name) q.push("name=" + encodeURIComponent(name));
    if ($("format").value) q.push("format=" + encodeURIComponent($("format").value));
    if (index) q.push("index=" + encodeURIComponent(index));
    lastLoad = {body: body, name: name};
    post("/api/load?" + q.join("&"), body, "application/octet-stream").then(function (r) {
      $("set").classList.toggle("hidden", r.in_file < 2);
      $("set-index").max = r.in_file;
      $("set-index").value = r.index;
      $("set-size").textContent = r.in_file;
      showPuzzle(r.puzzle);
    }, function () {});
  }
  $("set-index").addEventListener("change", function () {
    // As typed: the server says what is wrong with 0 or 2.5 (it used to load puzzle 1 in silence).
    if (lastLoad) loadBytes(lastLoad.body, lastLoad.name, this.value.trim() || "1");
  });
  $("load-text").addEventListener("click", function () { loadBytes($("paste").value, null); });
  $("file").addEventListener("change", function () {
    var file = this.files[0];
    if (file) file.arrayBuffer().then(function (data) { loadBytes(data, file.name); });
  });
  var drop = $("drop");
  drop.addEventListener("dragover", function (e) { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", function () { drop.classList.remove("over"); });
  drop.addEventListener("drop", function (e) {
    e.preventDefault();
    drop.classList.remove("over");
    var file = e.dataTransfer.files[0];
    if (file) file.arrayBuffer().then(function (data) { loadBytes(data, file.name); });
  });

  // ---- tabs --------------------------------------------------------------------------
  Array.prototype.forEach.call(document.querySelectorAll(".tab"), function (tab) {
    tab.addEventListener("click", function () {
      Array.prototype.forEach.call(document.querySelectorAll(".tab"), function (t) {
        t.classList.toggle("active", t === tab);
        $(t.dataset.tab).classList.toggle("hidden", t !== tab);
      });
    });
  });

  // ---- draw: a grid whose clues follow the picture -------------------------------------
  var drawing = [], locked = [], painting = null;
  function runs(cells) {
    var out = [], n = 0;
    cells.forEach(function (v) { if (v) n++; else if (n) { out.push(n); n = 0; } });
    if (n) out.push(n);
    return out.length ? out : [0];
  }
  function drawClues() {
    var table = $("draw-grid"), h = drawing.length, w = h ? drawing[0].length : 0;
    for (var c = 0; c < w; c++) {
      var column = drawing.map(function (row) { return row[c]; });
      table.rows[0].cells[c + 1].innerHTML = runs(column).join("<br>");
    }
    for (var r = 0; r < h; r++) table.rows[r + 1].cells[0].textContent = runs(drawing[r]).join(" ");
  }
  function sideOf(id, label) {
    // A side the form cannot take is said, never replaced in silence (0 used to draw 10 columns).
    var text = $(id).value.trim(), input = $(id);
    var min = parseInt(input.min, 10), max = parseInt(input.max, 10);
    if (!/^[0-9]+$/.test(text) || +text < min || +text > max) {
      showError(label + " must be a whole number from " + min + " to " + max + ", not '" + text + "'");
      return null;
    }
    return +text;
  }
  function newDrawing() {
    var w = sideOf("draw-width", "Width"), h = w === null ? null : sideOf("draw-height", "Height");
    if (w === null || h === null) return;
    showError("");
    drawing = [];
    locked = [];
    var table = $("draw-grid");
    table.textContent = "";
    var head = table.insertRow();
    head.appendChild(document.createElement("th"));
    for (var c = 0; c < w; c++) { var th = document.createElement("th"); th.className = "col"; head.appendChild(th); }
    for (var r = 0; r < h; r++) {
      drawing.push(new Array(w).fill(0));
      locked.push(new Array(w).fill(false));
      var tr = table.insertRow();
      if ((r + 1) % 5 === 0 && r + 1 < h) tr.className = "fifth-r";
      var clue = document.createElement("th");
      clue.className = "rowclue";
      tr.appendChild(clue);
      for (c = 0; c < w; c++) {
        var td = tr.insertCell();
        td.dataset.r = r; td.dataset.c = c;
        if ((c + 1) % 5 === 0 && c + 1 < w) td.className = "fifth-c";
      }
    }
    drawClues();
  }
  function paint(td) {
    var r = +td.dataset.r, c = +td.dataset.c;
    drawing[r][c] = painting;
    td.classList.toggle("on", painting === 1);
    drawClues();
  }
  $("draw-grid").addEventListener("mousedown", function (e) {
    var td = e.target.closest("td");
    if (!td) return;
    if ($("draw-lock").checked) {           // lock mode: a click locks or unlocks the cell
      var r = +td.dataset.r, c = +td.dataset.c;
      locked[r][c] = !locked[r][c];
      td.classList.toggle("locked", locked[r][c]);
      e.preventDefault();
      return;
    }
    painting = drawing[+td.dataset.r][+td.dataset.c] ? 0 : 1;
    paint(td);
    e.preventDefault();
  });
  $("draw-grid").addEventListener("mouseover", function (e) {
    var td = e.target.closest("td");
    if (td && painting !== null) paint(td);
  });
  document.addEventListener("mouseup", function () { painting = null; });
  $("draw-new").addEventListener("click", newDrawing);
  $("draw-use").addEventListener("click", function () {
    var rows = drawing.map(function (row) { return row.map(function (v) { return v ? "#" : "."; }).join(""); });
    var cells = [];
    locked.forEach(function (row, r) { row.forEach(function (on, c) { if (on) cells.push([r, c]); }); });
    postJSON("/api/draw", {rows: rows, locked: cells}).then(function (r) { showPuzzle(r.puzzle); }, function () {});
  });

  // ---- from an image -----------------------------------------------------------------
  $("image-make").addEventListener("click", function () {
    var file = $("image-file").files[0];
    if (!file) { showError("choose an image file first"); return; }
    var q = "name=" + encodeURIComponent(file.name) + "&width=" + $("image-width").value +
            "&height=" + $("image-height").value + "&density=" + $("image-density").value +
            "&colours=" + $("image-colours").value + "&uniform=" + ($("image-uniform").checked ? "yes" : "no");
    $("image-preview").textContent = "";
    file.arrayBuffer().then(function (data) {
      return runJob("/api/generate?" + q, data, "application/octet-stream", "generating");
    }).then(function (result) {
      $("image-preview").innerHTML = result.changed || "";   // the image's picture before and after
      showPuzzle(result.puzzle);
    }, function () {});
  });

  // ---- start ---------------------------------------------------------------------------
  api("/api/info").then(function (info) {
    info.formats.forEach(function (name) {
      var o = document.createElement("option"); o.value = name; o.textContent = name; $("format").appendChild(o);
      var d = document.createElement("option"); d.value = name; d.textContent = name; $("download-format").appendChild(d);
    });
    info.pictures.forEach(function (name) {
      var d = document.createElement("option"); d.value = "picture:" + name; d.textContent = name + " (picture)";
      $("download-format").appendChild(d);
    });
    $("download-format").value = "non";
    updateDownload();
    // A first visit opens with a sample puzzle, so the report is there to see at once.
    if (!current) post("/api/sample").then(function (r) { if (!current) showPuzzle(r.puzzle); }, function () {});
  });
  newDrawing();
  document.addEventListener("keydown", function (e) {
    if ($("steps").classList.contains("hidden") || e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") showStep(parseInt($("step-slider").value, 10) + 1);
    else if (e.key === "ArrowLeft") showStep(parseInt($("step-slider").value, 10) - 1);
  });
})();
