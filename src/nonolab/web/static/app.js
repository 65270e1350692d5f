// The nonolab workbench page: plain JavaScript over the JSON API of nonolab.web.api.
// No build step, no network beyond this server.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var current = null;       // the puzzle shown (the API's summary)
  var jobShown = null;      // the id of the job whose progress is shown

  // ---- talking to the server --------------------------------------------------------
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
  function runJob(path, body, type, label) {
    return post(path, body, type).then(function (started) {
      var job = started.job;
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
            if (state.state === "queued" || state.state === "running") { setTimeout(poll, 150); return; }
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

  // ---- the puzzle -----------------------------------------------------------------
  function showPuzzle(puzzle) {
    current = puzzle;
    showError("");
    $("current").classList.remove("hidden");
    $("puzzle-title").textContent = (puzzle.name || "puzzle") + " (" + puzzle.width + "x" + puzzle.height + ")";
    var givens = puzzle.givens.length ? "; " + puzzle.givens.length + " given(s) fixed" : "";
    $("puzzle-origin").textContent = "from " + puzzle.origin + givens;
    $("puzzle-picture").innerHTML = puzzle.svg;
    $("steps").classList.add("hidden");
    updateDownload();
    analyse();
  }

  function analyse() {
    if (!current) return;
    var shown = current.id;
    $("report").classList.add("hidden");
    runJob("/api/puzzles/" + shown + "/analyse", null, null, "checking").then(function (report) {
      if (current && current.id === shown) showReport(report);
    }, function () {});
  }

  function words(report) {
    var grade = report.grade;
    if (!grade) return report.verdict === "contradiction" ? "none (a puzzle with no solution is not graded)" : "not graded";
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

  function showReport(report) {
    $("report").classList.remove("hidden");
    $("certified").textContent = "";
    var verdict = $("verdict");
    verdict.textContent = report.verdict;
    verdict.dataset.verdict = report.verdict;
    $("verdict-note").textContent = "(" + report.backend + (report.stopped ? "; " + report.stopped +
      ": part of the report was cut short" : "") + ")";
    $("grade").textContent = words(report);
    var warnings = $("warnings");
    warnings.textContent = "";
    report.warnings.forEach(function (w) {
      var li = document.createElement("li"); li.textContent = "warning: " + w.message; warnings.appendChild(li);
    });
    var amb = $("ambiguity");
    amb.textContent = "";
    if (report.verdict === "multiple") {
      var p = document.createElement("p");
      var count = (report.exact ? "" : "at least ") + report.count + " solutions; ";
      if (report.regions === null) {
        p.textContent = count + "regions where they differ: " + (report.stopped || "timeout") + " (not computed)";
        amb.appendChild(p);
      } else {
        p.textContent = count + report.backbone.size + " cells are the same in every solution; " +
          report.regions.length + " region(s) where they differ:";
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
      out.appendChild(document.createTextNode("certified " + c.verdict +
        (c.prover ? " (proof by " + c.prover + ", " + c.proof_lines + " lines) " : " ")));
      out.appendChild(a);
    }, function () {});
  });

  function applyRepair(repair) {
    postJSON("/api/puzzles/" + current.id + "/repair", repair).then(function (body) { showPuzzle(body.puzzle); }, function () {});
  }

  $("analyse").addEventListener("click", analyse);

  // ---- explain: the steps with a slider -------------------------------------------
  var frames = [], captions = [];
  function showStep(k) {
    k = Math.max(0, Math.min(frames.length, k));
    var slider = $("step-slider");
    slider.value = k;
    frames.forEach(function (g, i) { g.classList.toggle("off", i >= k); g.classList.toggle("now", i === k - 1); });
    $("step-counter").textContent = "step " + k + " of " + frames.length;
    $("step-caption").textContent = k ? captions[k - 1] : "the empty grid";
  }
  $("explain").addEventListener("click", function () {
    var shown = current.id;
    runJob("/api/puzzles/" + shown + "/explain", null, null, "explaining").then(function (result) {
      if (!current || current.id !== shown) return;
      $("steps").classList.remove("hidden");
      $("steps-summary").textContent = result.summary + " (native engine)";
      $("steps-picture").innerHTML = result.svg;
      frames = Array.prototype.slice.call($("steps-picture").querySelectorAll("g.step"));
      captions = result.captions;
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

  // ---- input: paste, open, drop ----------------------------------------------------
  var lastLoad = null;   // the bytes and name of the last file or text, to pick another puzzle of a set
  function loadBytes(body, name, index) {
    var q = [];
    if (name) q.push("name=" + encodeURIComponent(name));
    if ($("format").value) q.push("format=" + encodeURIComponent($("format").value));
    if (index) q.push("index=" + index);
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
    if (lastLoad) loadBytes(lastLoad.body, lastLoad.name, parseInt(this.value, 10) || 1);
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
  var drawing = [], painting = null;
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
  function newDrawing() {
    var w = Math.max(1, Math.min(100, parseInt($("draw-width").value, 10) || 10));
    var h = Math.max(1, Math.min(100, parseInt($("draw-height").value, 10) || 10));
    drawing = [];
    var table = $("draw-grid");
    table.textContent = "";
    var head = table.insertRow();
    head.appendChild(document.createElement("th"));
    for (var c = 0; c < w; c++) { var th = document.createElement("th"); th.className = "col"; head.appendChild(th); }
    for (var r = 0; r < h; r++) {
      drawing.push(new Array(w).fill(0));
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
    postJSON("/api/draw", {rows: rows}).then(function (r) { showPuzzle(r.puzzle); }, function () {});
  });

  // ---- from an image -----------------------------------------------------------------
  $("image-make").addEventListener("click", function () {
    var file = $("image-file").files[0];
    if (!file) { showError("choose an image file first"); return; }
    var q = "name=" + encodeURIComponent(file.name) + "&width=" + $("image-width").value +
            "&height=" + $("image-height").value + "&density=" + $("image-density").value +
            "&colours=" + $("image-colours").value;
    file.arrayBuffer().then(function (data) {
      return runJob("/api/generate?" + q, data, "application/octet-stream", "generating");
    }).then(function (result) { showPuzzle(result.puzzle); }, function () {});
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
  });
  newDrawing();
  document.addEventListener("keydown", function (e) {
    if ($("steps").classList.contains("hidden") || e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") showStep(parseInt($("step-slider").value, 10) + 1);
    else if (e.key === "ArrowLeft") showStep(parseInt($("step-slider").value, 10) - 1);
  });
})();
