# A made-up heart for the nonolab tests
# (height, width on the first line)
6 6
1 1
5
5
3
1
0
#
2
4
4
4
2
0
# end
