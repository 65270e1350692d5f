// A DRAT proof log for the lcg engine (black and white only): every clause the engine
// learns (conflict clauses, units, the clauses blocking a solution's decisions) is
// written as a line "l1 l2 ... 0", every learned clause it deletes as "d l1 ... 0", and
// the end of the search as the empty clause "0", in DIMACS literals over the cell
// variables of the regular encoding (cell c is variable c + 1, true: filled).
//
// Why the lines are valid DRAT over that CNF plus one clause excluding each solution
// found: an explanation clause of a line says "these cells make the line infeasible";
// the regular encoding's unit propagation is the complete line solver (models/cnf.md),
// so it finds the same infeasibility, and every learned clause, a resolvent of
// explanation and earlier clauses, is a reverse-unit-propagation (RUP) consequence of
// the CNF and the lines written before it.  A clause blocking a solution's decisions is
// RUP once that solution's exclusion clause is in the formula (propagating the decisions
// gives the whole picture, which the exclusion clause forbids).
//
// The log is off (the engine holds no ProofLog) unless a proof is asked for: the search
// then pays one null test per learned and per deleted clause.
#pragma once

#include <cstdio>
#include <vector>

namespace lcg {

class ProofLog {
public:
    ProofLog() = default;
    ProofLog(const ProofLog&) = delete;
    ProofLog& operator=(const ProofLog&) = delete;
    ~ProofLog() { close(); }

    // Opens (truncates) path for writing; false when it cannot be opened.
    bool open(const char* path) {
        close();
        file_ = std::fopen(path, "wb");
        failed_ = file_ == nullptr;
        return !failed_;
    }

    // A clause added (deleted: a "d" line), its literals the engine's (2 * var + sign).
    void add(const int* lits, int count) { line(lits, count, false); }
    void remove(const int* lits, int count) { line(lits, count, true); }

    // Flushes and closes; false when a write failed at any point (a full disk).
    bool close() {
        if (!file_) return !failed_;
        flush();
        if (std::fclose(file_) != 0) failed_ = true;
        file_ = nullptr;
        return !failed_;
    }

    long long lines() const { return lines_; }
    long long bytes() const { return bytes_; }

private:
    std::FILE* file_ = nullptr;
    bool failed_ = false;
    long long lines_ = 0, bytes_ = 0;
    std::vector<char> buf_;

    void line(const int* lits, int count, bool deleted) {
        if (!file_) return;
        if (deleted) { buf_.push_back('d'); buf_.push_back(' '); }
        for (int i = 0; i < count; ++i) {
            const int lit = lits[i];
            put((lit & 1) ? -((lit >> 1) + 1) : (lit >> 1) + 1);
        }
        buf_.push_back('0');
        buf_.push_back('\n');
        ++lines_;
        if (buf_.size() >= (1u << 16)) flush();
    }

    void put(int value) {
        char digits[12];
        int n = 0;
        unsigned magnitude = value < 0 ? static_cast<unsigned>(-value) : static_cast<unsigned>(value);
        do { digits[n++] = static_cast<char>('0' + magnitude % 10); magnitude /= 10; } while (magnitude);
        if (value < 0) buf_.push_back('-');
        while (n) buf_.push_back(digits[--n]);
        buf_.push_back(' ');
    }

    void flush() {
        if (buf_.empty()) return;
        if (std::fwrite(buf_.data(), 1, buf_.size(), file_) != buf_.size()) failed_ = true;
        bytes_ += static_cast<long long>(buf_.size());
        buf_.clear();
    }
};

}  // namespace lcg
