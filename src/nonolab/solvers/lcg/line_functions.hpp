// The module-level line functions of nonolab.solvers.lcg._lcg (line_functions.cpp).
#pragma once

#include <Python.h>

namespace lcg {

// The longest block a clue may hold.
constexpr long LONGEST_BLOCK = 1000000;

// The module's method table: solve_line, drop_cells, solve_colour_line, line_shares.
PyMethodDef* line_functions();

}  // namespace lcg
