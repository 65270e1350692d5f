// The complete line solver: every forced cell and every contradiction of one line.
//
// Cells are state masks: 1 empty, 2 filled, 3 unknown (as in nonolab.core.grid).
// The dynamic programme is the prefix/suffix reachability of the native engine's
// line solver (src/nonolab/solvers/native/line.py): F[j][i] says the first i cells
// can hold exactly blocks 0..j-1, B[j][i] that cells i..n-1 can hold exactly blocks
// j..k-1; a cell may be empty when some gap covers it with both sides reachable, and
// may be filled when some valid start of some block covers it.  O(n * k) per call.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace lcg {

class LineDP {
public:
    // Fills out[0..n) with the set of values some arrangement gives each cell;
    // false when no arrangement of the clue agrees with the line.
    bool fix(const int* clue, int k, const uint8_t* s, int n, uint8_t* out) {
        if (!forward(clue, k, s, n)) return false;
        if (k == 0) {
            for (int c = 0; c < n; ++c) out[c] = 1;
            return true;
        }
        const int W = n + 1;
        B_.resize(static_cast<size_t>(k + 1) * W);
        std::memset(B_.data(), 0, B_.size());
        uint8_t* B = B_.data();
        const uint8_t* F = F_.data();
        // Row j < k covers the starts of block j, row k the ends of the last block.
        for (int i = n; i >= flo_[k]; --i) {
            if (kb_[n] - kb_[i] > 0) break;
            B[k * W + i] = 1;
        }
        for (int j = k - 1; j >= 0; --j) {
            const int len = clue[j];
            uint8_t* row = B + j * W;
            const uint8_t* nxt = B + (j + 1) * W;
            for (int i = hi_[j]; i >= lo_[j]; --i) {
                if (i < hi_[j] && row[i + 1] && (s[i] & 1)) { row[i] = 1; continue; }
                const int e = i + len;
                if (kw_[e] != kw_[i]) continue;
                if (j == k - 1) row[i] = nxt[e];
                else if ((s[e] & 1) && nxt[e + 1]) row[i] = 1;
            }
        }
        for (int c = 0; c < n; ++c) out[c] = 0;
        // May be empty: some gap j covers cell c with both sides reachable.
        for (int j = 0; j <= k; ++j) {
            const uint8_t* f = F + j * W;
            const uint8_t* b = B + j * W;
            const int last = fhi_[j] < n ? fhi_[j] : n - 1;
            for (int c = flo_[j]; c <= last; ++c)
                if (f[c] && b[c + 1] && (s[c] & 1)) out[c] = 1;
        }
        // May be filled: some valid start of some block covers cell c.
        diff_.assign(n + 1, 0);
        for (int j = 0; j < k; ++j) {
            const int len = clue[j];
            for (int st = lo_[j]; st <= hi_[j]; ++st) {
                const int e = st + len;
                if (kw_[e] != kw_[st]) continue;
                bool left = j == 0 ? F[st] != 0 : (st >= 1 && (s[st - 1] & 1) && F[j * W + st - 1]);
                if (!left) continue;
                bool right = j == k - 1 ? B[k * W + e] != 0 : ((s[e] & 1) && B[(j + 1) * W + e + 1]);
                if (!right) continue;
                diff_[st] += 1;
                diff_[e] -= 1;
            }
        }
        int covered = 0;
        for (int c = 0; c < n; ++c) {
            covered += diff_[c];
            if (covered > 0) out[c] |= 2;
            if (out[c] == 0) return false;  // cannot happen when the line is feasible
        }
        return true;
    }

    // Whether some arrangement of the clue agrees with the line (the forward pass only).
    bool feasible(const int* clue, int k, const uint8_t* s, int n) { return forward(clue, k, s, n); }

private:
    std::vector<uint8_t> F_, B_;
    std::vector<int> kw_, kb_, diff_;
    // lo_/hi_: each block's earliest and latest start; flo_/fhi_: the prefix lengths
    // row j of F can be true at (the ends of block j-1; row 0: the starts of block 0).
    std::vector<int> lo_, hi_, flo_, fhi_;

    // The forward table F.  With from > 0 the line may differ from the previous
    // call's (same clue) only at cells >= from: the entries F[j][i <= from] are kept.
    // It returns false at the first row that is all false (the rows below it are
    // then left stale beyond from).
    bool forward(const int* clue, int k, const uint8_t* s, int n, int from = 0) {
        const int W = n + 1;
        if (from == 0) {
            kw_.resize(W);
            kb_.resize(W);
            kw_[0] = kb_[0] = 0;
        }
        for (int i = from; i < n; ++i) {
            kw_[i + 1] = kw_[i] + (s[i] == 1);
            kb_[i + 1] = kb_[i] + (s[i] == 2);
        }
        if (k == 0) return kb_[n] == 0;
        if (from == 0) {
            int need = k - 1;
            for (int j = 0; j < k; ++j) need += clue[j];
            slack_ = n - need;
            if (slack_ < 0) return false;
            lo_.resize(k);
            hi_.resize(k);
            flo_.resize(k + 1);
            fhi_.resize(k + 1);
            for (int j = 0, start = 0; j < k; start += clue[j] + 1, ++j) {
                lo_[j] = start;
                hi_[j] = start + slack_;
            }
            flo_[0] = 0;
            fhi_[0] = hi_[0];
            for (int j = 1; j <= k; ++j) {
                flo_[j] = lo_[j - 1] + clue[j - 1];
                fhi_[j] = j < k ? hi_[j - 1] + clue[j - 1] : n;
            }
            F_.resize(static_cast<size_t>(k + 1) * W);
            std::memset(F_.data(), 0, F_.size());
        } else if (slack_ < 0) {
            return false;
        }
        uint8_t* F = F_.data();
        const int redo = from == 0 ? 0 : from + 1;  // the first prefix length recomputed
        for (int i = redo; i <= hi_[0]; ++i) F[i] = kb_[i] == 0;
        for (int j = 1; j <= k; ++j) {
            const int len = clue[j - 1];
            const int first = flo_[j], last = fhi_[j];
            uint8_t* row = F + j * W;
            const uint8_t* prev = F + (j - 1) * W;
            uint8_t any = 0;
            const int begin = redo > first ? redo : first;
            for (int i = first; i < begin && i <= last && !any; ++i) any = row[i];
            for (int i = begin; i <= last; ++i) {
                uint8_t v = 0;
                if (i > first && row[i - 1] && (s[i - 1] & 1)) {
                    v = 1;
                } else {
                    const int st = i - len;
                    if (st <= hi_[j - 1] && kw_[i] == kw_[st]) {
                        if (j == 1) v = prev[st];
                        else if (st >= 1 && (s[st - 1] & 1) && prev[st - 1]) v = 1;
                    }
                }
                row[i] = v;
                any |= v;
            }
            if (!any) return false;  // blocks 0..j-1 fit nowhere: no need to go on
        }
        return F[k * W + n] != 0;
    }

public:
    // Feasibility of a line that differs only at cells >= from from the line of
    // the previous call of feasible_after (same clue, same length), whose forward
    // table is right at prefix lengths <= from; from = 0 computes it all.
    bool feasible_after(const int* clue, int k, const uint8_t* s, int n, int from) {
        return forward(clue, k, s, n, from);
    }

private:
    int slack_ = 0;
};

}  // namespace lcg
