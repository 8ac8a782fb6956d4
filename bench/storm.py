"""A storm of odd updates mixed into whole series (issue 48): ``tests/storm.py``'s generator, many more of them
than the test's hypothesis examples.  Each series is a fresh bot on virtual time; every invariant is checked
after each (no traceback, every press answered, no call Telegram would refuse, the stored games replaying to
their results): a broken one stops the bench with its assertion, so the totals printed are of a clean run.

    python -m bench.storm --series 20 --updates 10000
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from collections import Counter
from pathlib import Path

from engine import clock
from playground.virtual_time import VirtualTimeLoop
from tests.storm import storm_among_moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\\n\\n")[0])
    parser.add_argument("--series", type=int, default=20)
    parser.add_argument("--updates", type=int, default=10_000, help="odd updates in all, spread over the series")
    parser.add_argument("--seed", type=int, default=48)
    args = parser.parse_args()
    started = clock.perf()
    kinds: Counter[str] = Counter()
    presses = moves = 0
    for series in range(args.series):
        share = args.updates // args.series + (series < args.updates % args.series)
        loop = VirtualTimeLoop()
        try:
            with tempfile.TemporaryDirectory() as folder:
                storm = loop.run_until_complete(
                    storm_among_moves(Path(folder), random.Random(args.seed + series), share, None)
                )
        finally:
            loop.close()
        kinds.update(storm.kinds)
        presses += len(storm.presses)
        moves += storm.moves
        print(f"series {series + 1}: {storm.moves} moves, {storm.sent} odd updates, {len(storm.presses)} presses, all "
              "answered", flush=True)  # fmt: skip
    print(json.dumps({
        "series": args.series, "moves": moves, "odd_updates": sum(kinds.values()), "presses": presses,
        "by_kind": dict(kinds),
        "tracebacks": 0, "unanswered": 0, "api_violations": 0, "replay_differences": 0,
        "seconds": round(clock.perf() - started, 1),
    }))  # fmt: skip


if __name__ == "__main__":
    main()
