"""Replace the pinned Bot API description (``playground/api.json``) with a newer file.

    python -m playground.refresh_api_spec /path/to/new/api.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

PINNED = Path(__file__).resolve().parent / "api.json"
KEYS = ("version", "methods", "types")


def load(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text("utf-8"))
    if not isinstance(data, dict) or any(key not in data for key in KEYS):
        raise SystemExit(f"{path} is not a Bot API description (it needs the keys {', '.join(KEYS)})")
    return data


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    source = Path(argv[0])
    new = load(source)
    old = load(PINNED)
    added = sorted(set(new["methods"]) - set(old["methods"]))
    removed = sorted(set(old["methods"]) - set(new["methods"]))
    PINNED.write_bytes(source.read_bytes())
    print(f"{old['version']} -> {new['version']}")
    print(f"methods added: {', '.join(added) or 'none'}")
    print(f"methods removed: {', '.join(removed) or 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
