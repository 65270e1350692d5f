// The native engine's extension, nonolab.solvers.native.compiled._native: its two search
// types (search_type.cpp, colour_type.cpp) and one line through a line strategy.
//
//   fix_line(strategy, clue, cells, cap=65536, repeat=1) -> (bytes or None, labels): cells
//       (bytes, one state mask per cell) narrowed by strategy 0 dp, 1 chain-range, 2
//       overlap, 3 enumerate, from the clue's static windows (None: a contradiction);
//       labels: per cell the rule that decided it (rule strategies; zeros otherwise and
//       on None).  repeat: solve it that many times (benchmarks/line_speed.py times the
//       solves without Python between them).  words (the DP only): 0 the engine's choice,
//       1 always the byte DP, 2 always the word arrays (the tests compare them).
//   fix_colour_line(blocks, domains) -> list or None: the colour engine's line solver on
//       one line of (length, colour) blocks, domains a value mask per cell (bit v: value
//       v may be there, up to 64 values); None: no placement fits.
#include <new>
#include <vector>

#include "../../_cext/binding.hpp"
#include "../../_cext/colour_line.hpp"
#include "../lines/strategy.hpp"
#include "types.hpp"

namespace {

constexpr long LONGEST_BLOCK = 100000000;

PyObject* fix_line(PyObject*, PyObject* args, PyObject* kwds) {
    static const char* keywords[] = {"strategy", "clue", "cells", "cap", "repeat", "words", nullptr};
    int strategy = 0, words = 0;
    long long cap = 1 << 16, repeat = 1;
    PyObject* clue_seq = nullptr;
    Py_buffer cells;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOy*|LLi", const_cast<char**>(keywords), &strategy, &clue_seq, &cells,
                                     &cap, &repeat, &words))
        return nullptr;
    std::vector<uint8_t> line(static_cast<const uint8_t*>(cells.buf), static_cast<const uint8_t*>(cells.buf) + cells.len);
    PyBuffer_Release(&cells);
    std::vector<int> clue;
    if (!binding::read_clue(clue_seq, clue, LONGEST_BLOCK)) return nullptr;
    if (strategy < 0 || strategy >= native::N_STRATEGIES || cap < 1 || repeat < 1 || words < 0 || words > 2) {
        PyErr_SetString(PyExc_ValueError, "strategy must be 0..3, words 0..2, cap and repeat positive");
        return nullptr;
    }
    for (uint8_t v : line) {
        if (v < 1 || v > 3) {
            PyErr_SetString(PyExc_ValueError, "cells must be state masks 1, 2 or 3");
            return nullptr;
        }
    }
    const int n = static_cast<int>(line.size()), k = static_cast<int>(clue.size());
    std::vector<uint8_t> out(n + 1, 0), labels(n, 0);
    bool ok = false;
    try {
        // The static windows [lo_b, lo_b + slack]; a clue that does not fit is a contradiction.
        long long need = k - 1;
        for (int b : clue) need += b;
        if (k == 0 || need <= n) {
            std::vector<int> rclue(clue.rbegin(), clue.rend()), lo(k + 1), hi(k + 1);
            for (int b = 0, start = 0; b < k; start += clue[b] + 1, ++b) {
                lo[b] = start;
                hi[b] = static_cast<int>(start + (n - need));
            }
            native::LineSolver solver(strategy, cap);
            solver.use_words(words);
            for (long long r = 0; r < repeat; ++r)
                ok = solver.fix(clue.data(), rclue.data(), k, line.data(), n, out.data(), lo.data(), hi.data(), false);
            if (ok && solver.labelled()) labels.assign(solver.labels().begin(), solver.labels().begin() + n);
        }
    } catch (const std::bad_alloc&) {
        return PyErr_NoMemory();
    }
    if (!ok) std::fill(labels.begin(), labels.end(), 0);
    out.resize(n);
    PyObject* narrowed = ok ? binding::bytes_of(out) : (Py_INCREF(Py_None), Py_None);
    if (!narrowed) return nullptr;
    PyObject* labelled = binding::bytes_of(labels);
    if (!labelled) {
        Py_DECREF(narrowed);
        return nullptr;
    }
    return Py_BuildValue("(NN)", narrowed, labelled);
}

PyObject* fix_colour_line(PyObject*, PyObject* args) {
    PyObject *blocks_seq = nullptr, *domains_seq = nullptr;
    if (!PyArg_ParseTuple(args, "OO", &blocks_seq, &domains_seq)) return nullptr;
    std::vector<int> lengths, colours;
    std::vector<uint64_t> domains;
    PyObject* blocks = PySequence_Fast(blocks_seq, "blocks must be a sequence of (length, colour)");
    if (!blocks) return nullptr;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(blocks); ++i) {
        int length = 0, colour = 0;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(blocks, i), "ii", &length, &colour) || length < 1 ||
            colour < 1 || colour > 63) {
            Py_DECREF(blocks);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a block: a positive length, a colour 1..63");
            return nullptr;
        }
        lengths.push_back(length);
        colours.push_back(colour);
    }
    Py_DECREF(blocks);
    PyObject* cells = PySequence_Fast(domains_seq, "domains must be a sequence of masks");
    if (!cells) return nullptr;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(cells); ++i) {
        const unsigned long long mask = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(cells, i));
        if (PyErr_Occurred()) {
            Py_DECREF(cells);
            return nullptr;
        }
        domains.push_back(mask);
    }
    Py_DECREF(cells);
    const int n = static_cast<int>(domains.size());
    std::vector<uint64_t> out(n, 0);
    bool ok = false;
    try {
        const cext::ColourAutomaton automaton(lengths, colours);
        cext::ColourLineDP dp;
        ok = dp.fix(automaton, domains.data(), n, out.data());
    } catch (const std::bad_alloc&) {
        return PyErr_NoMemory();
    }
    if (!ok) Py_RETURN_NONE;
    PyObject* result = PyList_New(n);
    if (!result) return nullptr;
    for (int i = 0; i < n; ++i) {
        PyObject* mask = PyLong_FromUnsignedLongLong(out[i]);
        if (!mask) {
            Py_DECREF(result);
            return nullptr;
        }
        PyList_SET_ITEM(result, i, mask);
    }
    return result;
}

PyMethodDef module_functions[] = {
    {"fix_line", reinterpret_cast<PyCFunction>(fix_line), METH_VARARGS | METH_KEYWORDS,
     "fix_line(strategy, clue, cells, cap=65536, repeat=1, words=0) -> (narrowed bytes or None, labels bytes)"},
    {"fix_colour_line", fix_colour_line, METH_VARARGS,
     "fix_colour_line(blocks, domains) -> list of masks, or None: the colour line solver on one line"},
    {"check_many", reinterpret_cast<PyCFunction>(native_types::check_many), METH_VARARGS | METH_KEYWORDS,
     "check_many(sizes, lengths, blocks, max_solutions=2, probing=0, levels=False, budget=1.0, puzzle_seconds=1.0, "
     "cache_bytes=1<<20) -> (done, found, state, level, nodes, seconds, solutions)"},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_native", "The native engine (C++).", -1, module_functions};

}  // namespace

PyMODINIT_FUNC PyInit__native(void) {
    PyObject* module = PyModule_Create(&module_def);
    if (!module) return nullptr;
    if (!native_types::add_search_engine(module) || !native_types::add_colour_engine(module)) {
        Py_DECREF(module);
        return nullptr;
    }
    return module;
}
