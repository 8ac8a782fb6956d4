"""bench.workers measures what a computer-player worker holds: its positions are real choices of the seat it
names, in every configuration, and its figures are the process's own."""

from __future__ import annotations

import pytest

from bench import workers
from engine.registry import samples


@pytest.mark.parametrize(("game", "options"), samples(every=True))
def test_every_position_is_a_choice_of_its_seat(game: str, options: dict[str, object]) -> None:
    found = workers.positions(game, options, 6, seed=3)
    assert len(found) == 6
    for state, seat in found:
        assert state.outcome is None and len(state.legal_actions(seat)) > 1


def test_memory_is_the_resident_size_and_its_peak() -> None:
    rss, peak = workers.memory()
    assert 0 < rss <= peak
    ballast = b"\x01" * (64 * 2**20)  # written, so resident
    grown, peak_now = workers.memory()
    assert grown >= rss + 60 and peak_now >= grown
    del ballast
