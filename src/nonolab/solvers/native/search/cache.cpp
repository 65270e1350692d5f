// The native engine's line cache (see cache.hpp).
#include "cache.hpp"

#include <algorithm>
#include <new>

namespace native {

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

}  // namespace native
