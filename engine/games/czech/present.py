"""Czech Kozel: German card names, each for himself, penalty points and table points."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from bot.i18n import t, tn
from bot.present.base import Presenter, Seating, each_line, game_title, plain
from bot.present.result_pictures import ResultLine, ResultText
from engine import Card, DealResult, Outcome, View
from engine.games.czech.names import german_short
from engine.games.czech.rules import GAME_LIMIT, KOZEL, PENALTY

KOZEL_MARK = "🐐"


class CzechPresenter(Presenter):
    name = "czech"
    kozel_points = PENALTY[KOZEL]  # K5
    stats_counts = ("kozels",)  # no eggs, no molodka (K5)
    stats_line_key = "stats.line_czech"  # K8: the lowest total wins, over 100 loses, the others neither
    german_cards = True
    marked_card = KOZEL
    all_time_key = "score.all_time_czech_line"
    limit = GAME_LIMIT

    def card_label(self, card: Card) -> str:
        """German names; the kozel (the green Ober, K5) is marked 🐐 wherever it is shown."""
        return german_short(card) + (KOZEL_MARK if card == KOZEL else "")

    def status_lines(self, view: View, seating: Seating, lang: str) -> list[str]:
        lines = []
        if view.talon_size:
            lines.append(t(lang, "table.talon", count=view.talon_size))
        if view.doubled:
            lines.append(t(lang, "table.doubled"))
        return lines

    def score_line(self, totals: Sequence[int], seating: Seating, lang: str) -> str:
        return t(lang, "table.penalty_totals", totals=each_line(totals, seating))

    def result_lines(self, result: DealResult, seating: Seating, lang: str) -> list[str]:
        lines = []
        if "double" in result.events:
            lines.append(t(lang, "deal.doubled"))
        if "all_tricks" in result.events:
            taker = result.score.index(0)
            lines.append(tn(lang, "deal.shoot", max(result.score), name=seating.name(taker)))
        else:
            lines.append(t(lang, "deal.penalties", lines=each_line(result.score, seating, "+")))
        lines.append(t(lang, "deal.totals", totals=each_line(result.totals, seating)))
        return lines

    def outcome_lines(self, outcome: Outcome, seating: Seating, lang: str) -> list[str]:
        return [
            tn(lang, "series.winners", len(outcome.winners), names=", ".join(seating.name(s) for s in outcome.winners)),
            t(lang, "series.table_points", lines=each_line(outcome.table_points, seating)),
        ]

    def own_outcome(self, outcome: Outcome, seat: int, lang: str) -> str:
        """K8: the lowest total wins, a total over 100 loses, and the others neither win nor lose."""
        if seat in outcome.winners:
            return t(lang, "ended.czech_won")
        return t(lang, "ended.czech_over" if seat in outcome.losers else "ended.czech_between")

    def deal_summary(self, result: DealResult, seating: Seating, lang: str) -> str:
        return each_line(result.score, seating, "+")  # under /score's line of penalty points

    def result_picture(self, result: DealResult, seating: Seating, lang: str) -> ResultText:
        shoot = "all_tricks" in result.events
        kozel = PENALTY[KOZEL]
        lines = tuple(
            ResultLine(seating.drawn(s, lang), tn(lang, "picture.penalty", result.score[s]), result.totals[s],
                       self.limit, gained=result.score[s], goat=not shoot and result.points[s] >= kozel,
                       winner=self.deal_won(result, s))
            for s in range(len(result.score))
        )  # fmt: skip
        footer = [t(lang, "picture.doubled")] if "double" in result.events else []
        if shoot:
            taker = result.score.index(0)
            footer.append(plain(tn(lang, "deal.shoot", max(result.score), name=escape(seating.drawn(taker, lang)))))
        return ResultText(
            title=t(lang, "picture.deal", deal=result.deal_no + 1, game=game_title(self.name, lang)),
            lines=lines,
            footer=" ".join(footer),
            against=self.against,
        )

    def outcome_picture(self, outcome: Outcome, totals: Sequence[int], seating: Seating, lang: str) -> ResultText:
        lines = tuple(
            ResultLine(seating.drawn(s, lang), tn(lang, "picture.table_points", outcome.table_points[s]), totals[s],
                       self.limit, goat=s in outcome.losers, winner=s in outcome.winners)
            for s in range(len(totals))
        )  # fmt: skip
        winners = ", ".join(seating.drawn(s, lang) for s in outcome.winners)
        return ResultText(
            title=t(lang, "picture.series_end", game=game_title(self.name, lang)),
            lines=lines,
            footer=tn(lang, "picture.winners", len(outcome.winners), names=winners),
            goats=tuple(seating.drawn(s, lang) for s in outcome.losers),
            against=self.against,
        )

    def seat_count_refusal(self, count: int, lang: str) -> str | None:
        return None if count in self.variant.players else t(lang, "lobby.need_players_czech", count=count)


PRESENTER = CzechPresenter()
