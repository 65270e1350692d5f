// Depth-first search with exact solution counting (see engine.hpp).  Every node
// propagates and probes, then branches on the cell choose_branch picks.  Branching on the
// two values of one cell partitions the space, so each solution is reached exactly once
// and an exhausted search makes the count exact.  State lives in arrays and changes are
// undone from a trail, so memory is O(cells) whatever the depth.
#include <algorithm>
#include <map>
#include <utility>

#include "engine.hpp"

namespace native {

namespace {

enum Phase { ROOT = 0, NODE = 1, BACKTRACK = 2 };

constexpr long long UNLIMITED_SWEEPS = 1LL << 30;
constexpr int NO_SPAN = 1 << 30;  // span_lo_ of a line with no changed cell

}  // namespace

Clues::Clues(int height, int width, const std::vector<std::vector<int>>& lines) : h(height), w(width) {
    std::map<std::vector<int>, long long> ids;
    start.push_back(0);
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::vector<int>& clue = lines[i];
        const int n = static_cast<int>(i) < h ? w : h;
        long long need = static_cast<long long>(clue.size()) - 1;
        for (int b : clue) need += b;
        const long long slack = clue.empty() ? 0 : n - need;
        if (slack < 0) fits = false;
        int at = 0;
        for (int b : clue) {
            data.push_back(b);
            lo.push_back(at);
            hi.push_back(static_cast<int>(at + slack));
            at += b + 1;
        }
        start.push_back(static_cast<int>(data.size()));
        rdata.insert(rdata.end(), clue.rbegin(), clue.rend());
        id.push_back(ids.emplace(clue, static_cast<long long>(ids.size())).first->second);
    }
}

Engine::Engine(std::shared_ptr<const Clues> clues, std::vector<uint8_t> given, std::shared_ptr<LineCache> cache,
               const Settings& settings)
    : clues_(std::move(clues)), cache_(std::move(cache)), settings_(settings), h_(clues_->h), w_(clues_->w),
      cells_(std::move(given)), lines_(settings.strategy, settings.cap) {
    // The trail is not reserved for every cell: the root's first propagation, which
    // decides most cells of a large picture, keeps off it (root_set_), and a reserve
    // of 4 bytes a cell counts against a cap on the address space (prlimit --as).
    trail_.reserve(std::min<size_t>(cells_.size(), 1 << 20));
    win_lo_ = clues_->lo;
    win_hi_ = clues_->hi;
    narrowed_.assign(h_ + w_, 0);
    dirty_.assign(h_ + w_, 0);
    span_lo_.assign(h_ + w_, NO_SPAN);
    span_hi_.assign(h_ + w_, -1);
    const int longest = std::max(h_, w_);
    line_.assign(longest + 1, 0);
    out_.assign(longest + 1, 0);
    if (settings_.probing == DEPTH2_PROBING) inner_.size_for(cells_.size());
}

// Set the branch cell p to `value` on a new level of the search.
void Engine::branch(int p, uint8_t value) {
    if (static_cast<int>(level_trail_.size()) <= depth_) {
        level_trail_.resize(depth_ + 1);
        level_log_.resize(depth_ + 1);
        level_cell_.resize(depth_ + 1);
        level_second_.resize(depth_ + 1);
        level_tried_.resize(depth_ + 1);
    }
    level_trail_[depth_] = trail_.size();
    level_log_[depth_] = log_.size();
    level_cell_[depth_] = p;
    level_second_[depth_] = static_cast<uint8_t>(3 - value);
    level_tried_[depth_] = 0;
    ++depth_;
    const bool log = settings_.record_steps;
    record(cells_, &trail_, p, value, log, new_step(log), GUESS, p);
    mark_cell(p);
}

int Engine::run(double seconds, long long node_budget, long long probe_depth, long long deep_sweeps) {
    deadline_ = std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
    work_ = 0;
    if (!clues_->fits) {  // some clue is longer than its line
        phase_ = BACKTRACK;
        depth_ = 0;
        return EXHAUSTED;
    }
    const bool log = settings_.record_steps;
    long long processed = 0;
    while (true) {
        if (phase_ == ROOT) {
            mark_all();
            phase_ = NODE;
        } else if (phase_ == NODE) {
            if (!node_paused_) {  // a new node, not one whose propagation or probing paused
                if (node_budget >= 0 && processed >= node_budget) return PAUSED;
                ++processed;
                ++stats[NODES];
                probes_.running = false;  // a fresh probing sweep at every node
                deep_next_ = deep_quiet_ = 0;
                deep_full_first_ = true;
                if (depth_ > stats[MAX_DEPTH]) stats[MAX_DEPTH] = depth_;
            }
            // The root's first propagation goes without the cache (it never repeats a line,
            // and on large grids filling the cache costs more than the solves) and narrows
            // the blocks' windows: every later state narrows the states it saw.
            const bool first = stats[NODES] == 1;
            // Its cells are never undone (the root has no level to go back to): they are
            // counted, not put on the trail.
            int ok = first ? propagate_blocks(cells_, nullptr, true, log)
                           : propagate(cells_, &trail_, true, true, false, log);
            if (ok == 2) {
                node_paused_ = true;
                return PAUSED;
            }
            node_paused_ = false;
            const int node_mode = depth_ <= probe_depth ? settings_.probing : NO_PROBING;
            if (ok == 1 && node_mode == DEPTH2_PROBING)
                ok = probe_depth2();
            else if (ok == 1 && node_mode > NO_PROBING)
                ok = probe(cells_, trail_, probes_, node_mode, depth_ == 0 ? UNLIMITED_SWEEPS : deep_sweeps, true);
            if (ok == 2) {  // paused mid-sweep: the same node goes on probing at the next call
                node_paused_ = true;
                return PAUSED;
            }
            if (ok == 0) {
                phase_ = BACKTRACK;
                continue;
            }
            uint8_t value = 2;
            const int p = choose_branch(node_mode > NO_PROBING, value);
            if (p < 0) {
                phase_ = BACKTRACK;
                return FOUND;
            }
            branch(p, value);
        } else {
            if (depth_ == 0) return EXHAUSTED;
            const int lvl = depth_ - 1;
            for (size_t i = level_trail_[lvl]; i < trail_.size(); ++i) {
                cells_[trail_[i]] = 3;
                cell_changed(trail_[i]);
            }
            trail_.resize(level_trail_[lvl]);
            log_.resize(level_log_[lvl]);
            if (!level_tried_[lvl]) {
                level_tried_[lvl] = 1;
                const int p = level_cell_[lvl];
                // A negative source marks the second branch of a cell in the log.
                record(cells_, &trail_, p, level_second_[lvl], log, new_step(log), GUESS, -1 - p);
                mark_cell(p);
                phase_ = NODE;
            } else {
                --depth_;
            }
        }
    }
}

// Every cell set is a given one, one the root's first propagation set (never undone), or
// on the trail: a state of the search less the trail from some point on is the state
// there.  (So neither the start grid nor the root's first cells need keeping.)
std::vector<uint8_t> Engine::state_before(size_t trail_end) const {
    std::vector<uint8_t> grid = cells_;
    for (size_t i = trail_end; i < trail_.size(); ++i) grid[trail_[i]] = 3;
    return grid;
}

std::unique_ptr<Engine> Engine::fork_root(int branching) const {
    const size_t root_trail = level_trail_.empty() ? trail_.size() : level_trail_[0];
    const size_t root_log = level_log_.empty() ? log_.size() : level_log_[0];
    std::vector<uint8_t> grid = state_before(std::min(root_trail, trail_.size()));
    Settings settings = settings_;
    if (branching >= 0) settings.branching = branching;
    std::unique_ptr<Engine> fork(new Engine(clues_, std::move(grid), cache_, settings));
    fork->win_lo_ = win_lo_;
    fork->win_hi_ = win_hi_;
    fork->narrowed_ = narrowed_;
    fork->log_.assign(log_.begin(), log_.begin() + std::min(root_log, log_.size()));
    fork->step_id_ = step_id_;
    return fork;
}

// The given cells, then those on the trail up to the first level whose first branch is
// still open: the root's propagation and probing, then the second branch (and its
// propagation) of every level whose first branch was exhausted.
std::vector<uint8_t> Engine::remainder() const {
    size_t end = trail_.size();
    for (int lvl = 0; lvl < depth_; ++lvl) {
        if (!level_tried_[lvl]) {
            end = level_trail_[lvl];
            break;
        }
    }
    return state_before(end);
}

}  // namespace native
