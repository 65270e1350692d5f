"""``python -m nonolab`` is the ``nonolab`` command."""

from nonolab.cli.main import main

main()
