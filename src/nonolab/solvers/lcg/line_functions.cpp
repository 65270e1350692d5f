// The module-level functions of nonolab.solvers.lcg._lcg: one line at a time, for the
// tests and the Python mirrors of the engine's line work (module.cpp binds the Engine).
//
//   solve_line(clue, cells, bits=0) -> bytes or None: the line DP on one line of state masks.
//   drop_cells(clue, cells, order, bits=0) -> bytes: Engine::explain's greedy drop on one line.
//   solve_colour_line(lengths, colours, domains) -> list or None: the colour line DP on
//       one line of domain masks (bit v: value v possible).
//   line_shares(clue, known, prior) -> list or None: the phase hints' weighted count of a
//       line's arrangements (hints.hpp), each cell's share of filled ones.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <vector>

#include "../_cext/binding.hpp"
#include "engine.hpp"
#include "hints.hpp"
#include "line_functions.hpp"

namespace {

using binding::bytes_of;

bool read_clue(PyObject* item, std::vector<int>& clue) { return binding::read_clue(item, clue, lcg::LONGEST_BLOCK); }

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

// A Python list of n values, each made by `make` (nullptr, with the error set, if one fails).
template <typename Value, typename Make>
PyObject* list_of(const Value* values, Py_ssize_t n, Make make) {
    PyObject* result = PyList_New(n);
    if (!result) return nullptr;
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* item = make(values[i]);
        if (!item) { Py_DECREF(result); return nullptr; }
        PyList_SET_ITEM(result, i, item);
    }
    return result;
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
    return list_of(black.data(), n, PyFloat_FromDouble);
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
    return list_of(out.data(), n, PyLong_FromUnsignedLong);
}

PyMethodDef line_function_table[] = {
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

}  // namespace

PyMethodDef* lcg::line_functions() { return line_function_table; }
