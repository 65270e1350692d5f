#!/bin/bash
# cg.sh NAME [SRC]: callgrind Engine::run instructions, #626, 20k conflicts
cd /tmp/inc17
SRC=${2:-/work/wt/inc17/src}
PYTHONPATH=$SRC:/work/wt/inc17 nice -n 19 valgrind --tool=callgrind --callgrind-out-file=/tmp/inc17/cg.$1 /work/wt/inc17/.venv/bin/python drive.py 20000 ${PUZ:-icga2018:626} > /dev/null 2>&1
callgrind_annotate --inclusive=yes cg.$1 2>/dev/null | grep -E "Engine::run\(|explain_word|::fix|propagate_clauses\(\)|run_bit_line|analyze|redundant_deep|reason\(|backtrack|learn\(" | grep -v "=>" | awk '{print $1, $NF, $0}' | cut -c1-160
