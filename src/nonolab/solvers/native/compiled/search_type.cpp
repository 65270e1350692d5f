// The Engine type of nonolab.solvers.native.compiled._native: one black-and-white search
// (../search/engine.hpp).
//
//   Engine(height, width, rows, columns, given, cache_bytes, probing, strategy=0,
//          cap=65536, record_steps=False, threads=1, skip_probes=True, branching=0)
//       rows/columns: sequences of clues; given:
//       bytes, one state mask per cell (1 empty, 2 filled, 3 unknown), row-major, or b""
//       for all unknown;
//       cache_bytes: the line cache's memory; probing: 0 none, 1 contradiction, 2 full,
//       3 depth-2; strategy: 0 dp, 1 chain-range, 2 overlap, 3 enumerate (cap: its
//       block positions per line solve); record_steps: keep the step log; threads: for
//       the root's first propagation (../search/sweep.cpp), the answers alike on any number;
//       skip_probes: skip the probes that would learn nothing again (ProbeMemo, the same
//       search; off only to hold it to the search without); branching: 0 Wu et al.'s
//       rule, 1 LalaFrogKK's score (native::Branching).
//   Engine.run(seconds, node_budget, probe_depth, deep_sweeps) -> 0 paused (time or
//       node budget spent), 1 a solution (in cells()), 2 exhausted; the GIL is released
//       while it searches.  node_budget < 0: no budget.
//   Engine.fork_root(branching=-1) -> Engine: a new search from this one's root (once it branched),
//       by its own branching rule or the one given.
//   Engine.cells(), Engine.remainder() -> bytes; Engine.stats() -> (line_solves,
//   cache_hits, probes, nodes, max_depth, rounds, probes_skipped); Engine.decided() -> cells decided below the given ones;
//   Engine.node_paused() -> whether the current node is part-way through.
//   Engine.steps() -> [(step, technique, source, cell, value)]: the step log of the path.
//   Engine.implications(max_pairs) -> [(p, a, q, b)]: see Engine::implications.
//   Engine.interrupt(): the running run() (from another thread) pauses at its next look
//       at the clock, and every later one at its own.
#include <algorithm>
#include <new>
#include <vector>

#include "../../_cext/binding.hpp"
#include "../search/engine.hpp"
#include "types.hpp"

namespace {

using EngineObject = binding::EngineObject<native::Engine>;
using binding::bytes_of;
using binding::ready;

// The longest block a clue may hold (the grid's cells are capped at 400 million).
constexpr long LONGEST_BLOCK = 100000000;

PyTypeObject EngineType = {PyVarObject_HEAD_INIT(nullptr, 0)};

// The given grid, checked: one state mask 1..3 per cell of a height x width grid, or
// empty bytes for a grid of unknown cells (not made in Python first: 100 MB at
// 10,000 x 10,000).
bool read_given(Py_buffer& given, int height, int width, std::vector<uint8_t>& cells) {
    const bool blank = given.len == 0;
    cells.assign(static_cast<const uint8_t*>(given.buf), static_cast<const uint8_t*>(given.buf) + given.len);
    PyBuffer_Release(&given);
    if (width < 1 || height < 1 || static_cast<long long>(width) * height > 400000000LL) {
        PyErr_SetString(PyExc_ValueError, "grid size out of range");
        return false;
    }
    if (blank) cells.assign(static_cast<size_t>(width) * height, 3);
    if (static_cast<long long>(cells.size()) != static_cast<long long>(width) * height) {
        PyErr_SetString(PyExc_ValueError, "given must have one state per cell");
        return false;
    }
    for (uint8_t v : cells) {
        if (v < 1 || v > 3) {
            PyErr_SetString(PyExc_ValueError, "given cells must be state masks 1, 2 or 3");
            return false;
        }
    }
    return true;
}

int Engine_init(EngineObject* self, PyObject* args, PyObject* kwds) {
    static const char* keywords[] = {"height", "width", "rows", "columns", "given", "cache_bytes", "probing",
                                     "strategy", "cap", "record_steps", "threads", "skip_probes", "branching",
                                     nullptr};
    int height = 0, width = 0, record_steps = 0, skip_probes = 1;
    native::Settings settings;
    PyObject *rows = nullptr, *columns = nullptr;
    Py_buffer given;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOOy*Li|iLpipi", const_cast<char**>(keywords), &height, &width,
                                     &rows, &columns, &given, &settings.cache_bytes, &settings.probing,
                                     &settings.strategy, &settings.cap, &record_steps, &settings.threads,
                                     &skip_probes, &settings.branching))
        return -1;
    std::vector<uint8_t> cells;
    if (!read_given(given, height, width, cells)) return -1;
    settings.record_steps = record_steps != 0;
    settings.skip_probes = skip_probes != 0;
    if (settings.branching != native::WU_BRANCHING && settings.branching != native::LALAFROG_BRANCHING) {
        PyErr_SetString(PyExc_ValueError, "branching must be 0 (wu) or 1 (lalafrog)");
        return -1;
    }
    if (settings.probing < native::NO_PROBING || settings.probing > native::DEPTH2_PROBING) {
        PyErr_SetString(PyExc_ValueError, "probing must be 0 (none), 1 (contradiction), 2 (full) or 3 (depth-2)");
        return -1;
    }
    if (settings.strategy < 0 || settings.strategy >= native::N_STRATEGIES || settings.cap < 1) {
        PyErr_SetString(PyExc_ValueError, "strategy must be 0..3 and cap positive");
        return -1;
    }
    if (settings.threads < 1 || settings.threads > 256) {
        PyErr_SetString(PyExc_ValueError, "threads must be 1..256");
        return -1;
    }
    std::vector<std::vector<int>> lines;
    if (!binding::read_clues(rows, height, lines, LONGEST_BLOCK) ||
        !binding::read_clues(columns, width, lines, LONGEST_BLOCK))
        return -1;
    delete self->engine;
    self->engine = nullptr;
    try {
        auto clues = std::make_shared<const native::Clues>(height, width, lines);
        auto cache = std::make_shared<native::LineCache>(settings.cache_bytes, width > height ? width : height);
        self->engine = new native::Engine(clues, std::move(cells), cache, settings);
    } catch (const std::bad_alloc&) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

void Engine_dealloc(EngineObject* self) {
    delete self->engine;
    Py_TYPE(self)->tp_free(reinterpret_cast<PyObject*>(self));
}

PyObject* Engine_run(EngineObject* self, PyObject* args) {
    double seconds = 0.0;
    long long node_budget = -1, probe_depth = 1LL << 30, deep_sweeps = 1LL << 30;
    if (!PyArg_ParseTuple(args, "dLLL", &seconds, &node_budget, &probe_depth, &deep_sweeps)) return nullptr;
    if (!ready(self)) return nullptr;
    int result = native::PAUSED;
    if (!binding::run_busy(self, [&] { result = self->engine->run(seconds, node_budget, probe_depth, deep_sweeps); }))
        return nullptr;
    return PyLong_FromLong(result);
}

PyObject* Engine_cells(EngineObject* self, PyObject*) {
    if (!ready(self)) return nullptr;
    return bytes_of(self->engine->cells());
}

PyObject* Engine_remainder(EngineObject* self, PyObject*) {
    if (!ready(self)) return nullptr;
    try {
        return bytes_of(self->engine->remainder());
    } catch (const std::bad_alloc&) {
        return PyErr_NoMemory();
    }
}

PyObject* Engine_stats(EngineObject* self, PyObject*) {
    if (!ready(self)) return nullptr;
    const long long* s = self->engine->stats;
    return Py_BuildValue("(LLLLLLL)", s[native::LINE_SOLVES], s[native::CACHE_HITS], s[native::PROBES],
                         s[native::NODES], s[native::MAX_DEPTH], s[native::ROUNDS], s[native::PROBES_SKIPPED]);
}

PyObject* Engine_decided(EngineObject* self, PyObject*) {
    if (!ready(self)) return nullptr;
    return PyLong_FromSize_t(self->engine->decided());
}

PyObject* Engine_node_paused(EngineObject* self, PyObject*) {
    if (!ready(self)) return nullptr;
    return PyBool_FromLong(self->engine->node_paused());
}

PyObject* Engine_root_done(EngineObject* self, PyObject*) {
    if (!ready(self)) return nullptr;
    return PyBool_FromLong(self->engine->root_done());
}

PyObject* Engine_cache_slots(EngineObject* self, PyObject*) {
    if (!ready(self)) return nullptr;
    return PyLong_FromSize_t(self->engine->cache_slots());
}

// Rows [start, stop) of the log (clipped to it): a caller under a clock takes a large
// log in pieces and looks at the time between them (a blank 5000x5000 grid logs 25 M
// rows, about 3 GB as Python tuples).
PyObject* Engine_steps(EngineObject* self, PyObject* args) {
    Py_ssize_t start = 0, stop = PY_SSIZE_T_MAX;
    if (!PyArg_ParseTuple(args, "|nn", &start, &stop)) return nullptr;
    if (!ready(self)) return nullptr;
    const std::vector<native::LogRow>& rows = self->engine->steps();
    const Py_ssize_t size = static_cast<Py_ssize_t>(rows.size());
    start = std::min(std::max<Py_ssize_t>(start, 0), size);
    stop = std::min(std::max(stop, start), size);
    PyObject* out = PyList_New(stop - start);
    if (!out) return nullptr;
    for (Py_ssize_t i = start; i < stop; ++i) {
        const native::LogRow& r = rows[static_cast<size_t>(i)];
        PyObject* row = Py_BuildValue("(Liiii)", r.step, r.technique, r.source, r.cell, r.value);
        if (!row) {
            Py_DECREF(out);
            return nullptr;
        }
        PyList_SET_ITEM(out, i - start, row);
    }
    return out;
}

// Rows [start, stop) of the log (clipped to it) as the bytes of their LogRow structs
// (native byte order: step int64, then technique, source, cell, value int32), for a
// reader that groups them with numpy: no Python object a row (search/__init__.py).
PyObject* Engine_step_block(EngineObject* self, PyObject* args) {
    Py_ssize_t start = 0, stop = PY_SSIZE_T_MAX;
    if (!PyArg_ParseTuple(args, "|nn", &start, &stop)) return nullptr;
    if (!ready(self)) return nullptr;
    static_assert(sizeof(native::LogRow) == 24, "the Python reader expects 24-byte log rows");
    const std::vector<native::LogRow>& rows = self->engine->steps();
    const Py_ssize_t size = static_cast<Py_ssize_t>(rows.size());
    start = std::min(std::max<Py_ssize_t>(start, 0), size);
    stop = std::min(std::max(stop, start), size);
    return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(rows.data() + start),
                                     (stop - start) * static_cast<Py_ssize_t>(sizeof(native::LogRow)));
}

PyObject* Engine_step_rows(EngineObject* self, PyObject*) {
    if (!ready(self)) return nullptr;
    return PyLong_FromSize_t(self->engine->steps().size());
}

PyObject* Engine_implications(EngineObject* self, PyObject* args) {
    long long max_pairs = 0;
    if (!PyArg_ParseTuple(args, "L", &max_pairs)) return nullptr;
    if (!ready(self)) return nullptr;
    std::vector<std::array<int, 4>> pairs;
    if (!binding::run_busy(self, [&] { pairs = self->engine->implications(max_pairs < 0 ? 0 : max_pairs); }))
        return nullptr;
    PyObject* out = PyList_New(static_cast<Py_ssize_t>(pairs.size()));
    if (!out) return nullptr;
    for (size_t i = 0; i < pairs.size(); ++i) {
        PyObject* row = Py_BuildValue("(iiii)", pairs[i][0], pairs[i][1], pairs[i][2], pairs[i][3]);
        if (!row) {
            Py_DECREF(out);
            return nullptr;
        }
        PyList_SET_ITEM(out, static_cast<Py_ssize_t>(i), row);
    }
    return out;
}

PyObject* Engine_fork_root(EngineObject* self, PyObject* args) {
    int branching = -1;
    if (!PyArg_ParseTuple(args, "|i", &branching)) return nullptr;
    if (branching != -1 && branching != native::WU_BRANCHING && branching != native::LALAFROG_BRANCHING) {
        PyErr_SetString(PyExc_ValueError, "fork_root: branching must be -1 (the same), 0 (wu) or 1 (lalafrog)");
        return nullptr;
    }
    if (!ready(self)) return nullptr;
    if (!self->engine->root_done()) {
        PyErr_SetString(PyExc_ValueError, "fork_root: the root has not been searched yet");
        return nullptr;
    }
    EngineObject* fork = reinterpret_cast<EngineObject*>(binding::engine_new<EngineObject>(&EngineType, nullptr, nullptr));
    if (!fork) return nullptr;
    try {
        fork->engine = self->engine->fork_root(branching).release();
    } catch (const std::bad_alloc&) {
        Py_DECREF(fork);
        return PyErr_NoMemory();
    }
    return reinterpret_cast<PyObject*>(fork);
}

PyMethodDef engine_methods[] = {
    {"run", reinterpret_cast<PyCFunction>(Engine_run), METH_VARARGS,
     "run(seconds, node_budget, probe_depth, deep_sweeps) -> 0 paused, 1 solution in cells(), 2 exhausted"},
    {"cells", reinterpret_cast<PyCFunction>(Engine_cells), METH_NOARGS, "the current grid, one state mask per cell"},
    {"remainder", reinterpret_cast<PyCFunction>(Engine_remainder), METH_NOARGS,
     "what every solution not yet reached agrees with, one state mask per cell"},
    {"stats", reinterpret_cast<PyCFunction>(Engine_stats), METH_NOARGS,
     "(line_solves, cache_hits, probes, nodes, max_depth, rounds, probes_skipped)"},
    {"decided", reinterpret_cast<PyCFunction>(Engine_decided), METH_NOARGS, "cells decided below the given ones"},
    {"node_paused", reinterpret_cast<PyCFunction>(Engine_node_paused), METH_NOARGS,
     "whether the current node's propagation or probing is part-way through"},
    {"root_done", reinterpret_cast<PyCFunction>(Engine_root_done), METH_NOARGS,
     "whether the root's propagation and probing are over (the search has branched)"},
    {"cache_slots", reinterpret_cast<PyCFunction>(Engine_cache_slots), METH_NOARGS,
     "the line cache's slots made so far (0 until a solve first uses the cache)"},
    {"step_block", reinterpret_cast<PyCFunction>(Engine_step_block), METH_VARARGS,
     "rows [start, stop) of the step log as the bytes of their 24-byte structs"},
    {"steps", reinterpret_cast<PyCFunction>(Engine_steps), METH_VARARGS,
     "steps(start=0, stop=all): rows of the step log of the current path: [(step, technique, source, cell, value)]"},
    {"step_rows", reinterpret_cast<PyCFunction>(Engine_step_rows), METH_NOARGS, "the rows of the step log"},
    {"implications", reinterpret_cast<PyCFunction>(Engine_implications), METH_VARARGS,
     "implications(max_pairs) -> [(p, a, q, b)]: cell p in state a makes propagation set q to b"},
    {"interrupt", reinterpret_cast<PyCFunction>(&binding::engine_interrupt<EngineObject>), METH_NOARGS,
     "make the running run() (from another thread), and every later one, pause at its next look at the clock"},
    {"fork_root", reinterpret_cast<PyCFunction>(Engine_fork_root), METH_VARARGS,
     "fork_root(branching=-1): a new search of the same space from this one's root (-1: its own branching rule)"},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

namespace native_types {

bool add_search_engine(PyObject* module) {
    return binding::ready_engine_type<EngineObject>(
               &EngineType, "nonolab.solvers.native.compiled._native.Engine",
               "One black-and-white search of the native engine (propagation, probing, DFS with exact counting).",
               reinterpret_cast<initproc>(Engine_init), reinterpret_cast<destructor>(Engine_dealloc),
               engine_methods) &&
           binding::add_type(module, "Engine", &EngineType);
}

}  // namespace native_types
