// The native engine's compiled core (see engine.hpp).  Each function follows the numba
// kernel of the same name step by step, so that both engines search the same tree and
// find the same solutions in the same order; the comments say why where it matters.
#include "engine.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace native {

namespace {

enum Phase { ROOT = 0, NODE = 1, BACKTRACK = 2 };

// A trimmed line is cached under its clue and its open blocks (clue id, b1, b2): lines
// of 4096 blocks or more are never trimmed (their key is the clue's alone).
constexpr long long KEY_BLOCKS = 1 << 12;
constexpr long long UNLIMITED_SWEEPS = 1LL << 30;
constexpr int NO_SPAN = 1 << 30;  // span_lo_ of a line with no changed cell

// LineDP::fix on bit sets (bitline.hpp) for a part of n cells that fits the word: the
// same answer (a line's fixpoint is unique) and, with update, the same windows (each
// block's first and last valid starts).
template <typename Word>
bool bit_fix(lcg::BitLineOf<Word>& solver, const int* clue, const int* rclue, int k, const uint8_t* line, int n,
             uint8_t* out, int* win_lo, int* win_hi, bool update) {
    Word e = 0, f = 0;
    for (int i = 0; i < n; ++i) {
        e |= static_cast<Word>(line[i] & 1) << i;
        f |= static_cast<Word>(line[i] >> 1) << i;
    }
    Word may_empty = 0, may_fill = 0;
    if (!solver.fix(clue, rclue, k, e, f, n, may_empty, may_fill, update ? win_lo : nullptr,
                    update ? win_hi : nullptr))
        return false;
    for (int i = 0; i < n; ++i)
        out[i] = static_cast<uint8_t>((static_cast<unsigned>(may_empty >> i) & 1) |
                                      ((static_cast<unsigned>(may_fill >> i) & 1) << 1));
    return true;
}

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

LineCache::LineCache(long long budget_bytes, int longest) : budget_(budget_bytes), longest_(longest) {}

// The first tables: at most this many slots.  The tables then grow with use (see
// store): a slot's first touch costs a page fault, and the six tables of 2**16 slots
// span about 1,200 pages, which a root probing spreads its answers over at random:
// 1.5 ms of a 25x25 grid's 2.2 ms root (measured: 0.7 ms with a 1 MB budget).
constexpr size_t FIRST_SLOTS = 1 << 10;

void LineCache::make() {
    made_ = true;
    // As many slots as fit the budget, at most 2**16, rounded down to a power of two
    // (the memory is about two lines per slot).
    long long slots = budget_ / std::max(1LL, 2LL * longest_ + 32);
    if (slots > (1 << 16)) slots = 1 << 16;
    size_t power = 0;
    if (slots > 0) {
        power = 1;
        while (power * 2 <= static_cast<size_t>(slots)) power *= 2;
    }
    most_ = power;
    if (power == 0) return;
    resize(std::min(power, FIRST_SLOTS));
}

bool LineCache::resize(size_t power) {
    // Made in the middle of a search, with the GIL released: memory that cannot be had
    // leaves the search uncached (slower, the same answers), never an exception.
    const int longest = longest_;
    try {
        Table keys = zeros(power * longest), results = zeros(power * longest), ok = zeros(power),
              tags = zeros(power * sizeof(long long)), lengths = zeros(power * sizeof(long long)),
              hashes = zeros(power * sizeof(uint64_t));
        keys_ = std::move(keys), results_ = std::move(results), ok_ = std::move(ok);
        tags_ = std::move(tags), lengths_ = std::move(lengths), hashes_ = std::move(hashes);
    } catch (const std::bad_alloc&) {
        return false;  // the tables so far stay
    }
    slots_ = power;
    width_ = longest;
    stores_ = 0;
    return true;
}

LineCache::Table LineCache::zeros(size_t bytes) {
    void* p = std::calloc(bytes ? bytes : 1, 1);
    if (!p) throw std::bad_alloc();
    return Table(static_cast<uint8_t*>(p));
}

int LineCache::lookup(long long tag, const uint8_t* line, int n, uint8_t* out, size_t& slot, uint64_t& hash) const {
    uint64_t x = static_cast<uint64_t>(tag) + 1;
    for (int i = 0; i < n; ++i) x = x * 131 + line[i] + 1;
    hash = x;
    slot = slot_of(x);
    if (length_at()[slot] != n + 1 || tag_at()[slot] != tag || hash_at()[slot] != x) return -1;
    const uint8_t* key = keys_.get() + slot * width_;
    for (int i = 0; i < n; ++i)
        if (key[i] != line[i]) return -1;
    if (!ok_[slot]) return 0;
    const uint8_t* result = results_.get() + slot * width_;
    for (int i = 0; i < n; ++i) out[i] = result[i];
    return 1;
}

void LineCache::store(size_t slot, uint64_t hash, long long tag, const uint8_t* line, int n, const uint8_t* out,
                      bool ok) {
    // Twice as many stores as slots since the tables were made: the search keeps asking
    // for new lines, so the cache grows (four times, up to the budget), empty.
    if (++stores_ > 2 * slots_ && slots_ < most_) {
        if (!resize(std::min(most_, slots_ * 4))) most_ = slots_;
        slot = slot_of(hash);
    }
    tag_at()[slot] = tag;
    length_at()[slot] = n + 1;
    hash_at()[slot] = hash;
    ok_[slot] = ok;
    uint8_t* key = keys_.get() + slot * width_;
    uint8_t* result = results_.get() + slot * width_;
    for (int i = 0; i < n; ++i) {
        key[i] = line[i];
        if (ok) result[i] = out[i];
    }
}

Engine::Engine(std::shared_ptr<const Clues> clues, std::vector<uint8_t> given, std::shared_ptr<LineCache> cache,
               int probing)
    : clues_(std::move(clues)), cache_(std::move(cache)), h_(clues_->h), w_(clues_->w), probing_(probing),
      given_(std::move(given)) {
    cells_ = given_;
    win_lo_ = clues_->lo;
    win_hi_ = clues_->hi;
    narrowed_.assign(h_ + w_, 0);
    dirty_.assign(h_ + w_, 0);
    span_lo_.assign(h_ + w_, NO_SPAN);
    span_hi_.assign(h_ + w_, -1);
    const int longest = std::max(h_, w_);
    line_.assign(longest + 1, 0);
    out_.assign(longest + 1, 0);
}

void Engine::mark_all() {
    std::fill(dirty_.begin(), dirty_.end(), 1);
    std::fill(span_lo_.begin(), span_lo_.end(), 0);
    std::fill(span_hi_.begin(), span_hi_.end(), NO_SPAN);
}

void Engine::clear_marks() {
    std::fill(dirty_.begin(), dirty_.end(), 0);
    std::fill(span_lo_.begin(), span_lo_.end(), NO_SPAN);
    std::fill(span_hi_.begin(), span_hi_.end(), -1);
}

bool Engine::time_up() {
    // Reading the clock costs about as much as a short cached line: every 16th call.
    if ((++work_ & 15) != 0) return false;
    return interrupted_.load(std::memory_order_relaxed) || std::chrono::steady_clock::now() >= deadline_;
}

// Solve line `index` of `grid` and write back what it fixes (onto `rec`, marking the
// crossing lines).  Only the segment of the line that can change is read and solved
// (as open_segment in propagate.py).  The windows hold every valid start of every
// block in this state (they were narrowed from a state this one narrows), so where
// block b-1's latest end falls before block b's earliest start, the line is cut in
// two: the cells between are empty in every arrangement (decided by the solve that
// narrowed the windows) and the blocks on either side are arranged independently.  A
// part none of whose cells changed since the line's last solve is as that solve left
// it, at its own fixpoint: the part solved is the one between the cuts around the
// changed cells, from its first block's earliest start to its last block's latest end,
// less the blocks at its ends that are pinned to one start (decided).  The cuts around
// the changed cells are looked for only in a windows-narrowing propagation (the root's
// first), where nearly every visit is a DP solve; in probing and search most visits are
// cache hits, whose cost the search of the cuts (a pass over the blocks) would raise by
// more than the smaller segment saves (8-25 % on probing-heavy puzzles, measured):
// there the part read is the line less its pinned ends.
// Returns the number of changed cells, or -1 on a contradiction.
int Engine::solve_line_at(std::vector<uint8_t>& grid, int index, std::vector<int>* rec, bool use_cache,
                          bool update) {
    const Clues& cl = *clues_;
    const bool row = index < h_;
    const int base = row ? index * w_ : index - h_;
    const int stride = row ? 1 : w_;
    const int n = row ? w_ : h_;
    const int crossing = row ? h_ : 0;
    const int position = row ? index : index - h_;  // this line's place in the crossing lines
    const int c0 = cl.start[index];
    const int k = cl.start[index + 1] - c0;
    // The spans matter only to a windows-narrowing propagation (the root's first, which
    // starts from every line marked whole and comes before any other): only it keeps them.
    const int first = span_lo_[index], last = span_hi_[index];
    if (update) {
        span_lo_[index] = NO_SPAN;
        span_hi_[index] = -1;
    }
    int b1 = 0, b2 = k, lo = 0, hi = n;
    if (narrowed_[index] && k < KEY_BLOCKS) {
        const int* len = cl.data.data() + c0;
        const int* wl = win_lo_.data() + c0;
        const int* wh = win_hi_.data() + c0;
        if (update) {  // the cuts: only where the DP's work dominates (see above)
            for (int b = 1; b < k && wl[b] <= first; ++b)  // the last cut before the first changed cell
                if (wh[b - 1] + len[b - 1] < wl[b]) b1 = b;
            for (int b = b1 + 1; b < k; ++b) {  // the first cut after the last one
                if (wh[b - 1] + len[b - 1] > last && wh[b - 1] + len[b - 1] < wl[b]) {
                    b2 = b;
                    break;
                }
            }
        }
        while (b1 < b2 && wl[b1] == wh[b1]) ++b1;
        while (b2 > b1 && wl[b2 - 1] == wh[b2 - 1]) --b2;
        if (b1 == b2) return 0;  // every block there pinned: decided
        lo = wl[b1];
        hi = wh[b2 - 1] + len[b2 - 1];
    }
    const int m = hi - lo;
    uint8_t* line = line_.data();
    uint8_t* out = out_.data();
    for (int i = 0; i < m; ++i) line[i] = grid[base + static_cast<size_t>(lo + i) * stride];
    const long long key = k < KEY_BLOCKS ? (cl.id[index] * KEY_BLOCKS + b1) * KEY_BLOCKS + b2 : -1 - cl.id[index];
    int* wlo = win_lo_.data() + c0 + b1;
    int* whi = win_hi_.data() + c0 + b1;
    const int open = b2 - b1;
    int ok = -1;
    size_t slot = 0;
    uint64_t hash = 0;
    const bool cached = use_cache && cache_->usable(m);
    if (cached) ok = cache_->lookup(key, line, m, out, slot, hash);
    if (ok >= 0) {
        ++stats[CACHE_HITS];
    } else {
        ++stats[LINE_SOLVES];
        int blank = 0;  // the part solved is all unknown (each line's first solve): no DP needed
        while (blank < m && line[blank] == 3) ++blank;
        // The open blocks' windows, relative to the part solved while it is solved (only
        // on a miss: a pass over the blocks is a good part of a cache hit's cost).
        if (lo > 0)
            for (int b = 0; b < open; ++b) { wlo[b] -= lo; whi[b] -= lo; }
        const int* clue = cl.data.data() + c0 + b1;
        const int* rclue = cl.rdata.data() + c0 + (k - b2);  // the open blocks reversed
        if (blank == m)
            ok = blank_fix(clue, open, m, out, wlo, whi, update) ? 1 : 0;
        else if (m <= lcg::BitLine64::MAX_CELLS)
            ok = bit_fix(bits64_, clue, rclue, open, line, m, out, wlo, whi, update) ? 1 : 0;
        else if (m <= lcg::BitLine::MAX_CELLS)
            ok = bit_fix(bits128_, clue, rclue, open, line, m, out, wlo, whi, update) ? 1 : 0;
        else
            ok = dp_.fix(clue, open, line, m, out, wlo, whi, update) ? 1 : 0;
        if (lo > 0)
            for (int b = 0; b < open; ++b) { wlo[b] += lo; whi[b] += lo; }
        if (cached) cache_->store(slot, hash, key, line, m, out, ok == 1);
    }
    if (ok == 0) return -1;
    if (update) narrowed_[index] = 1;
    int changed = 0;
    for (int i = 0; i < m; ++i) {
        if (out[i] == line[i]) continue;
        const int cell = static_cast<int>(base + static_cast<size_t>(lo + i) * stride);
        grid[cell] = out[i];
        if (rec) rec->push_back(cell);
        if (update)
            mark(crossing + lo + i, position);
        else
            dirty_[crossing + lo + i] = 1;
        ++changed;
    }
    return changed;
}

// Round-based propagation from the dirty lines: sweep the rows, then the columns, until
// a sweep changes nothing.  1 at the fixpoint, 0 on a contradiction (dirty cleared), 2
// when a pausable propagation ran out of time (it goes on from resume_at_ next call).
int Engine::propagate(std::vector<uint8_t>& grid, std::vector<int>* rec, bool use_cache, bool pausable,
                      bool update) {
    long long solved = 0;
    int start = resume_at_;
    resume_at_ = 0;
    const int lines = h_ + w_;
    while (true) {
        if (start == 0) ++stats[ROUNDS];
        for (int index = start; index < lines; ++index) {
            if (!dirty_[index]) continue;
            if (pausable && solved > 0 && time_up()) {
                resume_at_ = index;
                return 2;
            }
            ++solved;
            dirty_[index] = 0;
            if (solve_line_at(grid, index, rec, use_cache, update) < 0) {
                clear_marks();
                return 0;
            }
        }
        start = 0;
        bool again = false;
        for (int i = 0; i < h_ && !again; ++i) again = dirty_[i] != 0;
        if (!again) return 1;
    }
}

int Engine::trial(std::vector<uint8_t>& scratch, int p, uint8_t value, std::vector<int>& touched) {
    touched.clear();
    scratch[p] = value;
    mark_cell(p);
    ++stats[PROBES];
    return propagate(scratch, &touched, true, false, false);
}

void Engine::undo(std::vector<uint8_t>& scratch, const std::vector<int>& touched, int p) {
    for (int x : touched) scratch[x] = cells_[x];
    scratch[p] = cells_[p];
}

// Probe every unknown cell with both values until a sweep learns nothing (as probe in
// probe.py): a value that leads to a contradiction fixes the other one, and in full
// probing (mode 2) the cells both values set alike are fixed.  Returns 1, 0 on a
// contradiction, or 2 when out of time (the sweep goes on from probe_next_).
int Engine::probe(long long max_sweeps) {
    const int mode = probing_;
    const size_t size = cells_.size();
    if (scratch0_.size() != size) {
        scratch0_.assign(size, 0);
        scratch1_.assign(size, 0);
        score0_.assign(size, 0);
        score1_.assign(size, 0);
        mark_.assign(size, 0);
    }
    scratch0_ = cells_;
    scratch1_ = cells_;
    if (!probe_running_) {
        probe_next_ = 0;
        probe_learnt_ = false;
        probe_sweeps_ = 1;
        probe_running_ = true;
    }
    long long probed = 0;
    while (true) {
        const long long p64 = probe_next_;
        if (p64 >= static_cast<long long>(size)) {
            if (!probe_learnt_ || probe_sweeps_ >= max_sweeps) {
                probe_running_ = false;
                return 1;
            }
            probe_next_ = 0;
            probe_learnt_ = false;
            ++probe_sweeps_;
            continue;
        }
        const int p = static_cast<int>(p64);
        if (cells_[p] != 3) {
            score0_[p] = score1_[p] = 0;
            probe_next_ = p + 1;
            continue;
        }
        if (probed > 0 && (interrupted_.load(std::memory_order_relaxed) ||
                           std::chrono::steady_clock::now() >= deadline_)) return 2;
        probe_next_ = p + 1;
        ++probed;
        const int ok0 = trial(scratch0_, p, 1, touched0_);
        const int ok1 = trial(scratch1_, p, 2, touched1_);
        if (!ok0 && !ok1) {
            undo(scratch0_, touched0_, p);
            undo(scratch1_, touched1_, p);
            probe_running_ = false;
            return 0;
        }
        agree_.clear();
        if (ok0 && ok1) {
            score0_[p] = static_cast<int>(touched0_.size()) + 1;
            score1_[p] = static_cast<int>(touched1_.size()) + 1;
            if (mode == 2) {
                if (++stamp_ == 0) {  // wrapped: old marks could look current
                    std::fill(mark_.begin(), mark_.end(), 0);
                    stamp_ = 1;
                }
                for (int x : touched0_) mark_[x] = stamp_;
                for (int x : touched1_)
                    if (mark_[x] == stamp_ && scratch0_[x] == scratch1_[x]) agree_.push_back(x * 4 + scratch0_[x]);
            }
        }
        undo(scratch0_, touched0_, p);
        undo(scratch1_, touched1_, p);
        if (ok0 && ok1 && agree_.empty()) continue;
        const size_t start = trail_.size();
        if (!ok0 || !ok1) {
            set(p, ok0 ? 1 : 2);
            mark_cell(p);
        } else {
            for (int a : agree_) {
                const int x = a / 4;
                set(x, static_cast<uint8_t>(a % 4));
                mark_cell(x);
            }
        }
        if (propagate(cells_, &trail_, true, false, false) == 0) {
            probe_running_ = false;
            return 0;
        }
        for (size_t i = start; i < trail_.size(); ++i) {
            const int x = trail_[i];
            scratch0_[x] = scratch1_[x] = cells_[x];
        }
        probe_learnt_ = true;
    }
}

// The unknown cell to branch on, and the value to try first (choose_branch in probe.py):
// with probing, the cell maximising sqrt(max / (min + 1)) + min of its two branches'
// gains, the larger gain first; without, the first unknown cell, filled first.
int Engine::choose_branch(bool use_scores, uint8_t& value) const {
    int best = -1;
    double best_score = -1.0;
    value = 2;
    const int size = static_cast<int>(cells_.size());
    for (int p = 0; p < size; ++p) {
        if (cells_[p] != 3) continue;
        if (!use_scores) return p;
        const int a = score0_[p], b = score1_[p];
        const int low = std::min(a, b), high = std::max(a, b);
        const double score = std::sqrt(high / (low + 1.0)) + low;
        if (score > best_score) {
            best_score = score;
            best = p;
            value = b >= a ? 2 : 1;
        }
    }
    return best;
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
                probe_running_ = false;
                if (depth_ > stats[MAX_DEPTH]) stats[MAX_DEPTH] = depth_;
            }
            // The root's first propagation goes without the cache (it never repeats a line,
            // and on large grids filling the cache costs more than the solves) and narrows
            // the blocks' windows: every later state narrows the states it saw.
            const bool first = stats[NODES] == 1;
            int ok = propagate(cells_, &trail_, !first, true, first);
            if (ok == 2) {
                node_paused_ = true;
                return PAUSED;
            }
            node_paused_ = false;
            const int node_mode = depth_ <= probe_depth ? probing_ : 0;
            if (ok == 1 && node_mode > 0) {
                ok = probe(depth_ == 0 ? UNLIMITED_SWEEPS : deep_sweeps);
                if (ok == 2) {
                    node_paused_ = true;
                    return PAUSED;
                }
            }
            if (ok == 0) {
                phase_ = BACKTRACK;
                continue;
            }
            uint8_t value = 2;
            const int p = choose_branch(node_mode > 0, value);
            if (p < 0) {
                phase_ = BACKTRACK;
                return FOUND;
            }
            if (static_cast<int>(level_trail_.size()) <= depth_) {
                level_trail_.resize(depth_ + 1);
                level_cell_.resize(depth_ + 1);
                level_second_.resize(depth_ + 1);
                level_tried_.resize(depth_ + 1);
            }
            level_trail_[depth_] = trail_.size();
            level_cell_[depth_] = p;
            level_second_[depth_] = static_cast<uint8_t>(3 - value);
            level_tried_[depth_] = 0;
            ++depth_;
            set(p, value);
            mark_cell(p);
        } else {
            if (depth_ == 0) return EXHAUSTED;
            const int lvl = depth_ - 1;
            for (size_t i = level_trail_[lvl]; i < trail_.size(); ++i) cells_[trail_[i]] = 3;
            trail_.resize(level_trail_[lvl]);
            if (!level_tried_[lvl]) {
                level_tried_[lvl] = 1;
                const int p = level_cell_[lvl];
                set(p, level_second_[lvl]);
                mark_cell(p);
                phase_ = NODE;
            } else {
                --depth_;
            }
        }
    }
}

std::unique_ptr<Engine> Engine::fork_root() const {
    std::vector<uint8_t> grid = given_;
    const size_t root_trail = level_trail_.empty() ? trail_.size() : level_trail_[0];
    for (size_t i = 0; i < root_trail && i < trail_.size(); ++i) grid[trail_[i]] = cells_[trail_[i]];
    std::unique_ptr<Engine> fork(new Engine(clues_, std::move(grid), cache_, probing_));
    fork->win_lo_ = win_lo_;
    fork->win_hi_ = win_hi_;
    fork->narrowed_ = narrowed_;
    return fork;
}

std::vector<uint8_t> Engine::remainder() const {
    size_t end = trail_.size();
    for (int lvl = 0; lvl < depth_; ++lvl) {
        if (!level_tried_[lvl]) {
            end = level_trail_[lvl];
            break;
        }
    }
    std::vector<uint8_t> grid = given_;
    for (size_t i = 0; i < end; ++i) grid[trail_[i]] = cells_[trail_[i]];
    return grid;
}

}  // namespace native
