"""Colours of a colour nonogram: the background and the named foreground colours.

A cell of a colour puzzle holds a colour *index*: 0 is the background, 1..k the
foreground colours in palette order.  A black-and-white puzzle is the one-colour case
(``Palette.black_and_white()``, or no palette at all).

>>> p = Palette.of(("red", (255, 0, 0), "r"), ("blue", (0, 0, 255), "b"))
>>> len(p), p.index("blue"), p.chars, p.hex(1)
(3, 2, '.rb', 'FF0000')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from nonolab.errors import InvalidPuzzle

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Colour:
    """One colour: its name, its RGB value and the one character that draws it in text."""

    name: str
    rgb: RGB
    char: str


@dataclass(frozen=True)
class Palette:
    """The background (index 0) followed by the foreground colours (1..k).

    Raises:
        InvalidPuzzle: fewer than one foreground colour, a repeated name or character,
            a character that is not a single one, or an RGB value outside 0..255.
    """

    colours: tuple[Colour, ...]

    def __post_init__(self) -> None:
        colours = tuple(self.colours)
        object.__setattr__(self, "colours", colours)
        if len(colours) < 2:
            raise InvalidPuzzle("a palette needs a background and at least one colour", kind="palette")
        names: set[str] = set()
        chars: set[str] = set()
        for colour in colours:
            if not isinstance(colour.name, str) or not colour.name:
                raise InvalidPuzzle(f"colour name {colour.name!r} is not a non-empty string", kind="palette")
            if colour.name in names:
                raise InvalidPuzzle(f"colour {colour.name!r} is declared twice", kind="palette")
            if not isinstance(colour.char, str) or len(colour.char) != 1:
                raise InvalidPuzzle(f"colour {colour.name!r}: char {colour.char!r} is not one character",
                                    kind="palette")
            if colour.char in chars:
                raise InvalidPuzzle(f"colour {colour.name!r}: char {colour.char!r} is used twice", kind="palette")
            if (len(colour.rgb) != 3 or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255
                                                 for v in colour.rgb)):
                raise InvalidPuzzle(f"colour {colour.name!r}: RGB {colour.rgb!r} is not three values 0..255",
                                    kind="palette")
            names.add(colour.name)
            chars.add(colour.char)

    @classmethod
    def of(cls, *foreground: tuple[str, RGB, str],
           background: tuple[str, RGB, str] = ("white", (255, 255, 255), ".")) -> "Palette":
        """A palette from ``(name, rgb, char)`` triples, the background first (white by default)."""
        return cls(tuple(Colour(n, tuple(rgb), ch) for n, rgb, ch in (background, *foreground)))  # type: ignore[arg-type]

    @classmethod
    def black_and_white(cls) -> "Palette":
        """White background, black foreground: the palette of every black-and-white puzzle."""
        return cls.of(("black", (0, 0, 0), "#"))

    @classmethod
    def default_for(cls, count: int) -> "Palette":
        """A palette of ``count`` foreground colours with distinct default names, RGB and chars,
        for pictures and generated puzzles that come without one.

        >>> Palette.default_for(2).chars
        '.#a'
        """
        if count < 1:
            raise InvalidPuzzle("a palette needs at least one colour", kind="palette")
        fixed = list(_DEFAULTS)
        chars = "#" + "abcdefghijklmnopqrstuvwxyz0123456789"
        out = []
        for i in range(count):
            name, rgb = fixed[i] if i < len(fixed) else (f"c{i + 1}", _spread(i))
            out.append((name, rgb, chars[i] if i < len(chars) else chr(0x100 + i)))
        return cls.of(*out)

    def __len__(self) -> int:
        return len(self.colours)

    def __getitem__(self, index: int) -> Colour:
        return self.colours[index]

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.colours)

    @property
    def background(self) -> Colour:
        return self.colours[0]

    @property
    def foreground(self) -> tuple[Colour, ...]:
        return self.colours[1:]

    @property
    def chars(self) -> str:
        """One character per colour, in index order (the background's first)."""
        return "".join(c.char for c in self.colours)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.colours)

    def label(self, index: int) -> str:
        """Colour ``index`` as the text says it: its name and, in brackets, the character that
        draws it in the text pictures beside (the terminal picture's legend, a repair's flips).

        >>> Palette.of(("blue", (0, 0, 255), "%")).label(1)
        'blue (%)'
        """
        colour = self.colours[index]
        return f"{colour.name} ({colour.char})"

    def index(self, name: str) -> int:
        """The index of the colour called ``name``.

        Raises:
            InvalidPuzzle: no colour has that name.
        """
        for i, colour in enumerate(self.colours):
            if colour.name == name:
                return i
        raise InvalidPuzzle(f"unknown colour {name!r} (palette: {', '.join(self.names)})", kind="palette")

    def hex(self, index: int) -> str:
        """``RRGGBB`` of colour ``index``, upper case, without ``#``."""
        return "%02X%02X%02X" % self.colours[index].rgb

    def reordered(self, order: Iterable[int]) -> "Palette":
        """The palette with its foreground colours in ``order`` (old indices, 1..k)."""
        return Palette((self.colours[0], *(self.colours[i] for i in order)))


_DEFAULTS: tuple[tuple[str, RGB], ...] = (
    ("black", (0, 0, 0)), ("red", (255, 0, 0)), ("green", (0, 160, 0)), ("blue", (0, 0, 255)),
    ("yellow", (255, 215, 0)), ("magenta", (255, 0, 255)), ("cyan", (0, 200, 200)), ("orange", (255, 140, 0)),
    ("purple", (128, 0, 128)), ("brown", (139, 69, 19)), ("grey", (128, 128, 128)), ("pink", (255, 150, 180)),
)


def _spread(i: int) -> RGB:
    # Further colours: distinct values on a coarse RGB lattice, never white.
    return ((i * 67) % 224, (i * 131) % 224, (i * 193) % 224)
