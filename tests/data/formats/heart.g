A made-up heart for the nonolab tests.
Text before the first line that starts with # or : is ignored.

#d
   0:. white
   1:# black
: rows
1 1
5
5
3
1

: columns
2
4
4
4
2

: end - all text after this is ignored too
1 2 3
