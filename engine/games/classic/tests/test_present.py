"""What the bot shows of this game that its rules decide (the presenter in present.py)."""

from __future__ import annotations

from bot.present import presenter


def test_stats_count_what_the_game_has() -> None:
    """C13: eggs; classic Kozel has no molodka."""
    shown = presenter("classic")
    assert shown.stats_counts == ("eggs",)
    assert shown.kozel_points is None
