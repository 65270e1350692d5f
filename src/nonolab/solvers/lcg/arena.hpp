// The lcg engine's clause store: every clause in one flat array of ints, a header
// (its size; its flags and LBD; its activity, a double in two words) followed by its
// literals, so propagation reads a clause from one place instead of following a
// pointer to a vector of its own.  A clause is named by its header's offset (its
// cref).  Deleted clauses stay in place until compact(), which slides the others
// down, keeping their order (so iterating the store visits the clauses in the order
// they were added, before and after a compaction).
#pragma once

#include <algorithm>
#include <cstring>
#include <vector>

namespace lcg {

// A run of literals read in place: a clause's in the arena, or a line reason's.
struct Lits {
    const int* first = nullptr;
    int count = 0;
    const int* begin() const { return first; }
    const int* end() const { return first + count; }
    size_t size() const { return static_cast<size_t>(count); }
};

class ClauseArena {
public:
    static constexpr int kHeader = 4;  // size, flags and LBD, activity (two words)

    // Appends a clause; returns its cref.
    int add(const std::vector<int>& lits, bool learnt, int lbd, double activity) {
        const int cref = end();
        words_.push_back(static_cast<int>(lits.size()));
        words_.push_back(lbd << 3 | (learnt ? kLearnt : 0));
        words_.resize(words_.size() + 2);
        set_activity(cref, activity);
        words_.insert(words_.end(), lits.begin(), lits.end());
        return cref;
    }

    int size(int cref) const { return words_[cref]; }
    int* lits(int cref) { return words_.data() + cref + kHeader; }
    const int* lits(int cref) const { return words_.data() + cref + kHeader; }
    Lits view(int cref) const { return {lits(cref), size(cref)}; }
    bool learnt(int cref) const { return (words_[cref + 1] & kLearnt) != 0; }
    bool deleted(int cref) const { return (words_[cref + 1] & kDeleted) != 0; }
    void mark_deleted(int cref) { words_[cref + 1] |= kDeleted; }
    int lbd(int cref) const { return words_[cref + 1] >> 3; }
    // Vivification tried the clause (vivify.cpp): it is not tried again.
    bool vivified(int cref) const { return (words_[cref + 1] & kVivified) != 0; }
    void mark_vivified(int cref) { words_[cref + 1] |= kVivified; }
    double activity(int cref) const {
        double a;
        std::memcpy(&a, &words_[cref + 2], sizeof a);
        return a;
    }
    void set_activity(int cref, double a) { std::memcpy(&words_[cref + 2], &a, sizeof a); }

    // Iteration: for (int c = 0; c < arena.end(); c = arena.next(c)).
    int next(int cref) const { return cref + kHeader + size(cref); }
    int end() const { return static_cast<int>(words_.size()); }

    // Drops the deleted clauses, sliding the others down in order; old_refs and
    // new_refs (both ascending) say where each kept clause was and is now.
    void compact(std::vector<int>& old_refs, std::vector<int>& new_refs) {
        old_refs.clear();
        new_refs.clear();
        int to = 0;
        for (int from = 0; from < end();) {
            const int words = kHeader + size(from);
            if (!deleted(from)) {
                old_refs.push_back(from);
                new_refs.push_back(to);
                if (from != to) std::memmove(&words_[to], &words_[from], sizeof(int) * static_cast<size_t>(words));
                to += words;
            }
            from += words;
        }
        words_.resize(static_cast<size_t>(to));
    }

    // Where a kept clause moved to in the last compact().
    static int moved(const std::vector<int>& old_refs, const std::vector<int>& new_refs, int cref) {
        const auto at = std::lower_bound(old_refs.begin(), old_refs.end(), cref);
        return new_refs[static_cast<size_t>(at - old_refs.begin())];
    }

private:
    static constexpr int kLearnt = 1, kDeleted = 2, kVivified = 4;
    std::vector<int> words_;
};

}  // namespace lcg
