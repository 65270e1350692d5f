// The CPython binding of the native engine's compiled core: nonolab.solvers.native.compiled._native.
//
//   Engine(height, width, rows, columns, given, cache_bytes, probing)   rows/columns:
//       sequences of clues; given: bytes, one state mask per cell (1 empty, 2 filled,
//       3 unknown), row-major; cache_bytes: the line cache's memory; probing: 0 none,
//       1 contradiction, 2 full.
//   Engine.run(seconds, node_budget, probe_depth, deep_sweeps) -> 0 paused (time or
//       node budget spent), 1 a solution (in cells()), 2 exhausted; the GIL is released
//       while it searches.  node_budget < 0: no budget.
//   Engine.fork_root() -> Engine: a new search from this one's root (once it branched).
//   Engine.cells(), Engine.remainder() -> bytes; Engine.stats() -> (line_solves,
//   cache_hits, probes, nodes, max_depth, rounds); Engine.decided() -> cells on the trail;
//   Engine.node_paused() -> whether the current node is part-way through.
//   Engine.interrupt(): the running run() (from another thread) pauses at its next look
//       at the clock, and every later one at its own.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <new>
#include <vector>

#include "../../_cext/binding.hpp"
#include "engine.hpp"

namespace {

using EngineObject = binding::EngineObject<native::Engine>;
using binding::bytes_of;
using binding::ready;

// The longest block a clue may hold (the grid's cells are capped at 400 million).
constexpr long LONGEST_BLOCK = 100000000;

PyTypeObject EngineType = {PyVarObject_HEAD_INIT(nullptr, 0)};

int Engine_init(EngineObject* self, PyObject* args, PyObject* kwds) {
    static const char* keywords[] = {"height", "width", "rows", "columns", "given", "cache_bytes", "probing",
                                     nullptr};
    int height = 0, width = 0, probing = 2;
    long long cache_bytes = 0;
    PyObject *rows = nullptr, *columns = nullptr;
    Py_buffer given;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOOy*Li", const_cast<char**>(keywords), &height, &width, &rows,
                                     &columns, &given, &cache_bytes, &probing))
        return -1;
    std::vector<uint8_t> cells(static_cast<const uint8_t*>(given.buf),
                               static_cast<const uint8_t*>(given.buf) + given.len);
    PyBuffer_Release(&given);
    if (probing < 0 || probing > 2) {
        PyErr_SetString(PyExc_ValueError, "probing must be 0 (none), 1 (contradiction) or 2 (full)");
        return -1;
    }
    if (width < 1 || height < 1 || static_cast<long long>(width) * height > 400000000LL) {
        PyErr_SetString(PyExc_ValueError, "grid size out of range");
        return -1;
    }
    if (static_cast<long long>(cells.size()) != static_cast<long long>(width) * height) {
        PyErr_SetString(PyExc_ValueError, "given must have one state per cell");
        return -1;
    }
    for (uint8_t v : cells) {
        if (v < 1 || v > 3) {
            PyErr_SetString(PyExc_ValueError, "given cells must be state masks 1, 2 or 3");
            return -1;
        }
    }
    std::vector<std::vector<int>> lines;
    if (!binding::read_clues(rows, height, lines, LONGEST_BLOCK) ||
        !binding::read_clues(columns, width, lines, LONGEST_BLOCK))
        return -1;
    delete self->engine;
    self->engine = nullptr;
    try {
        auto clues = std::make_shared<const native::Clues>(height, width, lines);
        auto cache = std::make_shared<native::LineCache>(cache_bytes, width > height ? width : height);
        self->engine = new native::Engine(clues, std::move(cells), cache, probing);
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
    return Py_BuildValue("(LLLLLL)", s[native::LINE_SOLVES], s[native::CACHE_HITS], s[native::PROBES],
                         s[native::NODES], s[native::MAX_DEPTH], s[native::ROUNDS]);
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

PyObject* Engine_fork_root(EngineObject* self, PyObject*) {
    if (!ready(self)) return nullptr;
    if (!self->engine->root_done()) {
        PyErr_SetString(PyExc_ValueError, "fork_root: the root has not been searched yet");
        return nullptr;
    }
    EngineObject* fork = reinterpret_cast<EngineObject*>(binding::engine_new<EngineObject>(&EngineType, nullptr, nullptr));
    if (!fork) return nullptr;
    try {
        fork->engine = self->engine->fork_root().release();
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
     "(line_solves, cache_hits, probes, nodes, max_depth, rounds)"},
    {"decided", reinterpret_cast<PyCFunction>(Engine_decided), METH_NOARGS, "cells decided on the trail"},
    {"node_paused", reinterpret_cast<PyCFunction>(Engine_node_paused), METH_NOARGS,
     "whether the current node's propagation or probing is part-way through"},
    {"root_done", reinterpret_cast<PyCFunction>(Engine_root_done), METH_NOARGS,
     "whether the root's propagation and probing are over (the search has branched)"},
    {"cache_slots", reinterpret_cast<PyCFunction>(Engine_cache_slots), METH_NOARGS,
     "the line cache's slots made so far (0 until a solve first uses the cache)"},
    {"interrupt", reinterpret_cast<PyCFunction>(&binding::engine_interrupt<EngineObject>), METH_NOARGS,
     "make the running run() (from another thread), and every later one, pause at its next look at the clock"},
    {"fork_root", reinterpret_cast<PyCFunction>(Engine_fork_root), METH_NOARGS,
     "a new search of the same space from this one's root"},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_native", "The native engine's compiled core (C++).", -1,
                          nullptr};

}  // namespace

PyMODINIT_FUNC PyInit__native(void) {
    return binding::add_engine_module<EngineObject>(
        &module_def, &EngineType, "nonolab.solvers.native.compiled._native.Engine",
        "One search of the native engine (propagation, probing, DFS with exact counting).",
        reinterpret_cast<initproc>(Engine_init), reinterpret_cast<destructor>(Engine_dealloc), engine_methods);
}
