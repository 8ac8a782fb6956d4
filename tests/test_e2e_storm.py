"""End to end, a storm of odd updates mixed with real play (issue 48): edited messages, channel posts, anonymous
admins, forwarded commands, commands for another bot, arguments of every length and alphabet, callback data of
every length, presses of inline messages and of other people's buttons, strangers with long names, a group the
bot was removed from, and the same update twice.  After it: no traceback, every press answered, no call
Telegram would refuse, and every stored game replays to its stored result."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playground.virtual_time import VirtualTimeLoop
from tests.storm import storm_among_moves


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), updates=st.integers(1, 60))
def test_a_storm_of_odd_updates_among_moves_leaves_no_trace(rng: random.Random, updates: int) -> None:
    loop = VirtualTimeLoop()
    try:
        with tempfile.TemporaryDirectory() as folder:
            loop.run_until_complete(storm_among_moves(Path(folder), rng, updates, 40))
    finally:
        loop.close()
