// The CPython binding of the batch entry (batch.hpp), the function check_many of
// nonolab.solvers.native.compiled._native (module.cpp adds it).
//
//   check_many(sizes, lengths, blocks, max_solutions, probing, levels, budget, puzzle_seconds,
//         cache_bytes) -> (done, found, state, level, nodes, seconds, solutions)
//       sizes, lengths, blocks: buffers of int32 (numpy arrays or bytes; see batch.hpp);
//       found, state, level: bytes of int8 per puzzle; nodes: bytes of int64 per puzzle; seconds: bytes of float64 per puzzle;
//       solutions: bytes, max_solutions grids per puzzle.  The GIL is released while it
//       searches.  A malformed input raises ValueError.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string>

#include "../../_cext/binding.hpp"
#include "batch.hpp"
#include "types.hpp"

namespace {

// A contiguous buffer of int32, released on every path.
struct Int32Buffer {
    Py_buffer view{};
    bool held = false;
    ~Int32Buffer() {
        if (held) PyBuffer_Release(&view);
    }
    bool take(PyObject* object, const char* name) {
        if (PyObject_GetBuffer(object, &view, PyBUF_C_CONTIGUOUS) < 0) return false;
        held = true;
        if (view.len % 4 != 0 || (view.itemsize != 4 && view.itemsize != 1)) {
            PyErr_Format(PyExc_ValueError, "%s must be a buffer of int32", name);
            return false;
        }
        return true;
    }
    const int32_t* data() const { return static_cast<const int32_t*>(view.buf); }
    long long count() const { return static_cast<long long>(view.len / 4); }
};

template <typename T>
PyObject* bytes_from(const std::vector<T>& values) {
    return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(values.data()),
                                     static_cast<Py_ssize_t>(values.size() * sizeof(T)));
}

}  // namespace

namespace native_types {

PyObject* check_many(PyObject*, PyObject* args, PyObject* kwds) {
    static const char* keywords[] = {"sizes", "lengths", "blocks", "max_solutions", "probing", "levels",
                                     "budget", "puzzle_seconds", "cache_bytes", nullptr};
    PyObject *sizes_object = nullptr, *lengths_object = nullptr, *blocks_object = nullptr;
    native::BatchOptions options;
    int levels = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO|iipddL", const_cast<char**>(keywords), &sizes_object,
                                     &lengths_object, &blocks_object, &options.max_solutions, &options.probing,
                                     &levels, &options.budget, &options.puzzle_seconds, &options.cache_bytes))
        return nullptr;
    options.levels = levels != 0;
    if (options.max_solutions < 1 || options.max_solutions > 100) {
        PyErr_SetString(PyExc_ValueError, "max_solutions must be 1 to 100");
        return nullptr;
    }
    if (options.probing < 0 || options.probing > 2) {
        PyErr_SetString(PyExc_ValueError, "probing must be 0 (none), 1 (contradiction) or 2 (full)");
        return nullptr;
    }
    Int32Buffer sizes, lengths, blocks;
    if (!sizes.take(sizes_object, "sizes") || !lengths.take(lengths_object, "lengths") ||
        !blocks.take(blocks_object, "blocks"))
        return nullptr;
    if (sizes.count() % 2 != 0) {
        PyErr_SetString(PyExc_ValueError, "sizes must hold two numbers per puzzle");
        return nullptr;
    }
    native::BatchInput input{sizes.data(), lengths.data(), blocks.data(), sizes.count() / 2, lengths.count(),
                             blocks.count()};
    const std::string problem = native::batch_problem(input);
    if (!problem.empty()) {
        PyErr_SetString(PyExc_ValueError, problem.c_str());
        return nullptr;
    }
    native::BatchOutput output;
    if (!binding::without_gil([&] { output = native::run_batch(input, options); })) return nullptr;
    return Py_BuildValue("(LNNNNNN)", output.done, bytes_from(output.found), bytes_from(output.state),
                         bytes_from(output.level), bytes_from(output.nodes), bytes_from(output.seconds),
                         bytes_from(output.solutions));
}

}  // namespace native_types
