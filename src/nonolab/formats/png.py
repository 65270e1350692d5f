"""PNG pictures: one pixel per cell, white (or transparent) is the background, every
other RGB value a colour; the picture is the goal and the clues come from it.

Decoded and encoded here with :mod:`zlib` (the standard library): 1-16 bit grey, RGB,
palette, grey+alpha and RGBA images, non-interlaced (as pixel-art tools write them).
:func:`nonolab.formats.load` hands the file over as its bytes decoded as latin-1
(one character per byte), as for PBM ``P4``.  Written pictures are 8-bit RGB.

>>> from nonolab.core import Puzzle, Solution
>>> p = Puzzle.from_solution(Solution.from_values([[1, 2], [0, 1]]))
>>> q = parse(write(p))[0]
>>> q == p, [c.rgb for c in q.palette] == [c.rgb for c in p.palette]
(True, True)
"""

from __future__ import annotations

import struct
import zlib

from nonolab.core.grid import Solution
from nonolab.core.palette import Colour, Palette
from nonolab.core.puzzle import Puzzle
from nonolab.errors import ParseError
from nonolab.formats._common import need_goal
from nonolab.formats.limits import check_cells

SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
_WHITE = (255, 255, 255)


def sniff(text: str) -> bool:
    return text.startswith(SIGNATURE.decode("latin-1"))


def _chunks(data: bytes) -> dict[bytes, list[bytes]]:
    out: dict[bytes, list[bytes]] = {}
    i = len(SIGNATURE)
    while i + 8 <= len(data):
        (n,) = struct.unpack(">I", data[i:i + 4])
        kind = data[i + 4:i + 8]
        body = data[i + 8:i + 8 + n]
        if len(body) != n:
            raise ParseError(f"the PNG chunk {kind!r} is cut short", line=1)
        out.setdefault(kind, []).append(body)
        i += 12 + n
        if kind == b"IEND":
            break
    return out


def _unfilter(raw: bytes, width: int, height: int, bpp: int, stride: int) -> list[bytes]:
    rows, prior, pos = [], bytearray(stride), 0
    for _ in range(height):
        if pos + 1 + stride > len(raw):
            raise ParseError("the PNG pixel data is cut short", line=1)
        kind, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for x in range(stride):
            left = line[x - bpp] if x >= bpp else 0
            up = prior[x]
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                corner = prior[x - bpp] if x >= bpp else 0
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
            elif kind != 0:
                raise ParseError(f"unknown PNG filter {kind}", line=1)
        rows.append(bytes(line))
        prior = line
    return rows


def _samples(row: bytes, count: int, depth: int) -> list[int]:
    if depth == 8:
        return list(row[:count])
    if depth == 16:
        return [row[2 * i] for i in range(count)]     # the high byte is enough for colours
    per = 8 // depth
    mask = (1 << depth) - 1
    return [(row[i // per] >> (8 - depth * (i % per + 1))) & mask for i in range(count)]


def pixels(data: bytes) -> list[list[tuple[int, int, int] | None]]:
    """The RGB of every pixel, row by row; ``None`` for a transparent one."""
    if not data.startswith(SIGNATURE):
        raise ParseError("not a PNG image", line=1)
    chunks = _chunks(data)
    if b"IHDR" not in chunks or b"IDAT" not in chunks:
        raise ParseError("the PNG has no IHDR or IDAT chunk", line=1)
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"][0])
    if colour not in _CHANNELS or interlace:
        raise ParseError(f"PNG colour type {colour}{' (interlaced)' if interlace else ''} is not supported", line=1)
    check_cells(width, height, 1)
    channels = _CHANNELS[colour]
    bits = depth * channels
    try:
        raw = zlib.decompress(b"".join(chunks[b"IDAT"]))
    except zlib.error as err:
        raise ParseError(f"the PNG pixel data is corrupt ({err})", line=1) from None
    rows = _unfilter(raw, width, height, max(1, bits // 8), (width * bits + 7) // 8)
    palette = chunks.get(b"PLTE", [b""])[0]
    alpha = chunks.get(b"tRNS", [b""])[0]
    out = []
    for row in rows:
        values = _samples(row, width * channels, depth)
        scale = 255 // ((1 << depth) - 1) if depth < 8 else 1
        line: list[tuple[int, int, int] | None] = []
        for x in range(width):
            v = values[x * channels:(x + 1) * channels]
            if colour == 3:
                if 3 * v[0] + 3 > len(palette):
                    raise ParseError(f"PNG palette index {v[0]} is beyond the palette", line=1)
                rgb = tuple(palette[3 * v[0]:3 * v[0] + 3])
                opaque = v[0] >= len(alpha) or alpha[v[0]] > 0
            elif colour in (0, 4):
                rgb, opaque = (v[0] * scale,) * 3, colour == 0 or v[1] > 0
            else:
                rgb, opaque = tuple(v[:3]), colour == 2 or v[3] > 0
            line.append(rgb if opaque else None)  # type: ignore[arg-type]
        out.append(line)
    return out


def parse(text: str) -> list[Puzzle]:
    try:
        data = text.encode("latin-1")
    except UnicodeEncodeError:
        raise ParseError("not a PNG image (the text is not bytes)", line=1) from None
    grid = pixels(data)
    inks = list(dict.fromkeys(rgb for row in grid for rgb in row if rgb is not None and rgb != _WHITE))
    if not inks:   # a blank picture: black and white, with no filled cell
        return [Puzzle.from_solution(Solution.from_bytes(bytes(len(grid) * len(grid[0])), len(grid[0])))]
    index = {rgb: i + 1 for i, rgb in enumerate(inks)}
    cells = bytes(index.get(rgb, 0) if rgb is not None else 0 for row in grid for rgb in row)  # type: ignore[arg-type]
    spare = "#abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWYZ*%@&+=$~^"
    colours = [Colour("white", _WHITE, ".")]
    colours += [Colour("%02X%02X%02X" % rgb, rgb, spare[i] if i < len(spare) else chr(0x100 + i))
                for i, rgb in enumerate(inks)]
    palette = Palette(tuple(colours))
    goal = Solution.from_bytes(cells, len(grid[0]), colours=len(inks) > 1)
    return [Puzzle.from_solution(goal, palette=palette)]


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def write_bytes(puzzle: Puzzle) -> bytes:
    """The goal as an 8-bit RGB PNG, in the palette's colours (black on white without one)."""
    goal = need_goal(puzzle, "png")
    palette = puzzle.palette or Palette.black_and_white()
    rgb = [bytes(c.rgb) for c in palette]
    raw = b"".join(b"\x00" + b"".join(rgb[v] for v in goal.row_bytes(r)) for r in range(goal.height))
    header = struct.pack(">IIBBBBB", goal.width, goal.height, 8, 2, 0, 0, 0)
    return SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, 9)) + _chunk(b"IEND", b"")


def write(puzzle: Puzzle) -> str:
    """:func:`write_bytes` as latin-1 text (one character per byte), as the registry carries it."""
    return write_bytes(puzzle).decode("latin-1")
