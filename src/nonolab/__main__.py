"""``python -m nonolab`` is the ``nonolab`` command."""

from nonolab.cli.entry import main

main()
