"""The steps of ``explain`` as one self-contained HTML page: the board (inline SVG)
with one frame per step, a slider and buttons to move through them, no network.

Each step's frame is an SVG group holding the cells it set; the page shows the frames
up to the chosen step and colours the chosen step's cells red (filled) or pink (empty),
as ``explain`` prints them as ``X`` and ``O``; in a colour puzzle each cell keeps the
colour the step set (red may be one of the palette's) and the step's cells are framed.
A colour step that rules values out of a cell it leaves open draws each such value as a
small struck-through square of its colour in that cell (its place in the cell the value's
index), kept until a later step decides the cell and covers them: later steps may rest on
those values, so the board shows them.
Without JavaScript every frame shows: the finished grid.
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from nonolab.core.puzzle import Puzzle
from nonolab.render.pictures import puzzle_board
from nonolab.render.svg import EMPTY_INK, FILLED_INK, MARK_INK, Legend, _num, crossed, document, escape
from nonolab.core.words import counted

UNDECIDED_INK = "#d2d2d2"    # lighter than the ambiguity map's grey: here most cells start undecided

# How the frames show: later ones hidden, the shown step's cells red/pink (black and white) or
# framed (colour).  The workbench's style.css repeats these rules under #steps-picture.
FRAME_RULES = ((".off", "display:none"), (".now .f", "fill:#c0392b"), (".now .e", "fill:#f5b7b1"),
               (".mark", "display:none"), (".now .mark", "display:inline"))

_STYLE = """body{font-family:DejaVu Sans,Verdana,sans-serif;margin:1.5em}
.controls{margin:.6em 0}.controls button{font-size:1em;min-width:2.4em}
#slider{width:min(40em,70vw);vertical-align:middle}
#caption{font-family:DejaVu Sans Mono,monospace;min-height:1.3em}
""" + "".join(f"{rule}{{{body}}}" for rule, body in FRAME_RULES)

_SCRIPT = """(function(){
var frames=document.querySelectorAll('g.step'),told=JSON.parse(document.getElementById('captions').textContent),
    captions=told.steps;
var slider=document.getElementById('slider'),caption=document.getElementById('caption'),
    counter=document.getElementById('counter'),timer=null;
function show(k){k=Math.max(0,Math.min(frames.length,k));slider.value=k;
  frames.forEach(function(g,i){g.classList.toggle('off',i>=k);g.classList.toggle('now',i===k-1);});
  counter.textContent='step '+k+' of '+frames.length;caption.textContent=k?captions[k-1]:told.start;}
function at(){return parseInt(slider.value,10);}
function stop(){if(timer){clearInterval(timer);timer=null;document.getElementById('play').textContent='play';}}
slider.addEventListener('input',function(){stop();show(at());});
document.getElementById('first').onclick=function(){stop();show(0);};
document.getElementById('prev').onclick=function(){stop();show(at()-1);};
document.getElementById('next').onclick=function(){stop();show(at()+1);};
document.getElementById('last').onclick=function(){stop();show(frames.length);};
document.getElementById('play').onclick=function(){if(timer){stop();return;}
  if(at()>=frames.length)show(0);this.textContent='pause';
  timer=setInterval(function(){if(at()>=frames.length)stop();else show(at()+1);},400);};
document.addEventListener('keydown',function(e){if(e.key==='ArrowRight')show(at()+1);
  else if(e.key==='ArrowLeft')show(at()-1);});
show(0);})();"""


def steps_svg(puzzle: Puzzle, steps: Iterable[Any], *, cell: float = 20) -> str:
    """The board with one ``<g class="step">`` frame per step (every frame shown).

    ``steps``: objects with ``cells`` (``(row, column, value)``, value 1 filled; in a
    colour puzzle the colour index, drawn in its palette colour), such as the ``Step``
    records of a solve with ``record_steps=True``.
    """
    board = puzzle_board(puzzle, cell, True, puzzle.name)   # a colour puzzle's clues in their colours
    inks = ([f"#{puzzle.palette.hex(i)}" for i in range(len(puzzle.palette))] if puzzle.palette is not None
            and puzzle.keeps_palette else [EMPTY_INK, FILLED_INK])
    start = [UNDECIDED_INK] * (puzzle.width * puzzle.height)
    for r, c, value in puzzle.givens:          # known before any step: part of the puzzle
        start[r * puzzle.width + c] = inks[value]
    frames: list[str] = []
    pad = cell
    colour = puzzle.is_colour   # the step's cells keep their colour, framed: red is a colour there
    inset, width = cell * 0.12, max(cell * 0.12, 1)
    # A value ruled out: a small square in its own place of the cell, a side of places a
    # value each (the background's included).
    side = 1
    while side * side < len(inks):
        side += 1
    slot = cell / side
    ruled = False
    for number, step in enumerate(steps, 1):
        frames.append(f'<g class="step" data-step="{number}">')
        for r, c, value in getattr(step, "ruled_out", ()):
            ruled = True
            x = pad + board.left + c * cell + (value % side) * slot + slot * 0.15
            y = pad + board.top + r * cell + (value // side) * slot + slot * 0.15
            frames.append(crossed(x, y, slot * 0.7, inks[value]))
        for r, c, value in step.cells:
            x, y = pad + board.left + c * cell, pad + board.top + r * cell
            kind = "c" if colour else ("f" if value else "e")
            frames.append(f'<rect class="{kind}" x="{_num(x)}" y="{_num(y)}" width="{_num(cell)}" '
                          f'height="{_num(cell)}" fill="{inks[value]}"/>')
        if colour:
            frames.extend(f'<rect class="mark" x="{_num(pad + board.left + c * cell + inset)}" '
                          f'y="{_num(pad + board.top + r * cell + inset)}" width="{_num(cell - 2 * inset)}" '
                          f'height="{_num(cell - 2 * inset)}" fill="none" stroke="{MARK_INK}" '
                          f'stroke-width="{_num(width)}"/>'
                          for r, c in dict.fromkeys([(r, c) for r, c, _ in step.cells]
                                                    + [(r, c) for r, c, _ in getattr(step, "ruled_out", ())]))
        frames.append("</g>")
    out: list[str] = []
    board.draw(out, pad, pad, start, layers=frames)
    legend = Legend([(("fill", UNDECIDED_INK), "grey: not decided yet"),
                     (("pair", FILLED_INK, EMPTY_INK), "the palette's colours: decided" if puzzle.is_colour
                      else "black / white: decided filled / empty"),
                     (("frame", MARK_INK), "red frame: changed by the step shown") if colour else
                     (("pair", "#c0392b", "#f5b7b1"), "red / pink: set by the step shown")]
                    + ([(("crossed", inks[-1]), "struck through: a colour ruled out of a cell still open")]
                       if ruled else []), cell)
    legend.fit(board.width).draw(out, pad, pad + board.height + pad * 0.5)
    return document(max(board.width + 2 * pad, legend.width + 2 * pad),
                    board.height + legend.height + pad * 2, out, f"nonolab: the steps of {puzzle.name or 'a puzzle'}")


def start_caption(puzzle: Puzzle) -> str:
    """What step 0 of a stepper shows: the empty grid, or the grid with the puzzle's givens
    (they are drawn from the start: no step sets them).

    >>> p = Puzzle(rows=((1,),), columns=((1,),))
    >>> start_caption(p), start_caption(p.with_(givens={(0, 0): 1}))
    ('the empty grid', 'the grid with its 1 given cell')
    """
    n = len(puzzle.givens)
    return f"the grid with its {counted(n, 'given cell')}" if n else "the empty grid"


def steps_html(puzzle: Puzzle, steps: Iterable[Any], *, cell: float = 20, summary: str = "") -> str:
    """One self-contained HTML page stepping through ``steps`` (no network, no files).

    ``steps``: as for :func:`steps_svg`, with ``describe()`` giving each step's caption.

    >>> from types import SimpleNamespace as S
    >>> p = Puzzle(rows=((1,),), columns=((1,),))
    >>> page = steps_html(p, [S(cells=((0, 0, 1),), describe=lambda: "line: row 1 sets 1 cell")])
    >>> page.count('<g class="step"'), "http://" in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    (1, False)
    """
    steps = list(steps)
    svg = steps_svg(puzzle, steps, cell=cell)
    captions = json.dumps({"start": start_caption(puzzle),
                           "steps": [f"step {n}: {s.describe()}" for n, s in enumerate(steps, 1)]}).replace("</", "<\\/")
    name = escape(puzzle.name or "puzzle")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>nonolab explain: {name}</title>
<style>{_STYLE}</style></head><body>
<h1>{name}: {counted(len(steps), "step")}</h1>
<p>{escape(summary)}</p>
<div class="controls"><button id="first" title="{escape(start_caption(puzzle))}">|&#x25C0;</button>
<button id="prev" title="previous step (left arrow)">&#x25C0;</button>
<input id="slider" type="range" min="0" max="{len(steps)}" value="{len(steps)}" aria-label="step">
<button id="next" title="next step (right arrow)">&#x25B6;</button>
<button id="last" title="the last step">&#x25B6;|</button>
<button id="play">play</button> <span id="counter"></span></div>
<p id="caption"></p>
{svg}<script type="application/json" id="captions">{captions}</script>
<script>{_SCRIPT}</script>
</body></html>
"""
