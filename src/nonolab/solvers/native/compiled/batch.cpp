// Many puzzles in one call (see batch.hpp): one native::Engine per puzzle, no Python
// in between.
#include "batch.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

#include "../search/engine.hpp"

namespace native {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// One puzzle's clues, as the engine takes them.
std::shared_ptr<const Clues> clues_of(const BatchInput& in, long long puzzle, long long& line, long long& block) {
    const int h = in.sizes[2 * puzzle], w = in.sizes[2 * puzzle + 1];
    std::vector<std::vector<int>> lines(static_cast<size_t>(h + w));
    for (auto& clue : lines) {
        const int k = in.lengths[line++];
        clue.assign(in.blocks + block, in.blocks + block + k);
        block += k;
    }
    return std::make_shared<const Clues>(h, w, lines);
}

// A single solve's settings with this probing (0 none, 1 contradiction, 2 full: the
// ProbingLevel values): the dp line strategy, no step log.
Settings settings_of(int probing, long long cache_bytes) {
    Settings settings;
    settings.probing = probing;
    settings.strategy = DP;
    settings.cache_bytes = cache_bytes;
    return settings;
}

// Whether the root of a search with this probing decides every cell (or contradicts):
// the one-node run of harness/classify.py's grading.
bool root_decides(const std::shared_ptr<const Clues>& clues, int probing, long long cache_bytes) {
    const int longest = std::max(clues->h, clues->w);
    Engine engine(clues, std::vector<uint8_t>(static_cast<size_t>(clues->h) * clues->w, 3),
                  std::make_shared<LineCache>(cache_bytes, longest), settings_of(probing, cache_bytes));
    // No time limit: a root's propagation and probing are polynomial, and on the small
    // grids a batch is for they take microseconds.
    const int code = engine.run(1e9, 1, 1LL << 30, 1LL << 30);
    return code != PAUSED;
}

}  // namespace

const char* batch_problem(const BatchInput& in) {
    long long line = 0, block = 0;
    for (long long i = 0; i < in.puzzles; ++i) {
        const long long h = in.sizes[2 * i], w = in.sizes[2 * i + 1];
        if (h < 1 || w < 1 || h * w > 1000000) return "every puzzle needs 1 to 1,000,000 cells";
        if (line + h + w > in.lines) return "fewer line lengths than the sizes need";
        for (long long l = 0; l < h + w; ++l) {
            const long long k = in.lengths[line + l];
            if (k < 0 || block + k > in.block_count) return "fewer blocks than the line lengths need";
            for (long long b = block; b < block + k; ++b)  // (a block longer than its line: no solution)
                if (in.blocks[b] < 1 || in.blocks[b] > 1000000) return "a block length out of range";
            block += k;
        }
        line += h + w;
    }
    if (line != in.lines || block != in.block_count) return "more line lengths or blocks than the sizes use";
    return "";
}

BatchOutput run_batch(const BatchInput& in, const BatchOptions& opt) {
    BatchOutput out;
    const Clock::time_point call_start = Clock::now();
    long long line = 0, block = 0;
    for (long long i = 0; i < in.puzzles; ++i) {
        if (i > 0 && seconds_since(call_start) >= opt.budget) break;
        const Clock::time_point start = Clock::now();
        std::shared_ptr<const Clues> clues = clues_of(in, i, line, block);
        const size_t size = static_cast<size_t>(clues->h) * clues->w;
        const int longest = std::max(clues->h, clues->w);
        Engine engine(clues, std::vector<uint8_t>(size, 3), std::make_shared<LineCache>(opt.cache_bytes, longest),
                      settings_of(opt.probing, opt.cache_bytes));
        const size_t at = out.solutions.size();  // this puzzle's grids, max_solutions of them
        out.solutions.resize(at + size * opt.max_solutions, 0);
        int found = 0;
        int state = BATCH_UNFINISHED;
        while (true) {
            const double left = opt.puzzle_seconds - seconds_since(start);
            if (left <= 0) break;
            const int code = engine.run(left, -1, 1LL << 30, 1LL << 30);
            if (code == FOUND) {
                std::copy(engine.cells().begin(), engine.cells().end(),
                          out.solutions.begin() + static_cast<long>(at + found * size));
                if (++found >= opt.max_solutions) {
                    state = BATCH_ENOUGH;
                    break;
                }
            } else if (code == EXHAUSTED) {
                state = BATCH_EXHAUSTED;
                break;
            }
        }
        int level = -1;
        if (opt.levels && state == BATCH_EXHAUSTED && found == 1) {
            // A count without probing that never branched is the line solver's own answer.
            if (opt.probing == 0 && engine.stats[NODES] == 1) level = 0;
            for (int p = 0; p <= 2 && level < 0; ++p)
                if (root_decides(clues, p, opt.cache_bytes)) level = p;
            if (level < 0) level = 3;
        }
        out.found.push_back(static_cast<int8_t>(found));
        out.state.push_back(static_cast<int8_t>(state));
        out.level.push_back(static_cast<int8_t>(level));
        out.nodes.push_back(engine.stats[NODES]);
        out.seconds.push_back(seconds_since(start));
        out.done = i + 1;
    }
    return out;
}

}  // namespace native
