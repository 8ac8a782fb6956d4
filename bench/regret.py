"""A level's choices scored offline against the honest ceiling's, on the positions an arena logged.

    python -m bench.arena --a strong1 --b strong1 --shuffles 100 --log positions.jsonl   # once
    python -m bench.regret positions.jsonl --level expert [--budget 0.5 | --worlds 40]

Each logged position is rebuilt from its shuffle and the actions before it, the level chooses from its seat's
view, and its regret is the ceiling's value of the best candidate less the ceiling's value of its choice (the
ceiling, ``bench.arena.Ceiling``, valued every candidate when the position was logged: every hand known, the
stock's order not).  One JSON line per game: the positions, the mean regret with its 95 % interval (in the
game's unit of a deal's value), the share where the level chose as the ceiling would, and the same for the
choices made in the logged games.  A change to a level is scored in minutes this way, before an arena
confirms it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from engine import Action, GameState, find_variant
from engine.players import find_player


def rebuilt(position: dict[str, Any]) -> GameState:
    state = find_variant(position["game"]).new_game(position["seed"], position["options"])
    for text in position["actions"]:
        state.apply(Action.parse(text))
    return state


def interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf


def score(
    positions: list[dict[str, Any]], level: str, budget: float | None, worlds: int | None
) -> list[dict[str, Any]]:
    by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for position in positions:
        by_game[position["game"]].append(position)
    report = []
    for game, found in by_game.items():
        regrets, logged, agreed = [], [], 0
        player = find_player(level, budget=budget, max_worlds=worlds)
        for number, position in enumerate(found):
            state = rebuilt(position)
            values: dict[str, float] = position["candidates"]
            choice = player.choose(state.view(position["seat"]), random.Random(number))
            text = choice.text() if choice is not None else "wait"
            best = max(values.values())
            regrets.append(best - values[text])
            logged.append(best - values[position["chosen"]])
            agreed += values[text] == best
        mean, half = interval(regrets)
        was, was_half = interval(logged)
        report.append(
            {
                "game": game,
                "level": level,
                "budget": budget,
                "worlds": worlds,
                "positions": len(found),
                "regret": round(mean, 3),
                "regret_ci95": round(half, 3),
                "as_the_ceiling": round(agreed / len(found), 3),
                "logged_regret": round(was, 3),
                "logged_regret_ci95": round(was_half, 3),
            }
        )
        print(json.dumps(report[-1]), flush=True)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("log", type=Path)
    parser.add_argument("--level", default="expert")
    parser.add_argument("--budget", type=float, default=None)
    parser.add_argument("--worlds", type=int, default=None)
    parser.add_argument("--limit", type=int, default=None, help="score only the first positions of each game")
    args = parser.parse_args()
    positions = [json.loads(line) for line in args.log.read_text(encoding="utf-8").splitlines() if line]
    if args.limit is not None:
        seen: Counter[str] = Counter()
        kept = []
        for position in positions:
            seen[position["game"]] += 1
            if seen[position["game"]] <= args.limit:
                kept.append(position)
        positions = kept
    budget = args.budget if args.budget is not None or args.worlds is not None else 0.5
    score(positions, args.level, budget, args.worlds)


if __name__ == "__main__":
    main()
