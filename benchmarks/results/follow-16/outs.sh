# explain --json of every colour-corpus puzzle, main against the branch (time fields dropped): the same?
same=0; differ=0
for f in $(tail -n +2 ../shared/corpus-colour/index.csv | cut -d, -f1); do
  a=$(/work/main/.venv/bin/nonolab explain --json ../shared/corpus-colour/$f 2>&1 | grep -v '"time"\|wall_time' | md5sum)
  b=$(/work/wt/follow16/.venv/bin/nonolab explain --json ../shared/corpus-colour/$f 2>&1 | grep -v '"time"\|wall_time' | md5sum)
  if [ "$a" = "$b" ]; then same=$((same+1)); else differ=$((differ+1)); echo "DIFFER $f"; fi
done
echo "same $same differ $differ"
