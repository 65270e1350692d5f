// The root's first propagation (the windows-narrowing one, without the cache), in blocks
// of lines, on one thread or more.  It is where a huge grid spends its time: every line
// solved about seven times over some 25 rounds (10,000 x 10,000: 142,681 solves).
//
// Two things make it cheaper than propagate() line by line:
//  * a block of columns is gathered row by row, transposed: a column read alone touches
//    one cache line a cell (three quarters of solve_line_at's time on 10,000-cell
//    columns was that gather); a row of the block reads its 64 cells from one;
//  * the lines of one sweep (all rows, or all columns) are independent: a line's solve
//    reads and writes only its own cells and its own blocks' windows.  Blocks are handed
//    out in order to settings_.threads threads, and what each block changed is merged
//    in block order after them (the trail, the step log, the crossing lines' marks and
//    spans), so the cells, windows, trail, log and counters are those of propagate():
//    the number of threads changes the wall time, never an answer or a counter.
// A sweep pauses on the clock between blocks: the blocks done form a prefix (a block is
// taken only after the clock was looked at, and every block taken is finished).
#include <algorithm>
#include <atomic>
#include <cstring>
#include <new>
#include <system_error>
#include <thread>

#include "engine.hpp"

namespace native {

namespace {

// Lines a block: 64 columns are one cache line of a row.
constexpr int BLOCK_LINES = 64;
// How far ahead a block's gather asks for rows (a grid's end is only read past as a
// prefetch, which never faults).
constexpr int PREFETCH_ROWS = 16;
// Blocks between merges: bounds the changes held unmerged (64 x 16 lines' worth).
constexpr int WAVE_BLOCKS = 16;
// Lines shorter than this are swept on one thread, and so is a wave of fewer dirty lines
// than two blocks: a thread's start (tens of microseconds) would cost more than it saves.
constexpr int THREADED_LENGTH = 128;

// Whether a[0..8) equals b[0..8).
inline bool same8(const uint8_t* a, const uint8_t* b) {
    uint64_t x, y;
    std::memcpy(&x, a, 8);
    std::memcpy(&y, b, 8);
    return x == y;
}

}  // namespace

// Solve the dirty lines of [first, end) (all rows or all columns) on `lane`, writing what
// they fix into `grid` and listing it in `out`.
void Engine::sweep_block(SweepLane& lane, std::vector<uint8_t>& grid, int first, int end, SweepBlock& out) {
    out.cells.clear();
    out.lines.clear();
    out.ok = true;
    const bool rows = first < h_;
    const int n = rows ? w_ : h_;
    Segment segs[BLOCK_LINES];
    int index_of[BLOCK_LINES];
    int count = 0, top = n, bottom = 0;
    for (int index = first; index < end; ++index) {
        if (!dirty_[index]) continue;
        dirty_[index] = 0;
        Segment seg;
        if (!segment_of(index, true, seg)) continue;
        segs[count] = seg;
        index_of[count++] = index;
        top = std::min(top, seg.lo);
        bottom = std::max(bottom, seg.hi);
    }
    if (count == 0) return;
    lane.out.resize(n);
    if (!rows) {  // the block's columns, row by row: column j's cells at columns[j * h_ + r]
        lane.columns.resize(static_cast<size_t>(count) * h_);
        const int c0 = first - h_;
        for (int r = top; r < bottom; ++r) {
            const uint8_t* src = grid.data() + static_cast<size_t>(r) * w_ + c0;
            // Rows are w_ bytes apart, too far for the hardware to guess: ask for the
            // row PREFETCH_ROWS ahead, so that the misses overlap.
            __builtin_prefetch(src + static_cast<size_t>(PREFETCH_ROWS) * w_);
            for (int j = 0; j < count; ++j) lane.columns[static_cast<size_t>(j) * h_ + r] = src[index_of[j] - first];
        }
    }
    uint8_t* fixed = lane.out.data();
    int low = h_, high = -1;  // the rows of the block's columns that changed
    for (int j = 0; j < count; ++j) {
        const int index = index_of[j];
        const Segment& seg = segs[j];
        const int m = seg.hi - seg.lo;
        uint8_t* line = rows ? grid.data() + static_cast<size_t>(index) * w_ + seg.lo
                             : lane.columns.data() + static_cast<size_t>(j) * h_ + seg.lo;
        ++lane.solves;
        if (!fix_segment(lane.solver, index, seg, line, fixed, true)) {
            out.ok = false;
            break;
        }
        const size_t before = out.cells.size();
        for (int i = 0; i < m; ++i) {
            if (i + 8 <= m && same8(fixed + i, line + i)) {  // most of a long line is as it was
                i += 7;
                continue;
            }
            if (fixed[i] == line[i]) continue;
            out.cells.push_back(seg.lo + i);
            line[i] = fixed[i];  // a row into the grid; a column into the block, written back below
        }
        if (out.cells.size() > before) {
            out.lines.emplace_back(index, static_cast<int>(out.cells.size() - before));
            low = std::min(low, out.cells[before]);
            high = std::max(high, out.cells.back());
        }
    }
    // The block's columns back into the grid, row by row (one cache line a row, not a
    // cell), over the rows where some of them changed; a column not solved (after a
    // contradiction) is as it was gathered.
    for (int r = low; r <= high && !rows; ++r) {
        uint8_t* dst = grid.data() + static_cast<size_t>(r) * w_ + (first - h_);
        __builtin_prefetch(dst + static_cast<size_t>(PREFETCH_ROWS) * w_, 1);
        for (int j = 0; j < count; ++j) dst[index_of[j] - first] = lane.columns[static_cast<size_t>(j) * h_ + r];
    }
}

// Sweep the lines [from, end) (all rows or all columns) in waves of blocks; `from`
// advances over the blocks done.  1 done, 0 a contradiction, 2 paused on the clock.
int Engine::sweep_range(std::vector<uint8_t>& grid, std::vector<int>* rec, int& from, int end, bool pausable,
                        bool log, bool& progressed) {
    const bool rows = from < h_;
    const int length = rows ? w_ : h_;
    const int threads = length >= THREADED_LENGTH ? std::max(1, settings_.threads) : 1;
    while (lanes_.size() < static_cast<size_t>(threads))
        lanes_.emplace_back(new SweepLane(settings_.strategy, settings_.cap));
    std::vector<SweepBlock> blocks(WAVE_BLOCKS);
    while (from < end) {
        const int wave = std::min(WAVE_BLOCKS, (end - from + BLOCK_LINES - 1) / BLOCK_LINES);
        std::atomic<int> next{0};
        std::atomic<bool> stop{false};
        const bool checked = progressed;  // the first block of a call goes on whatever the clock says
        auto sweep_blocks = [&](SweepLane& lane) {
            while (!stop.load(std::memory_order_relaxed)) {
                if (pausable && (checked || next.load(std::memory_order_relaxed) > 0) && clock_says_stop()) {
                    stop.store(true, std::memory_order_relaxed);
                    break;
                }
                const int b = next.fetch_add(1, std::memory_order_relaxed);
                if (b >= wave) break;
                const int first = from + b * BLOCK_LINES;
                sweep_block(lane, grid, first, std::min(end, first + BLOCK_LINES), blocks[b]);
                if (!blocks[b].ok) stop.store(true, std::memory_order_relaxed);
            }
        };
        // A helper that runs out of memory stops the wave; the error is raised again
        // here, after the joins, as the std::bad_alloc the binding turns into MemoryError
        // (an exception escaping a thread would end the process).
        std::atomic<bool> failed{false};
        auto work = [&](SweepLane& lane) {
            try {
                sweep_blocks(lane);
            } catch (...) {
                failed.store(true);
                stop.store(true, std::memory_order_relaxed);
            }
        };
        // A wave of a few dirty lines (the late rounds) is not worth a thread's start.
        int dirty = 0;
        for (int i = from, stop_at = std::min(end, from + wave * BLOCK_LINES); i < stop_at; ++i) dirty += dirty_[i];
        const int helpers = dirty >= 2 * BLOCK_LINES ? std::min(threads, wave) - 1 : 0;
        std::vector<std::thread> pool;
        pool.reserve(helpers);
        for (int t = 1; t <= helpers; ++t) {
            try {
                pool.emplace_back(work, std::ref(*lanes_[t]));
            } catch (const std::system_error&) {  // no thread to be had: fewer helpers
                break;
            }
        }
        work(*lanes_[0]);
        for (std::thread& t : pool) t.join();
        if (failed.load()) throw std::bad_alloc();
        const int done = std::min(wave, next.load());
        bool ok = true;
        for (int b = 0; b < done; ++b) {  // the merge, in block order: as propagate() would have done it
            const SweepBlock& blk = blocks[b];
            ok = ok && blk.ok;
            size_t at = 0;
            const int crossing = rows ? h_ : 0;
            for (const auto& [index, changed] : blk.lines) {
                const int position = rows ? index : index - h_;  // this line's place in the crossing lines
                if (!rec && !log) {  // the root's first propagation, no step log: only the marks (100 M at 10,000²)
                    root_set_ += changed;
                    for (int c = 0; c < changed; ++c, ++at) mark(crossing + blk.cells[at], position);
                    continue;
                }
                const long long step = new_step(log);
                for (int c = 0; c < changed; ++c, ++at) {
                    const int pos = blk.cells[at];  // the cell's place in its line
                    const int cell = rows ? index * w_ + pos : pos * w_ + (index - h_);
                    if (rec)
                        rec->push_back(cell);
                    else
                        ++root_set_;
                    if (log) log_.push_back({step, LINE, index, cell, grid[cell] == 2 ? 1 : 0});
                    mark(crossing + pos, position);
                }
            }
        }
        for (size_t t = 0; t < lanes_.size(); ++t) {
            stats[LINE_SOLVES] += lanes_[t]->solves;
            lanes_[t]->solves = 0;
        }
        if (done > 0) progressed = true;
        from = std::min(end, from + done * BLOCK_LINES);
        if (!ok) return 0;
        if (from < end && done < wave) return 2;
    }
    return 1;
}

// propagate() with update and without the cache: rounds of a row sweep and a column
// sweep until a round changes nothing (1), a contradiction (0, the marks cleared), or
// the clock (2: it goes on from resume_at_ next call).
int Engine::propagate_blocks(std::vector<uint8_t>& grid, std::vector<int>* rec, bool pausable, bool log) {
    int start = resume_at_;
    resume_at_ = 0;
    bool progressed = false;
    while (true) {
        if (start == 0) ++stats[ROUNDS];
        for (int part = 0; part < 2; ++part) {
            const int begin = part == 0 ? 0 : h_, end = part == 0 ? h_ : h_ + w_;
            if (start >= end) continue;
            int from = std::max(start, begin);
            const int result = sweep_range(grid, rec, from, end, pausable, log, progressed);
            if (result == 0) {
                clear_marks();
                return 0;
            }
            if (result == 2) {
                resume_at_ = from;
                return 2;
            }
        }
        start = 0;
        if (!rows_dirty()) return 1;
    }
}

}  // namespace native
