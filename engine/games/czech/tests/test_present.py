"""What the bot shows of this game that its rules decide (the presenter in present.py)."""

from __future__ import annotations

from bot.present import presenter


def test_stats_count_what_the_game_has() -> None:
    """K5: the kozel taken, 13 penalty points; no eggs, no molodka."""
    shown = presenter("czech")
    assert shown.stats_counts == ("kozels",)
    assert shown.kozel_points == 13
