"""The compiled core's exact solvers (positions with every card known): seconds per solve and nodes per second.

    python -m bench.solver [--positions N] [--seed S] [--games four_card classic czech]

Positions at the start of a trick of deals played by the basic heuristics up to there, solved from trick
``k``: one JSON line per game and trick with p50 and p99 of the seconds per solve, the mean nodes searched
and the nodes per second over all of them.  Four-card Kozel from trick 4 (its stock makes the early tricks far
larger than the last ones), classic Kozel from tricks 1, 3 and 5 of a second deal and Czech Kozel (four
players) from tricks 1, 3 and 5, trick 1 with a tenth of the positions (a solve there takes seconds).  Each
game's compiled core names its tricks (``BENCH.tricks``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from typing import Any

from engine import clock, find_variant
from engine.compiled import load
from engine.players.search import heuristic_step
from engine.registry import variant_names


def positions(game: str, count: int, trick: int, seed: int) -> list[bytes]:
    """``count`` positions at the start of trick ``trick`` of deals played by the heuristics, in card play,
    in the game's typical deal (``Variant.typical_deal``)."""
    variant, rng = find_variant(game), random.Random(seed)
    module = load(variant)
    assert module is not None
    found: list[bytes] = []
    while len(found) < count:
        state = variant.new_game(rng.getrandbits(40), variant.samples[0])
        while len(state.deals) < variant.typical_deal and state.outcome is None:
            heuristic_step(state)
        deal = len(state.deals)
        while len(state.deals) == deal and (
            len(state.tricks_done) < trick - 1 or state.trick or not module.solvable(state, cards=99)  # in card play
        ):
            heuristic_step(state)
        if len(state.deals) == deal:
            found.append(module.encode_state(state))
    return found


def measure(game: str, trick: int, count: int, seed: int) -> dict[str, Any]:
    module = load(find_variant(game))
    assert module is not None
    times, nodes = [], []
    for data in positions(game, max(count // module.BENCH.fewer.get(trick, 1), 2), trick, seed + trick):
        started = clock.perf()
        _, searched = module.solve(data)
        times.append(clock.perf() - started)
        nodes.append(searched)
    cuts = statistics.quantiles(times, n=100)
    return {
        "variant": game,
        "engine": "core",
        "solve_from_trick": trick,
        "positions": len(times),
        "seconds_p50": round(statistics.median(times), 5),
        "seconds_p99": round(cuts[98], 5),
        "nodes_mean": round(statistics.mean(nodes)),
        "nodes_per_second": round(sum(nodes) / sum(times)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    solved = [name for name in variant_names() if find_variant(name).compiled]
    parser.add_argument("--games", nargs="+", default=solved, choices=solved)
    args = parser.parse_args()
    for game in args.games:
        module = load(find_variant(game))
        assert module is not None
        for trick in module.BENCH.tricks:
            print(json.dumps(measure(game, trick, args.positions, args.seed)), flush=True)


if __name__ == "__main__":
    main()
