"""Random legal play, for statistics, speed measurement and property tests.

python -m engine simulate --variant four_card --deals 1000 --seed 1
python -m engine simulate --variant classic --deals 1000 --option deck=32 --option redeal=false
python -m engine simulate --variant czech --players 5 --deals 1000
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from engine.clock import perf
from engine.errors import EngineError
from engine.registry import default_variant_name, find_variant, variant_names
from engine.state import DealResult, GameState


def play_random(state: GameState, rng: random.Random, max_deals: int | None = None) -> None:
    """Play uniformly random legal actions (over every seat's choices) until the series ends, or until
    ``max_deals`` deals of it are complete."""
    while state.outcome is None and (max_deals is None or len(state.deals) < max_deals):
        state.apply(rng.choice(state.all_legal_actions()))


def simulate(
    variant_name: str,
    deals: int,
    seed: int,
    options: dict[str, Any] | None = None,
    on_action: Callable[[GameState], None] | None = None,
) -> dict[str, Any]:
    """Play ``deals`` complete random deals (series after series) and summarise them."""
    variant = find_variant(variant_name)
    opts = variant.options(options)
    rng = random.Random(seed)
    results: list[DealResult] = []
    series_finished = 0
    series_with_eggs = 0
    actions = 0
    started = perf()
    getrandbits = rng.getrandbits
    while len(results) < deals:
        state = variant.new_game(rng.getrandbits(48), opts)
        wanted = deals - len(results)
        while state.outcome is None and len(state.deals) < wanted:
            # rng.choice(legal), written out: the same bits drawn the same way, without two calls a step
            legal = state.all_legal_actions()
            count = len(legal)
            if not count:
                raise IndexError("no legal action in an unfinished game")
            bits = count.bit_length()
            index = getrandbits(bits)
            while index >= count:
                index = getrandbits(bits)
            state.apply(legal[index])
            actions += 1
            if on_action is not None:
                on_action(state)
        results.extend(state.deals)
        if state.outcome is not None:
            series_finished += 1
            series_with_eggs += state.outcome.with_eggs
    elapsed = perf() - started
    units = len(results[0].points) if results else 0
    summary: dict[str, Any] = {
        "variant": variant.name,
        "options": opts.model_dump(),
        "seed": seed,
        "deals": len(results),
        "actions": actions,
        "seconds": round(elapsed, 3),
        "deals_per_second": round(len(results) / elapsed, 1) if elapsed else None,
        "series_finished": series_finished,
        "series_with_eggs": series_with_eggs,
        "eggs": sum(r.eggs for r in results),
        "mean_points": [round(sum(r.points[u] for r in results) / len(results), 2) for u in range(units)]
        if results
        else [],
        "score_distribution": {str(k): v for k, v in sorted(Counter(s for r in results for s in r.score).items())},
        "events": dict(sorted(Counter(e.split(":")[0] for r in results for e in r.events).items())),
    }
    return summary


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play random legal deals and print a JSON summary")
    sim.add_argument("--variant", choices=variant_names(), default=default_variant_name())
    sim.add_argument("--deals", type=int, default=1000)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--players", type=int, help="Czech Kozel: 3 to 6 players")
    sim.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a variant option, e.g. deck=32, redeal=false, all_tricks=lose_series",
    )
    args = parser.parse_args(argv)
    options: dict[str, Any] = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep:
            parser.error(f"--option wants KEY=VALUE, not {item!r}")
        options[key.strip()] = json.loads(value) if value.strip() in ("true", "false") or value.isdigit() else value
    if args.players is not None:
        options["players"] = args.players
    try:
        summary = simulate(args.variant, args.deals, args.seed, options)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    json.dump(summary, sys.stdout, ensure_ascii=False, indent=2)
    print()
    return 0
