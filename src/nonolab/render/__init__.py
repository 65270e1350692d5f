"""Pictures of puzzles, solutions and reports.

* text for the terminal (:mod:`.text`): :func:`grid_text`, :func:`ruled_out_text`, :func:`diff_text`,
  :func:`regions_text`; with rich, the grid with its clues (:mod:`.terminal`);
* SVG, one drawing for all (:mod:`.svg`, :mod:`.pictures`): :func:`puzzle_svg` (printable
  with ``page="a4"``), :func:`solution_svg`, :func:`diff_svg`, :func:`changed_svg`, :func:`ambiguity_svg`, and
  the steps of ``explain`` as a self-contained HTML stepper (:func:`steps_html`);
* PNG and PDF made from that SVG (:mod:`.convert`, needs the ``pictures`` extra).

>>> from nonolab.core import Puzzle
>>> puzzle_svg(Puzzle(rows=((1,),), columns=((1,),))).startswith("<svg")
True
"""

from nonolab.render.convert import encode, to_pdf, to_png
from nonolab.render.pictures import (ambiguity_svg, changed_svg, diff_svg, puzzle_svg, regions_png, regions_svg,
                                     solution_svg)
from nonolab.render.steps import steps_html
from nonolab.render.svg import PALETTE, Cell, check_drawable
from nonolab.render.text import diff_text, grid_text, regions_text, ruled_out_text

__all__ = ["PALETTE", "Cell", "ambiguity_svg", "changed_svg", "check_drawable", "encode", "diff_svg", "diff_text", "grid_text",
           "puzzle_svg",
           "regions_png", "regions_svg", "regions_text", "ruled_out_text", "solution_svg", "steps_html", "to_pdf", "to_png"]
