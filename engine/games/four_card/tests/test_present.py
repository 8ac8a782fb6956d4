"""What the bot shows of this game that its rules decide (the presenter in present.py)."""

from __future__ import annotations

from bot.present import presenter


def test_stats_count_what_the_game_has() -> None:
    """F14 (eggs) and F10 (molodkas)."""
    shown = presenter("four_card")
    assert shown.stats_counts == ("eggs", "molodkas")
    assert shown.kozel_points is None
