"""The attacks of issue 24, measured: wall time, peak memory and exit code of each.

Every attack is a real command line (or an HTTP request to a real ``nonolab serve`` on
127.0.0.1) against the tree on ``--src`` (default: this checkout's ``src``), so the same
script measures a tree before and after a change:

    python -m benchmarks.attacks [--src /path/to/src] [--only NAME,...] [--cap 40]

A command runs under ``/usr/bin/time -v`` (its "Maximum resident set size"), for at most
``--cap`` seconds and 4 GB (a watchdog kills it beyond either: the row then says so).
A web attack starts a fresh server, sends the request, and reads the server's peak
memory (``VmHWM``) afterwards.  Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RSS_CAP = 4 * 2 ** 30


def _png(path: Path, size: tuple[int, int], colour: bool = False, dots: int = 0) -> Path:
    from PIL import Image
    image = Image.new("RGB" if colour else "L", size, "white" if colour else 255)
    for i in range(dots):
        image.putpixel((i * 7 % size[0], i * 13 % size[1]), (200, 0, 0) if colour and i % 2 else
                       ((0, 0, 200) if colour else 0))
    image.save(path, optimize=True)
    return path


def _files(folder: Path) -> dict[str, Path]:
    f = {}
    f["tiny.png"] = _png(folder / "tiny.png", (4, 4), dots=3)
    f["white5000.png"] = _png(folder / "white5000.png", (5000, 5000))
    f["colour.png"] = _png(folder / "colour.png", (2000, 2000), colour=True, dots=6)
    big = folder / "pic8000.grid"
    with open(big, "w") as out:
        row = "#." * 4000 + "\n"
        for _ in range(8000):
            out.write(row)
    f["pic8000.grid"] = big
    (folder / "row30m.grid").write_text("#" * 30_000_000 + "\n")
    f["row30m.grid"] = folder / "row30m.grid"
    (folder / "empty5000.tatham").write_text("5000x5000:" + "/" * 9999 + "\n")
    f["empty5000.tatham"] = folder / "empty5000.tatham"
    one = "<puzzle><clues type='rows'><line><count>1</count></line></clues>" \
          "<clues type='columns'><line><count>1</count></line></clues></puzzle>"
    (folder / "many.xml").write_text("<puzzleset>" + one * 200_000 + "</puzzleset>")
    f["many.xml"] = folder / "many.xml"
    (folder / "deep.xml").write_text("<puzzleset>" + "<a>" * 1_000_000 + "</a>" * 1_000_000 + "</puzzleset>")
    f["deep.xml"] = folder / "deep.xml"
    (folder / "ones.taai").write_text("".join(f"${i}\n1\n1\n" for i in range(500_000)))
    f["ones.taai"] = folder / "ones.taai"
    (folder / "longclue.g").write_text("#d\n 0:. white\n 1:# black\n r:r red\n: rows\n" + "1" * 4301
                                       + "r\n: columns\n1r\n:\n")
    f["longclue.g"] = folder / "longclue.g"
    (folder / "hugeclue.non").write_text("width 3\nheight 1\nrows\n" + ",".join(["1"] * 1_000_000)
                                         + "\ncolumns\n1\n1\n1\n")
    f["hugeclue.non"] = folder / "hugeclue.non"
    (folder / "small.non").write_text("width 2\nheight 2\nrows\n2\n1\ncolumns\n2\n1\n")
    f["small.non"] = folder / "small.non"
    over = folder / "over.non"
    over.write_bytes(b"#" * (64 * 2 ** 20 + 243))
    f["over.non"] = over
    (folder / "batch").mkdir()
    (folder / "batch" / "a.non").write_text("width 2\nheight 2\nrows\n2\n1\ncolumns\n2\n1\n")
    os.mkfifo(folder / "batch" / "fifo.non")
    return f


def _attacks(f: dict[str, Path]) -> list[tuple[str, list[str], dict]]:
    """(name, arguments of nonolab, extra: env / stdin / cwd)."""
    return [
        ("generate --size 100000x100000", ["generate", "--size", "100000x100000"], {}),
        ("generate --size 5001x5000", ["generate", "--size", "5001x5000"], {}),
        ("generate --from-image tiny.png --size 2000x2000 --unique --repair --time-limit 5",
         ["generate", "--from-image", str(f["tiny.png"]), "--size", "2000x2000", "--unique", "--repair",
          "--time-limit", "5"], {}),
        ("info 8000x8000 picture (64 MB)", ["info", str(f["pic8000.grid"])], {}),
        ("info 30,000,000x1 picture", ["info", str(f["row30m.grid"])], {}),
        ("info white 5000x5000 PNG", ["info", str(f["white5000.png"])], {}),
        ("export --to dimacs empty 5000x5000 ID", ["export", str(f["empty5000.tatham"]), "--to", "dimacs",
                                                   "-o", os.devnull], {}),
        ("info 200,000 puzzles in one XML", ["info", str(f["many.xml"])], {}),
        ("info XML nested 10^6 deep", ["info", str(f["deep.xml"])], {}),
        ("check --time-limit 10 on 500,000 1x1 puzzles", ["check", "--time-limit", "10",
                                                          str(f["ones.taai"])], {}),
        ("check --report --time-limit 5 empty 5000x5000 ID", ["check", "--report", "--time-limit", "5",
                                                              str(f["empty5000.tatham"])], {}),
        ("grade --time-limit 5 empty 5000x5000 ID", ["grade", "--time-limit", "5", str(f["empty5000.tatham"])], {}),
        ("explain --time-limit 10 empty 5000x5000 ID", ["explain", "--time-limit", "10",
                                                        str(f["empty5000.tatham"])], {}),
        ("render --steps --time-limit 10 empty 5000x5000 ID", ["render", "--steps", "--time-limit", "10",
                                                               str(f["empty5000.tatham"]), "-o",
                                                               str(f["tiny.png"].parent / "steps.svg")], {}),
        ("check -b native --time-limit 0.5 colour PNG", ["check", "-b", "native", "--time-limit", "0.5",
                                                         str(f["colour.png"])], {}),
        ("batch folder with a FIFO, --time-limit 5", ["batch", str(f["tiny.png"].parent / "batch"), "--time-limit",
                                                      "5", "--out", str(f["tiny.png"].parent / "b.jsonl")], {}),
        (".g clue of 4,301 digits", ["info", str(f["longclue.g"])], {}),
        ("NONOLAB_MAX_INPUT_BYTES=1e11", ["info", str(f["small.non"])], {"env": {"NONOLAB_MAX_INPUT_BYTES": "1e11"}}),
        ("NONOLAB_MAX_INPUT_BYTES=2**63-1", ["info", str(f["small.non"])],
         {"env": {"NONOLAB_MAX_INPUT_BYTES": str(2 ** 63 - 1)}}),
        ("check - with stdin closed", ["check", "-"], {"stdin": "closed"}),
        ("-O workers=20000 with cpsat", ["solve", "-b", "cpsat", "-O", "workers=20000", "--max-solutions", "1",
                                         str(f["small.non"])], {}),
        ("--time-limit nan", ["check", "--time-limit", "nan", str(f["small.non"])], {}),
        ("error message of a 10^6-number clue", ["info", str(f["hugeclue.non"])], {}),
        ("file 243 bytes over 64 MiB", ["info", str(f["over.non"])], {}),
        ("usage error (unknown option)", ["check", "--nope", str(f["small.non"])], {}),
    ]


def _watch(process: subprocess.Popen, cap: float, killed: list[str], peak: list[int]) -> None:
    deadline = time.monotonic() + cap
    while process.poll() is None:
        rss = _tree_rss(process.pid)
        peak[0] = max(peak[0], rss)
        if time.monotonic() > deadline:
            killed.append(f"killed at {cap:.0f} s")
        else:
            if rss > RSS_CAP:
                killed.append(f"killed at {rss / 2 ** 30:.1f} GB")
        if killed:
            for pid in _tree(process.pid):
                try:
                    os.kill(pid, 9)
                except OSError:
                    pass
            return
        time.sleep(0.1)


def _tree(pid: int) -> list[int]:
    out = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return out
    for child in children:
        out += _tree(int(child))
    return out


def _tree_rss(pid: int) -> int:
    total = 0
    for p in _tree(pid):
        try:
            m = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{p}/status").read_text())
            total += int(m.group(1)) * 1024 if m else 0
        except OSError:
            pass
    return total


def run_command(src: str, args: list[str], extra: dict, cap: float) -> dict:
    env = {**os.environ, "PYTHONPATH": src, **extra.get("env", {})}
    stdin = subprocess.DEVNULL
    if extra.get("stdin") == "closed":
        stdin = None
    argv = ["/usr/bin/time", "-v", sys.executable, "-m", "nonolab", *args]
    if extra.get("stdin") == "closed":
        argv = ["sh", "-c", 'exec "$@" <&-', "sh", *argv]
    start = time.monotonic()
    process = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                               cwd=extra.get("cwd"))
    killed: list[str] = []
    peak = [0]
    watcher = threading.Thread(target=_watch, args=(process, cap, killed, peak), daemon=True)
    watcher.start()
    out, err = process.communicate()
    wall = time.monotonic() - start
    watcher.join()
    text = err.decode("utf-8", "replace")
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    cpu = sum(float(x) for x in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", text))
    own = re.split(r"Command exited with non-zero status|Command terminated by signal|\tCommand being timed",
                   text)[0].rstrip().splitlines()
    return {"wall": wall, "cpu": cpu, "rss_mb": int(m.group(1)) / 1024 if m else peak[0] / 2 ** 20,
            "exit": process.returncode,
            "killed": killed[0] if killed else "", "stderr_lines": len(own),
            "last": (own[-1] if own else "")[:150], "stdout_bytes": len(out)}


# ---- the web server --------------------------------------------------------------------------------

class Server:
    def __init__(self, src: str):
        env = {**os.environ, "PYTHONPATH": src}
        self.process = subprocess.Popen([sys.executable, "-m", "nonolab", "serve", "--port", "0", "--time-limit",
                                         "20"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self.url = self.process.stdout.readline().decode().strip().rstrip("/")
        self.host, self.port = re.match(r"http://([^:]+):(\d+)", self.url).groups()
        self.port = int(self.port)
        self.token = ""
        page = self.request("GET", "/")[1].decode("utf-8", "replace")
        m = re.search(r'name="nonolab-token" content="([^"]*)"', page)
        self.token = m.group(1) if m else ""

    def headers(self) -> dict[str, str]:
        return {"X-Nonolab-Token": self.token} if self.token else {}

    def request(self, method: str, path: str, body: bytes = b"", headers: dict | None = None, timeout=60):
        import http.client
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        conn.request(method, path, body=body, headers={**self.headers(), **(headers or {})})
        response = conn.getresponse()
        data = response.read()
        conn.close()
        return response.status, data, dict(response.getheaders())

    def memory(self) -> tuple[float, float]:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        hwm = int(re.search(r"VmHWM:\s+(\d+)", status).group(1)) / 1024
        rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) / 1024
        return hwm, rss

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def _upload_1gb(server: Server) -> str:
    """1 GB sent with its Content-Length; the time until the server answers (or drops the connection)."""
    sock = socket.create_connection((server.host, server.port))
    head = (f"POST /api/load?name=big.non HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            f"Content-Type: application/octet-stream\r\nContent-Length: {2 ** 30}\r\n"
            + "".join(f"{k}: {v}\r\n" for k, v in server.headers().items()) + "\r\n").encode()
    sock.sendall(head)
    chunk = b"#" * 2 ** 20
    sent = 0
    sock.setblocking(False)
    answer = b""
    try:
        while sent < 2 ** 30:
            try:
                sent += sock.send(chunk)
            except BlockingIOError:
                time.sleep(0.001)
            try:
                answer += sock.recv(65536)
                if answer:
                    break
            except BlockingIOError:
                pass
    except (BrokenPipeError, ConnectionResetError):
        pass
    sock.setblocking(True)
    sock.settimeout(30)
    try:
        while b"\r\n\r\n" not in answer:
            more = sock.recv(65536)
            if not more:
                break
            answer += more
    except OSError:
        pass
    sock.close()
    return f"{sent / 2 ** 20:.0f} MiB sent; " + (answer.split(b"\r\n")[0].decode() if answer else "no answer")


def _upload_1gb_chunked(server: Server) -> str:
    """1 GB streamed without a length (chunked): the server must count it as it arrives."""
    sock = socket.create_connection((server.host, server.port))
    head = (f"POST /api/load?name=big.non HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            f"Content-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n"
            + "".join(f"{k}: {v}\r\n" for k, v in server.headers().items()) + "\r\n").encode()
    sock.sendall(head)
    piece = b"#" * 2 ** 20
    chunk = b"%x\r\n" % len(piece) + piece + b"\r\n"
    sent, answer = 0, b""
    sock.settimeout(0.001)
    try:
        while sent < 2 ** 30:
            try:
                sock.sendall(chunk)
                sent += len(piece)
            except socket.timeout:
                pass
            try:
                answer += sock.recv(65536)
                if answer:
                    break
            except socket.timeout:
                pass
    except (BrokenPipeError, ConnectionResetError):
        pass
    sock.settimeout(30)
    try:
        while b"\r\n\r\n" not in answer:
            more = sock.recv(65536)
            if not more:
                break
            answer += more
    except OSError:
        pass
    sock.close()
    return f"{sent / 2 ** 20:.0f} MiB sent; " + (answer.split(b"\r\n")[0].decode() if answer else "no answer")


def _generate_huge(server: Server) -> str:
    buffer = io.BytesIO()
    from PIL import Image
    Image.new("L", (4, 4), 255).save(buffer, format="PNG")
    status, body, _ = server.request("POST", "/api/generate?name=t.png&width=100000&height=100000",
                                     buffer.getvalue(), {"Content-Type": "application/octet-stream"})
    if status == 202:
        job = json.loads(body)["job"]["id"]
        deadline = time.monotonic() + 25
        while time.monotonic() < deadline:
            status, body, _ = server.request("GET", f"/api/jobs/{job}")
            state = json.loads(body)
            if state["state"] not in ("queued", "running"):
                return f"job {state['state']} after {state['seconds']} s: {state['error'] or ''}"[:150]
            if server.memory()[1] > RSS_CAP / 2 ** 20:
                return "job still running, server beyond 4 GB (stopped)"
            time.sleep(0.2)
        return f"job still {state['state']} after 25 s ({state['stage']})"
    return f"{status} {body[:120].decode('utf-8', 'replace')}"


def _cross_origin(server: Server) -> str:
    status, body, _ = server.request("POST", "/api/load", b"2x2:2/1/2/1",
                                     {"Content-Type": "text/plain", "Origin": "http://evil.example",
                                      "X-Nonolab-Token": ""})
    return f"{status} {body[:100].decode('utf-8', 'replace')}"


def _deep_json(server: Server) -> str:
    status, body, _ = server.request("POST", "/api/draw", b"[" * 100_000 + b"]" * 100_000,
                                     {"Content-Type": "application/json"})
    return f"{status} {body[:100].decode('utf-8', 'replace')}"


def _huge_cell(server: Server) -> str:
    status, body, _ = server.request("POST", "/api/draw", json.dumps({"rows": ["#.", ".#"]}).encode(),
                                     {"Content-Type": "application/json"})
    pid = json.loads(body)["puzzle"]["id"]
    status, body, _ = server.request("POST", f"/api/puzzles/{pid}/repair", b'{"kind": "givens", "cells": '
                                     b'[[1e400, 0, 1]]}', {"Content-Type": "application/json"})
    return f"{status} {body[:100].decode('utf-8', 'replace')}"


def _headers(server: Server) -> str:
    _, _, headers = server.request("GET", "/")
    wanted = ("Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options")
    lower = {k.lower(): v for k, v in headers.items()}
    return "; ".join(f"{k}: {'yes' if k.lower() in lower else 'missing'}" for k in wanted)


WEB = {"POST 1 GB to /api/load": _upload_1gb, "POST 1 GB chunked to /api/load": _upload_1gb_chunked,
       "POST /api/generate 100000x100000": _generate_huge,
       "cross-origin text/plain POST /api/load": _cross_origin, "100,000-deep JSON to /api/draw": _deep_json,
       "repair naming cell 1e400": _huge_cell, "security headers": _headers}


def run_web(src: str, name: str) -> dict:
    server = Server(src)
    try:
        start = time.monotonic()
        answer = WEB[name](server)
        wall = time.monotonic() - start
        hwm, rss = server.memory()
    finally:
        server.stop()
    return {"wall": wall, "rss_mb": hwm, "exit": "", "killed": "", "last": answer, "after_mb": rss}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=str(REPO / "src"))
    parser.add_argument("--only", default="")
    parser.add_argument("--cap", type=float, default=40.0)
    args = parser.parse_args()
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    print(f"# {args.src}; load average {os.getloadavg()[0]:.2f}\n")
    print("| attack | wall s | cpu s | peak MB | exit | stopped | what it said |")
    print("|---|---:|---:|---:|---:|---|---|")
    with tempfile.TemporaryDirectory(prefix="nonolab-attacks-") as folder:
        files = _files(Path(folder))
        for name, argv, extra in _attacks(files):
            if only and not any(o in name for o in only):
                continue
            r = run_command(args.src, argv, extra, args.cap)
            said = r["last"].replace("|", "\\|")
            if r["stderr_lines"] > 1:
                said += f" ({r['stderr_lines']} lines on stderr)"
            cpu = f"{r['cpu']:.1f}" if not r["killed"] else "-"
            print(f"| {name} | {r['wall']:.1f} | {cpu} | {r['rss_mb'] or 0:.0f} | {r['exit']} | {r['killed']} "
                  f"| {said} |", flush=True)
        for name in WEB:
            if only and not any(o in name for o in only):
                continue
            r = run_web(args.src, name)
            print(f"| {name} | {r['wall']:.2f} | | {r['rss_mb']:.0f} (server) | | | "
                  f"{r['last'].replace('|', '/')} |", flush=True)


if __name__ == "__main__":
    main()
