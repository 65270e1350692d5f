// Propagation by the line solvers (see engine.cpp for the design): a row or column run
// on its current partial assignment, each cell it forces enqueued with the line as its
// reason.  Lines of at most 127 cells run on bit sets (bitline.hpp) from masks kept as
// cells are assigned; longer lines on the byte table of line.hpp.  Both give the same
// cells, in the same order, so the search does not depend on which ran.  Lines of up
// to 63 cells are solved every time: the memo's slot, a cache miss, cost more than the
// solve (on 25x25 tournament puzzles; lines of 64-127 cells and byte lines keep it).
#include "engine.hpp"

#include <algorithm>
#include <climits>

namespace lcg {

bool Engine::run_line(int line) {
    if (__builtin_expect(values_ != 0, 0)) return run_colour_line(line);
    if (bit_line_[line]) return run_bit_line(line);
    const std::vector<int>& cells = line_cells_[line];
    const std::vector<int>& clue = line_clue_[line];
    const int n = static_cast<int>(cells.size());
    uint8_t* s = state_buf_.data();
    for (int i = 0; i < n; ++i) {
        const int v = value_[cells[i]];
        s[i] = v < 0 ? 3 : (v ? 2 : 1);
    }
    ++counters_.line_runs;
    uint64_t hash = 1469598103934665603ULL ^ static_cast<uint64_t>(line) * 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < n; ++i) hash = (hash ^ s[i]) * 1099511628211ULL;
    CacheSlot& slot = cache_[(hash ^ (hash >> 29)) & cache_mask_];
    const uint8_t* out = nullptr;
    bool ok;
    if (slot.line == line && std::equal(slot.key.begin(), slot.key.end(), s)) {
        ++counters_.cache_hits;
        ok = slot.ok;
        out = slot.out.data();
    } else {
        ok = dp_.fix(clue.data(), static_cast<int>(clue.size()), s, n, out_buf_.data());
        slot.line = line;
        slot.ok = ok;
        slot.key.assign(s, s + n);
        slot.out.assign(out_buf_.begin(), out_buf_.begin() + n);
        out = out_buf_.data();
    }
    if (!ok) {
        explain(line, INT_MAX, -1, conflict_lits_);
        return false;
    }
    for (int i = 0; i < n; ++i)
        if (s[i] == 3 && out[i] != 3) enqueue(lit_of(cells[i], out[i] == 2), LINE, line);
    return true;
}

// run_line on bit sets: the same cells forced, in the same order (left to right).
bool Engine::run_bit_line(int line) {
    const std::vector<int>& cells = line_cells_[line];
    const int n = static_cast<int>(cells.size());
    ++counters_.line_runs;
    const uint64_t empty[2] = {line_may_empty_[2 * line], line_may_empty_[2 * line + 1]};  // (a bit line's masks are kept)
    const uint64_t fill[2] = {line_may_fill_[2 * line], line_may_fill_[2 * line + 1]};
    const Bits e = static_cast<Bits>(empty[1]) << 64 | empty[0], f = static_cast<Bits>(fill[1]) << 64 | fill[0];
    if (bit_line_[line] == 1) {
        uint64_t may_empty = 0, may_fill = 0;
        const std::vector<int>& clue = line_clue_[line];
        const int k = static_cast<int>(clue.size());
        if (line_fits_[line] ? !bits64_.fix_fitting(clue.data(), line_rclue_[line].data(), k, empty[0], fill[0], n,
                                                    may_empty, may_fill)
                             : !bits64_.fix(clue.data(), line_rclue_[line].data(), k, empty[0], fill[0], n, may_empty,
                                            may_fill)) {
            explain(line, INT_MAX, -1, conflict_lits_);
            return false;
        }
        const uint64_t forced = empty[0] & fill[0] & ~(may_empty & may_fill);
        for (uint64_t m = forced; m; m &= m - 1) {
            const int i = __builtin_ctzll(m);
            enqueue(lit_of(cells[i], ((may_fill >> i) & 1) != 0), LINE, line);
        }
        return true;
    }
    uint64_t hash = static_cast<uint64_t>(line) * 0x9E3779B97F4A7C15ULL;
    for (uint64_t word : {empty[0], empty[1], fill[0], fill[1]}) {
        hash = (hash ^ word) * 0xBF58476D1CE4E5B9ULL;
        hash ^= hash >> 31;
    }
    BitSlot* found = &bit_cache_[hash & bit_cache_mask_];
    if (found->line == line && found->empty == e && found->fill == f) {
        ++counters_.cache_hits;
    } else {
        // Twice as many stores as slots: the search keeps meeting new lines, so the
        // cache grows fourfold, empty (it is a memo), up to its most.
        if (++bit_stores_ > 2 * bit_cache_.size() && bit_cache_.size() < kMostBitSlots) {
            bit_cache_.assign(bit_cache_.size() * 4, BitSlot());
            bit_cache_mask_ = bit_cache_.size() - 1;
            bit_stores_ = 0;
            found = &bit_cache_[hash & bit_cache_mask_];
        }
        BitSlot& slot = *found;
        const std::vector<int>& clue = line_clue_[line];
        slot.line = line;
        slot.empty = e;
        slot.fill = f;
        const int k = static_cast<int>(clue.size());
        if (bit_line_[line] == 1) {
            uint64_t may_empty = 0, may_fill = 0;
            slot.ok = bits64_.fix(clue.data(), line_rclue_[line].data(), k, empty[0], fill[0], n, may_empty, may_fill);
            slot.may_empty = may_empty;
            slot.may_fill = may_fill;
        } else {
            slot.ok = bits_.fix(clue.data(), line_rclue_[line].data(), k, e, f, n, slot.may_empty, slot.may_fill);
        }
    }
    const BitSlot& slot = *found;
    if (!slot.ok) {
        explain(line, INT_MAX, -1, conflict_lits_);
        return false;
    }
    const Bits forced = e & f & ~(slot.may_empty & slot.may_fill);  // open cells left one value
    const Bits filled = slot.may_fill;
    for (int w = 0; w < 2; ++w) {
        for (uint64_t m = static_cast<uint64_t>(forced >> (64 * w)); m; m &= m - 1) {
            const int i = 64 * w + __builtin_ctzll(m);
            enqueue(lit_of(cells[i], ((filled >> i) & 1) != 0), LINE, line);
        }
    }
    return true;
}

// The cells the root level decides (a remainder for another engine: auto's rival).
std::vector<uint8_t> Engine::root_cells() const {
    std::vector<uint8_t> cells(solution_.size(), 2);
    if (values_ != 0) return cells;
    for (int v = 0; v < nvars_; ++v)
        if (value_[v] >= 0 && level_[v] == 0) cells[v] = static_cast<uint8_t>(value_[v]);
    return cells;
}

}  // namespace lcg
