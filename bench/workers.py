"""Memory of a computer-player worker: what one process of ``COMPUTER_WORKERS`` holds while it thinks.

    python -m bench.workers [--decisions N] [--levels strong expert] [--budget 0.5]

The bot runs decisions in a pool of processes started by ``spawn`` (``bot.app``), each call
``engine.players.decide`` on a seat's view.  This starts one such worker the same way and measures its
resident memory (``VmRSS``) and its peak (``VmHWM``): started and idle, then after ``N`` decisions of each
level in each game (every configuration of ``Variant.samples``; positions from deals played by the basic
player, each level in turn).  One JSON line per game and level, and a last one with the worker's peak over
the whole run: what a worker costs is its peak, since a process does not give memory back to the system.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor

from engine import GameState, clock, find_variant
from engine.players import decide
from engine.players.search import heuristic_step
from engine.registry import samples


def memory() -> tuple[float, float]:
    """This process's resident memory and its peak so far, in MiB (Linux's ``/proc``)."""
    fields: dict[str, float] = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                fields[name] = round(int(value.split()[0]) / 1024, 1)  # kB
    return fields["VmRSS"], fields["VmHWM"]


def positions(game: str, options: dict[str, object], count: int, seed: int) -> list[tuple[GameState, int]]:
    """``count`` positions of the basic player's deals where a seat has a choice: (state, seat)."""
    rng = random.Random(seed)
    found: list[tuple[GameState, int]] = []
    variant = find_variant(game)
    while len(found) < count:
        state = variant.new_game(rng.getrandbits(40), options)
        deal = len(state.deals)
        while state.outcome is None and len(state.deals) == deal and len(found) < count:
            choosing = [s for s in range(state.num_players) if len(state.legal_actions(s)) > 1]
            if choosing and rng.random() < 0.5:
                found.append((state.fork(), rng.choice(choosing)))
            heuristic_step(state)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decisions", type=int, default=20, help="decisions per game, configuration and level")
    parser.add_argument("--levels", nargs="+", default=["strong", "expert"])
    parser.add_argument("--budget", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as worker:
        rss, peak = worker.submit(memory).result()
        print(json.dumps({"worker": "started", "rss_mib": rss, "peak_mib": peak}), flush=True)
        for game, options in samples(every=True):
            for level in args.levels:
                started = clock.perf()
                for number, (state, seat) in enumerate(positions(game, options, args.decisions, args.seed)):
                    worker.submit(decide, level, state.view(seat), number, args.budget).result()
                rss, peak = worker.submit(memory).result()
                line = {"game": game, "options": options, "level": level, "decisions": args.decisions}
                seconds = round(clock.perf() - started, 1)
                print(json.dumps({**line, "rss_mib": rss, "peak_mib": peak, "seconds": seconds}), flush=True)
        rss, peak = worker.submit(memory).result()
        print(json.dumps({"worker": "after every game", "rss_mib": rss, "peak_mib": peak}), flush=True)


if __name__ == "__main__":
    main()
