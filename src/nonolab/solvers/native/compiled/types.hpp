// The Python types of the native engine's extension (nonolab.solvers.native.compiled._native),
// each defined in its own file and added to the module by module.cpp.
#pragma once

#ifndef PY_SSIZE_T_CLEAN
#define PY_SSIZE_T_CLEAN
#endif
#include <Python.h>

namespace native_types {

// Engine: one black-and-white search (search_type.cpp).  false with an error set if not added.
bool add_search_engine(PyObject* module);
// ColourEngine: one colour search (colour_type.cpp).
bool add_colour_engine(PyObject* module);
// check_many(sizes, lengths, blocks, ...): many puzzles a call (batch_binding.cpp, batch.hpp).
PyObject* check_many(PyObject* self, PyObject* args, PyObject* kwds);

}  // namespace native_types
