"""What the team games show alike: two teams of partners sitting opposite, pairs or penalty points toward 12."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import t, tn
from bot.present.base import Presenter, Seating, game_title, teams_line
from bot.present.result_pictures import ResultLine, ResultText
from engine import DealResult, Outcome


class TeamPresenter(Presenter):
    score_key = "deal.pairs"  # the line of what a team scored in a deal
    totals_key = "table.score_teams"  # the line of the series so far: what each team has toward 12
    goats_with_eggs = True  # the losers of a series with eggs are "goats with eggs" (F15)

    def score_line(self, totals: Sequence[int], seating: Seating, lang: str) -> str:
        if len(totals) == 2:
            return teams_line(self.totals_key, totals, seating, lang)
        return super().score_line(totals, seating, lang)

    def tricks_line(self, taken: Sequence[int], seating: Seating, lang: str) -> str:
        if len(taken) == 2:  # the teams by number: the score line just below names them
            return t(lang, "table.tricks_teams", a=t(lang, "team.short_a"), sa=taken[0], b=t(lang, "team.short_b"),
                     sb=taken[1])  # fmt: skip
        return super().tricks_line(taken, seating, lang)

    def result_lines(self, result: DealResult, seating: Seating, lang: str) -> list[str]:
        lines = []
        events = set(result.events)
        if "queen_caught" in events:
            scorer = 0 if result.score[0] else 1
            lines.append(t(lang, "deal.queen", team=seating.team(scorer, lang)))
        else:
            lines.append(teams_line("deal.points_teams", result.points, seating, lang))
        if result.eggs:
            lines.append(t(lang, "deal.eggs"))
        if "all_tricks" in events:
            taker = 0 if result.tricks[1] == 0 else 1
            lines.append(t(lang, "deal.all_tricks", team=seating.team(taker, lang)))
        for team in (0, 1):
            if result.score[team] and "queen_caught" not in events:
                lines.append(tn(lang, self.score_key, result.score[team], team=seating.team(team, lang)))
        if "reset" in events:
            lines.append(t(lang, "deal.reset"))
        for event in result.events:
            if event.startswith("egg_bonus:"):
                lines.append(tn(lang, "deal.egg_bonus", int(event.split(":")[1])))
        lines.append(teams_line(self.totals_key, result.totals, seating, lang))
        return lines

    def outcome_lines(self, outcome: Outcome, seating: Seating, lang: str) -> list[str]:
        lines = []
        goats = outcome.losers[0] % 2
        if outcome.reason == "no_trick":
            lines.append(t(lang, "series.no_trick", team=seating.team(goats, lang)))
        key = "series.goats_eggs" if self.with_eggs(outcome) else "series.goats"
        lines.append(t(lang, key, team=seating.team(goats, lang)))
        lines.append(tn(lang, "series.winners", 2, names=seating.team(1 - goats, lang)))
        return lines

    def own_outcome(self, outcome: Outcome, seat: int, lang: str) -> str:
        return t(lang, "ended.team_goats" if seat in outcome.losers else "ended.team_won")

    def with_eggs(self, outcome: Outcome) -> bool:
        """Whether the series' end calls the losers goats with eggs: only a game whose rules have them."""
        return self.goats_with_eggs and outcome.with_eggs

    def deal_summary(self, result: DealResult, seating: Seating, lang: str) -> str:
        """One deal in words: its card points and who scored what (teams by number; /score names them)."""
        events = set(result.events)
        if "queen_caught" in events:
            scorer = 0 if result.score[0] else 1
            return t(lang, "deal.queen", team=t(lang, f"team.short_{'ab'[scorer]}"))
        parts = [t(lang, "score.card_points", pa=result.points[0], pb=result.points[1])]
        if result.eggs:
            parts.append(t(lang, "score.eggs"))
        for team in (0, 1):
            if result.score[team]:
                parts.append(tn(lang, self.score_key, result.score[team], team=t(lang, f"team.short_{'ab'[team]}")))
        if not result.eggs and not any(result.score):
            parts.append(t(lang, "score.nobody"))
        return " — ".join(parts)

    def result_picture(self, result: DealResult, seating: Seating, lang: str) -> ResultText:
        events = set(result.events)
        queen = "queen_caught" in events
        lines = []
        for team in (0, 1):
            if queen:  # C12: the deal's card points do not count
                detail = t(lang, "picture.queen") if result.score[team] else ""
            else:
                detail = tn(lang, "picture.card_points", result.points[team])
            if "all_tricks" in events and result.tricks[1 - team] == 0:
                detail += " · " + t(lang, "picture.all_tricks")
            if result.score[team] > 0:
                detail += f" · +{result.score[team]}"
            name = seating.drawn_team(team, lang)
            lines.append(ResultLine(name, detail.strip(" ·"), result.totals[team], self.limit,
                                    gained=result.score[team], winner=self.deal_won(result, team)))  # fmt: skip
        footer = [t(lang, "picture.eggs")] if result.eggs else []
        footer += [tn(lang, self.score_key, result.score[team], team=t(lang, f"team.short_{'ab'[team]}"))
                   for team in (0, 1) if result.score[team] > 0]  # fmt: skip
        if "reset" in events:
            footer.append(t(lang, "deal.reset"))
        return ResultText(
            title=t(lang, "picture.deal", deal=result.deal_no + 1, game=game_title(self.name, lang)),
            lines=tuple(lines),
            footer=" ".join(footer),
            eggs=2 if result.eggs else 0,
            against=self.against,
        )

    def outcome_picture(self, outcome: Outcome, totals: Sequence[int], seating: Seating, lang: str) -> ResultText:
        goats = outcome.losers[0] % 2
        goat_key = "picture.goats_eggs" if self.with_eggs(outcome) else "picture.goats"
        lines = tuple(
            ResultLine(seating.drawn_team(team, lang), t(lang, goat_key if team == goats else "picture.winners_team"),
                       totals[team], self.limit, goat=team == goats, winner=team != goats)
            for team in (0, 1)
        )  # fmt: skip
        winners = seating.drawn_team(1 - goats, lang)
        return ResultText(
            title=t(lang, "picture.series_end", game=game_title(self.name, lang)),
            lines=lines,
            footer=tn(lang, "picture.winners", 2, names=winners),
            eggs=2 if self.with_eggs(outcome) else 0,
            goats=tuple(seating.drawn(s, lang) for s in range(goats, len(seating.names), 2)),
            against=self.against,
        )

    def seat_count_refusal(self, count: int, lang: str) -> str | None:
        if count in self.variant.players:
            return None
        return t(lang, "lobby.need_players_team", game=game_title(self.name, lang), count=count)
