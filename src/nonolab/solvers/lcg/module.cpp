// The CPython binding of the lcg engine: nonolab.solvers.lcg._lcg.
//
//   Engine(width, height, rows, columns, fixed=(), minimise=2, bands=0)   rows/columns:
//       sequences of clues, fixed: (cell, filled) pairs, cell row-major; minimise: 0 none,
//       1 basic, 2 recursive learned clause minimisation; bands: the order explanations
//       drop cells in (see Engine::explain); restarts: 0 Luby, 1 glucose-style;
//       probe_budget: line runs root probing may spend (0: no probing); target_phases:
//       1 decisions take the target phases, 0 the saved phases; hint_rounds, hint_conflicts,
//       follow_conflicts, hint_after: phase hints (Engine::set_phase_hints, set_hint_after);
//       probe_binaries, skip_implied_probes (default 1): root probing's extras (probe.cpp);
//       explain_from_root (default 1): explanations take the root's cells from the line's
//       masks and order their candidates by band masks (analysis.cpp; 0 reads every cell and
//       sorts the candidates' keys, the same clauses: for the test that says so);
//       order_by_insertion (default 0): the var order built a var at a time (the same order: a test's);
//       seed (default 0: none): a random first activity for every var (heap.hpp), another search path;
//       lookahead (default 0: never), lookahead_levels (default 1): at decision levels below
//       lookahead_levels, the decision's var is the one of the `lookahead` most active open vars
//       whose two values force the most cells (lookahead.cpp);
//       shake (default 0: never): before the first solution, on a Luby schedule of this many conflicts,
//       forget the activities and phases for random ones and the hints (shake.cpp), the clauses kept;
//       shake_after (default 0): the schedule starts after this many conflicts (the first shake at
//       shake_after + shake): a search that ends sooner is the search without shakes;
//       shake_reset (default 0): what a shake resets: 0 activities and phases, 1 the activities,
//       2 the phases;
//       shake_churn (default 0: every shake): a shake only when the search churns, the saved
//       phases changed a window (shake_churn_window, default 1,000 conflicts) at least this % of
//       the vars, the mean of five (shake.cpp);
//       modes (0 off, 1 stable first, 2 focused first), mode_conflicts, mode_growth, focused_decay,
//       focused_target, rephase: mode switching and rephasing (policy.hpp);
//       vivify (conflicts between rounds, 0 off), vivify_effort (% of the search's line runs):
//       learned-clause vivification (vivify.cpp), vivify_probe: each round after root probing again.
//   Colour puzzles: colours=k (2..31) and row_colours/column_colours, each block's
//       colour 1..k in the shape of rows/columns; fixed: (cell, value) pairs, value 0..k.
//   Engine.run(seconds, conflicts=0) -> 0 budget spent (the seconds, or `conflicts` more
//       conflicts when positive), 1 a solution (then blocked), 2 exhausted; the GIL is
//       released while it searches.  Either budget only pauses the search: runs in slices
//       search exactly as one long run.
//   Engine.interrupt(): the running run() (from another thread) ends at its next look at
//       the clock, and every later one at its own.
//   Engine.solution() -> bytes (one 0/1 per cell, row-major), Engine.stats() -> dict.
//   Engine.root() -> bytes: what the root level says of each cell (0, 1, 2 open).
//   Engine.start_proof(path): write a DRAT proof of the search to path (proof.hpp; black
//       and white); Engine.end_proof() -> (lines, bytes) closes it (OSError if a write failed).
//   The module's line functions (solve_line, drop_cells, solve_colour_line, line_shares):
//       line_functions.cpp.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <new>
#include <utility>
#include <vector>

#include "../_cext/binding.hpp"
#include "engine.hpp"
#include "line_functions.hpp"

namespace {

using EngineObject = binding::EngineObject<lcg::Engine>;
using binding::bytes_of;
using binding::ready;

bool read_clues(PyObject* seq, Py_ssize_t expected, std::vector<std::vector<int>>& clues) {
    return binding::read_clues(seq, expected, clues, lcg::LONGEST_BLOCK);
}

// Each line's colours have its clue's shape and lie in 1..colours.
bool colours_fit(const std::vector<std::vector<int>>& clues, const std::vector<std::vector<int>>& colours,
                 int top) {
    for (size_t i = 0; i < clues.size(); ++i) {
        bool fits = colours[i].size() == clues[i].size();
        for (int c : colours[i]) fits = fits && c <= top;
        if (!fits) {
            PyErr_SetString(PyExc_ValueError, "block colours must match the clues and lie in 1..colours");
            return false;
        }
    }
    return true;
}

int Engine_init(EngineObject* self, PyObject* args, PyObject* kwds) {
    static const char* keywords[] = {"width", "height", "rows", "columns", "fixed", "minimise", "bands", "restarts", "probe_budget",
                                     "colours", "row_colours", "column_colours", "target_phases", "hint_rounds", "hint_conflicts",
                                     "follow_conflicts", "probe_binaries", "skip_implied_probes", "hint_after", "modes",
                                     "mode_conflicts", "mode_growth", "focused_decay", "rephase", "focused_target",
                                     "hint_min_open", "explain_from_root", "order_by_insertion", "vivify", "vivify_effort", "vivify_probe", "seed",
                                     "shake", "lookahead", "lookahead_levels", "shake_after", "shake_reset", "shake_churn", "shake_churn_window", nullptr};
    int width = 0, height = 0, minimise = 2, bands = 0, restarts = 0, colours = 0, target_phases = 1, hint_rounds = 0,
        probe_binaries = 0, skip_implied_probes = 1, modes = 0, focused_target = 0, hint_min_open = 0,
        explain_from_root = 1, order_by_insertion = 0, vivify_effort = 10, vivify_probe = 0, lookahead = 0,
        lookahead_levels = 1, shake_reset = 0, shake_churn = 0;
    unsigned long long seed = 0;
    long long shake = 0, shake_after = 0, shake_churn_window = 1000;
    long long probe_budget = 0, hint_conflicts = 0, follow_conflicts = 0, hint_after = 0, mode_conflicts = 1000, rephase = 0, vivify = 0;
    double mode_growth = 2.0, focused_decay = 0.85;
    PyObject *rows = nullptr, *columns = nullptr, *fixed = nullptr, *row_colours = nullptr, *column_colours = nullptr;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOO|OiiiLiOOpiLLppLiLddLpippLipKLiiLiiL", const_cast<char**>(keywords), &width,
                                     &height, &rows, &columns, &fixed, &minimise, &bands, &restarts, &probe_budget,
                                     &colours, &row_colours, &column_colours, &target_phases, &hint_rounds,
                                     &hint_conflicts, &follow_conflicts, &probe_binaries, &skip_implied_probes, &hint_after,
                                     &modes, &mode_conflicts, &mode_growth, &focused_decay, &rephase,
                                     &focused_target, &hint_min_open, &explain_from_root, &order_by_insertion, &vivify,
                                     &vivify_effort, &vivify_probe, &seed, &shake, &lookahead,
                                     &lookahead_levels, &shake_after, &shake_reset, &shake_churn, &shake_churn_window))
        return -1;
    if (colours != 0 && (colours < 2 || colours > 31 || !row_colours || !column_colours)) {
        PyErr_SetString(PyExc_ValueError, "a colour puzzle needs 2..31 colours and row_colours, column_colours");
        return -1;
    }
    if (minimise < 0 || minimise > 2) {
        PyErr_SetString(PyExc_ValueError, "minimise must be 0 (none), 1 (basic) or 2 (recursive)");
        return -1;
    }
    if (restarts < 0 || restarts > 1) {
        PyErr_SetString(PyExc_ValueError, "restarts must be 0 (Luby) or 1 (glucose)");
        return -1;
    }
    if (hint_rounds < 0 || hint_conflicts < 0 || follow_conflicts < 0 || hint_after < 0) {
        PyErr_SetString(PyExc_ValueError, "hint_rounds, hint_conflicts, follow_conflicts, hint_after must not be negative");
        return -1;
    }
    if (hint_min_open < 0 || hint_min_open > 100) {
        PyErr_SetString(PyExc_ValueError, "hint_min_open is a per cent, 0..100");
        return -1;
    }
    if (modes < 0 || modes > 2 || mode_conflicts < 1 || mode_growth < 1.0 || !(focused_decay > 0.0 && focused_decay < 1.0) ||
        rephase < 0 || shake < 0 || shake_after < 0 || shake_reset < 0 || shake_reset > 2 || shake_churn < 0 ||
        shake_churn > 100 || shake_churn_window < 1) {
        PyErr_SetString(PyExc_ValueError, "modes must be 0 (off), 1 (stable first) or 2 (focused first), mode_conflicts "
                                          ">= 1, mode_growth >= 1, focused_decay in (0, 1), rephase >= 0, shake >= 0, "
                                          "shake_after >= 0, shake_reset 0 (both), 1 (activities) or 2 (phases), "
                                          "shake_churn 0..100, shake_churn_window >= 1");
        return -1;
    }
    if (vivify < 0 || vivify_effort < 1 || vivify_effort > 1000) {
        PyErr_SetString(PyExc_ValueError, "vivify must be >= 0 (conflicts between rounds), vivify_effort 1..1000 (%)");
        return -1;
    }
    if (lookahead < 0 || lookahead > 1000000 || lookahead_levels < 0 || lookahead_levels > 1000000) {
        PyErr_SetString(PyExc_ValueError, "lookahead and lookahead_levels must be 0..1000000");
        return -1;
    }
    if (bands < 0 || bands > 2) {
        PyErr_SetString(PyExc_ValueError, "bands must be 0 (one per level), 1 or 2");
        return -1;
    }
    if (width < 1 || height < 1 || static_cast<long long>(width) * height > 400000000LL) {
        PyErr_SetString(PyExc_ValueError, "grid size out of range");
        return -1;
    }
    std::vector<std::vector<int>> row_clues, column_clues;
    if (!read_clues(rows, height, row_clues) || !read_clues(columns, width, column_clues)) return -1;
    std::vector<std::vector<int>> row_colour_clues, column_colour_clues;
    if (colours) {
        if (!read_clues(row_colours, height, row_colour_clues) ||
            !read_clues(column_colours, width, column_colour_clues))
            return -1;
        if (!colours_fit(row_clues, row_colour_clues, colours) ||
            !colours_fit(column_clues, column_colour_clues, colours))
            return -1;
        if (static_cast<long long>(width) * height * (colours + 1) > 400000000LL) {
            PyErr_SetString(PyExc_ValueError, "grid size out of range");
            return -1;
        }
    }
    delete self->engine;
    self->engine = nullptr;
    // Building the engine touches no Python object and takes 0.1-1.5 ms on published
    // grids: other threads run meanwhile (auto's native, which starts this engine).
    lcg::Engine* built = nullptr;
    if (!binding::without_gil([&] {
            if (colours)
                built = new lcg::Engine(width, height, std::move(row_clues), std::move(column_clues), row_colour_clues,
                                        column_colour_clues, colours, minimise, bands, restarts, probe_budget);
            else
                built = new lcg::Engine(width, height, std::move(row_clues), std::move(column_clues), minimise, bands,
                                        restarts, probe_budget);
        }))
        return -1;
    self->engine = built;
    self->engine->set_target_phases(target_phases != 0);
    self->engine->set_phase_hints(hint_rounds, hint_conflicts, follow_conflicts);
    self->engine->set_hint_after(hint_after);
    self->engine->set_hint_min_open(hint_min_open);
    self->engine->set_probe_binaries(probe_binaries != 0);
    self->engine->set_probe_skipping(skip_implied_probes != 0);
    self->engine->set_explain_from_root(explain_from_root != 0);
    self->engine->set_order_by_insertion(order_by_insertion != 0);
    self->engine->set_seed(seed);
    self->engine->set_shake(shake, shake_after, static_cast<lcg::Engine::ShakeReset>(shake_reset));
    self->engine->set_shake_churn(shake_churn, shake_churn_window);
    self->engine->set_lookahead(lookahead, lookahead_levels);
    self->engine->set_modes(lcg::ModeSettings{modes, mode_conflicts, mode_growth, focused_decay, focused_target != 0});
    self->engine->set_rephase(rephase);
    self->engine->set_vivify(vivify, vivify_effort, vivify_probe != 0);
    if (fixed && fixed != Py_None) {
        PyObject* fast = PySequence_Fast(fixed, "fixed must be a sequence of (cell, filled) pairs");
        if (!fast) return -1;
        const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
        for (Py_ssize_t i = 0; i < n; ++i) {
            int cell = 0, filled = 0;
            if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), colours ? "ii" : "ip", &cell, &filled)) {
                Py_DECREF(fast);
                return -1;
            }
            if (cell < 0 || cell >= width * height || (colours && (filled < 0 || filled > colours))) {
                Py_DECREF(fast);
                PyErr_SetString(PyExc_ValueError, colours ? "fixed cell outside the grid or value not 0..colours"
                                                          : "fixed cell outside the grid");
                return -1;
            }
            if (colours) self->engine->fix_value(cell, filled);
            else self->engine->fix(cell, filled != 0);
        }
        Py_DECREF(fast);
    }
    return 0;
}

void Engine_dealloc(EngineObject* self) {
    // Freeing a large clause database and line cache takes milliseconds: let the other
    // threads run meanwhile (nothing here touches a Python object).
    lcg::Engine* engine = self->engine;
    self->engine = nullptr;
    Py_BEGIN_ALLOW_THREADS
    delete engine;
    Py_END_ALLOW_THREADS
    Py_TYPE(self)->tp_free(reinterpret_cast<PyObject*>(self));
}

PyObject* Engine_run(EngineObject* self, PyObject* args) {
    double seconds = 0.0;
    long long conflicts = 0;
    if (!PyArg_ParseTuple(args, "d|L", &seconds, &conflicts)) return nullptr;
    if (!ready(self)) return nullptr;
    lcg::RunResult result = lcg::BUDGET;
    if (!binding::run_busy(self, [&] { result = self->engine->run(seconds, conflicts); })) return nullptr;
    return PyLong_FromLong(static_cast<long>(result));
}

PyObject* Engine_solution(EngineObject* self, PyObject*) {
    if (!ready(self)) return nullptr;
    return bytes_of(self->engine->solution());
}

PyObject* Engine_root(EngineObject* self, PyObject*) {
    if (!ready(self)) return nullptr;
    return bytes_of(self->engine->root_cells());
}

bool put(PyObject* dict, const char* key, PyObject* value) {
    if (!value) return false;
    const int failed = PyDict_SetItemString(dict, key, value);
    Py_DECREF(value);
    return failed == 0;
}

PyObject* Engine_stats(EngineObject* self, PyObject*) {
    if (!ready(self)) return nullptr;
    const lcg::Counters& c = self->engine->counters();
    PyObject* dict = PyDict_New();
    if (!dict) return nullptr;
    const std::pair<const char*, long long> items[] = {
        {"probe_binaries", c.probe_binaries}, {"probes_skipped", c.probes_skipped},
        {"conflicts", c.conflicts}, {"decisions", c.decisions}, {"propagations", c.propagations},
        {"line_runs", c.line_runs}, {"learned", c.learned}, {"restarts", c.restarts},
        {"reductions", c.reductions}, {"explanations", c.explanations},
        {"explained_literals", c.explained_literals}, {"explanation_checks", c.explanation_checks},
        {"learned_literals", c.learned_literals}, {"minimised_literals", c.minimised_literals},
        {"blocking_clauses", c.blocking}, {"cache_hits", c.cache_hits}, {"probes", c.probes},
        {"probe_line_runs", c.probe_line_runs}, {"target_updates", c.target_updates}, {"hint_rounds", c.hint_rounds},
        {"explanation_hits", c.explanation_hits}, {"mode_switches", c.mode_switches}, {"rephases", c.rephases},
        {"vivify_rounds", c.vivify_rounds}, {"vivify_tried", c.vivify_tried}, {"vivify_shortened", c.vivify_shortened},
        {"vivify_removed", c.vivify_removed}, {"vivify_line_runs", c.vivify_line_runs},
        {"shakes", c.shakes}, {"shakes_spared", c.shakes_spared}, {"lookaheads", c.lookaheads}, {"lookahead_probes", c.lookahead_probes},
        {"lookahead_failed", c.lookahead_failed}, {"lookahead_line_runs", c.lookahead_line_runs},
    };
    for (const auto& item : items)
        if (!put(dict, item.first, PyLong_FromLongLong(item.second))) { Py_DECREF(dict); return nullptr; }
    return dict;
}

PyObject* Engine_signals(EngineObject* self, PyObject*) {
    if (!ready(self)) return nullptr;
    const lcg::Signals s = self->engine->take_signals();
    return Py_BuildValue("{s:L,s:L,s:L,s:L,s:L,s:L,s:L,s:L,s:L,s:L}", "conflicts", s.conflicts, "lbd", s.lbd,
                         "learned_size", s.learned_size, "conflict_level", s.conflict_level, "back_level",
                         s.back_level, "trail", s.trail, "max_consistent", s.max_consistent, "far_jumps",
                         s.far_jumps, "phase_flips", s.phase_flips, "root", s.root);
}

PyObject* Engine_start_proof(EngineObject* self, PyObject* args) {
    PyObject* path = nullptr;
    if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path)) return nullptr;
    if (!ready(self)) { Py_DECREF(path); return nullptr; }
    const bool opened = self->engine->start_proof(PyBytes_AS_STRING(path));
    if (!opened) PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path);
    Py_DECREF(path);
    if (!opened) return nullptr;
    Py_RETURN_NONE;
}

PyObject* Engine_end_proof(EngineObject* self, PyObject*) {
    if (!ready(self)) return nullptr;
    const lcg::ProofLog* log = self->engine->proof();
    const long long lines = log ? log->lines() : 0;
    if (!self->engine->end_proof()) {
        PyErr_SetString(PyExc_OSError, "lcg: writing the proof failed (is the disk full?)");
        return nullptr;
    }
    return Py_BuildValue("LL", lines, log ? log->bytes() : 0LL);
}

PyMethodDef engine_methods[] = {
    {"run", reinterpret_cast<PyCFunction>(Engine_run), METH_VARARGS,
     "run(seconds, conflicts=0) -> 0 budget spent (the seconds, or conflicts more conflicts when positive), "
     "1 solution found (and blocked), 2 search exhausted"},
    {"interrupt", reinterpret_cast<PyCFunction>(&binding::engine_interrupt<EngineObject>), METH_NOARGS,
     "make the running run() (from another thread), and every later one, end at its next look at the clock"},
    {"solution", reinterpret_cast<PyCFunction>(Engine_solution), METH_NOARGS,
     "the last solution: one byte 0/1 per cell, row-major"},
    {"stats", reinterpret_cast<PyCFunction>(Engine_stats), METH_NOARGS, "the search counters"},
    {"signals", reinterpret_cast<PyCFunction>(Engine_signals), METH_NOARGS,
     "the search's signals summed since the last call (the first call starts them; signals.cpp)"},
    {"root", reinterpret_cast<PyCFunction>(Engine_root), METH_NOARGS,
     "the root level's cells: one byte per cell, 0 empty, 1 filled, 2 open (black and white)"},
    {"start_proof", reinterpret_cast<PyCFunction>(Engine_start_proof), METH_VARARGS,
     "start_proof(path): write a DRAT proof of the search to path (black and white puzzles)"},
    {"end_proof", reinterpret_cast<PyCFunction>(Engine_end_proof), METH_NOARGS,
     "end_proof() -> (lines, bytes): close the proof"},
    {nullptr, nullptr, 0, nullptr},
};

PyTypeObject EngineType = {PyVarObject_HEAD_INIT(nullptr, 0)};

PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_lcg", "The lcg engine (C++).", -1, nullptr};

}  // namespace

PyMODINIT_FUNC PyInit__lcg(void) {
    module_def.m_methods = lcg::line_functions();
    return binding::add_engine_module<EngineObject>(
        &module_def, &EngineType, "nonolab.solvers.lcg._lcg.Engine", "The lcg search over one puzzle.",
        reinterpret_cast<initproc>(Engine_init), reinterpret_cast<destructor>(Engine_dealloc), engine_methods);
}
