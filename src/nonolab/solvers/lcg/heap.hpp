// VSIDS's order of lcg's vars: each var's activity, raised when it takes part in a
// conflict and decayed by growing the raise, and a binary max-heap of the vars by
// activity (with each var's place in it, -1 when out), so that the decision picks the
// most active unassigned var and a raised var moves up in O(log n).
#pragma once

#include <cstdint>
#include <vector>

namespace lcg {

// SplitMix64 (Steele, Lea and Flood): a seed's stream of 64-bit numbers, the same on
// every platform and compiler (std's distributions are not), for the search's seed.
inline uint64_t splitmix64(uint64_t& state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

class VarOrder {
public:
    // Every one of `vars` vars in the heap, with activity 0: in the order of their
    // numbers, each at its own index (what inserting them one by one gives, since no
    // var rises above an equal parent, without the pushes and sift-ups).
    void reset(int vars) {
        activity_.assign(vars, 0.0);
        heap_.resize(vars);
        place_.resize(vars);
        inc_ = 1.0;
        for (int v = 0; v < vars; ++v) heap_[v] = place_[v] = v;
    }
    // The same state as reset, built as it once was, a var inserted at a time (for the
    // test that holds reset to it: Engine's order_by_insertion).
    void reset_by_insertion(int vars) {
        activity_.assign(vars, 0.0);
        heap_.clear();
        place_.assign(vars, -1);
        inc_ = 1.0;
        for (int v = 0; v < vars; ++v) insert(v);
    }
    // A seed's perturbation (lcg's `seed` option): every var in the heap has a random
    // activity below `scale` (the first raise is 1 and grows from there), so the vars
    // no conflict has raised yet, and vars raised alike, are taken in a random order
    // instead of by number.  Every var must be in the heap (before the search).
    void randomise(uint64_t& state, double scale) {
        for (double& a : activity_) a += scale * static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53;
        heap_.clear();
        for (int v = 0; v < static_cast<int>(activity_.size()); ++v) insert(v);
    }
    // A shake's (shake.cpp): every activity forgotten, each var a new random one below
    // the raise, which starts again at 1; the heap's vars stay in it, reordered.
    void rerandomise(uint64_t& state) {
        inc_ = 1.0;
        for (double& a : activity_) a = static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53;
        const std::vector<int> held(heap_);
        heap_.clear();
        for (int v : held) place_[v] = -1;
        for (int v : held) insert(v);
    }
    bool empty() const { return heap_.empty(); }
    bool contains(int var) const { return place_[var] >= 0; }

    void insert(int var) {
        place_[var] = static_cast<int>(heap_.size());
        heap_.push_back(var);
        up(place_[var]);
    }

    // The most active var, out of the heap.
    int pop() {
        const int top = heap_[0];
        const int last = heap_.back();
        heap_.pop_back();
        place_[top] = -1;
        if (!heap_.empty()) {
            heap_[0] = last;
            place_[last] = 0;
            down(0);
        }
        return top;
    }

    // Raise var's activity by the current raise (every activity scaled down together
    // when one grows past 1e100, which keeps their order).
    void bump(int var) {
        activity_[var] += inc_;
        if (activity_[var] > 1e100) {
            for (double& a : activity_) a *= 1e-100;
            inc_ *= 1e-100;
        }
        if (place_[var] >= 0) up(place_[var]);
    }

    // Older conflicts count less: the raise grows by 1 / decay (decay < 1).
    void decay(double factor) { inc_ /= factor; }

private:
    std::vector<double> activity_;
    std::vector<int> heap_, place_;
    double inc_ = 1.0;

    void up(int i) {
        const int v = heap_[i];
        while (i > 0) {
            const int parent = (i - 1) / 2;
            if (activity_[v] <= activity_[heap_[parent]]) break;
            heap_[i] = heap_[parent];
            place_[heap_[i]] = i;
            i = parent;
        }
        heap_[i] = v;
        place_[v] = i;
    }

    void down(int i) {
        const int v = heap_[i];
        const int size = static_cast<int>(heap_.size());
        for (;;) {
            int child = 2 * i + 1;
            if (child >= size) break;
            if (child + 1 < size && activity_[heap_[child + 1]] > activity_[heap_[child]]) ++child;
            if (activity_[heap_[child]] <= activity_[v]) break;
            heap_[i] = heap_[child];
            place_[heap_[i]] = i;
            i = child;
        }
        heap_[i] = v;
        place_[v] = i;
    }
};

}  // namespace lcg
