// The native engine's line cache: a bounded memo of line answers, direct-mapped (a new
// entry overwrites its slot).  Probing re-solves the same (clue, partial line) pairs
// over and over: published solvers see hit rates of 80-90 % (pbnsolve), and the cache
// turns a repeated line into a hash and a compare.  Contradictions are cached like
// successes.  A search and its forks share one cache: it memoises a pure function.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>

namespace native {

class LineCache {
public:
    LineCache(long long budget_bytes, int longest);
    // -1 a miss, else the cached answer (1: out filled, 0: contradiction); slot and
    // hash are where a miss is to be stored.
    int lookup(long long tag, const uint8_t* line, int n, uint8_t* out, size_t& slot, uint64_t& hash) const;
    void store(size_t slot, uint64_t hash, long long tag, const uint8_t* line, int n, const uint8_t* out, bool ok);
    // The slots made so far (0 until a solve first asks for the cache).
    size_t slots() const { return slots_; }
    // Whether a line of n cells can be cached; the tables are made on the first call
    // (a solve that never probes never asks: a line-solvable grid pays nothing for them).
    bool usable(int n) {
        if (!made_) make();
        return slots_ > 0 && n <= width_;
    }

private:
    // calloc, not std::vector: the operating system hands out zero pages as they are
    // first touched, so a 32 MB cache costs nothing until probing fills it (a vector
    // would write every byte up front: 0.04 s on a 1000x1000 grid that never probes).
    struct Free {
        void operator()(uint8_t* p) const { std::free(p); }
    };
    using Table = std::unique_ptr<uint8_t[], Free>;
    static Table zeros(size_t bytes);

    void make();
    // Replace the tables by empty ones of `power` slots (the cache's answers are dropped:
    // they are only a memo).
    bool resize(size_t power);
    // The slot of a line whose hash is `hash`.
    size_t slot_of(uint64_t hash) const { return static_cast<size_t>((hash ^ (hash >> 20)) & (slots_ - 1)); }

    long long budget_ = 0;
    size_t most_ = 0;      // the slots the budget allows (a power of two)
    size_t stores_ = 0;    // stores since the tables were last made
    int longest_ = 0;
    bool made_ = false;
    size_t slots_ = 0;
    int width_ = 0;
    // Every table starts zeroed by calloc, the slot tables too (1.5 MB at 2**16 slots,
    // 1 ms to fill by hand on every solve of a grid that may never use the cache): an
    // empty slot is one whose stored length is 0 (lengths_ holds the length + 1).
    Table keys_, results_, ok_, tags_, lengths_, hashes_;
    long long* tag_at() const { return reinterpret_cast<long long*>(tags_.get()); }
    long long* length_at() const { return reinterpret_cast<long long*>(lengths_.get()); }
    uint64_t* hash_at() const { return reinterpret_cast<uint64_t*>(hashes_.get()); }
};

}  // namespace native
