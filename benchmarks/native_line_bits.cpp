// Per-line cost: LineDP::fix (bytes, static windows) vs BitLineOf::fix with the byte
// conversions the native core does, on random partially known lines of n cells.
// Build and run from the repository root:
//   g++ -std=c++17 -O2 -I src benchmarks/native_line_bits.cpp -o /tmp/line_bits && /tmp/line_bits
// Prints n, ns per byte-DP solve, ns per bit-set solve, ratio (best of 3 passes).
#include "nonolab/solvers/lcg/line.hpp"
#include "nonolab/solvers/lcg/bitline.hpp"
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>
using namespace lcg;
template <typename Word>
bool bit_fix(BitLineOf<Word>& s, const int* c, const int* rc, int k, const uint8_t* line, int n, uint8_t* out) {
    Word e = 0, f = 0;
    for (int i = 0; i < n; ++i) { e |= static_cast<Word>(line[i] & 1) << i; f |= static_cast<Word>(line[i] >> 1) << i; }
    Word me, mf;
    if (!s.fix(c, rc, k, e, f, n, me, mf)) return false;
    for (int i = 0; i < n; ++i) out[i] = (uint8_t)(((unsigned)(me >> i) & 1) | (((unsigned)(mf >> i) & 1) << 1));
    return true;
}
int main() {
    std::mt19937 rng(1);
    for (int n : {5, 10, 15, 20, 30, 45, 63, 64, 80, 100, 127}) {
        // Lines from random solutions with 40% of cells known: clue and line.
        struct L { std::vector<int> c, rc; std::vector<uint8_t> s; };
        std::vector<L> lines;
        for (int t = 0; t < 2000; ++t) {
            L l; std::vector<int> sol(n);
            for (int i = 0; i < n; ++i) sol[i] = rng() % 100 < 55;
            for (int i = 0; i < n;) { if (!sol[i]) { ++i; continue; } int j = i; while (j < n && sol[j]) ++j; l.c.push_back(j - i); i = j; }
            l.rc.assign(l.c.rbegin(), l.c.rend());
            for (int i = 0; i < n; ++i) l.s.push_back(rng() % 100 < 40 ? (sol[i] ? 2 : 1) : 3);
            lines.push_back(l);
        }
        LineDP dp; BitLine64 b64; BitLine b128; std::vector<uint8_t> o1(n + 1), o2(n + 1);
        long long agree = 0;
        double tb = 0, tw = 0;
        for (int rep = 0; rep < 3; ++rep) {
            auto t0 = std::chrono::steady_clock::now();
            for (int r = 0; r < 20; ++r) for (auto& l : lines) agree += dp.fix(l.c.data(), (int)l.c.size(), l.s.data(), n, o1.data());
            auto t1 = std::chrono::steady_clock::now();
            for (int r = 0; r < 20; ++r) for (auto& l : lines)
                agree += n <= 63 ? bit_fix(b64, l.c.data(), l.rc.data(), (int)l.c.size(), l.s.data(), n, o2.data())
                                 : bit_fix(b128, l.c.data(), l.rc.data(), (int)l.c.size(), l.s.data(), n, o2.data());
            auto t2 = std::chrono::steady_clock::now();
            double a = std::chrono::duration<double, std::nano>(t1 - t0).count() / 40000, b = std::chrono::duration<double, std::nano>(t2 - t1).count() / 40000;
            if (rep == 0 || a < tb) tb = a;
            if (rep == 0 || b < tw) tw = b;
        }
        for (auto& l : lines) { bool a = dp.fix(l.c.data(), (int)l.c.size(), l.s.data(), n, o1.data());
            bool b = n <= 63 ? bit_fix(b64, l.c.data(), l.rc.data(), (int)l.c.size(), l.s.data(), n, o2.data()) : bit_fix(b128, l.c.data(), l.rc.data(), (int)l.c.size(), l.s.data(), n, o2.data());
            if (a != b || (a && o1 != o2)) { std::printf("MISMATCH n=%d\n", n); return 1; } }
        std::printf("%d,%.1f,%.1f,%.2f\n", n, tb, tw, tw / tb);
    }
    return 0;
}
