// Greedy explanation checks of the lcg engine: is a line still infeasible once one
// of its cells is made unknown?  (see Engine::explain)
//
// The line keeps two tables: F(j, c), the first c cells can hold exactly blocks
// 0..j-1 with cell c-1 empty or ending block j-1; B(j, c), cells c..n-1 can hold
// exactly blocks j..k-1 with cell c empty or starting block j.  F's column c reads
// only cells < c and B's only cells >= c, so after cell i changes, F stays right up
// to column i and B from column i + 1: each table is extended lazily, a column at a
// time (O(k) each), up to where the next check needs it.  A check of cell i joins the
// two around it: i empty (F(j, i) and B(j, i + 1) for some j), or i inside some block
// j placed at a start st (its cells fillable, F on its left, B on its right): O(k +
// the blocks' lengths), where a forward pass from i costs O((n - i) k).  Removing
// cells right to left keeps both tables valid through a whole pass.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace lcg {

class DropChecker {
public:
    // Start on a line whose cells are s[0..n) (1 empty, 2 filled, 3 unknown); the
    // caller changes s only through dropped().
    void reset(const int* clue, int k, const uint8_t* s, int n) {
        clue_ = clue;
        k_ = k;
        s_ = s;
        n_ = n;
        W_ = n + 1;
        const size_t size = static_cast<size_t>(k + 1) * W_;
        if (F_.size() < size) { F_.resize(size); B_.resize(size); }
        if (le_.size() < static_cast<size_t>(W_)) { le_.resize(W_); ne_.resize(W_); rlo_.resize(W_); rhi_.resize(W_); }
        // Entries outside a row's window stay 0: they are 0 in truth, or never read.
        std::memset(F_.data(), 0, size);
        std::memset(B_.data(), 0, size);
        // Each block's earliest and latest start, whatever the cells say; rows j of
        // both tables live on [lo_j - 1, lo_j + slack] (row 0 from 0, row k up to n).
        if (lo_.size() < static_cast<size_t>(k + 1)) lo_.resize(k + 1);
        int need = k - 1;
        for (int j = 0; j < k; ++j) need += clue[j];
        slack_ = n - need;
        for (int j = 0, start = 0; j <= k; ++j) {
            lo_[j] = start;  // lo_[k] - 1: the earliest end of the last block
            if (j < k) start += clue[j] + 1;
        }
        // rlo_[c]..rhi_[c]: the rows whose window holds column c.
        for (int c = 0, first = 0, last = -1; c <= n; ++c) {
            while (first < k && lo_[first] + slack_ < c) ++first;
            while (last < k && lo_[last + 1] - 1 <= c) ++last;
            rlo_[c] = first;
            rhi_[c] = last;
        }
        le_[0] = 0;
        F_[0] = 1;
        ne_[n] = 0;
        B_[k * W_ + n] = 1;
        fvalid_ = 0;
        bvalid_ = n;
    }

    // Whether the line is feasible with cell i unknown (s[i] itself is not read).
    bool feasible_without(int i) {
        while (fvalid_ < i) forward_column(++fvalid_);
        while (bvalid_ > i + 1) backward_column(--bvalid_);
        const int W = W_, k = k_, n = n_;
        const uint8_t* s = s_;
        const uint8_t* F = F_.data();
        const uint8_t* B = B_.data();
        // Cell i empty.
        for (int j = rlo_[i]; j <= rhi_[i]; ++j)
            if (F[j * W + i] && B[j * W + i + 1]) return true;
        // Cell i inside block j, placed at st..e-1.
        const int left_run = le_[i], right_run = ne_[i + 1];
        for (int j = 0; j < k; ++j) {
            const int len = clue_[j], lo = lo_[j], hi = lo_[j] + slack_;
            if (lo > i) break;  // this block and the later ones start right of i
            const int first = i - len + 1 > lo ? i - len + 1 : lo, last = i < hi ? i : hi;
            for (int st = first; st <= last; ++st) {
                const int e = st + len;
                if (left_run < i - st || right_run < e - i - 1) continue;
                const bool left = st == 0 ? j == 0 : ((s[st - 1] & 1) && F[j * W + st - 1]);
                if (!left) continue;
                const bool right = j == k - 1 ? B[k * W + e] != 0 : (e < n && (s[e] & 1) && B[(j + 1) * W + e + 1]);
                if (right) return true;
            }
        }
        return false;
    }

    // Cell i has changed (the caller made it unknown).
    void dropped(int i) {
        if (fvalid_ > i) fvalid_ = i;
        if (bvalid_ < i + 1) bvalid_ = i + 1;
    }

private:
    const int* clue_ = nullptr;
    const uint8_t* s_ = nullptr;
    int k_ = 0, n_ = 0, W_ = 1, fvalid_ = 0, bvalid_ = 0, slack_ = 0;
    std::vector<int> lo_;
    std::vector<uint8_t> F_, B_;
    // le_[c]: how many cells before c, counting back from c - 1, may be filled;
    // ne_[c]: how many from c on may be filled.
    std::vector<int> le_, ne_, rlo_, rhi_;

    void forward_column(int c) {
        const int W = W_;
        const uint8_t* s = s_;
        uint8_t* F = F_.data();
        const bool empty_before = s[c - 1] & 1;
        le_[c] = s[c - 1] != 1 ? le_[c - 1] + 1 : 0;
        const int first = rlo_[c], last = rhi_[c];
        if (first == 0) F[c] = F[c - 1] && empty_before;
        for (int j = first > 1 ? first : 1; j <= last; ++j) {
            const int len = clue_[j - 1];
            uint8_t v = empty_before && F[j * W + c - 1];
            if (!v && le_[c] >= len) {
                const int st = c - len;
                v = j == 1 ? F[st] : (st >= 1 && (s[st - 1] & 1) && F[(j - 1) * W + st - 1]);
            }
            F[j * W + c] = v;
        }
    }

    void backward_column(int c) {
        const int W = W_, k = k_, n = n_;
        const uint8_t* s = s_;
        uint8_t* B = B_.data();
        const bool empty_here = s[c] & 1;
        ne_[c] = s[c] != 1 ? ne_[c + 1] + 1 : 0;
        const int first = rlo_[c], last = rhi_[c];
        if (last == k) B[k * W + c] = empty_here && B[k * W + c + 1];
        for (int j = (last < k ? last : k - 1); j >= first; --j) {
            const int len = clue_[j];
            uint8_t v = empty_here && B[j * W + c + 1];
            if (!v && ne_[c] >= len) {
                const int e = c + len;
                v = j == k - 1 ? B[k * W + e] : (e < n && (s[e] & 1) && B[(j + 1) * W + e + 1]);
            }
            B[j * W + c] = v;
        }
    }
};

}  // namespace lcg
