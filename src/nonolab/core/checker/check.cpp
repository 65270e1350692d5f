// The compiled half of nonolab's independent checker (nonolab.core._check): which rows and
// columns of a picture do not have their clue's runs.
//
// It shares no code with any solver (tests/test_architecture.py holds its includes to this
// folder): a solver's bug cannot hide in a line solver the check also trusts.  It only
// counts runs: a run is a maximal stretch of cells of one non-zero value (0 is the
// background), and a line matches when its runs, in order, are its clue's blocks, each a
// (length, colour); in black and white every colour is 1.  Python
// (nonolab/core/violations.py) checks the picture's size, its cell values and the givens
// first, and words the messages; tests/test_violations.py holds this to the plain
// Python check line by line.
//
// The columns are checked in one pass over the rows (a run state per column), so the
// picture is read in memory order whatever its size; a line's runs are read from where its
// cells change value, found 8 cells at a time (each_difference).

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

// Every line's blocks, flat: line i's are [start[i], start[i + 1]).
struct Clues {
    std::vector<Py_ssize_t> start;
    std::vector<long long> length;
    std::vector<long long> colour;
};

// One length (or colour) of a clue as a C integer; -1 with an exception set on an error.
// A number beyond long long can match no run: it is read as -2 (never a length).
long long number(PyObject* item) {
    int overflow = 0;
    long long value = PyLong_AsLongLongAndOverflow(item, &overflow);
    if (overflow) return -2;
    return value;
}

// Reads ``lines`` (a sequence of sequences of lengths) and, when ``colours`` is not None,
// the matching colour of each block; false with an exception set on a malformed argument.
bool read_clues(PyObject* lines, PyObject* colours, Py_ssize_t expected, const char* kind, Clues& out) {
    PyObject* fast = PySequence_Fast(lines, "clues must be a sequence of lines");
    if (!fast) return false;
    PyObject* fast_colours = nullptr;
    bool ok = true;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n != expected) {
        PyErr_Format(PyExc_ValueError, "%zd %s clues for %zd %ss", n, kind, expected, kind);
        ok = false;
    }
    if (ok && colours != Py_None) {
        fast_colours = PySequence_Fast(colours, "colours must be a sequence of lines");
        if (!fast_colours) ok = false;
        else if (PySequence_Fast_GET_SIZE(fast_colours) != n) {
            PyErr_Format(PyExc_ValueError, "%s colours: %zd lines for %zd", kind,
                         PySequence_Fast_GET_SIZE(fast_colours), n);
            ok = false;
        }
    }
    out.start.assign(1, 0);
    for (Py_ssize_t i = 0; ok && i < n; ++i) {
        PyObject* line = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, i), "a clue must be a sequence");
        PyObject* line_colours = nullptr;
        if (!line) { ok = false; break; }
        Py_ssize_t blocks = PySequence_Fast_GET_SIZE(line);
        if (fast_colours) {
            line_colours = PySequence_Fast(PySequence_Fast_GET_ITEM(fast_colours, i),
                                           "a line's colours must be a sequence");
            if (!line_colours) ok = false;
            else if (PySequence_Fast_GET_SIZE(line_colours) != blocks) {
                PyErr_Format(PyExc_ValueError, "%s %zd: %zd blocks but %zd colours", kind, i + 1, blocks,
                             PySequence_Fast_GET_SIZE(line_colours));
                ok = false;
            }
        }
        for (Py_ssize_t b = 0; ok && b < blocks; ++b) {
            long long length = number(PySequence_Fast_GET_ITEM(line, b));
            long long colour = line_colours ? number(PySequence_Fast_GET_ITEM(line_colours, b)) : 1;
            if ((length == -1 || colour == -1) && PyErr_Occurred()) { ok = false; break; }
            out.length.push_back(length);
            out.colour.push_back(colour);
        }
        out.start.push_back(static_cast<Py_ssize_t>(out.length.size()));
        Py_XDECREF(line_colours);
        Py_DECREF(line);
    }
    Py_XDECREF(fast_colours);
    Py_DECREF(fast);
    return ok;
}

// The runs of one line (``count`` cells ``step`` apart from ``first``) as a tuple: lengths
// in black and white, (length, colour) pairs in colour.  Built only for a wrong line.
PyObject* runs_of(const unsigned char* first, Py_ssize_t count, Py_ssize_t step, bool colour) {
    PyObject* runs = PyList_New(0);
    if (!runs) return nullptr;
    Py_ssize_t i = 0;
    while (i < count) {
        unsigned char value = first[i * step];
        Py_ssize_t end = i + 1;
        while (end < count && first[end * step] == value) ++end;
        if (value) {
            PyObject* run = colour ? Py_BuildValue("(ni)", end - i, static_cast<int>(value))
                                   : PyLong_FromSsize_t(end - i);
            if (!run || PyList_Append(runs, run) < 0) {
                Py_XDECREF(run);
                Py_DECREF(runs);
                return nullptr;
            }
            Py_DECREF(run);
        }
        i = end;
    }
    PyObject* tuple = PyList_AsTuple(runs);
    Py_DECREF(runs);
    return tuple;
}

// Appends (kind, index, runs) to ``wrong``; false with an exception set.
bool report(PyObject* wrong, int kind, Py_ssize_t index, const unsigned char* first, Py_ssize_t count,
            Py_ssize_t step, bool colour) {
    PyObject* runs = runs_of(first, count, step, colour);
    if (!runs) return false;
    PyObject* item = Py_BuildValue("(inN)", kind, index, runs);
    if (!item) return false;
    int failed = PyList_Append(wrong, item);
    Py_DECREF(item);
    return failed == 0;
}

// A line's run state while its runs are read in order.
struct Line {
    Py_ssize_t start = 0;       // where the run under way began
    unsigned char value = 0;    // its value (0: the background, no run)
    Py_ssize_t next = 0;        // the index (in Clues) of the block the next run must be
    bool wrong = false;
};

// The run under way in ``line`` ends before ``at``: if it is not background, it must be the
// line's next block (``end``: one past the line's last block).
inline void close_run(Line& line, const Clues& clues, Py_ssize_t end, Py_ssize_t at) {
    if (!line.value) return;
    if (line.next >= end || clues.length[line.next] != at - line.start || clues.colour[line.next] != line.value)
        line.wrong = true;
    ++line.next;
}

// A run of ``line`` starts at ``at`` with ``value``, after closing the one under way.
inline void new_run(Line& line, const Clues& clues, Py_ssize_t end, Py_ssize_t at, unsigned char value) {
    close_run(line, clues, end, at);
    line.start = at;
    line.value = value;
}

// The 8 cells at ``at`` as one word, the first cell in the lowest byte (any alignment, any
// byte order).
inline uint64_t eight(const unsigned char* at) {
    uint64_t word;
    std::memcpy(&word, at, sizeof word);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    word = __builtin_bswap64(word);
#endif
    return word;
}

// Calls ``found(i)`` for each i < n, in order, where a[i] != b[i]: 8 cells a step, so a
// stretch where nothing changes costs an eighth of a cell-by-cell loop.  A run changes value
// only at such a place: the rows' runs end where a row differs from itself a cell on, the
// columns' where a row differs from the row above it.
template <class Found>
inline void each_difference(const unsigned char* a, const unsigned char* b, Py_ssize_t n, Found&& found) {
    Py_ssize_t i = 0;
    for (; i + 8 <= n; i += 8) {
        for (uint64_t differ = eight(a + i) ^ eight(b + i); differ;) {
            const int k = __builtin_ctzll(differ) >> 3;   // the first differing cell of the eight
            found(i + k);
            differ &= ~(uint64_t{0xFF} << (8 * k));
        }
    }
    for (; i < n; ++i)
        if (a[i] != b[i]) found(i);
}

// Any picture (colour, or a side over 64 cells): the rows and the columns in one pass over
// the rows in memory order, each line's runs read from where its cells change value.
// Appends the wrong lines to ``wrong``, rows first; false with an exception set.
bool check_general(const unsigned char* data, Py_ssize_t width, Py_ssize_t height, const Clues& rows,
                   const Clues& columns, bool colour, PyObject* wrong) {
    std::vector<Line> column_state(static_cast<size_t>(width));
    for (Py_ssize_t c = 0; c < width; ++c) {
        column_state[c].next = columns.start[c];
        column_state[c].value = data[c];
    }
    std::vector<Py_ssize_t> wrong_rows;
    for (Py_ssize_t r = 0; r < height; ++r) {
        const unsigned char* row = data + r * width;
        const Py_ssize_t end = rows.start[r + 1];
        Line line;
        line.next = rows.start[r];
        line.value = row[0];
        each_difference(row + 1, row, width - 1,
                        [&](Py_ssize_t c) { new_run(line, rows, end, c + 1, row[c + 1]); });
        close_run(line, rows, end, width);
        if (line.wrong || line.next != end) wrong_rows.push_back(r);
        if (r) {
            each_difference(row, row - width, width, [&](Py_ssize_t c) {
                new_run(column_state[c], columns, columns.start[c + 1], r, row[c]);
            });
        }
    }
    for (Py_ssize_t r : wrong_rows)
        if (!report(wrong, 0, r, data + r * width, width, 1, colour)) return false;
    for (Py_ssize_t c = 0; c < width; ++c) {
        Line& line = column_state[c];
        const Py_ssize_t end = columns.start[c + 1];
        close_run(line, columns, end, height);
        if ((line.wrong || line.next != end) && !report(wrong, 1, c, data + c, height, width, colour)) return false;
    }
    return true;
}

// Whether the runs ``lengths[0..runs)`` are the clue ``clue`` (a sequence of lengths); every
// number of the clue is read, so a malformed clue is refused whatever the picture.  -1 with
// an exception set on a malformed clue.
int runs_are(PyObject* clue, const int* lengths, int runs) {
    PyObject* fast = PySequence_Fast(clue, "a clue must be a sequence");
    if (!fast) return -1;
    const Py_ssize_t blocks = PySequence_Fast_GET_SIZE(fast);
    int same = blocks == runs;
    for (Py_ssize_t b = 0; b < blocks; ++b) {
        long long length = number(PySequence_Fast_GET_ITEM(fast, b));
        if (length == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        same &= b < runs && length == lengths[b];
    }
    Py_DECREF(fast);
    return same;
}

// The runs of filled cells of a line held as the bits of ``cells`` (cell i at bit i), in
// order; their count.
int runs_of_bits(uint64_t cells, int* lengths) {
    int runs = 0;
    while (cells) {
        cells >>= __builtin_ctzll(cells);
        const int length = ~cells ? __builtin_ctzll(~cells) : 64;
        lengths[runs++] = length;
        cells = length == 64 ? 0 : cells >> length;
    }
    return runs;
}

// A black-and-white picture of at most 64 x 64 cells (every tournament grid): each line
// as a 64-bit word, its runs read by counting trailing zeros and ones.  Appends the wrong
// lines to ``wrong``; false with an exception set.
bool check_small(const unsigned char* data, Py_ssize_t width, Py_ssize_t height, PyObject* rows,
                 PyObject* columns, PyObject* wrong) {
    uint64_t row_bits[64] = {}, column_bits[64] = {};
    for (Py_ssize_t r = 0; r < height; ++r) {
        const unsigned char* row = data + r * width;
        uint64_t bits = 0;
        for (Py_ssize_t c = 0; c < width; ++c) {
            bits |= static_cast<uint64_t>(row[c]) << c;
            column_bits[c] |= static_cast<uint64_t>(row[c]) << r;
        }
        row_bits[r] = bits;
    }
    int lengths[32];
    for (int kind = 0; kind < 2; ++kind) {
        PyObject* clues = kind ? columns : rows;
        const uint64_t* bits = kind ? column_bits : row_bits;
        const Py_ssize_t lines = kind ? width : height;
        for (Py_ssize_t i = 0; i < lines; ++i) {
            const int same = runs_are(PySequence_Fast_GET_ITEM(clues, i), lengths, runs_of_bits(bits[i], lengths));
            if (same < 0) return false;
            if (!same && !(kind ? report(wrong, 1, i, data + i, height, width, false)
                                : report(wrong, 0, i, data + i * width, width, 1, false)))
                return false;
        }
    }
    return true;
}

// check_small's entry: the arguments' shapes checked first (as read_clues does).
PyObject* small_black_and_white(const unsigned char* data, Py_ssize_t width, Py_ssize_t height, PyObject* rows,
                                PyObject* columns) {
    for (Py_ssize_t i = 0; i < width * height; ++i) {
        if (data[i] > 1) {
            PyErr_SetString(PyExc_ValueError, "a black-and-white picture has cells 0 and 1 only");
            return nullptr;
        }
    }
    PyObject* fast_rows = PySequence_Fast(rows, "clues must be a sequence of lines");
    if (!fast_rows) return nullptr;
    PyObject* fast_columns = PySequence_Fast(columns, "clues must be a sequence of lines");
    PyObject* result = nullptr;
    if (!fast_columns) {
    } else if (PySequence_Fast_GET_SIZE(fast_rows) != height) {
        PyErr_Format(PyExc_ValueError, "%zd row clues for %zd rows", PySequence_Fast_GET_SIZE(fast_rows), height);
    } else if (PySequence_Fast_GET_SIZE(fast_columns) != width) {
        PyErr_Format(PyExc_ValueError, "%zd column clues for %zd columns", PySequence_Fast_GET_SIZE(fast_columns),
                     width);
    } else if ((result = PyList_New(0)) && !check_small(data, width, height, fast_rows, fast_columns, result)) {
        Py_CLEAR(result);
    }
    Py_XDECREF(fast_columns);
    Py_DECREF(fast_rows);
    return result;
}

PyObject* wrong_lines(PyObject*, PyObject* args, PyObject* kwargs) {
    static const char* names[] = {"cells", "width", "rows", "columns", "row_colours", "column_colours", nullptr};
    Py_buffer cells;
    Py_ssize_t width;
    PyObject *rows, *columns, *row_colours = Py_None, *column_colours = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*nOO|OO", const_cast<char**>(names), &cells, &width, &rows,
                                     &columns, &row_colours, &column_colours))
        return nullptr;
    PyObject* result = nullptr;
    const bool colour = row_colours != Py_None || column_colours != Py_None;
    const auto* data = static_cast<const unsigned char*>(cells.buf);
    const Py_ssize_t size = cells.len;
    Clues row_clues, column_clues;
    if (colour && (row_colours == Py_None || column_colours == Py_None)) {
        PyErr_SetString(PyExc_ValueError, "colours are given for both the rows and the columns or neither");
    } else if (width <= 0 || size == 0 || size % width) {
        PyErr_SetString(PyExc_ValueError, "the cells are not whole rows of this width");
    } else if (!colour && width <= 64 && size / width <= 64) {
        result = small_black_and_white(data, width, size / width, rows, columns);
    } else if (read_clues(rows, row_colours, size / width, "row", row_clues) &&
               read_clues(columns, column_colours, width, "column", column_clues)) {
        const Py_ssize_t height = size / width;
        unsigned char beyond = 0;   // black and white: any bit above the lowest of any cell
        if (!colour) {
            for (Py_ssize_t i = 0; i < size; ++i) beyond |= data[i] & 0xFE;   // (vectorised: no branch)
        }
        if (beyond) {
            PyErr_SetString(PyExc_ValueError, "a black-and-white picture has cells 0 and 1 only");
        } else if ((result = PyList_New(0)) && !check_general(data, width, height, row_clues, column_clues, colour,
                                                               result)) {
            Py_CLEAR(result);
        }
    }
    PyBuffer_Release(&cells);
    return result;
}

PyMethodDef methods[] = {
    {"wrong_lines", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(wrong_lines)),
     METH_VARARGS | METH_KEYWORDS,
     "wrong_lines(cells, width, rows, columns, row_colours=None, column_colours=None) -> list\n\n"
     "The lines of the picture ``cells`` (row-major bytes, ``width`` a row) whose runs are not their clue's\n"
     "blocks, as (0 for a row or 1 for a column, its index, its runs), rows first; [] when every line\n"
     "matches.  Black and white without colours (cells 0 and 1, runs as lengths), else each block's\n"
     "colour from ``row_colours``/``column_colours`` (runs as (length, colour))."},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef module = {PyModuleDef_HEAD_INIT, "_check",
                      "nonolab's independent solution checker: run lengths of every line against its clue.", -1,
                      methods};

}  // namespace

PyMODINIT_FUNC PyInit__check() { return PyModule_Create(&module); }
