# nonolab's CLI with the colour log read a few rows a piece (the numpy path, steps across pieces)
import sys
import nonolab.solvers.native.colour.log as log
log.LOG_ROWS_PER_PIECE = 5
from nonolab.cli.entry import main
main()
