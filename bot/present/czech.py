"""Czech Kozel: German card names, each for himself, penalty points and table points."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import t, tn
from bot.present.base import Presenter, Seating, each_line
from engine import Card, DealResult, Outcome, View
from engine.czech import KOZEL, PENALTY
from engine.names import german_short

KOZEL_MARK = "🐐"


class CzechPresenter(Presenter):
    name = "czech"
    kozel_points = PENALTY[KOZEL]  # K5
    german_cards = True
    marked_card = KOZEL
    all_time_key = "score.all_time_czech_line"

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

    def deal_summary(self, result: DealResult, seating: Seating, lang: str) -> str:
        return each_line(result.score, seating, "+")  # under /score's line of penalty points

    def seat_count_refusal(self, count: int, lang: str) -> str | None:
        return None if count in self.variant.players else t(lang, "lobby.need_players_czech", count=count)
