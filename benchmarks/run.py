"""Run one of the project's named suites with ``nonolab bench``.

    python -m benchmarks.run SUITE [nonolab bench options]

SUITE is one of :data:`benchmarks.suites.SUITES` (``python -m benchmarks.run --list``);
the options are ``nonolab bench``'s and come after the suite's defaults, so they win:

    python -m benchmarks.run survey --backends auto,native,lcg -e pbnsolve --repeat 3 --out /tmp/survey
    python -m benchmarks.run tournament --backends auto --base /work/main --out /tmp/ab
"""

from __future__ import annotations

import sys

from benchmarks.suites import SHARED, SUITES


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if not args or args[0] in ("-h", "--help", "--list") or args[0] not in SUITES:
        print(__doc__.strip() + "\n\nsuites:")
        for name, suite in SUITES.items():
            print(f"  {name:<11} {suite.measures}")
        return 0 if args and args[0] in ("-h", "--help", "--list") else 2
    suite = SUITES[args[0]]
    if suite.needs_shared and not SHARED.exists():
        print(f"benchmarks.run: {args[0]} reads ../shared, which is not beside the repository", file=sys.stderr)
        return 2
    from nonolab.cli.main import cli

    try:
        code = cli.main(["bench", *suite.paths, *suite.options, *args[1:]], prog_name="nonolab",
                        standalone_mode=False)
    except SystemExit as done:
        code = done.code
    return code or 0


if __name__ == "__main__":
    raise SystemExit(main())
