"""How the page says a library error: in its own words, not the command line's or Python's.

The library's messages name Python parameters (``fmt``) and end a size limit with how
to raise it (``NONOLAB_MAX_PIXELS=N``): advice for whoever runs nonolab.  On the page,
a parameter is the menu that sets it, and a limit is said with who can raise it (the
server's operator, who started ``nonolab serve``; the page's user cannot).
"""

from __future__ import annotations

from nonolab.errors import NonolabError, TooLarge

# The library's parameters as the page names them (NonolabError.argument; see said_as).
PAGE_WORDS = {"load:fmt": "the Format menu", "dump:fmt": "the Download as menu"}

#: What the page says after a limit it met, in place of the environment variable.
OPERATOR = "the server's operator can raise it"


def spoken(err: Exception) -> str:
    """A library error's one line in the page's words (its menus, not Python parameters;
    a limit and who can raise it, not an environment variable).

    >>> from nonolab.errors import TooLarge, UnknownFormat
    >>> from nonolab.web.words import spoken
    >>> spoken(UnknownFormat("cannot recognise it; name it with {arg}", argument="load:fmt"))
    'cannot recognise it; name it with the Format menu'
    >>> spoken(TooLarge("the image is 9 pixels, beyond the limit of 4 pixels", raise_with="NONOLAB_MAX_PIXELS=N"))
    "the image is 9 pixels, beyond the limit of 4 pixels (the server's operator can raise it)"
    """
    if isinstance(err, TooLarge) and err.raise_with:
        return f"{err.limit_only()} ({OPERATOR})"
    argument = getattr(err, "argument", None)
    if isinstance(err, NonolabError) and argument in PAGE_WORDS:
        return err.said_as(PAGE_WORDS[argument])
    return str(err)
