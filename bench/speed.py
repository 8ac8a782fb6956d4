"""Random-play speed of the engine, one core: complete random deals per second for each game.

    python -m bench.speed [--deals N] [--repeat R]

Each run is ``engine.simulate.simulate``: series after series from seeded deals, every step a uniformly
random choice among all seats' legal actions (out-of-turn ones included), applied through the public
``apply`` (which checks the action against the cached legal list).  No views, JSON or storage are involved:
the figure is what the rules cost.

Prints one JSON line per game and configuration with the best of R runs (the machine is shared and noisy;
the best run is the closest to what the code costs): ``deals_per_second`` by the wall clock, and
``cpu_deals_per_second`` by the process's CPU time, which other processes on a busy machine disturb less.
The target of issue 18 is 10,000 deals per second per core for every game (a third of the speed of the
JavaScript engine of the kozelonline project on the machine where that was measured); ``target_met`` checks
the wall-clock figure.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from engine.simulate import simulate

TARGET = 10_000  # deals per second per core, every game (issue 18)

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("four_card", {}),
    ("classic", {}),
    ("classic", {"deck": 32, "redeal": False}),
    ("czech", {"players": 3}),
    ("czech", {"players": 4}),
    ("czech", {"players": 6}),
]


def timed(name: str, deals: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """One run of ``simulate``, with its deals per second of CPU time added."""
    started = time.process_time()
    summary = simulate(name, deals, seed, options)
    cpu = time.process_time() - started
    summary["cpu_deals_per_second"] = round(summary["deals"] / cpu, 1) if cpu else None
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for name, options in CONFIGS:
        runs = [timed(name, args.deals, seed, options) for seed in range(args.repeat)]
        best = max(runs, key=lambda r: r["deals_per_second"])
        actions_per_deal = best["actions"] / best["deals"]
        print(
            json.dumps(
                {
                    "variant": name,
                    "options": options,
                    "deals": best["deals"],
                    "deals_per_second": best["deals_per_second"],
                    "cpu_deals_per_second": max(r["cpu_deals_per_second"] or 0 for r in runs),
                    "actions_per_deal": round(actions_per_deal, 1),
                    "target": TARGET,
                    "target_met": best["deals_per_second"] >= TARGET,
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
