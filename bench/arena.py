"""Computer players against each other, in duplicate format.

Every deal is played twice from the same shuffle: once with level A in the even seats and level B in the odd
ones, once the other way round, so the luck of the cards cancels out.  Reported per game, with 95 %
confidence intervals over the deal pairs: the share of deals A won (a deal is won when it was worth more to
A's side than to B's: card points and series points in team games, penalty points in Czech Kozel; a draw
counts half) and A's mean score margin (card points in the team games, penalty points in Czech Kozel).

    python -m bench.arena --a basic --b random --deals 2000
    python -m bench.arena --a strong --b basic --deals 300 --worlds 40
    python -m bench.arena --timing 100          # time per decision of the strong player at its budget

Uses every core (``--jobs``).  Classic Kozel is measured on the second deal of a series (the first one is
played by the basic player for everybody), so that the later-deal rules (C7, C9) are in play.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import statistics
import time
from typing import Any

from engine import GameState, find_variant
from engine.players import Player, find_player

GAMES: list[tuple[str, dict[str, Any]]] = [("four_card", {}), ("classic", {}), ("czech", {"players": 4})]


def advance(state: GameState, players: list[Player], rng: random.Random, until_deals: int) -> list[float]:
    """Let the players act until ``until_deals`` deals are complete; the seconds each decision took."""
    times: list[float] = []
    while len(state.deals) < until_deals and state.outcome is None:
        action = None
        for seat in range(state.num_players):  # out-of-turn actions first (molodka, double, redeal …)
            if seat != state.to_move and state.legal_actions(seat):
                started = time.perf_counter()
                action = players[seat].choose(state.view(seat), rng)
                times.append(time.perf_counter() - started)
                if action is not None:
                    break
        if action is None:
            assert state.to_move is not None
            started = time.perf_counter()
            action = players[state.to_move].choose(state.view(state.to_move), rng)
            times.append(time.perf_counter() - started)
            assert action is not None, "the seat to move must act"
        state.apply(action)
    return times


def play_pair(task: tuple[str, dict[str, Any], str, str, float | None, int | None, int]) -> tuple[float, float, float]:
    """One shuffle played twice, A in the even seats and then in the odd ones: (wins, margin, seconds)
    averaged over the two tables."""
    variant_name, options, level_a, level_b, budget, worlds, seed = task
    variant = find_variant(variant_name)
    wins = margin = 0.0
    started = time.perf_counter()
    for a_seats in (0, 1):
        state = variant.new_game(seed, options)
        n = state.num_players
        warmup = 1 if variant_name == "classic" else 0
        if warmup:
            advance(state, [find_player("basic")] * n, random.Random(seed), warmup)
        players = [
            find_player(level_a if s % 2 == a_seats else level_b, budget=budget, max_worlds=worlds) for s in range(n)
        ]
        advance(state, players, random.Random(seed * 2 + a_seats), warmup + 1)
        result = state.deals[warmup]
        if variant_name == "czech":  # each level's mean penalty, not one seat's
            a_pen = [result.score[s] for s in range(n) if s % 2 == a_seats]
            b_pen = [result.score[s] for s in range(n) if s % 2 != a_seats]
            value = diff = statistics.mean(b_pen) - statistics.mean(a_pen)
        else:
            value = type(state).deal_value(result, a_seats)
            diff = result.points[a_seats] - result.points[1 - a_seats]
        wins += 1.0 if value > 0 else 0.5 if value == 0 else 0.0
        margin += diff
    return wins / 2, margin / 2, time.perf_counter() - started


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % confidence interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def arena(
    *, level_a: str, level_b: str, deals: int, budget: float | None, worlds: int | None, jobs: int, games: list[str]
) -> list[dict[str, Any]]:
    report = []
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        for variant_name, options in GAMES:
            if variant_name not in games:
                continue
            pairs = max(deals // 2, 1)
            tasks = [(variant_name, options, level_a, level_b, budget, worlds, seed) for seed in range(1, pairs + 1)]
            started = time.perf_counter()
            results = pool.map(play_pair, tasks, chunksize=max(1, pairs // (jobs * 8)))
            wins, wins_ci = interval([r[0] for r in results])
            margin, margin_ci = interval([r[1] for r in results])
            report.append(
                {
                    "game": variant_name,
                    "options": options,
                    "a": level_a,
                    "b": level_b,
                    "deals": 2 * pairs,
                    "a_deals_won": round(wins, 3),
                    "a_deals_won_ci95": round(wins_ci, 3),
                    "a_margin": round(margin, 2),
                    "a_margin_ci95": round(margin_ci, 2),
                    "margin_unit": "penalty points" if variant_name == "czech" else "card points",
                    "wall_seconds": round(time.perf_counter() - started, 1),
                }
            )
            print(json.dumps(report[-1]), flush=True)
    return report


def timing(decisions: int, budget: float) -> dict[str, Any]:
    """Time the strong player's decisions at ``budget`` in positions of real play (strong against basic)."""
    times: list[float] = []
    seed = 0
    while len(times) < decisions:
        seed += 1
        for variant_name, options in GAMES:
            state = find_variant(variant_name).new_game(seed, options)
            players: list[Player] = [
                find_player("strong" if s == 0 else "basic", budget=budget) for s in range(state.num_players)
            ]
            rng = random.Random(seed)
            while state.outcome is None and not state.deals:
                for seat in range(state.num_players):
                    if state.legal_actions(seat) and seat in (state.to_move, 0):
                        started = time.perf_counter()
                        action = players[seat].choose(state.view(seat), rng)
                        if seat == 0 and len(state.legal_actions(0)) > 1:
                            times.append(time.perf_counter() - started)
                        if action is not None:
                            state.apply(action)
                            break
    times.sort()
    return {
        "budget_seconds": budget,
        "decisions": len(times),
        "mean_seconds": round(statistics.fmean(times), 3),
        "p99_seconds": round(times[min(len(times) - 1, int(len(times) * 0.99))], 3),
        "max_seconds": round(times[-1], 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", default="basic")
    parser.add_argument("--b", default="random")
    parser.add_argument("--deals", type=int, default=2000, help="deals per game (each shuffle is played twice)")
    parser.add_argument("--budget", type=float, default=None, help="seconds per strong decision")
    parser.add_argument("--worlds", type=int, default=None, help="sampled worlds per strong decision")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--games", nargs="+", default=[g for g, _ in GAMES])
    parser.add_argument("--timing", type=int, default=0, help="only time this many strong decisions")
    args = parser.parse_args()
    if args.timing:
        print(json.dumps(timing(args.timing, args.budget or 0.5)))
        return
    budget = args.budget if args.budget is not None or args.worlds is not None else 0.5
    arena(
        level_a=args.a,
        level_b=args.b,
        deals=args.deals,
        budget=budget,
        worlds=args.worlds,
        jobs=args.jobs,
        games=args.games,
    )


if __name__ == "__main__":
    main()
