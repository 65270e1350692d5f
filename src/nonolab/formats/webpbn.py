"""webpbn XML (``.xml``, ``.pbn``: pbnsolve's native format), black-and-white and colour.

Colours are ``<color name=... char=...>RRGGBB</color>``; the puzzle's
``backgroundcolor`` (default ``white``) is the background and its ``defaultcolor``
(default ``black``) the colour of a ``<count>`` without ``color``; ``white`` and
``black`` exist without a declaration.  A ``<puzzleset>`` may hold several puzzles.

Parsed with :mod:`xml.parsers.expat` so that every problem can name the line of the
offending element.  External entities and DTDs are never fetched, and entity
declarations are refused (they serve no purpose here and enable entity bombs).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Sequence
from xml.parsers import expat

from nonolab.core.grid import Solution
from nonolab.core.palette import Palette
from nonolab.core.puzzle import Puzzle
from nonolab.core.violations import clues_of
from nonolab.errors import NonolabError, ParseError
from nonolab.core.words import counted
from nonolab.formats._common import ClueLines, build, each, every, make_goal, shown, to_int
from nonolab.formats.limits import check_depth, check_puzzles

_META = ("id", "source", "author", "copyright", "description")
_IMAGE_ROW = re.compile(r"\|([^|]*)\|")
_NOT_XML_CHAR = "[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"


def _xml_chars(value: object) -> str:
    """``str(value)`` without the characters XML 1.0 cannot hold.  The pattern is compiled
    on first use (``re`` caches it): its Unicode ranges take a few milliseconds to
    compile, which every command paid at start-up when it was compiled on import."""
    return re.sub(_NOT_XML_CHAR, "", str(value))


@dataclass
class _Element:
    tag: str
    attrs: dict[str, str]
    line: int
    children: list["_Element"] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def find(self, tag: str) -> list["_Element"]:
        return [c for c in self.children if c.tag == tag]

    def child_text(self, tag: str) -> str | None:
        """The text of the one child ``tag`` (a title, an author), None without one.  Another
        child ``tag`` with another text is an error (the first would win without a word), as a
        second ``width`` is in a ``.non`` file."""
        found = self.find(tag)
        if not found:
            return None
        text = found[0].text.strip()
        for again in found[1:]:
            if again.text.strip() != text:
                raise ParseError(f"<{tag}> given twice, differently (first on line {found[0].line})",
                                 line=again.line)
        return text


def sniff(text: str) -> bool:
    return text.lstrip("\ufeff \t\r\n").startswith("<")


def _tree(text: str) -> _Element:
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    stack: list[_Element] = []
    roots: list[_Element] = []

    puzzles = [0]

    def start(name: str, attrs: dict[str, str]) -> None:
        # The budget as the document streams in, before the tree grows: its depth, and
        # its puzzles (counted as each opens, so 200,000 of them are refused at the first
        # one past the limit, not after all are built).
        check_depth(len(stack) + 1, parser.CurrentLineNumber)
        if name.lower() == "puzzle":
            puzzles[0] += 1
            check_puzzles(puzzles[0], parser.CurrentLineNumber)
        # pbnsolve compares tag names without regard to case.
        el = _Element(name.lower(), {k.lower(): v for k, v in attrs.items()},
                      parser.CurrentLineNumber)
        (stack[-1].children if stack else roots).append(el)
        stack.append(el)

    def end(name: str) -> None:
        stack.pop()

    def chars(data: str) -> None:
        if stack:
            stack[-1].parts.append(data)

    def entity_decl(*args: object) -> None:
        raise ParseError("XML entity declarations are not allowed", line=parser.CurrentLineNumber)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.EntityDeclHandler = entity_decl
    try:
        parser.Parse(text, True)
    except expat.ExpatError as err:
        raise ParseError(f"the XML is not well formed: {expat.ErrorString(err.code)} "
                         f"(column {err.offset + 1})", line=err.lineno) from None
    return roots[0]


def parse(text: str) -> list[Puzzle]:
    return every(parse_each(text))


def parse_each(text: str) -> list[Puzzle | NonolabError]:
    """Every ``<puzzle>`` of the set, or its own error: the XML is the set's structure (XML that
    is not well formed, a set without puzzles: the file's error)."""
    root = _tree(text)
    if root.tag == "puzzle":        # lenient: a lone puzzle without its set
        return [_puzzle(root, {})]
    if root.tag != "puzzleset":
        raise ParseError(f"the root element is <{root.tag}>, expected <puzzleset>", line=root.line)
    defaults = {k: v for k in ("title", "author", "copyright", "source")
                if (v := root.child_text(k))}
    elements = list(root.find("puzzle"))
    if not elements:
        raise ParseError("the <puzzleset> holds no <puzzle>", line=root.line)
    return each(lambda el: _puzzle(el, defaults), elements)


_Counts = list[tuple[str, int]]     # the <count> texts of one <line>, with their lines


def _puzzle(el: _Element, defaults: dict[str, str]) -> Puzzle:
    kind = el.attrs.get("type", "grid").strip().lower()
    if kind != "grid":
        raise ParseError(f"{shown(kind)} puzzles are not supported", line=el.line)
    background = el.attrs.get("backgroundcolor", "white")
    default = el.attrs.get("defaultcolor", "black")
    used: dict[str, int] = {}       # colour name -> first line using it
    sets = _clue_sets(el, default, used)
    goal, goal_line = _goal(el, background, used)
    inks = sorted(c for c in used if c != background)
    # One ink that is not black (a puzzle drawn in red) keeps its palette, as two or more do.
    if len(inks) > 1 or (inks and _declared(el).get(inks[0], ((0, 0, 0), None))[0] != (0, 0, 0)):
        return _colour_puzzle(el, defaults, background, default, sets)

    clues: dict[str, list[tuple[int, ...]]] = {}
    where: dict[str, list[int]] = {}
    header: dict[str, int] = {}
    for which in ("rows", "columns"):
        if which in sets:
            header[which], lines = sets[which]
            clues[which] = [_clue(counts) for counts, _ in lines]
            where[which] = [line for _, line in lines]
            if goal is not None:
                n = goal.height if which == "rows" else goal.width
                if len(lines) != n:
                    raise ParseError(f"{counted(len(lines), which[:-1] + ' line')} but the goal has "
                                     f"{counted(n, which[:-1])}", line=header[which])
        elif goal is not None and goal_line is not None:   # read together
            # webpbn: without <clues>, the clues come from the goal.
            lines_of = (goal.cells if which == "rows"
                        else [goal.column(c) for c in range(goal.width)])
            clues[which] = [clues_of(x) for x in lines_of]
            where[which] = [goal_line] * len(lines_of)
            header[which] = goal_line
        elif sets:
            raise ParseError(f'missing <clues type="{which}">', line=el.line)
        else:
            raise ParseError("the puzzle has no clues and no goal", line=el.line)

    meta = {k: v for k, v in defaults.items() if k != "title"}
    for key in _META:
        if (value := el.child_text(key)) is not None:
            meta[key] = value
    name = el.child_text("title") or defaults.get("title", "")
    return build(clues["rows"], clues["columns"],
                 ClueLines(rows=where["rows"], columns=where["columns"], size=header["rows"], goal=goal_line),
                 name=name, metadata=meta, goal=goal)


def _declared(el: _Element) -> dict[str, tuple[tuple[int, int, int], str | None]]:
    """``{name: (rgb, char)}`` of the ``<color>`` elements, after pbnsolve's implicit two."""
    from nonolab.formats._colours import Declared, parse_rgb

    out = Declared()
    for c in el.find("color"):
        name = c.attrs.get("name", "")
        rgb = parse_rgb(c.text)
        if rgb is None:
            raise ParseError(f"colour {shown(name)}: {shown(c.text.strip())} is not an RGB value", line=c.line)
        out.declare(name, (rgb, c.attrs.get("char")), c.line)
    taken = {char for _, char in out.values()}
    for name, rgb, char in (("white", (255, 255, 255), "."), ("black", (0, 0, 0), "X")):
        out.setdefault(name, (rgb, None if char in taken else char))
    return out


def _colour_puzzle(el: _Element, defaults: dict[str, str], background: str, default: str,
                   sets: dict[str, tuple[int, list[tuple[_Counts, int]]]]) -> Puzzle:
    from nonolab.core.violations import colour_runs_of
    from nonolab.formats._colours import build_coloured

    declared = _declared(el)
    for name, line in [(background, el.line)] + [(c.attrs.get("color", default), c.line) for cl in el.find("clues")
                                                 for ln in cl.find("line") for c in ln.find("count")]:
        if name not in declared:
            raise ParseError(f"colour {shown(name)} is not declared", line=line)
    goal, goal_line = _colour_goal(el, declared)
    blocks: dict[str, list] = {}
    where: dict[str, list[int]] = {}
    header: dict[str, int] = {}
    for which in ("rows", "columns"):
        if which in sets:
            header[which], lines = sets[which]
            blocks[which] = []
            for ln in (cl for cl in el.find("clues") if cl.attrs.get("type", "").strip().lower() == which):
                for line_el in ln.find("line"):
                    counts = [(c.text, c.line) for c in line_el.find("count")]
                    names = [c.attrs.get("color", default) for c in line_el.find("count")]
                    blocks[which].append(list(zip(_clue(counts), names)))
            where[which] = [line for _, line in lines]
        elif goal is not None:
            names = sorted({c for row in goal for c in row} - {background})
            index = {n: i + 1 for i, n in enumerate(names)}
            lines_of = (goal if which == "rows" else [[row[c] for row in goal] for c in range(len(goal[0]))])
            blocks[which] = [[(n, names[v - 1]) for n, v in colour_runs_of(
                [index.get(ch, 0) for ch in line])] for line in lines_of]
            where[which] = [goal_line] * len(lines_of)  # type: ignore[list-item]
            header[which] = goal_line  # type: ignore[assignment]
        else:
            raise ParseError(f'missing <clues type="{which}">', line=el.line)
    meta = {k: v for k, v in defaults.items() if k != "title"}
    for key in _META:
        if (value := el.child_text(key)) is not None:
            meta[key] = value
    return build_coloured(blocks["rows"], blocks["columns"], background, declared,
                          ClueLines(rows=where["rows"], columns=where["columns"], size=header["rows"], goal=goal_line),
                          goal=goal, name=el.child_text("title") or defaults.get("title", ""), metadata=meta)


def _colour_goal(el: _Element, declared: dict) -> tuple[list[list[str]] | None, int | None]:
    """The goal image as rows of colour names, and its line."""
    by_char = {char: name for name, (_, char) in declared.items() if char}
    image = _goal_image(el)
    if image is None:
        return None, None
    rows = []
    for row, line in _image_rows(image):
        for ch in row:
            if ch not in by_char:
                raise ParseError(f"unknown colour character {ch!r} in the goal image", line=line)
        rows.append([by_char[ch] for ch in row])
    return rows, image.line


def _goal_image(el: _Element) -> _Element | None:
    """The ``<image>`` of the first ``<solution type="goal">`` (the type defaults to goal), if any."""
    for sol in el.find("solution"):
        if sol.attrs.get("type", "goal").strip().lower() != "goal":
            continue
        images = sol.find("image")
        if len(images) != 1:
            raise ParseError("a <solution> must hold exactly one <image>", line=sol.line)
        return images[0]
    return None


def _clue_sets(el: _Element, default: str,
               used: dict[str, int]) -> dict[str, tuple[int, list[tuple[_Counts, int]]]]:
    """``{"rows": (line of <clues>, [(counts, line of <line>), ...]), "columns": ...}``."""
    sets = {}
    for cl in el.find("clues"):
        which = cl.attrs.get("type", "").strip().lower()
        if which not in ("rows", "columns"):
            raise ParseError(f'<clues> type must be "rows" or "columns", not {shown(which)}',
                             line=cl.line)
        if which in sets:
            raise ParseError(f'a second <clues type="{which}">', line=cl.line)
        lines = []
        for ln in cl.find("line"):
            counts = []
            for count in ln.find("count"):
                used.setdefault(count.attrs.get("color", default), count.line)
                counts.append((count.text, count.line))
            lines.append((counts, ln.line))
        sets[which] = (cl.line, lines)
    return sets


def _goal(el: _Element, background: str,
          used: dict[str, int]) -> tuple[Solution | None, int | None]:
    """The picture of ``<solution type="goal">``, if any, and the line of its image."""
    chars = {"white": ".", "black": "X"}
    for c in el.find("color"):
        name = c.attrs.get("name")
        if not name:
            raise ParseError("<color> without a name", line=c.line)
        if "char" in c.attrs:
            if len(c.attrs["char"]) != 1:
                raise ParseError(f"colour {shown(name)}: char must be one character",
                                 line=c.line)
            chars[name] = c.attrs["char"]
    by_char = {ch: name for name, ch in chars.items()}
    image = _goal_image(el)
    if image is None:
        return None, None
    cells = []
    for row, line in _image_rows(image):
        for ch in row:
            if ch in "?[]":
                raise ParseError("the goal image has undecided cells", line=line)
            if ch not in by_char:
                raise ParseError(f"unknown colour character {ch!r} in the goal image",
                                 line=line)
            used.setdefault(by_char[ch], line)
        cells.append([0 if by_char[ch] == background else 1 for ch in row])
    return make_goal(cells, image.line), image.line


def _clue(counts: list[tuple[str, int]]) -> tuple[int, ...]:
    out = []
    for text, line in counts:
        n = to_int(text, line, "<count>")
        if n == 0:
            raise ParseError("<count> must be positive", line=line)
        out.append(n)
    return tuple(out)


def _image_rows(image: _Element) -> list[tuple[str, int]]:
    """The ``|...|`` rows of an image, each with its line in the file."""
    text = image.text

    counted = [0, image.line]     # offset and line reached so far: rows come in order

    def line_at(k: int) -> int:
        if k < counted[0]:
            return image.line + text.count("\n", 0, k)
        counted[1] += text.count("\n", counted[0], k)
        counted[0] = k
        return counted[1]

    def check_blank(a: int, b: int) -> None:
        gap = text[a:b]
        if gap.strip():
            raise ParseError("image rows must be wrapped in |...| with only whitespace between",
                             line=line_at(a + len(gap) - len(gap.lstrip())))

    rows, pos = [], 0
    for m in _IMAGE_ROW.finditer(text):
        check_blank(pos, m.start())
        rows.append((m.group(1), line_at(m.start())))
        pos = m.end()
    check_blank(pos, len(text))
    if not rows:
        raise ParseError("the goal image is empty", line=image.line)
    return rows


def _text(value: object) -> str:
    # html.escape, not xml.sax.saxutils.escape: the same three entities without quote=,
    # and the latter's import pulls in urllib and http (a third of importing the formats).
    return html.escape(_xml_chars(value), quote=False)


def quoteattr(value: object) -> str:
    """``value`` as a double-quoted XML attribute (what xml.sax.saxutils.quoteattr gives
    for names and chars, without importing it: see :func:`_text`)."""
    return '"' + html.escape(_xml_chars(value), quote=True) + '"'


def _puzzle_xml(p: Puzzle) -> list[str]:
    meta = p.metadata
    if p.keeps_palette:
        return _colour_xml(p)
    out = ['<puzzle type="grid" defaultcolor="black" backgroundcolor="white">']
    fields = {"source": meta.get("source"), "id": meta.get("id") or meta.get("catalogue"),
              "title": p.name or None, "author": meta.get("author") or meta.get("by"),
              "copyright": meta.get("copyright"), "description": meta.get("description")}
    out += [f"<{k}>{_text(v)}</{k}>" for k, v in fields.items() if v]
    out += ['<color name="white" char=".">fff</color>', '<color name="black" char="X">000</color>']
    for which, clues in (("columns", p.columns), ("rows", p.rows)):
        out.append(f'<clues type="{which}">')
        out += ["<line>" + "".join(f"<count>{n}</count>" for n in c) + "</line>" for c in clues]
        out.append("</clues>")
    if p.goal is not None:
        out.append('<solution type="goal">')
        out.append("<image>")
        out += ["|" + "".join("X" if v else "." for v in row) + "|" for row in p.goal]
        out += ["</image>", "</solution>"]
    out.append("</puzzle>")
    return out


def _written_names(palette: Palette) -> list[str]:
    """The colours' names as an attribute gives them back: a name XML changes (a character
    it cannot hold is dropped, a tab or line break read as a space) becomes ``cN``, and all
    do if that makes two alike.  Written as they were, two names that differ only so were
    read as one colour: a two-colour puzzle came back black and white, without a word.

    >>> from nonolab.core.palette import Palette
    >>> _written_names(Palette.of(("dark red", (1, 1, 1), "r"), ("a\\tb", (2, 2, 2), "b")))
    ['white', 'dark red', 'c2']
    """
    kept = [c.name if _xml_chars(c.name) == c.name and not re.search("[\t\n\r]", c.name) else f"c{i}"
            for i, c in enumerate(palette)]
    return kept if len(set(kept)) == len(kept) else [f"c{i}" for i in range(len(palette))]


def _colour_xml(p: Puzzle) -> list[str]:
    from nonolab.formats._colours import visible, written_chars

    palette = p.palette
    assert palette is not None
    names = [quoteattr(name) for name in _written_names(palette)]
    # "|" ends an image row and "?", "[" and "]" mark undecided cells in it.
    chars = written_chars(palette, lambda ch: visible(ch) and ch not in "|?[]")
    out = [f'<puzzle type="grid" defaultcolor={names[1]} backgroundcolor={names[0]}>']
    meta = p.metadata
    fields = {"source": meta.get("source"), "id": meta.get("id") or meta.get("catalogue"),
              "title": p.name or None, "author": meta.get("author") or meta.get("by"),
              "copyright": meta.get("copyright"), "description": meta.get("description")}
    out += [f"<{k}>{_text(v)}</{k}>" for k, v in fields.items() if v]
    out += [f"<color name={names[i]} char={quoteattr(chars[i])}>{palette.hex(i)}</color>"
            for i in range(len(palette))]
    for which, lines in (("columns", p.coloured_columns), ("rows", p.coloured_rows)):
        out.append(f"<clues type={quoteattr(which)}>")
        out += ["<line>" + "".join(f"<count color={names[c]}>{n}</count>" for n, c in line) + "</line>"
                for line in lines]
        out.append("</clues>")
    if p.goal is not None:
        out += ['<solution type="goal">', "<image>"]
        out += ["|" + _text(row) + "|" for row in p.goal.to_text(chars="".join(chars)).splitlines()]
        out += ["</image>", "</solution>"]
    out.append("</puzzle>")
    return out


def write_all(puzzles: Sequence[Puzzle]) -> str:
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<!DOCTYPE pbn SYSTEM "http://webpbn.com/pbn-0.1.dtd">', "<puzzleset>"]
    for p in puzzles:
        out += _puzzle_xml(p)
    out.append("</puzzleset>")
    return "\n".join(out) + "\n"


def write(puzzle: Puzzle) -> str:
    return write_all([puzzle])
