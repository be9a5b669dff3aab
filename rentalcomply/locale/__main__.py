"""`python -m rentalcomply.locale extract`: the marked texts into messages.pot (docs/translating.md)."""

from __future__ import annotations

import sys

from rentalcomply.locale import extract


def main(argv: list[str]) -> int:
    if argv[:1] != ["extract"]:
        print("usage: python -m rentalcomply.locale extract", file=sys.stderr)
        return 2
    found, added = extract.update_template()
    print(f"{found} marked texts; {added} added to rentalcomply/locale/messages.pot")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
