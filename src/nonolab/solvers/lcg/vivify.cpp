// Learned-clause vivification (an option, off by default; Luo, Li, Xiao, Manyà and Lü 2017,
// as CaDiCaL's vivify).  Every `interval` conflicts the search restarts and, at the root,
// tries learned clauses (lowest LBD first, each once): for a clause C, it is taken out of
// the watches, and the negations of its literals are decided one by one, each on a level
// of its own, with full propagation (watched clauses and the lines).  Then
//   - a literal of C already true: the decisions that implied it (walking its reasons
//     back, line reasons explained as conflict analysis explains them) and that literal
//     are a clause C' within C;
//   - a conflict: the decisions it came from are C';
//   - neither: every literal of C ends up false, and the decided ones alone are C' (the
//     others follow from them).
// A C' shorter than C replaces it (root-false literals are dropped on the way).  Consecutive
// clauses sharing the first literals (each clause's literals ordered by how often they occur
// in the round's candidates) keep the decisions they share.
//
// Proofs.  C' is added before C is deleted.  Assuming C' false, unit propagation in the
// regular CNF derives what the lines derived (proof.hpp), so it reaches the conflict (or
// the negation of the implied literal, or C's last literal false against C itself, which is
// still in the formula): C' is RUP.
//
// The round leaves the saved phases as they were, is never cut by the clock (a search in
// slices is the same search as one run) and spends at most `effort` % of the line runs the
// search made since the previous round (at least kFloorRuns).
#include "engine.hpp"

#include <algorithm>

namespace lcg {

namespace {
constexpr long long kFloorRuns = 1000;
}  // namespace

// At a conflict, when the interval has passed: a restart, and the round at the root.
void Engine::schedule_vivify() {
    vivify_next_ = counters_.conflicts + vivify_interval_;
    vivify_due_ = true;
    restart();
    if (vivify_probe_ && probe_budget_ > 0) {
        // Root probing again first (engine.cpp runs it, then the round): the learned clauses
        // may make probes fail that failed nowhere before.  What earlier probes implied is
        // forgotten (it was implied with fewer clauses).
        probing_ = true;
        probe_next_ = 0;
        probe_start_runs_ = counters_.line_runs;
        std::fill(implied_at_root_.begin(), implied_at_root_.end(), 0);
    }
}

void Engine::detach(int cref) {
    const int* c = arena_.lits(cref);
    const int tag = arena_.size(cref) == 2 ? ~cref : cref;
    for (int w : {c[0], c[1]}) {
        std::vector<Watch>& ws = watches_[w];
        const auto at = std::find_if(ws.begin(), ws.end(), [&](const Watch& x) { return x.cref == tag; });
        if (at != ws.end()) ws.erase(at);
    }
}

void Engine::attach(int cref) {
    const int* c = arena_.lits(cref);
    const int tag = arena_.size(cref) == 2 ? ~cref : cref;
    watches_[c[0]].push_back({tag, c[1]});
    watches_[c[1]].push_back({tag, c[0]});
}

void Engine::vivify() {
    vivify_due_ = false;
    if (level() != 0 || unsat_) return;
    ++counters_.vivify_rounds;
    const long long start = counters_.line_runs;
    const long long budget = std::max(kFloorRuns, (start - vivify_runs_mark_) * vivify_effort_ / 100);
    std::vector<int>& candidates = vivify_candidates_;
    candidates.clear();
    vivify_occ_.assign(2 * static_cast<size_t>(nvars_), 0);
    for (int cref = 0; cref < arena_.end(); cref = arena_.next(cref)) {
        if (!arena_.learnt(cref) || arena_.deleted(cref) || arena_.vivified(cref)) continue;
        candidates.push_back(cref);
        for (int q : arena_.view(cref)) ++vivify_occ_[q];
    }
    std::stable_sort(candidates.begin(), candidates.end(), [&](int a, int b) {
        if (arena_.lbd(a) != arena_.lbd(b)) return arena_.lbd(a) < arena_.lbd(b);
        return arena_.activity(a) > arena_.activity(b);
    });
    vivify_phases_ = saved_phase_;
    vivifying_ = true;
    for (int cref : candidates) {
        if (counters_.line_runs - start >= budget) break;
        if (!vivify_clause(cref)) break;
    }
    backtrack(0);
    vivifying_ = false;
    saved_phase_.swap(vivify_phases_);
    counters_.vivify_line_runs += counters_.line_runs - start;
    vivify_runs_mark_ = counters_.line_runs;
}

// The clause's literals (false under the trail) of the decisions that the literals `from`
// (but skip_var's) came from, appended to vivify_kept_.
void Engine::vivify_decisions(Lits from, int skip_var) {
    stack_.clear();
    to_clear_.clear();
    auto visit = [&](int q) {
        const int u = var_of(q);
        if (u == skip_var || seen_[u] || level_[u] == 0) return;
        seen_[u] = 1;
        to_clear_.push_back(u);
        stack_.push_back(u);
    };
    for (int q : from) visit(q);
    while (!stack_.empty()) {
        const int v = stack_.back();
        stack_.pop_back();
        if (reason_kind_[v] == NONE) {
            vivify_kept_.push_back(lit_of(v, value_[v] == 0));  // the decision's negation: C's literal
            continue;
        }
        for (int q : reason(v))
            if (var_of(q) != v) visit(q);
    }
    for (int u : to_clear_) seen_[u] = 0;
    to_clear_.clear();
}

// Vivifies one clause; false when the round must end (a unit was learned).
bool Engine::vivify_clause(int cref) {
    ++counters_.vivify_tried;
    arena_.mark_vivified(cref);
    const int size = arena_.size(cref);
    std::vector<int>& lits = vivify_lits_;
    lits.clear();
    for (int q : arena_.view(cref)) {
        const int v = var_of(q);
        if (value_[v] >= 0 && level_[v] == 0) {
            if (lit_value(q) == 1) return true;  // satisfied at the root (perhaps a root cell's reason): left alone
            continue;                            // false at the root: dropped
        }
        lits.push_back(q);
    }
    std::sort(lits.begin(), lits.end(), [&](int a, int b) {
        return vivify_occ_[a] != vivify_occ_[b] ? vivify_occ_[a] > vivify_occ_[b] : a < b;
    });
    // The levels the previous clause left that decided this clause's first literals stay.
    int keep = 0;
    for (int q : lits) {
        if (keep < level() && trail_[trail_lim_[keep]] == neg(q)) { ++keep; continue; }
        if (lit_value(q) == 0 && level_[var_of(q)] <= keep) continue;
        break;
    }
    backtrack(keep);
    detach(cref);
    int implied = -1, conflict = NO_CONFLICT;
    for (int q : lits) {
        const int now = lit_value(q);
        if (now == 0) continue;
        if (now == 1) { implied = q; break; }
        trail_lim_.push_back(static_cast<int>(trail_.size()));
        enqueue(neg(q), NONE, 0);
        conflict = propagate();
        if (conflict != NO_CONFLICT) break;
    }
    std::vector<int>& kept = vivify_kept_;
    kept.clear();
    if (implied >= 0) {
        kept.push_back(implied);
        vivify_decisions(reason(var_of(implied)), var_of(implied));
    } else if (conflict != NO_CONFLICT) {
        vivify_decisions(conflict == LINE_CONFLICT ? Lits{conflict_lits_.data(), static_cast<int>(conflict_lits_.size())}
                                                   : arena_.view(conflict), -1);
    } else {
        for (int q : lits)
            if (reason_kind_[var_of(q)] == NONE) kept.push_back(q);
    }
    if (static_cast<int>(kept.size()) >= size) {
        if (conflict != NO_CONFLICT) backtrack(level() - 1);  // the next clause keeps only propagated levels
        attach(cref);
        return true;
    }
    ++counters_.vivify_shortened;
    counters_.vivify_removed += size - static_cast<long long>(kept.size());
    backtrack(0);
    if (proof_) {
        proof_->add(kept.data(), static_cast<int>(kept.size()));
        proof_->remove(arena_.lits(cref), size);
    }
    arena_.mark_deleted(cref);
    --num_learnts_;
    if (kept.empty()) {  // (not met: the root propagated without conflict before the round)
        proved_unsat();
        return false;
    }
    if (kept.size() == 1) {
        enqueue(kept[0], NONE, 0);  // a root fact: the search propagates it
        return false;
    }
    const int lbd = std::min(arena_.lbd(cref), static_cast<int>(kept.size()));
    const double activity = arena_.activity(cref);
    const int shorter = add_clause(kept, true, lbd);
    arena_.set_activity(shorter, activity);
    arena_.mark_vivified(shorter);
    return true;
}

}  // namespace lcg
