"""A level's choices scored offline against the honest ceiling's, on the positions an arena logged.

    python -m bench.arena --a strong1 --b strong1 --shuffles 100 --log positions.jsonl   # once
    python -m bench.regret positions.jsonl --level expert [--budget 0.5 | --worlds 40] [--tricks 4]
    python -m bench.regret positions.jsonl --out a.jsonl    # the regret of each position, for pairing
    python -m bench.regret positions.jsonl --against a.jsonl  # ... and this run's less a's, position by position

Each logged position is rebuilt from its shuffle and the actions before it, the level chooses from its seat's
view, and its regret is the ceiling's value of the best candidate less the ceiling's value of its choice (the
ceiling, ``bench.arena.Ceiling``, valued every candidate when the position was logged: every hand known, the
stock's order not).  One JSON line per game: the positions, the mean regret with its 95 % interval (in the
game's unit of a deal's value), the share where the level chose as the ceiling would, and the same for the
choices made in the logged games.  A change to a level is scored in minutes this way, before an arena
confirms it.  Two runs on the same positions are compared position by position (``--against``): the paired
difference has a far narrower interval than the two means have apart, and it is also given trick by trick, to
show where in the deal a change acts.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import random
import statistics
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, TextIO

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


def trick(state: GameState) -> int:
    """The number of the trick being played (1 for the first)."""
    return len(state.tricks_done) + 1


def score(
    positions: list[dict[str, Any]],
    level: str,
    budget: float | None,
    worlds: int | None,
    *,
    tricks: int | None = None,
    out: Path | None = None,
    against: Path | None = None,
) -> list[dict[str, Any]]:
    """Each game's report (one dict per game, printed as a JSON line).  ``tricks``: only the positions in the
    first so many tricks; ``out``: each position's regret, a JSON line per position; ``against``: such a file
    of an earlier run, and the report adds this run's regret less that one's on the positions both scored
    (``paired_difference``: below 0, this run lost less; ``paired_by_trick``: the same, trick by trick)."""
    earlier: dict[tuple[str, int], float] = {}
    if against is not None:
        for line in against.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            earlier[row["game"], row["n"]] = row["regret"]
    with contextlib.ExitStack() as stack:
        sink = stack.enter_context(out.open("w", encoding="utf-8")) if out is not None else None
        return _score(positions, level, budget, worlds, tricks=tricks, sink=sink, earlier=earlier)


def _score(
    positions: list[dict[str, Any]],
    level: str,
    budget: float | None,
    worlds: int | None,
    *,
    tricks: int | None,
    sink: TextIO | None,
    earlier: dict[tuple[str, int], float],
) -> list[dict[str, Any]]:
    by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for position in positions:
        by_game[position["game"]].append(position)
    report: list[dict[str, Any]] = []
    for game, found in by_game.items():
        regrets, logged, agreed = [], [], 0
        paired: dict[int, list[float]] = defaultdict(list)  # by trick
        player = find_player(level, budget=budget, max_worlds=worlds)
        for number, position in enumerate(found):
            state = rebuilt(position)
            if tricks is not None and trick(state) > tricks:
                continue
            values: dict[str, float] = position["candidates"]
            choice = player.choose(state.view(position["seat"]), random.Random(number))
            text = choice.text() if choice is not None else "wait"
            best = max(values.values())
            regrets.append(best - values[text])
            logged.append(best - values[position["chosen"]])
            agreed += values[text] == best
            if (game, number) in earlier:
                paired[trick(state)].append(regrets[-1] - earlier[game, number])
            if sink is not None:
                row = {"game": game, "n": number, "trick": trick(state), "regret": regrets[-1]}
                sink.write(json.dumps(row) + "\n")
                sink.flush()
        if not regrets:
            continue
        mean, half = interval(regrets)
        was, was_half = interval(logged)
        report.append(
            {
                "game": game,
                "level": level,
                "budget": budget,
                "worlds": worlds,
                "positions": len(regrets),
                "regret": round(mean, 3),
                "regret_ci95": round(half, 3),
                "as_the_ceiling": round(agreed / len(regrets), 3),
                "logged_regret": round(was, 3),
                "logged_regret_ci95": round(was_half, 3),
            }
        )
        if earlier:
            everywhere = [d for diffs in paired.values() for d in diffs]
            gain, gain_half = interval(everywhere) if everywhere else (math.nan, math.inf)
            report[-1] |= {"paired": len(everywhere), "paired_difference": round(gain, 3),
                           "paired_difference_ci95": round(gain_half, 3),
                           # where in the deal a change acts: [difference, its 95 % half-width, positions]
                           "paired_by_trick": {str(t): [*(round(x, 3) for x in interval(paired[t])), len(paired[t])]
                                               for t in sorted(paired)}}  # fmt: skip
        print(json.dumps(report[-1]), flush=True)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("log", type=Path)
    parser.add_argument("--level", default="expert")
    parser.add_argument("--budget", type=float, default=None)
    parser.add_argument("--worlds", type=int, default=None)
    parser.add_argument("--limit", type=int, default=None, help="score only the first positions of each game")
    parser.add_argument("--tricks", type=int, default=None, help="score only the positions in the first tricks")
    parser.add_argument("--out", type=Path, default=None, help="write each position's regret here")
    parser.add_argument("--against", type=Path, default=None, help="pair with an earlier run's --out")
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
    score(positions, args.level, budget, args.worlds, tricks=args.tricks, out=args.out, against=args.against)


if __name__ == "__main__":
    main()
