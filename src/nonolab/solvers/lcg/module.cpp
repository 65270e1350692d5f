// The CPython binding of the lcg engine: nonolab.solvers.lcg._lcg.
//
//   Engine(width, height, rows, columns, fixed=(), minimise=2, bands=0)   rows/columns:
//       sequences of clues, fixed: (cell, filled) pairs, cell row-major; minimise: 0 none,
//       1 basic, 2 recursive learned clause minimisation; bands: the order explanations
//       drop cells in (see Engine::explain); restarts: 0 Luby, 1 glucose-style;
//       probe_budget: line runs root probing may spend (0: no probing); target_phases:
//       1 decisions take the target phases, 0 the saved phases; hint_rounds, hint_conflicts,
//       follow_conflicts, hint_after: phase hints (Engine::set_phase_hints, set_hint_after);
//       probe_binaries, skip_implied_probes (default 1): root probing's extras (probe.cpp).
//   Colour puzzles: colours=k (2..31) and row_colours/column_colours, each block's
//       colour 1..k in the shape of rows/columns; fixed: (cell, value) pairs, value 0..k.
//   Engine.run(seconds) -> 0 budget spent, 1 a solution (then blocked), 2 exhausted;
//       the GIL is released while it searches.
//   Engine.interrupt(): the running run() (from another thread) ends at its next look at
//       the clock, and every later one at its own.
//   Engine.solution() -> bytes (one 0/1 per cell, row-major), Engine.stats() -> dict.
//   Engine.root() -> bytes: what the root level says of each cell (0, 1, 2 open).
//   Engine.start_proof(path): write a DRAT proof of the search to path (proof.hpp; black
//       and white); Engine.end_proof() -> (lines, bytes) closes it (OSError if a write failed).
//   solve_line(clue, cells) -> bytes or None: the line DP on one line of state masks.
//   solve_colour_line(lengths, colours, domains) -> list or None: the colour line DP on
//       one line of domain masks (bit v: value v possible).
//   line_shares(clue, known, prior) -> list or None: the phase hints' weighted count of a
//       line's arrangements (hints.hpp), each cell's share of filled ones.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <new>
#include <vector>

#include "../_cext/binding.hpp"
#include "engine.hpp"
#include "hints.hpp"

namespace {

using EngineObject = binding::EngineObject<lcg::Engine>;
using binding::bytes_of;
using binding::ready;

// The longest block a clue may hold.
constexpr long LONGEST_BLOCK = 1000000;

bool read_clue(PyObject* item, std::vector<int>& clue) { return binding::read_clue(item, clue, LONGEST_BLOCK); }

bool read_clues(PyObject* seq, Py_ssize_t expected, std::vector<std::vector<int>>& clues) {
    return binding::read_clues(seq, expected, clues, LONGEST_BLOCK);
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
                                     "follow_conflicts", "probe_binaries", "skip_implied_probes", "hint_after", nullptr};
    int width = 0, height = 0, minimise = 2, bands = 0, restarts = 0, colours = 0, target_phases = 1, hint_rounds = 0,
        probe_binaries = 0, skip_implied_probes = 1;
    long long probe_budget = 0, hint_conflicts = 0, follow_conflicts = 0, hint_after = 0;
    PyObject *rows = nullptr, *columns = nullptr, *fixed = nullptr, *row_colours = nullptr, *column_colours = nullptr;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOO|OiiiLiOOpiLLppL", const_cast<char**>(keywords), &width,
                                     &height, &rows, &columns, &fixed, &minimise, &bands, &restarts, &probe_budget,
                                     &colours, &row_colours, &column_colours, &target_phases, &hint_rounds,
                                     &hint_conflicts, &follow_conflicts, &probe_binaries, &skip_implied_probes, &hint_after))
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
                built = new lcg::Engine(width, height, row_clues, column_clues, row_colour_clues, column_colour_clues,
                                        colours, minimise, bands, restarts, probe_budget);
            else
                built = new lcg::Engine(width, height, row_clues, column_clues, minimise, bands, restarts,
                                        probe_budget);
        }))
        return -1;
    self->engine = built;
    self->engine->set_target_phases(target_phases != 0);
    self->engine->set_phase_hints(hint_rounds, hint_conflicts, follow_conflicts);
    self->engine->set_hint_after(hint_after);
    self->engine->set_probe_binaries(probe_binaries != 0);
    self->engine->set_probe_skipping(skip_implied_probes != 0);
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
    if (!PyArg_ParseTuple(args, "d", &seconds)) return nullptr;
    if (!ready(self)) return nullptr;
    lcg::RunResult result = lcg::BUDGET;
    if (!binding::run_busy(self, [&] { result = self->engine->run(seconds); })) return nullptr;
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
        {"explanation_hits", c.explanation_hits},
    };
    for (const auto& item : items)
        if (!put(dict, item.first, PyLong_FromLongLong(item.second))) { Py_DECREF(dict); return nullptr; }
    return dict;
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
     "run(seconds) -> 0 budget spent, 1 solution found (and blocked), 2 search exhausted"},
    {"interrupt", reinterpret_cast<PyCFunction>(&binding::engine_interrupt<EngineObject>), METH_NOARGS,
     "make the running run() (from another thread), and every later one, end at its next look at the clock"},
    {"solution", reinterpret_cast<PyCFunction>(Engine_solution), METH_NOARGS,
     "the last solution: one byte 0/1 per cell, row-major"},
    {"stats", reinterpret_cast<PyCFunction>(Engine_stats), METH_NOARGS, "the search counters"},
    {"root", reinterpret_cast<PyCFunction>(Engine_root), METH_NOARGS,
     "the root level's cells: one byte per cell, 0 empty, 1 filled, 2 open (black and white)"},
    {"start_proof", reinterpret_cast<PyCFunction>(Engine_start_proof), METH_VARARGS,
     "start_proof(path): write a DRAT proof of the search to path (black and white puzzles)"},
    {"end_proof", reinterpret_cast<PyCFunction>(Engine_end_proof), METH_NOARGS,
     "end_proof() -> (lines, bytes): close the proof"},
    {nullptr, nullptr, 0, nullptr},
};

PyTypeObject EngineType = {PyVarObject_HEAD_INIT(nullptr, 0)};

// The bit-set line solver and explanation checks (bitline.hpp) on words of `bits` bits
// (64 or 128): whether they can take this line (a ValueError set when not).
bool bit_line_usable(const std::vector<int>& clue, int n, int bits) {
    bool positive = true;
    for (int len : clue) positive = positive && len > 0;
    const int most = bits == 64 ? lcg::BitLine64::MAX_CELLS : lcg::BitLine::MAX_CELLS;
    if ((bits != 64 && bits != 128) || n < 1 || n > most || !positive) {
        PyErr_SetString(PyExc_ValueError, "the bit sets take words of 64 or 128 bits, 1..63 or 1..127 cells and "
                                          "positive lengths");
        return false;
    }
    return true;
}

template <typename Word>
bool solve_on_bits(const std::vector<int>& clue, const uint8_t* s, int n, uint8_t* out) {
    Word e = 0, f = 0, may_empty = 0, may_fill = 0;
    for (int i = 0; i < n; ++i) {
        if (s[i] & 1) e |= lcg::BitLineOf<Word>::one(i);
        if (s[i] & 2) f |= lcg::BitLineOf<Word>::one(i);
    }
    const std::vector<int> rclue(clue.rbegin(), clue.rend());
    lcg::BitLineOf<Word> solver;
    if (!solver.fix(clue.data(), rclue.data(), static_cast<int>(clue.size()), e, f, n, may_empty, may_fill))
        return false;
    for (int i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(((may_empty >> i) & 1) | (((may_fill >> i) & 1) << 1));
    return true;
}

template <typename Word>
void drop_on_bits(const std::vector<int>& clue, std::vector<uint8_t>& s, const std::vector<int>& order) {
    Word e = 0, f = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] & 1) e |= lcg::BitLineOf<Word>::one(static_cast<int>(i));
        if (s[i] & 2) f |= lcg::BitLineOf<Word>::one(static_cast<int>(i));
    }
    lcg::BitLineOf<Word> checker;
    checker.reset_drops(clue.data(), static_cast<int>(clue.size()), e, f, static_cast<int>(s.size()));
    for (int i : order) {
        if (s[i] != 3 && !checker.feasible_without(i)) {
            s[i] = 3;
            checker.dropped(i);
        }
    }
}

PyObject* solve_line(PyObject*, PyObject* args) {
    PyObject* clue_obj = nullptr;
    Py_buffer cells;
    int on_bits = 0;  // the bit-set solver of bitline.hpp on words of 64 or 128 bits (the engine's)
    if (!PyArg_ParseTuple(args, "Oy*|i", &clue_obj, &cells, &on_bits)) return nullptr;
    std::vector<int> clue;
    if (!read_clue(clue_obj, clue)) { PyBuffer_Release(&cells); return nullptr; }
    const int n = static_cast<int>(cells.len);
    const uint8_t* s = static_cast<const uint8_t*>(cells.buf);
    for (int i = 0; i < n; ++i) {
        if (s[i] < 1 || s[i] > 3) {
            PyBuffer_Release(&cells);
            PyErr_SetString(PyExc_ValueError, "cells must be state masks 1, 2 or 3");
            return nullptr;
        }
    }
    std::vector<uint8_t> out(n > 0 ? n : 1);
    bool ok;
    if (on_bits) {
        if (!bit_line_usable(clue, n, on_bits)) {
            PyBuffer_Release(&cells);
            return nullptr;
        }
        ok = on_bits == 64 ? solve_on_bits<uint64_t>(clue, s, n, out.data())
                           : solve_on_bits<lcg::Bits>(clue, s, n, out.data());
    } else {
        lcg::LineDP dp;
        ok = dp.fix(clue.data(), static_cast<int>(clue.size()), s, n, out.data());
    }
    PyBuffer_Release(&cells);
    if (!ok) Py_RETURN_NONE;
    return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(out.data()), n);
}

// The explanation checks' greedy drop on one line (Engine::explain's loop): each cell of
// order in turn is made unknown when the line stays infeasible without it.
PyObject* drop_cells(PyObject*, PyObject* args) {
    PyObject *clue_obj = nullptr, *order_obj = nullptr;
    Py_buffer cells;
    int on_bits = 0;  // the bit-set checks of bitline.hpp on words of 64 or 128 bits (the engine's)
    if (!PyArg_ParseTuple(args, "Oy*O|i", &clue_obj, &cells, &order_obj, &on_bits)) return nullptr;
    std::vector<int> clue, order;
    const int n = static_cast<int>(cells.len);
    std::vector<uint8_t> s(static_cast<const uint8_t*>(cells.buf), static_cast<const uint8_t*>(cells.buf) + n);
    PyBuffer_Release(&cells);
    if (!read_clue(clue_obj, clue)) return nullptr;
    PyObject* fast = PySequence_Fast(order_obj, "order must be a sequence of cell positions");
    if (!fast) return nullptr;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); ++i) {
        const long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (value == -1 && PyErr_Occurred()) { Py_DECREF(fast); return nullptr; }
        order.push_back(value < 0 || value > n ? n : static_cast<int>(value));
    }
    Py_DECREF(fast);
    for (int i = 0; i < n; ++i) {
        if (s[i] < 1 || s[i] > 3) {
            PyErr_SetString(PyExc_ValueError, "cells must be state masks 1, 2 or 3");
            return nullptr;
        }
    }
    for (int i : order) {
        if (i >= n) {
            PyErr_SetString(PyExc_ValueError, "order holds a cell outside the line");
            return nullptr;
        }
    }
    if (on_bits) {
        if (!bit_line_usable(clue, n, on_bits)) return nullptr;
        if (on_bits == 64) drop_on_bits<uint64_t>(clue, s, order);
        else drop_on_bits<lcg::Bits>(clue, s, order);
        return bytes_of(s);
    }
    lcg::DropChecker dropper;
    dropper.reset(clue.data(), static_cast<int>(clue.size()), s.data(), n);
    for (int i : order) {
        if (s[i] != 3 && !dropper.feasible_without(i)) {
            s[i] = 3;
            dropper.dropped(i);
        }
    }
    return bytes_of(s);
}

// The phase hints' weighted count on one line (hints.hpp): each cell's share of filled
// arrangements, each weighted by the product of its cells' priors.
PyObject* line_shares(PyObject*, PyObject* args) {
    PyObject *clue_obj = nullptr, *known_obj = nullptr, *prior_obj = nullptr;
    if (!PyArg_ParseTuple(args, "OOO", &clue_obj, &known_obj, &prior_obj)) return nullptr;
    std::vector<int> clue;
    if (!read_clue(clue_obj, clue)) return nullptr;
    PyObject* known_fast = PySequence_Fast(known_obj, "known must be a sequence of -1, 0, 1");
    if (!known_fast) return nullptr;
    PyObject* prior_fast = PySequence_Fast(prior_obj, "prior must be a sequence of numbers");
    if (!prior_fast) { Py_DECREF(known_fast); return nullptr; }
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(known_fast);
    std::vector<int8_t> known(n > 0 ? n : 1);
    std::vector<double> prior(n > 0 ? n : 1), black(n > 0 ? n : 1);
    bool ok = PySequence_Fast_GET_SIZE(prior_fast) == n;
    for (Py_ssize_t i = 0; ok && i < n; ++i) {
        const long k = PyLong_AsLong(PySequence_Fast_GET_ITEM(known_fast, i));
        prior[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(prior_fast, i));
        ok = !PyErr_Occurred() && k >= -1 && k <= 1 && prior[i] >= 0.0 && prior[i] <= 1.0;
        known[i] = static_cast<int8_t>(k);
    }
    Py_DECREF(known_fast);
    Py_DECREF(prior_fast);
    if (!ok) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "known holds -1, 0 or 1 per cell, prior a number in [0, 1] per cell");
        return nullptr;
    }
    if (n > lcg::HINT_MAX_CELLS) {
        PyErr_SetString(PyExc_ValueError, "line_shares takes lines of at most 127 cells");
        return nullptr;
    }
    if (!lcg::line_marginals(clue.data(), static_cast<int>(clue.size()), static_cast<int>(n), known.data(),
                             prior.data(), black.data()))
        Py_RETURN_NONE;
    PyObject* result = PyList_New(n);
    if (!result) return nullptr;
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* item = PyFloat_FromDouble(black[i]);
        if (!item) { Py_DECREF(result); return nullptr; }
        PyList_SET_ITEM(result, i, item);
    }
    return result;
}

PyObject* solve_colour_line(PyObject*, PyObject* args) {
    PyObject *lengths_obj = nullptr, *colours_obj = nullptr, *domains_obj = nullptr;
    if (!PyArg_ParseTuple(args, "OOO", &lengths_obj, &colours_obj, &domains_obj)) return nullptr;
    std::vector<int> lengths, colours;
    if (!read_clue(lengths_obj, lengths) || !read_clue(colours_obj, colours)) return nullptr;
    if (lengths.size() != colours.size()) {
        PyErr_SetString(PyExc_ValueError, "one colour per block");
        return nullptr;
    }
    for (int c : colours) {
        if (c > 31) {
            PyErr_SetString(PyExc_ValueError, "colours must lie in 1..31");
            return nullptr;
        }
    }
    PyObject* fast = PySequence_Fast(domains_obj, "domains must be a sequence of masks");
    if (!fast) return nullptr;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    std::vector<uint32_t> dom(n > 0 ? n : 1), out(n > 0 ? n : 1);
    for (Py_ssize_t i = 0; i < n; ++i) {
        const unsigned long mask = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred() || mask > 0xFFFFFFFFul) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a domain is a 32-bit mask");
            return nullptr;
        }
        dom[i] = static_cast<uint32_t>(mask);
    }
    Py_DECREF(fast);
    lcg::ColourAutomaton automaton(lengths, colours);
    lcg::ColourLineDP dp;
    if (!dp.fix(automaton, dom.data(), static_cast<int>(n), out.data())) Py_RETURN_NONE;
    PyObject* result = PyList_New(n);
    if (!result) return nullptr;
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* item = PyLong_FromUnsignedLong(out[i]);
        if (!item) { Py_DECREF(result); return nullptr; }
        PyList_SET_ITEM(result, i, item);
    }
    return result;
}

PyMethodDef module_methods[] = {
    {"line_shares", line_shares, METH_VARARGS,
     "line_shares(clue, known, prior) -> list or None: each cell's weighted share of filled arrangements "
     "(known: -1 open, 0 empty, 1 filled; prior: each cell's weight for filled, 1 - it for empty)"},
    {"solve_colour_line", solve_colour_line, METH_VARARGS,
     "solve_colour_line(lengths, colours, domains) -> list or None: each cell's surviving values (bit masks)"},
    {"drop_cells", drop_cells, METH_VARARGS,
     "drop_cells(clue, cells, order, bits=0) -> bytes: each cell of order made unknown (3) while the line stays "
     "infeasible; bits 64 or 128: with the bit-set checks on words of that size"},
    {"solve_line", solve_line, METH_VARARGS,
     "solve_line(clue, cells, bits=0) -> bytes or None: every cell's possible values (1 empty, 2 filled, 3 both); "
     "bits 64 or 128: with the bit-set solver on words of that size"},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_lcg", "The lcg engine (C++).", -1, module_methods};

}  // namespace

PyMODINIT_FUNC PyInit__lcg(void) {
    return binding::add_engine_module<EngineObject>(
        &module_def, &EngineType, "nonolab.solvers.lcg._lcg.Engine", "The lcg search over one puzzle.",
        reinterpret_cast<initproc>(Engine_init), reinterpret_cast<destructor>(Engine_dealloc), engine_methods);
}
