"""MkDocs hook: every page under docs/ is in the site's navigation.

The nav in mkdocs.yml orders the pages it names; a page it does not name (a design note
another change adds, such as docs/bench.md) is appended under "Design notes", titled by its
first heading, so the site never leaves a page out and ``mkdocs build --strict`` never
fails for one.
"""

from __future__ import annotations

from pathlib import Path


def _named(nav) -> set[str]:
    found: set[str] = set()
    for item in nav or ():
        value = next(iter(item.values())) if isinstance(item, dict) else item
        if isinstance(value, list):
            found |= _named(value)
        elif isinstance(value, str):
            found.add(value)
    return found


def _title(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return path.stem.replace("-", " ").capitalize()


def unlisted(docs: Path, nav) -> list[str]:
    """The pages under ``docs`` (relative paths) that ``nav`` does not name, sorted."""
    named = _named(nav)
    pages = (p.relative_to(docs).as_posix() for p in docs.rglob("*.md"))
    return sorted(p for p in pages if p not in named and not p.startswith("hooks/"))


def on_config(config, **kwargs):
    docs = Path(config["docs_dir"])
    extra = unlisted(docs, config["nav"])
    if extra:
        section = next((item for item in config["nav"] if isinstance(item, dict) and "Design notes" in item), None)
        if section is None:
            section = {"Design notes": []}
            config["nav"].append(section)
        section["Design notes"].extend({_title(docs / page): page} for page in extra)
    return config
