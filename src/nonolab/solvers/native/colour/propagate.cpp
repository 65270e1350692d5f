// Colour propagation and probing (see engine.hpp).
//
// Propagation runs the complete colour line solver on every line whose cells changed
// until nothing changes; each line solve that narrows cells is a step of the log (the
// cells it decides, and the values it rules out of the cells it leaves open).  Probing is the colour form of black and white's, over (cell,
// value) choices, at the root:
//
//  * contradiction: a value whose propagation contradicts is removed from its cell;
//  * full: as above, and every cell that all the surviving values of the probed cell
//    narrow is narrowed to the union of what they leave it (with two values, the cells
//    both branches agree on; with more, a cell may lose values without being decided).
//    "Changed by every consistent trial" is a count with no gap: a trial that leaves a
//    cell alone leaves it all its values (issue 23: counting "changed by the latest
//    trial" instead removed real solutions on colour puzzles with three values or more).
//
// Sweeps repeat until one learns nothing.  Each trial runs on a scratch copy of the
// domains and is undone from the list of cells it touched, so a trial costs what it
// changes.  Every narrowing goes into the step log, not only a cell's decision: a later
// step may rest on values an earlier one ruled out, and a log of decisions alone showed
// such a step as following from nothing it had shown (a quarter of the line steps of
// random colour puzzles, benchmarks/log/2026-11-27-steps-14.md).
#include <algorithm>

#include "engine.hpp"

namespace native {

bool ColourEngine::time_up() {
    if ((++work_ & 15) != 0) return false;
    return clock_says_stop();
}

// Only the lines still queued carry a flag (a solved line drops its own): O(queued).
void ColourEngine::clear_queue() {
    for (std::vector<int>& lines : pending_) {
        for (int k : lines) queued_[k] = 0;
        lines.clear();
    }
}

// Solves the queued lines in rounds (every queued row, then every queued column, and
// again) until none is left: 1; 0 on a contradiction; 2 when a pausable propagation ran
// out of time (the queue goes on at the next call).  The fixpoint does not depend on the
// order (each solve only narrows, and a line is solved again whenever a cell of it
// changes), so neither do the counts.  Every changed cell goes onto `touched`; with log,
// cells decided go into the step log.
int ColourEngine::propagate(std::vector<uint64_t>& dom, bool log, std::vector<int>* touched, bool pausable) {
    const bool logging = log && record_steps_;
    while (!pending_[0].empty() || !pending_[1].empty()) {
        if (pending_[side_].empty()) side_ ^= 1;
        if (pausable && time_up()) return 2;
        const int k = pending_[side_].back();
        pending_[side_].pop_back();
        queued_[k] = 0;
        ++stats[COLOUR_LINE_SOLVES];
        const bool row = k < h_;
        const int n = row ? w_ : h_, base = row ? k * w_ : k - h_, stride = row ? 1 : w_;
        for (int i = 0; i < n; ++i) buf_[i] = dom[base + static_cast<size_t>(i) * stride];
        if (!dp_.fix(autos_[k], buf_.data(), n, out_.data())) return 0;
        long long step = -1;
        for (int i = 0; i < n; ++i) {
            const int cell = static_cast<int>(base + static_cast<size_t>(i) * stride);
            if (out_[i] == dom[cell]) continue;
            if (logging) {
                if (step < 0) step = ++step_ids_;
                log_cell(step, COLOUR_LINE, k, cell, single_value(out_[i]), dom[cell] & ~out_[i]);
            }
            dom[cell] = out_[i];
            if (touched) touched->push_back(cell);
            queue_line(row ? h_ + cell % w_ : cell / w_);
        }
    }
    return 1;
}

// Narrows the node's cell to `mask` (a subset), queues its lines, logs the narrowing.
void ColourEngine::narrow(int cell, uint64_t mask, long long step, int technique, int source) {
    log_cell(step, technique, source, cell, single_value(mask), dom_[cell] & ~mask);
    dom_[cell] = mask;
    queue_cell(cell);
}

void ColourEngine::start_probe() {
    const size_t size = dom_.size();
    scratch_ = dom_;
    seen_.assign(size, -1);
    hits_.assign(size, 0);
    union_.assign(size, 0);
    stamp_ = 0;
    probe_cell_ = 0;
    probe_learnt_ = false;
}

// Probes every value of one cell of the node; 0 when none is consistent, else 1.
int ColourEngine::probe_cell(int cell) {
    const uint64_t d = dom_[cell];
    ++stamp_;
    uint64_t survivors = 0;
    long long consistent = 0;
    first_.clear();
    for (int v = 0; v < values_; ++v) {
        if (!((d >> v) & 1)) continue;
        clear_queue();
        touched_.clear();
        scratch_[cell] = 1ULL << v;
        queue_cell(cell);
        ++stats[COLOUR_PROBES];
        if (propagate(scratch_, false, &touched_, false)) {
            survivors |= 1ULL << v;
            ++consistent;
            if (probing_ == 2) {
                // Per cell: the run of consistent trials, from the first, that all changed
                // it, and the union of the values they left it; a cell touched twice in one
                // trial is counted once.
                for (int t : touched_) {
                    if (seen_[t] != stamp_) {
                        seen_[t] = stamp_;
                        hits_[t] = 0;
                        union_[t] = 0;
                        if (consistent == 1) first_.push_back(t);
                    }
                    if (hits_[t] == consistent - 1) {
                        hits_[t] = consistent;
                        union_[t] |= scratch_[t];
                    }
                }
            }
        }
        for (int t : touched_) scratch_[t] = dom_[t];
        scratch_[cell] = d;
    }
    if (survivors == 0) return 0;
    if (survivors != d) {
        const long long step = ++step_ids_;
        clear_queue();
        narrow(cell, survivors, step, COLOUR_CONTRADICTION, cell);
    } else if (probing_ == 2) {
        const long long step = ++step_ids_;
        clear_queue();
        bool changed = false;
        for (int t : first_) {
            // A cell every consistent trial changed: its value lies in their union.
            if (hits_[t] == consistent && union_[t] != dom_[t]) {
                narrow(t, union_[t] & dom_[t], step, COLOUR_AGREE, cell);
                changed = true;
            }
        }
        if (!changed) return 1;
    } else {
        return 1;
    }
    probe_learnt_ = true;
    if (!propagate(dom_, true, nullptr, false)) return 0;
    scratch_ = dom_;
    return 1;
}

// Probes the node's domains (at the line fixpoint) until a sweep learns nothing: 1; 0
// when some cell has no consistent value; 2 when out of time (it goes on from
// probe_cell_ at the next call).
int ColourEngine::probe() {
    const int size = static_cast<int>(dom_.size());
    long long probed = 0;
    while (true) {
        if (probe_cell_ >= size) {  // the end of a sweep: another one only if this one learnt
            if (!probe_learnt_) return 1;
            probe_cell_ = 0;
            probe_learnt_ = false;
            continue;
        }
        const uint64_t d = dom_[probe_cell_];
        if ((d & (d - 1)) == 0) {
            ++probe_cell_;
            continue;
        }
        if (probed > 0 && clock_says_stop()) return 2;
        ++probed;
        if (!probe_cell(probe_cell_++)) return 0;
    }
}

}  // namespace native
