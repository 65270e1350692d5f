// The CPython binding pieces that the two compiled engines share, lcg's
// (nonolab.solvers.lcg._lcg) and the native engine's (nonolab.solvers.native.compiled._native):
//
//   EngineObject<E>     a Python object owning one C++ engine E, busy while a run() goes on
//                       without the GIL (every other call is then refused: ready());
//   engine_new, ready, engine_interrupt: its creation, the "may I use it" check, and
//                       interrupt(), the one call allowed while it runs (an atomic flag);
//   without_gil, run_busy: a body run with the GIL released, std::bad_alloc turned into
//                       MemoryError (other threads, such as auto's native, run meanwhile);
//   read_clue, read_clues: block lengths from Python sequences, checked;
//   bytes_of:           a vector of bytes as Python bytes;
//   ready_engine_type, add_type, add_engine_module: an Engine type readied, added to a
//                       module, or readied with its module created.
//
// What differs stays in each module.cpp: the arguments, the counters, and the dealloc (lcg frees a
// large clause database without the GIL; the native engine frees little).  Included by both modules
// with a relative path, like the line solvers they share (line.hpp, bitline.hpp, colour_line.hpp).
#pragma once

#ifndef PY_SSIZE_T_CLEAN
#define PY_SSIZE_T_CLEAN
#endif
#include <Python.h>

#include <cstdint>
#include <new>
#include <vector>

namespace binding {

template <typename Engine>
struct EngineObject {
    PyObject_HEAD
    Engine* engine;
    bool busy;  // a run() is going on in some thread, with the GIL released
};

template <typename Object>
PyObject* engine_new(PyTypeObject* type, PyObject*, PyObject*) {
    Object* self = reinterpret_cast<Object*>(type->tp_alloc(type, 0));
    if (self) {
        self->engine = nullptr;
        self->busy = false;
    }
    return reinterpret_cast<PyObject*>(self);
}

// Whether the engine may be used now: built, and not running in another thread (an error set if not).
template <typename Object>
bool ready(Object* self) {
    if (!self->engine) {
        PyErr_SetString(PyExc_RuntimeError, "Engine is not initialised");
        return false;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Engine is already running in another thread");
        return false;
    }
    return true;
}

template <typename Object>
PyObject* engine_interrupt(Object* self, PyObject*) {
    // No busy check: this is meant for a run() going on in another thread (an atomic flag).
    if (!self->engine) {
        PyErr_SetString(PyExc_RuntimeError, "Engine is not initialised");
        return nullptr;
    }
    self->engine->interrupt();
    Py_RETURN_NONE;
}

// body() with the GIL released; false, with MemoryError set, when it ran out of memory.  The
// body must touch no Python object.
template <typename Body>
bool without_gil(Body&& body) {
    bool out_of_memory = false;
    Py_BEGIN_ALLOW_THREADS
    try {
        body();
    } catch (const std::bad_alloc&) {
        out_of_memory = true;
    }
    Py_END_ALLOW_THREADS
    if (out_of_memory) PyErr_NoMemory();
    return !out_of_memory;
}

// A search step of self's engine without the GIL, the engine marked busy meanwhile (call
// ready() first).
template <typename Object, typename Body>
bool run_busy(Object* self, Body&& body) {
    self->busy = true;
    const bool ok = without_gil(body);
    self->busy = false;
    return ok;
}

// One clue: positive block lengths of at most `longest`, appended to `clue`.
inline bool read_clue(PyObject* item, std::vector<int>& clue, long longest) {
    PyObject* fast = PySequence_Fast(item, "a clue must be a sequence of block lengths");
    if (!fast) return false;
    const Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
    clue.reserve(clue.size() + static_cast<size_t>(k));   // one allocation a clue, not one per doubling
    for (Py_ssize_t i = 0; i < k; ++i) {
        const long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (value == -1 && PyErr_Occurred()) { Py_DECREF(fast); return false; }
        if (value < 1 || value > longest) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "block lengths must be positive");
            return false;
        }
        clue.push_back(static_cast<int>(value));
    }
    Py_DECREF(fast);
    return true;
}

// `expected` clues from a sequence, appended to `clues`.
inline bool read_clues(PyObject* seq, Py_ssize_t expected, std::vector<std::vector<int>>& clues, long longest) {
    PyObject* fast = PySequence_Fast(seq, "clues must be a sequence");
    if (!fast) return false;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n != expected) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "the number of clues does not match the grid size");
        return false;
    }
    clues.reserve(clues.size() + static_cast<size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) {
        clues.emplace_back();
        if (!read_clue(PySequence_Fast_GET_ITEM(fast, i), clues.back(), longest)) { Py_DECREF(fast); return false; }
    }
    Py_DECREF(fast);
    return true;
}

inline PyObject* bytes_of(const std::vector<uint8_t>& cells) {
    return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(cells.data()),
                                     static_cast<Py_ssize_t>(cells.size()));
}

// Readies `type` as an engine type (objects of `Object`); false with an error set if not.
template <typename Object>
bool ready_engine_type(PyTypeObject* type, const char* name, const char* doc, initproc init, destructor dealloc,
                       PyMethodDef* methods) {
    type->tp_name = name;
    type->tp_basicsize = sizeof(Object);
    type->tp_flags = Py_TPFLAGS_DEFAULT;
    type->tp_doc = doc;
    type->tp_new = engine_new<Object>;
    type->tp_init = init;
    type->tp_dealloc = dealloc;
    type->tp_methods = methods;
    return PyType_Ready(type) >= 0;
}

// Adds a readied type to `module` under `attribute`; false with an error set if not.
inline bool add_type(PyObject* module, const char* attribute, PyTypeObject* type) {
    Py_INCREF(type);
    if (PyModule_AddObject(module, attribute, reinterpret_cast<PyObject*>(type)) < 0) {
        Py_DECREF(type);
        return false;
    }
    return true;
}

// Readies `type` as the module's Engine (objects of `Object`) and creates the module with it.
template <typename Object>
PyObject* add_engine_module(PyModuleDef* def, PyTypeObject* type, const char* name, const char* doc,
                            initproc init, destructor dealloc, PyMethodDef* methods) {
    if (!ready_engine_type<Object>(type, name, doc, init, dealloc, methods)) return nullptr;
    PyObject* module = PyModule_Create(def);
    if (!module) return nullptr;
    if (!add_type(module, "Engine", type)) {
        Py_DECREF(module);
        return nullptr;
    }
    return module;
}

}  // namespace binding
