"""Random-play speed of the engine, one core: complete random deals per second for each game.

    python -m bench.speed [--deals N] [--repeat R]

Prints one JSON line per game and configuration with the best of R runs (the machine is shared and noisy;
the best run is the closest to what the code costs).  The target of the engine issues is 1,000 deals per
second per core.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from engine.simulate import simulate

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("four_card", {}),
    ("classic", {}),
    ("classic", {"deck": 32, "redeal": False}),
    ("czech", {"players": 3}),
    ("czech", {"players": 4}),
    ("czech", {"players": 6}),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for name, options in CONFIGS:
        runs = [simulate(name, args.deals, seed, options) for seed in range(args.repeat)]
        best = max(runs, key=lambda r: r["deals_per_second"])
        actions_per_deal = best["actions"] / best["deals"]
        print(
            json.dumps(
                {
                    "variant": name,
                    "options": options,
                    "deals": best["deals"],
                    "deals_per_second": best["deals_per_second"],
                    "actions_per_deal": round(actions_per_deal, 1),
                    "target_met": best["deals_per_second"] >= 1000,
                }
            )
        )


if __name__ == "__main__":
    main()
