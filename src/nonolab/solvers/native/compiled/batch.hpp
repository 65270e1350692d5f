// Many puzzles in one call of the native engine's compiled core: the batch entry behind
// nonolab.check_many and nonolab.census (_native.check_many, batch_binding.cpp).
//
// Clues come in as flat arrays (no Python object per puzzle or per line): puzzle i is
// sizes[2i] rows by sizes[2i+1] columns, its rows' then its columns' clues are the next
// sizes[2i] + sizes[2i+1] entries of `lengths` (blocks per line), their blocks the next
// entries of `blocks`.  Each puzzle is searched by its own native::Engine (search/engine.hpp:
// the same search as a single solve), counted to max_solutions; the results come back as
// flat arrays too.  With levels, a puzzle whose count found one solution and exhausted
// its space is graded: the weakest probing (0 none: the line solver alone, 1
// contradiction, 2 full) whose root decides every cell, as harness/classify.py's
// one-node runs do, or 3 when none does.
//
// A call works for at most `budget` seconds (checked between puzzles, at least one
// puzzle) and gives each puzzle at most `puzzle_seconds`: a puzzle not finished by
// then is reported unfinished, for the caller to search with its own limits.
#pragma once

#include <cstdint>
#include <vector>

namespace native {

// What became of one puzzle's count.
enum BatchState { BATCH_EXHAUSTED = 0, BATCH_ENOUGH = 1, BATCH_UNFINISHED = 2 };

struct BatchInput {
    const int32_t* sizes = nullptr;    // 2 per puzzle: height, width
    const int32_t* lengths = nullptr;  // blocks per line, every puzzle's rows then columns
    const int32_t* blocks = nullptr;   // the block lengths, in the same order
    long long puzzles = 0;
    long long lines = 0;               // entries of lengths
    long long block_count = 0;         // entries of blocks
};

struct BatchOptions {
    int max_solutions = 2;      // 1 or more
    int probing = 0;            // the counting engine's probing: 0 none, 1 contradiction, 2 full
    bool levels = false;        // grade the unique ones (see above)
    double budget = 1.0;        // seconds for the call (checked between puzzles)
    double puzzle_seconds = 1.0;  // seconds for one puzzle's count
    long long cache_bytes = 1 << 20;  // each engine's line cache
};

struct BatchOutput {
    long long done = 0;             // puzzles 0..done-1 were answered
    std::vector<int8_t> found;      // solutions found, per puzzle
    std::vector<int8_t> state;      // BatchState, per puzzle
    std::vector<int8_t> level;      // 0..3 with levels and a unique answer, else -1
    std::vector<int64_t> nodes;     // the counting search's nodes, per puzzle
    std::vector<double> seconds;    // each puzzle's time (its count and its grading)
    std::vector<uint8_t> solutions;  // per puzzle max_solutions grids of height*width state masks
                                     // (1 empty, 2 filled; unused ones left 0), in puzzle order
};

// Checks the arrays' consistency (every index in range, blocks positive); the empty
// string when they are fine, else what is wrong.
const char* batch_problem(const BatchInput& input);

// Answers puzzles from the first on, until all are done or the budget is spent.
// `input` must have passed batch_problem.
BatchOutput run_batch(const BatchInput& input, const BatchOptions& options);

}  // namespace native
