// lcg's search policy (policy.cpp): when to restart, which mode the search is in, and
// when to reset the saved phases (rephasing).  The engine asks it after every learned
// clause; everything is counted in conflicts, never on the clock, so the search stays
// deterministic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lcg {

// Mode switching, as CaDiCaL and Kissat run one search: a *focused* mode (glucose-style
// restarts on the learned clauses' LBD, a faster VSIDS decay, decisions on the saved
// phases) and a *stable* mode (Luby restarts, the slow decay, the target phases), taking
// turns whose lengths grow geometrically; the clauses, the activities and the phases are
// the one search's throughout.
struct ModeSettings {
    int first = 0;                 // 0: no switching (the restarts option decides); 1 stable first; 2 focused first
    long long conflicts = 1000;    // the first mode's length
    double growth = 2.0;           // each mode this many times longer than the one before
    double focused_decay = 0.85;   // VSIDS decay in the focused mode (the stable mode's is 0.95)
    bool focused_target = false;   // the focused mode's decisions take the target phases too
};

// How a rephase resets the saved phases: to the best phases (the values of the longest
// trail without conflict since the last best rephase), the original ones (as the first
// decision found them: the phase hints when there are any), or the saved ones flipped.
enum class Rephase : uint8_t { NONE, BEST, ORIGINAL, FLIPPED };

class SearchPolicy {
public:
    // restarts: 0 Luby, 1 glucose (used when the modes are off).
    explicit SearchPolicy(int restarts = 0) : restarts_(restarts) {}
    void set_modes(const ModeSettings& modes);
    // Rephase after `conflicts` conflicts, then after 2x, 3x... more (0: never).
    void set_rephase(long long conflicts) { rephase_base_ = conflicts; rephase_at_ = conflicts; }

    // After each learned clause (lbd: its LBD), `conflicts` counted: true when the search
    // should restart now.
    bool restart_due(long long conflicts, int lbd);
    // After restart_due: true when the mode changed now (the engine then restarts).
    bool switch_due(long long conflicts);
    // After switch_due: the kind of rephase due now (NONE: none).
    Rephase rephase_due(long long conflicts);

    // Shakes (shake.cpp): after `after` + `unit` conflicts, then on the Luby sequence's
    // multiples of it (unit, unit, 2 unit, unit, unit, 2 unit, 4 unit...) (unit 0: never).
    // A search that ends within `after` conflicts is the one without shakes.
    void set_shake(long long unit, long long after = 0) { shake_unit_ = unit; shake_at_ = after + unit; }
    // After rephase_due: true when a shake is due now.
    bool shake_due(long long conflicts);

    // The VSIDS decay of the current mode.
    double var_decay() const { return focused_ ? modes_.focused_decay : kStableDecay; }
    // False in the focused mode (unless focused_target): decisions take the saved phases there.
    bool target_phases() const { return !focused_ || modes_.focused_target; }
    bool switching() const { return modes_.first != 0; }

    // Best phases: only tracked when rephasing is on.  note_trail offers a trail of
    // `consistent` assignments without conflict (value: -1 open, else the value; an open
    // var keeps its saved phase).
    bool tracks_best() const { return rephase_base_ > 0; }
    void note_trail(size_t consistent, const std::vector<int8_t>& value, const std::vector<uint8_t>& saved);
    // The phases as the first decision finds them, kept once (the ORIGINAL rephase).
    bool wants_original() const { return rephase_base_ > 0 && original_.empty(); }
    void keep_original(const std::vector<uint8_t>& saved) { original_ = saved; }
    // Reset `saved` as `kind` says.
    void rephase(Rephase kind, std::vector<uint8_t>& saved);

    static constexpr double kStableDecay = 0.95;

private:
    static constexpr int kRestartUnit = 100;  // Luby's unit, in conflicts
    int restarts_;
    ModeSettings modes_;
    bool focused_ = false;
    long long switch_at_ = 0;
    double mode_length_ = 0.0;
    // Luby restarts (the stable mode's): the next restart's conflict count, the sequence's index.
    long long restart_at_ = 0;
    int luby_index_ = 0;
    // Glucose restarts (the focused mode's): a fast moving average of the LBD against the
    // average of them all, and the conflicts since the last restart.
    double lbd_fast_ = 0.0, lbd_sum_ = 0.0;
    long long learned_ = 0, since_restart_ = 0;
    // Rephasing.
    long long rephase_base_ = 0, rephase_at_ = 0, rephases_ = 0;
    std::vector<uint8_t> best_phase_, original_;
    // Shakes: the Luby unit, the next shake's conflict count, the sequence's index.
    long long shake_unit_ = 0, shake_at_ = 0;
    int shake_index_ = 1;
    size_t best_trail_ = 0;

    bool luby_due(long long conflicts);
    bool glucose_due();
};

}  // namespace lcg
