"""The local web workbench of ``nonolab serve``: a page (static HTML and JavaScript,
no build step, no network) over a JSON API on the library.

* :mod:`.api`: the HTTP endpoints, a Starlette application (:func:`~.api.create_app`);
* :mod:`.work`: what the endpoints compute (reports, steps, puzzles from images);
* :mod:`.jobs`: long work in background threads, with progress and cancel;
* :mod:`.repairs`: the repairs offered, in one place;
* :mod:`.server`: binding a port and running the application (uvicorn).

Needs the ``serve`` extra (``pip install "nonolab[serve]"``); nothing here is imported
by ``import nonolab`` or ``nonolab --help``.
"""
