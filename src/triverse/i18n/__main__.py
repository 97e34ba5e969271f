"""``python -m triverse.i18n extract | check``: the translation catalogues (docs/i18n.md)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from triverse.i18n.catalogue import POT, problems, update


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m triverse.i18n",
                                     description="Triverse's translation catalogues.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("extract", help="write the template and update every language's catalogue")
    sub.add_parser("check", help="list what is missing, untranslated, obsolete or wrong")
    args = parser.parse_args(argv)
    if args.command == "extract":
        counts = update()
        print(f"wrote {POT}")
        for lang, missing in counts.items():
            print(f"{lang}: {missing} untranslated")
        return 0
    found = problems()
    for line in found:
        print(line)
    print(f"{len(found)} problems" if found else "the catalogues match the code")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
