"""Classic Kozel: jacks, queens and clubs are trumps, listed first in the hand."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.i18n import t, tn
from bot.present.base import MenuOption, Seating
from bot.present.teams import TeamPresenter
from engine import Card, Options, View
from engine.games.classic.rules import ESUIT, POWER, SERIES_TARGET, TRUMP_SUIT, ClassicOptions


class ClassicPresenter(TeamPresenter):
    name = "classic"
    limit = SERIES_TARGET
    stats_counts = ("eggs",)  # C13; no molodka in classic Kozel
    goats_with_eggs = False  # C13: eggs only add a pair to the next team that scores; C14 has plain goats
    menu_options = (
        MenuOption("deck", "deck", (36, 32), "🂠"),  # C2
        MenuOption("redeal", "redeal", (True, False), "🔄"),  # C6
        MenuOption("all_tricks", "alltricks", ("score", "lose_series"), "🏆"),  # C13
    )

    def sort_hand(self, cards: Iterable[Card], trump: int | None = None) -> list[Card]:
        return sorted(cards, key=lambda c: (ESUIT[c] != TRUMP_SUIT, ESUIT[c], POWER[c]))

    def options_line(self, options: Mapping[str, object], lang: str) -> str | None:
        return self._options(self.variant.options(options), "options.classic", lang)

    def settings_line(self, options: Options, lang: str) -> str | None:
        return self._options(options, "settings.classic", lang)

    def _options(self, options: Options, key: str, lang: str) -> str:
        assert isinstance(options, ClassicOptions)
        redeal, rule = (self.option_word(f, getattr(options, f), lang) for f in ("redeal", "all_tricks"))
        return tn(lang, key, options.deck, redeal=redeal, all_tricks=rule)

    def status_lines(self, view: View, seating: Seating, lang: str) -> list[str]:
        lines = [t(lang, "table.classic_trumps")]
        if len(view.trump_lead_banned) == view.num_players:
            lines.append(t(lang, "table.ban_all"))
        elif view.trump_lead_banned:
            banned = ", ".join(seating.name(s) for s in view.trump_lead_banned)
            lines.append(t(lang, "table.ban", names=banned))
        if view.eggs_pending:
            lines.append(tn(lang, "table.eggs_pending", view.eggs_pending, bonus=2 * view.eggs_pending))
        return lines


PRESENTER = ClassicPresenter()
