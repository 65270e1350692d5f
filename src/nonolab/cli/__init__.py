"""The ``nonolab`` command line: a thin click shell over the public API."""
