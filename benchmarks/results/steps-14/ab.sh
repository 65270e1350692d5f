#!/bin/bash
# A/B: explain with main's Python (base) and this branch's, alternating, same .so files.
# base: git archive 1582508 src | tar -x -C /tmp/steps13/base, with this build's .so files copied in (task 1 changes no C++);
# the dominoes: tests/search_puzzles.write_dominoes(Path("/tmp/steps13")).
S=/work/shared/corpus/webpbn-survey
P="puzzles/hakank/t2.non puzzles/hakank/nonunique.non $S/webpbn-00006-cat.non $S/webpbn-02712-lion.non $S/webpbn-09892-nature.non $S/webpbn-10088-marley.non $S/webpbn-10810-center.non $S/webpbn-06574-forever.non $S/webpbn-12548-sierp.non $S/webpbn-18297-thing.non $S/webpbn-08098-9-dom.non $S/webpbn-22336-gettys.non /work/shared/hard/knotty.non /tmp/steps13/dominoes-and-a-switch.non"

for round in 1 2; do
  for p in $P; do
    echo -n "base	"; PYTHONPATH=/tmp/steps13/base/src nice .venv/bin/python benchmarks/results/steps-14/explain_once.py $p 60
    echo -n "new	"; nice .venv/bin/python benchmarks/results/steps-14/explain_once.py $p 60
  done
done
