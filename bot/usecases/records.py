"""/stats and /score's all-time table: aggregates read from storage in one query each, then rendered."""

from __future__ import annotations

from html import escape

from bot.i18n import t, tn
from bot.present import GAMES, game_title, presenter
from bot.present.leaderboard import rating_picture, render_ratings, render_top
from bot.present.menus import StatsLine, render_stats
from bot.present.render import deal_line, score_line
from bot.usecases.live import LiveGames
from storage import Storage
from storage.models import RatedPlayer


class Records:
    def __init__(self, storage: Storage, games: LiveGames) -> None:
        self.storage = storage
        self.games = games

    async def score(self, chat_id: int, lang: str) -> str:
        """/score: the running series deal by deal, and the chat's all-time tables."""
        lines: list[str] = []
        game = await self.storage.games.open_game(chat_id)
        if game is not None and game.status == "active":
            async with self.games.lock(game.game_id):
                live = await self.games.load(game.game_id)
                if live is not None:
                    state = live.state
                    lines.append(t(lang, "score.current", game=game_title(game.variant, lang), deal=state.deal_no + 1))
                    lines.append(score_line(state.view(None), live.seating, lang))
                    lines += [deal_line(d, game.variant, live.seating, lang) for d in state.deals[-15:]]
                    lines.append("")
        else:
            lines += await self.last_game(chat_id, lang)
        lines += await self.all_time(chat_id, lang)
        return "\n".join(lines).strip() or t(lang, "score.none")

    async def last_game(self, chat_id: int, lang: str) -> list[str]:
        """What became of the chat's last game when it counts in no table: cancelled, or played by computer
        players only (the tables count people)."""
        game = await self.storage.games.last_ended(chat_id)
        if game is None:
            return []
        title = game_title(game.variant, lang)
        if game.status == "cancelled":
            deals = len(await self.storage.games.deals(game.game_id))
            if game.action_count == 0 and not deals:
                return [t(lang, "score.last_cancelled_lobby", game=title), ""]
            if not deals:  # cancelled during its first deal: rated neither (docs/ratings.md)
                return [t(lang, "score.last_cancelled_first_deal", game=title), ""]
            return [tn(lang, "score.last_cancelled", deals, game=title), ""]
        if all(s.user_id is None for s in await self.storage.games.seats(game.game_id)):
            return [t(lang, "score.last_computers", game=title), ""]
        return []

    async def stats(self, user_id: int, lang: str) -> str:
        """/stats: per game, the rating with its best, the rated series, series and deals won and the place
        in each chat; then the series played, won and lost, and what the game counts besides (its presenter's
        ``stats_counts``: eggs, molodkas, kozels taken)."""
        kozels = {name: points for name in GAMES if (points := presenter(name).kozel_points) is not None}
        found = {s.variant: s for s in await self.storage.results.player_stats(user_id, kozels)}
        lines = [
            StatsLine(name, s.played, s.won, s.lost, s.eggs, s.molodkas, s.kozels)
            for name in GAMES
            if (s := found.get(name)) is not None
        ]
        text = render_stats(lines, lang)
        ratings = render_ratings(await self.storage.ratings.of_person(user_id), lang)
        return "\n".join([t(lang, "stats.ratings_title"), *ratings, "", text]) if ratings else text

    async def rating_picture(self, user_id: int, lang: str) -> bytes | None:
        """/stats' picture: the person's ratings over time (None: no rated series yet)."""
        person = await self.storage.players.get(user_id)
        return rating_picture(await self.storage.ratings.history(user_id), person.name if person else "", lang)

    async def top(self, chat_id: int, variant: str | None, asker: int, lang: str) -> str:
        """/top [game]: the chat's leaderboard of the game (without one: the chat's default game, else the
        first game with a leaderboard here)."""
        boards: dict[str, list[RatedPlayer]] = {}
        for name in GAMES:
            boards[name] = await self.storage.ratings.leaderboard(chat_id, name)
        if variant is None:
            chat = await self.storage.chats.get(chat_id)
            default = chat.settings.default_variant if chat else GAMES[0]
            variant = default if boards.get(default) else next((n for n in GAMES if boards[n]), default)
        others = [f"/top {t(lang, f'newgame.arg.{name}')}" for name in GAMES if name != variant and boards[name]]
        return render_top(boards.get(variant, []), variant, asker, lang, others)

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
