#!/usr/bin/env python3
"""Records the documented deviations on the golden files as they stand.

Usage:
    python annotate_deviations.py [--out DIR]

The generators record them as they write (``golden_io.with_deviations``,
called by ``write_jsonl``); this applies that same function to files
already written, since not every framework can be run again everywhere.
The recorded answers are not touched: each deviation is a key added to
the case it concerns, and a file rewritten here is the file its generator
would write. Standard library only; running it twice changes nothing.
"""

from __future__ import annotations

import json
import sys

from golden_io import parse_args, with_deviations, write_jsonl


def main(argv: list[str] | None = None) -> None:
    out = parse_args(__doc__, argv).out
    for path in sorted(out.glob("*.jsonl")):
        head, *lines = map(json.loads, path.read_text(encoding="utf-8").splitlines())
        lines = with_deviations(head, lines)
        write_jsonl(path, head, lines)
        found = sum(("deviation" in line) + len(line.get("deviations", []))
                    for line in lines)
        if found:
            print(f"{path.name}: {found} deviations", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
