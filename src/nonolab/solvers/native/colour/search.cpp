// The colour search (see engine.hpp): depth-first, each node propagated (the root probed
// too), branching on an open cell with the fewest values, its values in order (the
// background first).  Branching on every value of one cell partitions the space, so an
// exhausted search is an exact count.  Each level keeps its node's domains, the branch
// cell and the values still to try; the step log is cut back to a level's end when its
// next value is tried, so it always holds the current path.
#include <algorithm>
#include <climits>

#include "engine.hpp"

namespace native {

ColourEngine::ColourEngine(int height, int width, int values, const std::vector<ColourClue>& lines,
                           const std::vector<std::pair<int, int>>& fixed, int probing, bool record_steps)
    : h_(height), w_(width), values_(values), probing_(probing), record_steps_(record_steps) {
    for (const ColourClue& line : lines) autos_.emplace_back(line.lengths, line.colours);
    const uint64_t full = values >= 64 ? ~0ULL : (1ULL << values) - 1;
    dom_.assign(static_cast<size_t>(height) * width, full);
    for (const auto& [cell, value] : fixed) dom_[cell] = 1ULL << value;
    queued_.assign(height + width, 0);
    const int longest = std::max(height, width);
    buf_.assign(longest, 0);
    out_.assign(longest, 0);
}

// The next node to search into dom_ (its lines queued, its guess logged); false when
// none is left.
bool ColourEngine::pick() {
    clear_queue();
    if (!root_taken_) {
        root_taken_ = true;
        depth_ = 0;
        for (int k = 0; k < h_ + w_; ++k) queue_line(k);
        return true;
    }
    while (!levels_.empty() && levels_.back().left == 0) levels_.pop_back();
    if (levels_.empty()) return false;
    Level& level = levels_.back();
    const int value = __builtin_ctzll(level.left);
    level.left &= level.left - 1;
    dom_ = level.dom;
    dom_[level.cell] = 1ULL << value;
    depth_ = level.depth + 1;
    cut_log(level.rows);
    queue_cell(level.cell);
    log_cell(++step_ids_, COLOUR_GUESS, level.cell, level.cell, value, level.dom[level.cell] & ~(1ULL << value));
    return true;
}

bool ColourEngine::exhausted() const {
    if (!root_taken_) return false;
    return std::all_of(levels_.begin(), levels_.end(), [](const Level& level) { return level.left == 0; });
}

// After a node's propagation (and probing): FOUND when every cell has one value, else a
// new level on its open cell with the fewest values (PAUSED: go on searching).
int ColourEngine::branch_or_found() {
    if (depth_ == 0) root_ = dom_;
    int best = -1, best_size = INT_MAX;
    for (size_t i = 0; i < dom_.size(); ++i) {
        const int size = __builtin_popcountll(dom_[i]);
        if (size > 1 && size < best_size) {
            best = static_cast<int>(i);
            best_size = size;
        }
    }
    if (best < 0) return FOUND_COLOUR;
    levels_.push_back({dom_, best, dom_[best], log_cells_.size(), depth_});
    return -1;
}

void ColourEngine::log_rows(size_t start, size_t stop, ColourLogRow* out) const {
    // The step holding row `start`: the last one starting at or before it.
    auto at = std::upper_bound(log_steps_.begin(), log_steps_.end(), start,
                               [](size_t row, const ColourLogStep& step) { return row < step.first; }) - 1;
    for (size_t row = start; row < stop; ++row) {
        while (at + 1 != log_steps_.end() && (at + 1)->first <= row) ++at;
        const ColourLogCell& c = log_cells_[row];
        out[row - start] = {at->step, at->technique, at->source, c.cell, c.value, at->depth, c.removed};
    }
}

std::vector<uint8_t> ColourEngine::cells() const {
    std::vector<uint8_t> values(dom_.size(), 0);
    for (size_t i = 0; i < dom_.size(); ++i) values[i] = static_cast<uint8_t>(std::max(0, single_value(dom_[i])));
    return values;
}

int ColourEngine::run(double seconds, long long node_budget) {
    deadline_ = std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
    work_ = 0;
    long long processed = 0;
    while (true) {
        switch (phase_) {
        case PICK:
            if (exhausted()) return EXHAUSTED_COLOUR;
            if (node_budget >= 0 && processed >= node_budget) return PAUSED_COLOUR;
            if (processed > 0 && clock_says_stop()) return PAUSED_COLOUR;
            if (!pick()) return EXHAUSTED_COLOUR;
            ++processed;
            ++stats[COLOUR_NODES];
            phase_ = PROPAGATE;
            break;
        case PROPAGATE: {
            const int ok = propagate(dom_, true, nullptr, true);
            if (ok == 2) return PAUSED_COLOUR;
            if (ok == 0) {
                phase_ = PICK;
            } else if (depth_ == 0 && probing_ > 0) {
                start_probe();
                phase_ = PROBE;
            } else {
                phase_ = BRANCH;
            }
            break;
        }
        case PROBE: {
            const int ok = probe();
            if (ok == 2) return PAUSED_COLOUR;
            phase_ = ok == 0 ? PICK : BRANCH;
            break;
        }
        case BRANCH:
            phase_ = PICK;
            if (branch_or_found() == FOUND_COLOUR) return FOUND_COLOUR;
            break;
        }
    }
}

}  // namespace native
