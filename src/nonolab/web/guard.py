"""What stands between the network and the workbench: who may change its state, how
much a request may send, and what the browser may do with its answers.

* **Sessions**: the page is served with a fresh token (``<meta name="nonolab-token">``,
  :class:`Sessions`); every request that changes state (any method but GET and HEAD)
  must carry a token the server issued, in the ``X-Nonolab-Token`` header, and jobs are
  bound to the token that started them.  A page on another site can neither read the
  token (the browser's same-origin policy) nor send the header without a CORS preflight,
  which this server never grants.
* **Host**: every request must name one of the server's own names in its ``Host``
  (``hosts``; against DNS rebinding, where a name an attacker controls resolves to this
  machine): any other is refused before anything is read.
* **Origin**: a state-changing request whose ``Origin`` (or ``Sec-Fetch-Site``) says it
  comes from another site is refused before anything is read.  With the ``Host`` check
  no page elsewhere can drive the server.
* **Bodies**: a declared ``Content-Length`` beyond the input limit is refused before a
  byte is read; a body without one is counted while it streams in and refused once past
  the limit (:func:`read_body`), so memory holds at most the limit.
* **Headers**: every answer carries a Content-Security-Policy (scripts, styles and
  connections from this server only, no framing), ``X-Frame-Options: DENY`` and
  ``X-Content-Type-Options: nosniff``.

Refusals answer JSON, as every other error: ``{"error": MESSAGE, "type": ...}``.

>>> sessions = Sessions()
>>> token = sessions.issue()
>>> sessions.known(token), sessions.known("guess"), sessions.known(token[:-1] + "x"), len(token) >= 32
(True, False, False, True)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from typing import Any, Awaitable, Callable

from nonolab.errors import TooLarge

TOKEN_HEADER = "x-nonolab-token"
#: The answers' security headers (lower-case names, as ASGI carries them).
SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
     b"connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-resource-policy", b"same-origin"),
]
_SAFE_METHODS = ("GET", "HEAD")

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class Sessions:
    """The tokens issued with the page: each a random 128-bit nonce signed with this
    server's secret (HMAC-SHA-256, a 256-bit key made at start), so the server keeps nothing
    per page.  A list of the tokens issued would be bounded, and any site the user opens can
    load the page (a ``no-cors`` fetch of a well-known port) as often as it likes: it would
    push the user's own token out of the list, breaking the open page."""

    def __init__(self) -> None:
        self._key = secrets.token_bytes(32)

    def issue(self) -> str:
        nonce = secrets.token_urlsafe(16)
        return f"{nonce}.{self._signature(nonce)}"

    def known(self, token: str | None) -> bool:
        nonce, dot, signature = (token or "").partition(".")
        if not (nonce and dot and signature):
            return False
        return hmac.compare_digest(signature.encode("utf-8", "replace"), self._signature(nonce).encode())

    def _signature(self, nonce: str) -> str:
        digest = hmac.new(self._key, nonce.encode("utf-8", "replace"), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def token_of(headers: Any) -> str | None:
    """The session token a request carries (a Starlette ``Headers`` or ASGI pairs)."""
    if isinstance(headers, list):
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in headers}
    return headers.get(TOKEN_HEADER)


class Guard:
    """ASGI middleware: the security headers on every answer; the Host of every request;
    the Origin, the token and the declared length of every state-changing request; a
    counted body.  ``hosts``: the names a ``Host`` may give (``None``: any)."""

    def __init__(self, app, sessions: Sessions, max_body: Callable[[], int | None],
                 hosts: list[str] | None = None):
        self.app = app
        self.sessions = sessions
        self.max_body = max_body
        self.hosts = None if hosts is None else {h.lower() for h in hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = _with_headers(send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        if self.hosts is not None:
            host = host_name(headers.get("host", ""))
            if host not in self.hosts:
                await answer(send, 400, f"this server answers to Host {', '.join(sorted(self.hosts))}, not "
                             f"{_short(headers.get('host', '(none)'))!r}: open it at its own address",
                             "WrongHost")
                return
        if scope["method"] not in _SAFE_METHODS:
            refusal = self.refusal(headers)
            if refusal is not None:
                await answer(send, 403, refusal, "Forbidden")
                return
            limit = self.max_body()
            try:
                declared = int(headers.get("content-length") or 0)
            except ValueError:
                await answer(send, 400, "the Content-Length header is not a number", "InvalidArgument")
                return
            if limit is not None and declared > limit:
                await answer(send, 400, body_too_large(declared, limit), "TooLarge")
                return
            receive = _counted(receive, limit)
        await self.app(scope, receive, send)

    def refusal(self, headers: dict[str, str]) -> str | None:
        """Why a state-changing request is refused (None: it may go on)."""
        origin, host = headers.get("origin"), headers.get("host", "")
        if origin is not None and origin not in (f"http://{host}", f"https://{host}"):
            return (f"a request from another site ({_short(origin)}) cannot change the workbench: "
                    "open the page from this server")
        if origin is None and headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            return "a request from another site cannot change the workbench: open the page from this server"
        if not self.sessions.known(headers.get(TOKEN_HEADER)):
            return ("this request carries no session token of this server (the X-Nonolab-Token header the "
                    "page sends): reload the page")
        return None


def host_name(header: str) -> str:
    """The name a ``Host`` header gives, without its port, lower-case (``[::1]`` keeps its
    brackets).

    >>> host_name("LocalHost:8000"), host_name("[::1]:8000"), host_name("127.0.0.1")
    ('localhost', '[::1]', '127.0.0.1')
    """
    header = header.strip().lower()
    if header.startswith("["):
        return header[:header.find("]") + 1] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def body_too_large(size: int, limit: int, streamed: bool = False) -> str:
    """The one line of a body beyond the input limit (the CLI's words for a file)."""
    from nonolab.formats.limits import check_bytes
    try:
        check_bytes(size, limit, streamed=streamed, what="the request body")
    except TooLarge as err:
        from nonolab.web.words import spoken
        return spoken(err)
    return ""


def _counted(receive: Receive, limit: int | None) -> Receive:
    """``receive`` that raises :class:`TooLarge` once the body passes ``limit`` bytes (the
    endpoint reading it answers 400; nothing past the limit is kept)."""
    seen = 0

    async def counted() -> dict[str, Any]:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if limit is not None and seen > limit:
                raise TooLarge(body_too_large(seen, limit, streamed=True))
        return message
    return counted


async def read_body(request, limit: int | None = None, what: str = "") -> bytes:
    """The request's body, read as it streams into one buffer (the :class:`Guard` has
    bounded it: beyond the input limit this raises :class:`TooLarge`).  ``limit``: an
    endpoint's own, smaller bound (``what`` it takes), refused before a byte is read when
    declared, else once the body passes it.

    Raises:
        InvalidArgument: the body is beyond ``limit``.
    """
    from nonolab.errors import InvalidArgument

    what = what or "this request may send"

    def refused(size: int | None) -> InvalidArgument:   # None: streamed, its size unknown
        if size is None:
            return InvalidArgument(f"the request body is more than {limit:,} bytes, the most {what}")
        return InvalidArgument(f"the request body is {size:,} bytes, beyond the {limit:,} bytes {what}")

    if limit is not None:
        try:
            declared = int(request.headers.get("content-length") or 0)
        except ValueError:
            declared = 0
        if declared > limit:
            raise refused(declared)
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if limit is not None and len(data) > limit:
            raise refused(None)
    return bytes(data)


def _with_headers(send: Send) -> Send:
    async def sending(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            names = {k.lower() for k, _ in message.get("headers", [])}
            message = {**message, "headers": list(message.get("headers", []))
                       + [(k, v) for k, v in SECURITY_HEADERS if k not in names]}
        await send(message)
    return sending


async def answer(send: Send, status: int, error: str, kind: str) -> None:
    """A JSON error answer, sent without reading the request (the connection then closes)."""
    body = json.dumps({"error": error, "type": kind}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
