"""Table pictures: the time to draw one, and its bytes.

    python -m bench.pictures [--states 300]

For each game, positions of random play, drawn by ``bot.present.render.table_picture`` once the caches are full: the
empty table and each card's face are drawn once per process, and that cost is shown apart (the first picture,
and then the rest of the deck's faces).
Also the bytes after the JPEG round trip at quality 80 that Telegram's recompression is like.  Times are the
thread's CPU time (a picture is drawn on the event loop's thread, and a shared machine's waits are not its
cost); run it pinned to one core: ``taskset -c 0 python -m bench.pictures``.
"""

from __future__ import annotations

import argparse
import io
import json
import random

from PIL import Image

from bot.present import Seating, presenter
from bot.present.pictures import card_face
from bot.present.render import table_picture
from engine import clock, find_variant
from engine.registry import samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--states", type=int, default=300, help="positions drawn per game")
    args = parser.parse_args()
    report = []
    for variant, options in samples(every=True):
        rng = random.Random(1)
        state = find_variant(variant).new_game(1, options)
        names = Seating(tuple(f"Player {s + 1}" for s in range(state.num_players)), "Friends")
        started = clock.thread_cpu()
        _ = table_picture(state.view(None), names, frozenset({1}), "en").data
        first = clock.thread_cpu() - started
        look = presenter(variant)  # every card face drawn once, as a process does over its first pictures
        for card in find_variant(variant).deck:
            card_face(card, look.german_cards, card == look.marked_card)
        faces = clock.thread_cpu() - started - first
        times: list[float] = []
        sizes: list[int] = []
        recompressed: list[int] = []
        while len(times) < args.states:
            if state.is_over:
                state = find_variant(variant).new_game(rng.getrandbits(32), options)
            state.apply(rng.choice(state.all_legal_actions()))
            view = state.view(None)
            started = clock.thread_cpu()
            data = table_picture(view, names, frozenset({1}), "en").data
            times.append(clock.thread_cpu() - started)
            sizes.append(len(data))
            again = io.BytesIO()
            Image.open(io.BytesIO(data)).save(again, format="JPEG", quality=80)
            recompressed.append(len(again.getvalue()))
        times.sort()
        report.append({
            "game": f"{variant} {options or ''}".strip(),
            "first_ms": round(first * 1000, 1),
            "every_card_face_ms": round(faces * 1000, 1),
            "p50_ms": round(times[len(times) // 2] * 1000, 2),
            "p99_ms": round(times[min(len(times) - 1, round(0.99 * (len(times) - 1)))] * 1000, 2),
            "kb_p50": round(sorted(sizes)[len(sizes) // 2] / 1000, 1),
            "kb_max": round(max(sizes) / 1000, 1),
            "kb_after_jpeg_80_max": round(max(recompressed) / 1000, 1),
        })  # fmt: skip
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
