"""The workbench's HTTP API (JSON) and its page, as a Starlette application.

Endpoints (``{pid}`` a puzzle id, ``{jid}`` a job id):

=======================================  ==============================================
``GET /``                                the page (static HTML, CSS and JavaScript)
``GET /api/info``                        formats that read and write, limits
``POST /api/load?name=&format=&index=`` the body is a file (or pasted text): its puzzle
``POST /api/draw``                       ``{"rows": ["#..", ...], "name": ...}``: the puzzle
``GET /api/puzzles/{pid}``               the puzzle (clues, picture)
``POST /api/puzzles/{pid}/analyse``      a job: verdict, grade, pictures, ambiguity, repairs
``POST /api/puzzles/{pid}/explain``      a job: the steps of ``explain``
``POST /api/puzzles/{pid}/repair``       the body is a suggested repair: the new puzzle
``GET /api/puzzles/{pid}/download``      ``?format=non``: the file; ``?picture=svg|png|pdf``: the
                                           printable picture with its clues (``png`` is also
                                           a puzzle format: the goal as an image)
``POST /api/puzzles/{pid}/certify``      a job: ``check --certify`` (the certificate's JSON)
``GET /api/puzzles/{pid}/certificate.zip`` the certificate made by the last certify job
``POST /api/generate?name=&width=&...``  the body is an image: a job making a unique puzzle (``colours=K``: in colour)
``GET /api/jobs/{jid}``                  state, progress, result or error
``POST /api/jobs/{jid}/cancel``          stop the job (its backend stops too)
=======================================  ==============================================

A bad input answers 400 with ``{"error": MESSAGE, "type": ERROR}``, MESSAGE the one line
the CLI prints after ``nonolab: error:``; an unknown id or address 404, a method an address
does not take 405 (the same JSON); a request from another site,
or without the page's session token, 403, and a ``Host`` that is not one of the server's names
400 (:mod:`nonolab.web.guard`).  Every request that
changes state carries the token the page was served with (``X-Nonolab-Token``); a job is
read and cancelled only with the token that started it.  Bodies are bounded by the input
limit (:mod:`nonolab.formats.limits`), and the image form's limits (:data:`work.MAX_DRAWN`)
hold for the API too.  Starlette is imported here only, so ``nonolab --help`` never pays
for it.
"""

from __future__ import annotations

import contextlib
import json
from importlib import resources
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from nonolab.errors import InvalidArgument, NonolabError
from nonolab.web import guard, repairs, work
from nonolab.web.certificates import Certificates
from nonolab.web.jobs import Jobs
from nonolab.web.words import spoken   # the page's words for a library error
from nonolab.core.words import counted

STATIC = resources.files("nonolab.web") / "static"


class _Missing(Exception):
    pass



def create_app(time_limit: float | None = 60.0, workers: int = 2,
               allowed_hosts: list[str] | None = None) -> Starlette:
    """The application: ``time_limit`` seconds for each job, ``workers`` jobs at once.

    ``allowed_hosts``: the names a request's ``Host`` may give (``None``: any).  Served on
    this machine only, the server answers only to its own names, so that a web page
    elsewhere cannot reach it through a name that resolves here (DNS rebinding).

    >>> app = create_app()
    >>> sorted(r.path for r in app.routes)[:3]
    ['/', '/api/draw', '/api/generate']
    """
    store, jobs, sessions = work.Store(), Jobs(workers, max_weight=work.STORE_CELLS), guard.Sessions()
    certificates = Certificates()
    # A request's own work (reading a file, summarising a puzzle, drawing a picture, encoding
    # the answer) takes seconds and gigabytes on the largest puzzles: it runs in a worker
    # thread, so the server goes on answering (polls, Cancel), and at most ``workers`` such
    # threads at once, as for jobs, so that many requests queue rather than multiply.
    limiter = anyio.CapacityLimiter(max(1, workers))

    async def off_loop(work_of, *args: Any) -> Any:
        return await anyio.to_thread.run_sync(work_of, *args, limiter=limiter)

    def shown(entry: work.Entry, **more: Any) -> Response:
        """The answer showing a puzzle (in a worker thread: summary and JSON grow with it)."""
        return JSONResponse({"puzzle": work.summary(entry), **more})

    def entry_of(request: Request) -> work.Entry:
        entry = store.get(request.path_params["pid"])
        if entry is None:
            raise _Missing(f"no puzzle {request.path_params['pid']!r} (the server keeps the most recent ones)")
        return entry

    def job_of(request: Request):
        job = jobs.get(request.path_params["jid"], owner=guard.token_of(request.headers))
        if job is None:   # unknown, or another session's: the same answer, so ids cannot be probed
            raise _Missing(f"no job {request.path_params['jid']!r}")
        return job

    async def page(request: Request) -> Response:
        html = (STATIC / "index.html").read_text(encoding="utf-8")
        html = html.replace('<meta name="nonolab-token" content="">',
                            f'<meta name="nonolab-token" content="{sessions.issue()}">', 1)
        return Response(html, media_type="text/html", headers={"Cache-Control": "no-store"})

    async def info(request: Request) -> Response:
        from nonolab.formats import names
        return JSONResponse({"formats": names(), "pictures": list(work.PICTURE_FORMATS),
                             "time_limit": time_limit, "max_drawn": work.MAX_DRAWN,
                             "max_bytes": _max_body()})

    async def load(request: Request) -> Response:
        data = await guard.read_body(request)
        name, fmt = request.query_params.get("name"), request.query_params.get("format")
        index = _number(request.query_params, "index", int, 1)

        def read() -> Response:
            puzzles = work.loaded(data, name, fmt)
            if not 1 <= index <= len(puzzles):
                raise InvalidArgument(f"{name or 'the text'}: puzzle {index} is out of range: it holds "
                                      f"{counted(len(puzzles), 'puzzle')}")
            chosen = puzzles[index - 1]
            if isinstance(chosen, NonolabError):   # that puzzle could not be read: its error (the others can be)
                raise chosen
            entry = store.add(work.Entry(chosen, origin=name or "pasted text"))
            return shown(entry, index=index, in_file=len(puzzles))
        return await off_loop(read)

    async def draw(request: Request) -> Response:
        body = await _json(request)
        drawn = work.drawn(body.get("rows"), body.get("name"))
        locked = work.locked_cells(body.get("locked"), drawn)
        origin = "a drawing" + (f", {counted(len(locked), 'cell')} locked" if locked else "")
        return await off_loop(shown, store.add(work.Entry(drawn, origin=origin, locked=locked)))

    async def sample(request: Request) -> Response:
        return await off_loop(shown, store.add(work.sample()))

    async def puzzle(request: Request) -> Response:
        return await off_loop(shown, entry_of(request))

    async def analyse(request: Request) -> Response:
        entry = entry_of(request)
        job = jobs.start("analyse", lambda job: work.analyse(entry, job, time_limit),
                         owner=guard.token_of(request.headers), weight=work.cells(entry))
        return JSONResponse({"job": job.as_dict()}, status_code=202)

    async def explain(request: Request) -> Response:
        entry = entry_of(request)
        job = jobs.start("explain", lambda job: work.explain(entry, job, time_limit),
                         owner=guard.token_of(request.headers), weight=work.cells(entry))
        return JSONResponse({"job": job.as_dict()}, status_code=202)

    async def repair(request: Request) -> Response:
        entry = entry_of(request)
        body = await _json(request)

        def repaired() -> Response:
            fixed = repairs.apply(entry.puzzle, body, entry.locked)
            kind = "givens" if body.get("kind") == "givens" else "a flip"
            new = store.add(work.Entry(fixed, origin=f"{entry.puzzle.name or 'puzzle'} with {kind}",
                                       locked=entry.locked))
            changed = None
            if body.get("kind") == "flip":   # the picture the flip changed, and the new one
                changed = work.before_after(repairs.picture_of(entry.puzzle, body), fixed)
            return shown(new, changed=changed, cells=[c[:2] for c in body["cells"]])
        return await off_loop(repaired)

    async def download(request: Request) -> Response:
        entry = entry_of(request)
        picture = (request.query_params.get("picture") or "").lower()
        fmt = picture or (request.query_params.get("format") or "non").lower()
        name, content = await off_loop(work.download, entry, fmt, bool(picture))
        media = {"svg": "image/svg+xml", "png": "image/png", "pdf": "application/pdf"}.get(fmt)
        if media is None or (not picture and fmt != "png"):
            media = "text/plain; charset=utf-8"
        return Response(content, media_type=media,
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def certify(request: Request) -> Response:
        entry = entry_of(request)   # its givens are part of the puzzle, and of the certificate's CNF
        job = jobs.start("certify", lambda job: certificates.make(entry.id, entry.puzzle, job, time_limit),
                         owner=guard.token_of(request.headers), weight=work.cells(entry))
        return JSONResponse({"job": job.as_dict()}, status_code=202)

    async def certificate_zip(request: Request) -> Response:
        found = certificates.zip_of(entry_of(request).id)
        if found is None:
            raise _Missing("no certificate of this puzzle: certify it first (the server keeps the most recent ones)")
        name, content = found
        return Response(content, media_type="application/zip",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def generate(request: Request) -> Response:
        data = await guard.read_body(request)
        q = request.query_params
        name = q.get("name") or "image"
        width, height = _number(q, "width", int, 20), _number(q, "height", int, 20)
        density = _number(q, "density", float, 0.5)
        colours = _number(q, "colours", int, 1)
        uniform = {"": None, "yes": True, "no": False}.get(q.get("uniform") or "")
        if q.get("uniform") not in (None, "", "yes", "no"):
            raise InvalidArgument(f"uniform must be yes or no (all-filled and all-empty lines allowed), "
                                  f"not {q.get('uniform')!r}")
        if not data:
            raise InvalidArgument("no image: send the image file as the request body")
        work.image_recipe(width, height, density, time_limit, colours, uniform=uniform)   # a 400 now, not a failed job

        def make(job):
            made, before = work.from_image(data, name, width, height, density, job, time_limit, colours, uniform)
            entry = store.add(work.Entry(made, origin=f"the image {name}"))
            return {"puzzle": work.summary(entry), "changed": work.before_after(before, made)}
        # Weighed by its image too: queued, the job holds the upload (up to the input limit).
        job = jobs.start("generate", make, owner=guard.token_of(request.headers),
                         weight=max(width * height, len(data) // work.BYTES_PER_CELL))
        return JSONResponse({"job": job.as_dict()}, status_code=202)

    async def job_state(request: Request) -> Response:
        return JSONResponse(job_of(request).as_dict())

    async def cancel(request: Request) -> Response:
        job = job_of(request)
        job.cancel.set()
        return JSONResponse(job.as_dict())

    async def library_error(request: Request, err: Exception) -> Response:
        return JSONResponse({"error": spoken(err), "type": type(err).__name__}, status_code=400)

    async def missing(request: Request, err: Exception) -> Response:
        return JSONResponse({"error": str(err), "type": "NotFound"}, status_code=404)

    async def http_error(request: Request, err: Exception) -> Response:
        # An address or a method the API does not have: its JSON too (Starlette answers plain text,
        # which the page's error line cannot read).
        if not isinstance(err, HTTPException):   # (the handler of that class only)
            raise err
        kind = {404: "NotFound", 405: "MethodNotAllowed"}.get(err.status_code, "HTTPError")
        return JSONResponse({"error": f"{request.method} {request.url.path}: {err.detail}", "type": kind},
                            status_code=err.status_code, headers=err.headers)

    async def bug(request: Request, err: Exception) -> Response:
        # A bug, not bad input: still one line of JSON (the page shows it), never a traceback.
        return JSONResponse({"error": f"internal error: {type(err).__name__}: {_one_line(err)}",
                             "type": "InternalError"}, status_code=500)

    routes = [
        Route("/", page), Route("/api/info", info), Route("/api/load", load, methods=["POST"]),
        Route("/api/draw", draw, methods=["POST"]), Route("/api/sample", sample, methods=["POST"]),
        Route("/api/puzzles/{pid}", puzzle),
        Route("/api/puzzles/{pid}/analyse", analyse, methods=["POST"]),
        Route("/api/puzzles/{pid}/explain", explain, methods=["POST"]),
        Route("/api/puzzles/{pid}/repair", repair, methods=["POST"]),
        Route("/api/puzzles/{pid}/download", download),
        Route("/api/puzzles/{pid}/certify", certify, methods=["POST"]),
        Route("/api/puzzles/{pid}/certificate.zip", certificate_zip),
        Route("/api/generate", generate, methods=["POST"]),
        Route("/api/jobs/{jid}", job_state), Route("/api/jobs/{jid}/cancel", cancel, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        jobs.close()   # the server stops: so do its jobs

    from starlette.middleware import Middleware

    # The Host check (DNS rebinding), then the Origin, token and body guard: one middleware,
    # so that every refusal is one line of JSON with the security headers.
    middleware = [Middleware(guard.Guard, sessions=sessions, max_body=_max_body, hosts=allowed_hosts or None)]
    app = Starlette(routes=routes, exception_handlers={NonolabError: library_error, _Missing: missing,
                                                       HTTPException: http_error, Exception: bug},
                    lifespan=lifespan, middleware=middleware)
    app.state.jobs, app.state.store, app.state.sessions = jobs, store, sessions
    return app


def _max_body() -> int | None:
    """The largest body a request may send: the input limit of a file, read now (the
    environment may set it: ``NONOLAB_MAX_INPUT_BYTES``)."""
    from nonolab.formats.limits import active
    return active().max_bytes


def _one_line(err: Exception, limit: int = 200) -> str:
    text = " ".join(str(err).split())
    return text if len(text) <= limit else text[:limit] + "..."


#: The most a JSON request (a drawing, a repair) may send: a 100x100 drawing with every cell
#: locked is about 130 kB.  Parsed on the event loop, a body of the input limit (64 MiB) held
#: every other request (polls, Cancel) for seconds; this one is parsed in milliseconds.
JSON_BYTES = 2**20
JSON_WHAT = "a JSON request (a drawing, a repair) may send"


async def _json(request: Request) -> dict[str, Any]:
    from nonolab.formats._common import number_problem
    from nonolab.formats.limits import check_depth, json_depth

    data = await guard.read_body(request, JSON_BYTES, JSON_WHAT) or b"null"
    try:
        text = data.decode("utf-8")
        check_depth(json_depth(text))   # before json recurses into it
        body = json.loads(text)
    except UnicodeDecodeError as err:
        raise InvalidArgument(f"the request body is not JSON: {err}") from None
    except json.JSONDecodeError as err:
        raise InvalidArgument(f"the request body is not JSON: {err}") from None
    except ValueError as err:   # an integer of thousands of digits
        raise InvalidArgument(f"the request body is not JSON: {number_problem(err)}") from None
    if not isinstance(body, dict):
        raise InvalidArgument("the request body must be a JSON object")
    return body


def _number(query, key: str, kind: type, default):
    """Query field ``key`` as a ``kind`` (int: a whole number, as the page's counts and sizes are)."""
    text = query.get(key)
    if text in (None, ""):
        return default
    try:
        return kind(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise InvalidArgument(f"{key} must be {what}, not {text!r}") from None
