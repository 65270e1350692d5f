// The ColourEngine type of nonolab.solvers.native.compiled._native: one colour search
// (../colour/engine.hpp).
//
//   ColourEngine(height, width, rows, columns, values, fixed, probing, record_steps)
//       rows/columns: per line a sequence of (length, colour) blocks, colours 1..values-1;
//       values: the background and the colours (2..64); fixed: (cell, value) given cells;
//       probing at the root: 0 none, 1 contradiction, 2 full; record_steps: keep the log.
//   ColourEngine.run(seconds, node_budget) -> 0 paused, 1 a solution (in cells()), 2
//       exhausted; the GIL is released while it searches.  node_budget < 0: no budget.
//   ColourEngine.cells() -> bytes: one value per cell; exhausted() -> nothing left to
//   search; stats() -> (nodes, line_solves, probes); steps() -> [(step, technique,
//   source, cell, value, depth, removed)]: the step log of the path (value -1: the cell
//   stays open, ``removed`` the mask of the values the step ruled out); step_block(start, stop)
//   -> bytes: those rows as 40-byte structs (what explain reads: no tuple a row; the engine holds
//   them compact, a step's fields once, and writes them out a piece at a time); step_rows()
//   -> how many rows; root_domains() -> [mask]:
//   the root's domains after its propagation and probing; interrupt().
#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

#include "../../_cext/binding.hpp"
#include "../colour/engine.hpp"
#include "types.hpp"

namespace {

using ColourObject = binding::EngineObject<native::ColourEngine>;
using binding::ready;

PyTypeObject ColourType = {PyVarObject_HEAD_INIT(nullptr, 0)};

// A sequence of `expected` lines of (length, colour) blocks, colours in 1..top, lengths
// positive, appended to `lines`.
bool read_colour_lines(PyObject* seq, Py_ssize_t expected, int top, std::vector<native::ColourClue>& lines) {
    PyObject* fast = PySequence_Fast(seq, "colour clues must be a sequence");
    if (!fast) return false;
    bool ok = PySequence_Fast_GET_SIZE(fast) == expected;
    if (!ok) PyErr_SetString(PyExc_ValueError, "the number of clues does not match the grid size");
    for (Py_ssize_t i = 0; ok && i < expected; ++i) {
        PyObject* blocks = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, i), "a colour clue must be a sequence");
        if (!blocks) {
            ok = false;
            break;
        }
        native::ColourClue clue;
        for (Py_ssize_t j = 0; ok && j < PySequence_Fast_GET_SIZE(blocks); ++j) {
            int length = 0, colour = 0;
            ok = PyArg_ParseTuple(PySequence_Fast_GET_ITEM(blocks, j), "ii", &length, &colour) != 0;
            if (ok && (length < 1 || colour < 1 || colour > top)) {
                PyErr_SetString(PyExc_ValueError, "a block needs a positive length and a colour in 1..values-1");
                ok = false;
            }
            clue.lengths.push_back(length);
            clue.colours.push_back(colour);
        }
        Py_DECREF(blocks);
        lines.push_back(std::move(clue));
    }
    Py_DECREF(fast);
    return ok;
}

// The given cells: (cell, value) pairs inside the grid and the values.
bool read_fixed(PyObject* seq, int cells, int values, std::vector<std::pair<int, int>>& fixed) {
    PyObject* fast = PySequence_Fast(seq, "fixed must be a sequence of (cell, value)");
    if (!fast) return false;
    bool ok = true;
    for (Py_ssize_t i = 0; ok && i < PySequence_Fast_GET_SIZE(fast); ++i) {
        int cell = 0, value = 0;
        ok = PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "ii", &cell, &value) != 0;
        if (ok && (cell < 0 || cell >= cells || value < 0 || value >= values)) {
            PyErr_SetString(PyExc_ValueError, "a fixed cell lies outside the grid or the values");
            ok = false;
        }
        fixed.emplace_back(cell, value);
    }
    Py_DECREF(fast);
    return ok;
}

int Colour_init(ColourObject* self, PyObject* args, PyObject* kwds) {
    static const char* keywords[] = {"height", "width", "rows", "columns", "values", "fixed", "probing",
                                     "record_steps", nullptr};
    int height = 0, width = 0, values = 0, probing = 2, record_steps = 0;
    PyObject *rows = nullptr, *columns = nullptr, *fixed_seq = nullptr;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOOiOip", const_cast<char**>(keywords), &height, &width, &rows,
                                     &columns, &values, &fixed_seq, &probing, &record_steps))
        return -1;
    if (width < 1 || height < 1 || static_cast<long long>(width) * height > 100000000LL || values < 2 ||
        values > 64 || probing < 0 || probing > 2) {
        PyErr_SetString(PyExc_ValueError, "grid size, values (2..64) or probing (0..2) out of range");
        return -1;
    }
    std::vector<native::ColourClue> lines;
    std::vector<std::pair<int, int>> fixed;
    if (!read_colour_lines(rows, height, values - 1, lines) || !read_colour_lines(columns, width, values - 1, lines) ||
        !read_fixed(fixed_seq, width * height, values, fixed))
        return -1;
    delete self->engine;
    self->engine = nullptr;
    try {
        self->engine = new native::ColourEngine(height, width, values, lines, fixed, probing, record_steps != 0);
    } catch (const std::bad_alloc&) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

void Colour_dealloc(ColourObject* self) {
    delete self->engine;
    Py_TYPE(self)->tp_free(reinterpret_cast<PyObject*>(self));
}

PyObject* Colour_run(ColourObject* self, PyObject* args) {
    double seconds = 0.0;
    long long node_budget = -1;
    if (!PyArg_ParseTuple(args, "dL", &seconds, &node_budget)) return nullptr;
    if (!ready(self)) return nullptr;
    int result = native::PAUSED_COLOUR;
    if (!binding::run_busy(self, [&] { result = self->engine->run(seconds, node_budget); })) return nullptr;
    return PyLong_FromLong(result);
}

PyObject* Colour_cells(ColourObject* self, PyObject*) {
    if (!ready(self)) return nullptr;
    return binding::bytes_of(self->engine->cells());
}

PyObject* Colour_exhausted(ColourObject* self, PyObject*) {
    if (!ready(self)) return nullptr;
    return PyBool_FromLong(self->engine->exhausted());
}

PyObject* Colour_stats(ColourObject* self, PyObject*) {
    if (!ready(self)) return nullptr;
    const long long* s = self->engine->stats;
    return Py_BuildValue("(LLL)", s[native::COLOUR_NODES], s[native::COLOUR_LINE_SOLVES], s[native::COLOUR_PROBES]);
}

PyObject* Colour_steps(ColourObject* self, PyObject*) {
    if (!ready(self)) return nullptr;
    const size_t size = self->engine->log_rows();
    std::vector<native::ColourLogRow> rows(size);
    if (size) self->engine->log_rows(0, size, rows.data());
    PyObject* out = PyList_New(static_cast<Py_ssize_t>(size));
    if (!out) return nullptr;
    for (size_t i = 0; i < size; ++i) {
        const native::ColourLogRow& r = rows[i];
        PyObject* row = Py_BuildValue("(LiiiiiK)", r.step, r.technique, r.source, r.cell, r.value, r.depth,
                                      static_cast<unsigned long long>(r.removed));
        if (!row) {
            Py_DECREF(out);
            return nullptr;
        }
        PyList_SET_ITEM(out, static_cast<Py_ssize_t>(i), row);
    }
    return out;
}

// The engine holds its log compact (a step's fields once); the rows asked for are written
// whole into the bytes, a piece of the log at a time.
PyObject* Colour_step_block(ColourObject* self, PyObject* args) {
    Py_ssize_t start = 0, stop = PY_SSIZE_T_MAX;
    if (!PyArg_ParseTuple(args, "|nn", &start, &stop)) return nullptr;
    if (!ready(self)) return nullptr;
    static_assert(sizeof(native::ColourLogRow) == 40, "the Python reader expects 40-byte colour log rows");
    const Py_ssize_t size = static_cast<Py_ssize_t>(self->engine->log_rows());
    start = std::min(std::max<Py_ssize_t>(start, 0), size);
    stop = std::min(std::max(stop, start), size);
    const Py_ssize_t bytes = (stop - start) * static_cast<Py_ssize_t>(sizeof(native::ColourLogRow));
    PyObject* out = PyBytes_FromStringAndSize(nullptr, bytes);
    if (!out || stop == start) return out;
    char* room = PyBytes_AS_STRING(out);
    std::memset(room, 0, static_cast<size_t>(bytes));   // the structs' padding too: the same bytes every time
    self->engine->log_rows(static_cast<size_t>(start), static_cast<size_t>(stop),
                           reinterpret_cast<native::ColourLogRow*>(room));
    return out;
}

PyObject* Colour_step_rows(ColourObject* self, PyObject*) {
    if (!ready(self)) return nullptr;
    return PyLong_FromSize_t(self->engine->log_rows());
}

PyObject* Colour_root_domains(ColourObject* self, PyObject*) {
    if (!ready(self)) return nullptr;
    const std::vector<uint64_t>& root = self->engine->root_domains();
    PyObject* out = PyList_New(static_cast<Py_ssize_t>(root.size()));
    if (!out) return nullptr;
    for (size_t i = 0; i < root.size(); ++i) {
        PyObject* mask = PyLong_FromUnsignedLongLong(root[i]);
        if (!mask) {
            Py_DECREF(out);
            return nullptr;
        }
        PyList_SET_ITEM(out, static_cast<Py_ssize_t>(i), mask);
    }
    return out;
}

PyMethodDef colour_methods[] = {
    {"run", reinterpret_cast<PyCFunction>(Colour_run), METH_VARARGS,
     "run(seconds, node_budget) -> 0 paused, 1 solution in cells(), 2 exhausted"},
    {"cells", reinterpret_cast<PyCFunction>(Colour_cells), METH_NOARGS, "the solution found: one value per cell"},
    {"exhausted", reinterpret_cast<PyCFunction>(Colour_exhausted), METH_NOARGS, "whether nothing is left to search"},
    {"stats", reinterpret_cast<PyCFunction>(Colour_stats), METH_NOARGS, "(nodes, line_solves, probes)"},
    {"steps", reinterpret_cast<PyCFunction>(Colour_steps), METH_NOARGS,
     "the step log of the current path: [(step, technique, source, cell, value, depth, removed)]"},
    {"step_block", reinterpret_cast<PyCFunction>(Colour_step_block), METH_VARARGS,
     "rows [start, stop) of the step log as the bytes of their 40-byte structs"},
    {"step_rows", reinterpret_cast<PyCFunction>(Colour_step_rows), METH_NOARGS, "the rows of the step log"},
    {"root_domains", reinterpret_cast<PyCFunction>(Colour_root_domains), METH_NOARGS,
     "the root's domains (value masks) after its propagation and probing; [] until the root is done"},
    {"interrupt", reinterpret_cast<PyCFunction>(&binding::engine_interrupt<ColourObject>), METH_NOARGS,
     "make the running run() (from another thread), and every later one, pause at its next look at the clock"},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

namespace native_types {

bool add_colour_engine(PyObject* module) {
    return binding::ready_engine_type<ColourObject>(
               &ColourType, "nonolab.solvers.native.compiled._native.ColourEngine",
               "One colour search of the native engine (propagation, root probing, DFS with exact counting).",
               reinterpret_cast<initproc>(Colour_init), reinterpret_cast<destructor>(Colour_dealloc),
               colour_methods) &&
           binding::add_type(module, "ColourEngine", &ColourType);
}

}  // namespace native_types
