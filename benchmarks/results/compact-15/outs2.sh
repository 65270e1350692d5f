# usage: bash outs2.sh PYTHON OUTDIR "-m nonolab" | forced.py  (run from this folder): explain --json and explain of every colour-corpus puzzle
py=$1; out=$2; mkdir -p $out
while read f; do
  n=$(echo $f | tr / _)
  nice $py -B $3 explain --json /work/shared/corpus-colour/$f > $out/$n.json 2>&1; echo "rc $?" >> $out/$n.json
  nice $py -B $3 explain /work/shared/corpus-colour/$f > $out/$n.txt 2>&1; echo "rc $?" >> $out/$n.txt
done < <(awk -F, 'NR>1 {print $1}' /work/shared/corpus-colour/index.csv)
