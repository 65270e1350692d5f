// Phase hints by belief propagation (loopy BP on the puzzle's factor graph: a factor
// per row and per column, a variable per cell).
//
// A line's factor sends each of its cells a message: the share of the line's
// arrangements in which the cell is filled, each arrangement weighted by the product
// of the messages the crossing lines sent its cells (their belief that the cell is
// filled, or empty), with the cell's own incoming message divided out (the extrinsic
// part, so that a line does not hear its own voice back).  The shares are exact: a
// forward and a backward pass over (blocks placed, cells read), the weighted count of
// the line's completions, as in the line DP but summing instead of OR-ing.  Messages are
// damped (half the old, half the new) and the rows and the columns take turns.  A
// cell's belief combines its row's and its column's messages as independent evidence.
//
// Used by the engine for its first phases only: it decides nothing, so any estimate is
// sound, and a good one puts the search near a solution from its first decision
// (Knotty, 40x40, several solutions: the first one within the first thousand conflicts;
// the random 25x25 tournament grids: fewer conflicts to the first solution).
//
// Weights: each open cell's pair (empty, filled) is scaled so that the larger is 1 and
// messages are kept within [0.01, 0.99], so every factor lies in [0.0101, 1] and a line
// of at most HINT_MAX_CELLS cells has a total weight between 1e-254 and 2^127: plain
// doubles hold it without scaling.
#include "hints.hpp"

#include "engine.hpp"

#include <algorithm>
#include <cmath>

namespace lcg {

namespace {

constexpr double kFloor = 0.01;     // messages are kept in [kFloor, 1 - kFloor]
constexpr double kSettled = 1e-4;  // no message moved more: the rounds stop

double clamp_message(double m) { return std::min(1.0 - kFloor, std::max(kFloor, m)); }

}  // namespace

bool line_marginals(const int* clue, int k, int n, const int8_t* known, const double* prior, double* black) {
    LineCounter counter;
    return counter.prepare(clue, k, n, known) && counter.marginals(prior, black);
}

bool LineCounter::prepare(const int* clue, int k, int n, const int8_t* known) {
    clue_ = clue;
    k_ = k;
    n_ = n;
    known_.assign(known, known + n);
    // can_empty_[i]: cell i may be empty (cell n, past the end, always may).
    can_empty_.assign(n + 1, 1);
    std::vector<int> empties(n + 1, 0);  // prefix count of known-empty cells
    for (int i = 0; i < n; ++i) {
        can_empty_[i] = known[i] != 1;
        empties[i + 1] = empties[i] + (known[i] == 0);
    }
    // fits_[j * (n + 1) + p]: block j may lie on [p, p + clue[j]) with an empty cell (or
    // the line's end) after it, as far as the known cells say.
    fits_.assign(static_cast<size_t>(k) * (n + 1), 0);
    for (int j = 0; j < k; ++j)
        for (int p = 0; p + clue[j] <= n; ++p)
            fits_[static_cast<size_t>(j) * (n + 1) + p] = empties[p + clue[j]] == empties[p] && can_empty_[p + clue[j]];
    const int columns = n + 2;
    // Which (blocks placed, cells read) states lie on some arrangement: reachable from
    // the start and able to reach the end.  Each row's such states form its window
    // [lo_[j], hi_[j]] (after probing most blocks have few starts left), and the counts
    // are zero outside it, so the passes below read only the windows.
    std::vector<uint8_t> ahead(static_cast<size_t>(k + 1) * columns, 0), behind(ahead.size(), 0);
    auto at = [&](int j, int i) { return static_cast<size_t>(j) * columns + i; };
    ahead[at(0, 0)] = 1;
    for (int i = 1; i <= n + 1; ++i)
        for (int j = 0; j <= k; ++j) {
            const int p = j > 0 ? i - 1 - clue[j - 1] : -1;
            ahead[at(j, i)] = (ahead[at(j, i - 1)] && can_empty_[i - 1]) ||
                              (p >= 0 && fits_[static_cast<size_t>(j - 1) * (n + 1) + p] && ahead[at(j - 1, p)]);
        }
    behind[at(k, n + 1)] = 1;
    for (int i = n; i >= 0; --i)
        for (int j = 0; j <= k; ++j)
            behind[at(j, i)] = (behind[at(j, i + 1)] && can_empty_[i]) ||
                               (j < k && fits_[static_cast<size_t>(j) * (n + 1) + i] && behind[at(j + 1, i + clue[j] + 1)]);
    lo_.assign(k + 1, columns);
    hi_.assign(k + 1, -1);
    for (int j = 0; j <= k; ++j)
        for (int i = 0; i <= n + 1; ++i)
            if (ahead[at(j, i)] && behind[at(j, i)]) {
                lo_[j] = std::min(lo_[j], i);
                hi_[j] = i;
            }
    f_.assign(static_cast<size_t>(k + 1) * columns, 0.0);
    ratio_.assign(static_cast<size_t>(k) * (n + 1), 0.0);
    b_.assign(f_.size(), 0.0);
    // The known cells' weights, for every round; the open cells' are the rounds' own.
    empty_w_.assign(n + 1, 1.0);
    fill_w_.assign(n, 1.0);
    open_.clear();
    for (int i = 0; i < n; ++i) {
        if (known[i] < 0) open_.push_back(i);
        else empty_w_[i] = can_empty_[i] ? 1.0 : 0.0;
    }
    fill_prefix_.assign(n + 1, 1.0);
    spread_.assign(n + 1, 0.0);
    // last_[j]: the last start of block j in its row's window that ends inside the line;
    // starts_[first_[j] .. first_[j + 1]): those starts where the block fits (its ratio
    // elsewhere stays the 0 set above).
    last_.assign(k, 0);
    first_.assign(k + 1, 0);
    starts_.clear();
    for (int j = 0; j < k; ++j) {
        last_[j] = std::min(hi_[j], n - clue[j]);
        for (int p = lo_[j]; p <= last_[j]; ++p)
            if (fits_[static_cast<size_t>(j) * (n + 1) + p]) starts_.push_back(p);
        first_[j + 1] = static_cast<int>(starts_.size());
    }
    return behind[at(0, 0)] != 0;
}

bool LineCounter::marginals(const double* prior, double* black) {
    const int n = n_, k = k_, columns = n + 2;
    const int* clue = clue_;
    // Cell weights: cell n is a virtual empty cell of weight 1 ending the line; a known
    // cell weighs 1 for its value (0 for the other: can_empty_ and fits_ say which), set
    // once by prepare(), so only the open cells are weighed here (their priors are the
    // only ones read).
    double* empty_w = empty_w_.data();
    double* fill_w = fill_w_.data();
    // p / max(p, q) and q / max(p, q): the larger is exactly 1 (x / x), so one division,
    // min(p, q) / max(p, q), taken without a branch (the comparison is a coin toss).
    for (const int i : open_) {
        const double p = clamp_message(prior[i]), q = 1.0 - p, ratio = std::min(p, q) / std::max(p, q);
        const bool light = p < q;
        fill_w[i] = light ? ratio : 1.0;
        empty_w[i] = light ? 1.0 : ratio;
    }
    // fill_prefix[i]: the product of the fill weights of cells 0..i-1 (a known cell's 1.0
    // leaves the product exactly as it was); the running product stays in a register.
    double* fill_prefix = fill_prefix_.data();
    double product = 1.0;
    for (int i = 0; i < n; ++i) {
        product *= fill_w[i];
        fill_prefix[i + 1] = product;
    }
    double* f = f_.data();
    double* b = b_.data();
    const int* last = last_.data();
    // ratio[j][p]: the fill weight of block j on [p, p + clue[j]), 0 where it does not fit
    // (prepare() set those), for the starts p in its row's window (the only ones whose
    // counts can be non-zero): each division once for the three passes below.  (Adding a
    // term with a zero ratio adds +0.0 and leaves the sum exactly as it was.)
    double* ratio = ratio_.data();
    const int* starts = starts_.data();
    const int* first = first_.data();
    for (int j = 0; j < k; ++j) {
        double* r = ratio + static_cast<size_t>(j) * (n + 1);
        const int len = clue[j];
        for (int s = first[j]; s < first[j + 1]; ++s) {
            const int p = starts[s];
            r[p] = fill_prefix[p + len] / fill_prefix[p];
        }
    }
    // (The counts outside the windows are zero: prepare() cleared them and nothing writes
    // there, so the passes below neither clear nor read past the windows' edges.  Each
    // row's running count stays in a register: the same sums, without a store and a
    // reload on the chain from one cell to the next.  Each row's loop is cut where the
    // term from the row above or below can be non-zero, instead of testing every cell.)
    // Forward, pulled, row by row within the windows: f[j][i], the weight of the first i
    // cells holding exactly blocks 0..j-1, each block with its empty cell after it.
    f[0] = 1.0;
    for (int i = std::max(lo_[0], 1), end = hi_[0]; i <= end; ++i) f[i] = f[i - 1] * empty_w[i - 1];
    for (int j = 1; j <= k; ++j) {
        double* row = f + static_cast<size_t>(j) * columns;
        const int len = clue[j - 1];
        // Block j-1 on [p, i - 1), cell i - 1 empty: p = i - 1 - len in the row above's
        // window, i.e. i in [from, to].
        const double* above = f + static_cast<size_t>(j - 1) * columns;
        const double* r = ratio + static_cast<size_t>(j - 1) * (n + 1);
        const int end = hi_[j], from = std::max(lo_[j], lo_[j - 1] + 1 + len),
                  to = std::min(end, hi_[j - 1] + 1 + len);
        double v = row[lo_[j] - 1];
        int i = lo_[j];
        for (; i < from && i <= end; ++i) row[i] = v *= empty_w[i - 1];
        for (; i <= to; ++i) {
            v *= empty_w[i - 1];
            v += above[i - 1 - len] * r[i - 1 - len] * empty_w[i - 1];
            row[i] = v;
        }
        for (; i <= end; ++i) row[i] = v *= empty_w[i - 1];
    }
    // Backward: b[j][i], the weight of cells i..n holding exactly blocks j..k-1.
    b[static_cast<size_t>(k) * columns + n + 1] = 1.0;
    {
        double* row = b + static_cast<size_t>(k) * columns;  // (no block after the last)
        const int top = std::min(hi_[k], n);
        double v = row[top + 1];
        for (int i = top; i >= lo_[k]; --i) row[i] = v *= empty_w[i];
    }
    for (int j = k - 1; j >= 0; --j) {
        double* row = b + static_cast<size_t>(j) * columns;
        const int len = clue[j];
        const double* below = b + static_cast<size_t>(j + 1) * columns + len + 1;  // read at i + len + 1
        const double* r = ratio + static_cast<size_t>(j) * (n + 1);
        const double* after = empty_w + len;  // the empty cell after the block, read at i + len
        const int top = std::min(hi_[j], n), with = last[j];
        double v = row[top + 1];
        int i = top;
        for (; i > with; --i) row[i] = v *= empty_w[i];
        for (; i >= lo_[j]; --i) {
            v *= empty_w[i];
            v += below[i] * r[i] * after[i];
            row[i] = v;
        }
    }
    const double total = b[0];
    if (!(total > 0.0)) return false;
    // Each start's share, spread over the cells it covers (a difference array).
    double* spread = spread_.data();
    std::fill(spread, spread + n + 1, 0.0);
    for (int j = 0; j < k; ++j) {
        const double* r = ratio + static_cast<size_t>(j) * (n + 1);
        const double* before = f + static_cast<size_t>(j) * columns;
        const int len = clue[j];
        const double* after = empty_w + len;
        const double* below = b + static_cast<size_t>(j + 1) * columns + len + 1;
        for (int s = first[j]; s < first[j + 1]; ++s) {
            const int p = starts[s];
            if (before[p] == 0.0) continue;
            const double share = before[p] * r[p] * after[p] * below[p] / total;
            spread[p] += share;
            spread[p + len] -= share;
        }
    }
    double running = 0.0;
    for (int i = 0; i < n; ++i) {
        running += spread[i];
        black[i] = known_[i] >= 0 ? known_[i] : std::min(1.0, std::max(0.0, running));
    }
    return true;
}

std::vector<double> belief_hints(int width, int height, const std::vector<std::vector<int>>& lines,
                                 const std::vector<int8_t>& known, int rounds, int* used) {
    if (width > HINT_MAX_CELLS || height > HINT_MAX_CELLS) return {};
    const size_t cells = static_cast<size_t>(width) * height;
    // from_row[x]: the row's message to cell x (its chance of being filled); from_column likewise.
    std::vector<double> from_row(cells, 0.5), from_column(cells, 0.5);
    // The lines with open cells, each prepared once: its cells and its arrangements'
    // table for the known cells (only the messages change from one round to the next).
    struct Open {
        bool row;
        std::vector<size_t> at;  // the line's cells
        LineCounter counter;
    };
    std::vector<Open> open;
    std::vector<int8_t> line_known;
    for (int l = 0; l < height + width; ++l) {
        const bool row = l < height;
        const int n = row ? width : height;
        Open line{row, std::vector<size_t>(n), LineCounter()};
        line_known.resize(n);
        bool any = false;
        for (int i = 0; i < n; ++i) {
            line.at[i] = row ? static_cast<size_t>(l) * width + i : static_cast<size_t>(i) * width + (l - height);
            line_known[i] = known[line.at[i]];
            any = any || line_known[i] < 0;
        }
        if (!any) continue;
        if (!line.counter.prepare(lines[l].data(), static_cast<int>(lines[l].size()), n, line_known.data()))
            return {};
        open.push_back(std::move(line));
    }
    std::vector<double> prior, posterior;
    double moved = 0.0;
    auto pass = [&](bool rows) -> bool {
        for (Open& line : open) {
            if (line.row != rows) continue;
            std::vector<double>& out = rows ? from_row : from_column;
            const std::vector<double>& in = rows ? from_column : from_row;
            const size_t n = line.at.size();
            prior.resize(n);
            posterior.resize(n);
            // Only the open cells' priors are read, and only their messages sent.
            const std::vector<int>& cells = line.counter.open();
            for (const int i : cells) prior[i] = in[line.at[i]];
            if (!line.counter.marginals(prior.data(), posterior.data())) return false;
            for (const int i : cells) {
                const size_t x = line.at[i];
                const double post = std::min(1.0 - 1e-9, std::max(1e-9, posterior[i]));
                const double pri = clamp_message(prior[i]);
                const double yes = post * (1.0 - pri), no = (1.0 - post) * pri;  // the prior divided out
                const double next = 0.5 * out[x] + 0.5 * clamp_message(yes / (yes + no));
                moved = std::max(moved, std::abs(next - out[x]));
                out[x] = next;
            }
        }
        return true;
    };
    int round = 0;
    while (round < rounds) {
        ++round;
        moved = 0.0;
        if (!pass(true) || !pass(false)) return {};
        if (moved < kSettled) break;  // the messages no longer move
    }
    if (used) *used = round;
    std::vector<double> belief(cells);
    for (size_t x = 0; x < cells; ++x) {
        if (known[x] >= 0) {
            belief[x] = known[x];
            continue;
        }
        const double a = from_row[x], c = from_column[x], yes = a * c, no = (1.0 - a) * (1.0 - c);
        belief[x] = yes / (yes + no);
    }
    return belief;
}

// The first phases from belief propagation over the root's cells, once, before the
// first decision: a phase only says where a decision starts, so any estimate keeps the
// search exact.  With hint_min_open_ (a per cent), only when more of the cells than that
// are open after root probing: on a grid probing nearly solved, the search is short
// without them and the rounds (a fixed cost, about the probes' own on a 25x25 grid) are
// most of its time (benchmarks/log/2026-11-27-easy-7.md).
void Engine::apply_hints() {
    hinted_ = true;
    if (hint_rounds_ <= 0 || values_ != 0 || level() != 0) return;
    if (hint_min_open_ > 0) {
        long long open = 0;
        for (int v = 0; v < nvars_; ++v) open += value_[v] < 0;
        if (open * 100 <= static_cast<long long>(hint_min_open_) * nvars_) return;
    }
    std::vector<int8_t> known(static_cast<size_t>(nvars_));
    for (int v = 0; v < nvars_; ++v) known[v] = value_[v];
    int rounds = 0;
    const std::vector<double> belief = belief_hints(width_, height_, line_clue_, known, hint_rounds_, &rounds);
    counters_.hint_rounds = rounds;
    if (belief.empty()) return;
    for (int v = 0; v < nvars_; ++v)
        if (value_[v] < 0) saved_phase_[v] = target_phase_[v] = belief[v] >= 0.5 ? 1 : 0;
    hint_phase_ = saved_phase_;  // (non-empty: the hints were applied, solutions are followed)
    hint_until_ = counters_.conflicts + hint_conflicts_;
    hints_now_ = hint_conflicts_ > 0;
}

// After a solution the next search (for another one) starts around it: its values are
// the hinted phases for follow_conflicts_ more conflicts (off by default: the target
// phases already hold the solution, the longest trail without a conflict; forcing it
// for 10,000 conflicts slowed 12-Dom's proof from 40k to 60k conflicts and won nothing
// on taai2011 or the survey, benchmarks/log/2026-11-26-fast.md).
void Engine::follow_solution() {
    for (int v = 0; v < nvars_; ++v) hint_phase_[v] = static_cast<uint8_t>(value_[v]);
    hint_until_ = counters_.conflicts + follow_conflicts_;
    hints_now_ = follow_conflicts_ > 0;
}

}  // namespace lcg
