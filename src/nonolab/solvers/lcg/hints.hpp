// Phase hints for the lcg engine: each cell's chance of being filled, estimated by
// loopy belief propagation between the rows and the columns (see hints.cpp).
#pragma once

#include <cstdint>
#include <vector>

namespace lcg {

// Lines longer than this get no hints (see hints.cpp: plain doubles hold the weighted
// counts of lines up to this length without scaling).
constexpr int HINT_MAX_CELLS = 127;

// The weighted completions of one line: black[i] receives the share of the line's
// arrangements (each weighted by the product over its cells of prior[i] for a filled
// cell and 1 - prior[i] for an empty one) in which cell i is filled.  known[i]: -1
// open, 0 empty, 1 filled.  False when no arrangement fits the known cells.
bool line_marginals(const int* clue, int k, int n, const int8_t* known, const double* prior, double* black);

// line_marginals in two steps: prepare() reads the known cells once (which blocks may
// start where), marginals() then counts for any priors (belief_hints calls it once per
// line and round, with the same known cells).  The line's clue must outlive it.
class LineCounter {
public:
    bool prepare(const int* clue, int k, int n, const int8_t* known);
    bool marginals(const double* prior, double* black);
    const std::vector<int>& open() const { return open_; }

private:
    const int* clue_ = nullptr;
    int k_ = 0, n_ = 0;
    std::vector<int8_t> known_;
    std::vector<uint8_t> can_empty_, fits_;
    std::vector<int> lo_, hi_;  // each row's window of states on some arrangement
    std::vector<int> last_;     // each block's last start in its window that ends inside the line
    std::vector<int> starts_, first_;  // each block's starts in its window where it fits
    std::vector<int> open_;     // the open cells (the only ones whose weights change)
    std::vector<double> empty_w_, fill_w_, fill_prefix_, f_, b_, ratio_, spread_;
};

// Each cell's estimated chance of being filled (row-major), after at most `rounds` rounds
// of messages between the rows and the columns (fewer once no message moves), given the
// known cells (-1 open, 0 empty, 1 filled); `used` receives the rounds run.  Empty when a
// line is longer than HINT_MAX_CELLS or has no arrangement.  lines: the rows' clues,
// then the columns'.
std::vector<double> belief_hints(int width, int height, const std::vector<std::vector<int>>& lines,
                                 const std::vector<int8_t>& known, int rounds, int* used = nullptr);

}  // namespace lcg
