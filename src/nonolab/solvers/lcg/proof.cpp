// The lcg engine's proof log switched on and off (see proof.hpp for what it writes and
// why it is a valid DRAT proof).
#include "engine.hpp"

namespace lcg {

// The formula is unsatisfiable: the proof (if one is written) ends with the empty clause.
void Engine::proved_unsat() {
    if (proof_ && !unsat_) proof_->add(nullptr, 0);
    unsat_ = true;
}

bool Engine::start_proof(const char* path) {
    if (values_) return false;
    proof_.reset(new ProofLog());
    if (proof_->open(path)) return true;
    proof_.reset();
    return false;
}

// Learned clauses reduce_db() deletes (before it compacts the arena).
void Engine::log_deleted(const int* crefs, size_t count) {
    for (size_t i = 0; i < count; ++i) proof_->remove(arena_.lits(crefs[i]), arena_.size(crefs[i]));
}

bool Engine::end_proof() { return proof_ ? proof_->close() : true; }

}  // namespace lcg
