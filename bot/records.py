"""/stats and /score's all-time table: aggregates read from storage in one query each, then rendered."""

from __future__ import annotations

from html import escape

from bot.i18n import t
from bot.menus import StatsLine, render_stats
from bot.present import GAMES, game_title, presenter
from storage import Storage


class Records:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def stats(self, user_id: int, lang: str) -> str:
        """/stats: per game, the series played, won and lost, eggs, molodkas and kozels taken."""
        kozels = {name: points for name in GAMES if (points := presenter(name).kozel_points) is not None}
        found = {s.variant: s for s in await self.storage.results.player_stats(user_id, kozels)}
        lines = [
            StatsLine(name, s.played, s.won, s.lost, s.eggs, s.molodkas, s.kozels)
            for name in GAMES
            if (s := found.get(name)) is not None
        ]
        return render_stats(lines, lang)

    async def all_time(self, chat_id: int, lang: str) -> list[str]:
        """The chat's all-time table of each game it has played (cancelled games do not count)."""
        lines: list[str] = []
        for variant in GAMES:
            table = await self.storage.results.chat_table(chat_id, variant)
            if not table:
                continue
            lines.append(t(lang, "score.all_time", game=game_title(variant, lang)))
            key = presenter(variant).all_time_key
            for rank, line in enumerate(table[:20], 1):
                lines.append(
                    t(lang, key, rank=rank, name=escape(line.name), played=line.played, won=line.won,
                      lost=line.lost, points=line.table_points)
                )  # fmt: skip
            lines.append("")
        return lines
