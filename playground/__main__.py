"""``python -m playground [--host H] [--port P]``: the playground, whatever BOT_TOKEN says."""

from __future__ import annotations

import argparse
import sys

from pydantic import ValidationError

from bot.config import Settings, explain
from playground.runner import run


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m playground", description=__doc__)
    parser.add_argument("--host", help="address the page listens on (PLAYGROUND_HOST, default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port of the page (PLAYGROUND_PORT, default 8080)")
    args = parser.parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"bad configuration:\n{explain(exc)}", file=sys.stderr)
        return 2
    update = {k: v for k, v in (("playground_host", args.host), ("playground_port", args.port)) if v is not None}
    return run(settings.model_copy(update=update))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
