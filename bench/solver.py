"""The compiled core's exact solver (positions with every card known): seconds per solve and nodes per second.

    python -m bench.solver [--positions N] [--seed S]

Four-card Kozel, the one game whose core has a solver so far: positions at the start of a trick of random
deals (random play up to there), solved from trick ``k``: one JSON line per trick with p50 and p99 of the
seconds per solve, the mean nodes searched and the nodes per second over all of them.  The stock makes the
early tricks far larger than the last ones: trick 4 is the first one measured (8 cards left in the stock).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from engine import find_variant
from engine.compiled import four_card as fc
from engine.four_card import FourCardState

TRICKS = (4, 5, 6, 7)


def positions(count: int, trick: int, seed: int) -> list[bytes]:
    """``count`` four-card positions at the start of trick ``trick`` of random deals."""
    variant, rng = find_variant("four_card"), random.Random(seed)
    found: list[bytes] = []
    while len(found) < count:
        state = variant.new_game(rng.getrandbits(40), {})
        assert isinstance(state, FourCardState)
        while not state.deals and (len(state.tricks_done) < trick - 1 or state.trick):
            state.apply(rng.choice(state.all_legal_actions()))
        if not state.deals:
            found.append(fc.encode(fc.position(state)))
    return found


def measure(trick: int, count: int, seed: int) -> dict[str, Any]:
    times, nodes = [], []
    for data in positions(count, trick, seed + trick):
        started = time.perf_counter()
        _, searched = fc.solve(data)
        times.append(time.perf_counter() - started)
        nodes.append(searched)
    cuts = statistics.quantiles(times, n=100)
    return {
        "variant": "four_card",
        "engine": "core",
        "solve_from_trick": trick,
        "positions": count,
        "seconds_p50": round(statistics.median(times), 5),
        "seconds_p99": round(cuts[98], 5),
        "nodes_mean": round(statistics.mean(nodes)),
        "nodes_per_second": round(sum(nodes) / sum(times)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for trick in TRICKS:
        print(json.dumps(measure(trick, args.positions, args.seed)), flush=True)


if __name__ == "__main__":
    main()
