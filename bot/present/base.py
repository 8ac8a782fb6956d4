"""What every game shows alike, and the presenter's hooks for what each game shows its own way."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

from bot.delivery.sending import visible
from bot.i18n import t
from bot.present.lettering import drawable
from bot.present.result_pictures import ResultText
from engine import Action, Card, DealResult, Options, Outcome, Variant, View, find_variant


@dataclass(frozen=True)
class Seating:
    """Who sits where, and the group's title: what the renders need besides the view."""

    names: tuple[str, ...]
    chat_title: str = ""

    def name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return "?"
        return escape(self.names[seat])

    def drawn(self, seat: int, lang: str) -> str:
        """The seat's name as a picture writes it (``plain``), emoji and all; a name of which no bundled
        typeface has a single character is written as the seat's player ("Player 3")."""
        name = plain(self.name(seat))
        return name if drawable(name) else t(lang, "picture.nameless", n=seat + 1)

    def team(self, team: int, lang: str) -> str:
        names = t(lang, "team.join").join(self.name(s) for s in range(team, len(self.names), 2))
        return t(lang, "team.a" if team == 0 else "team.b", names=names)

    def drawn_team(self, team: int, lang: str) -> str:
        """The team as a picture writes it: ``team`` of the names as drawn."""
        names = t(lang, "team.join").join(escape(self.drawn(s, lang)) for s in range(team, len(self.names), 2))
        return plain(t(lang, "team.a" if team == 0 else "team.b", names=names))


@dataclass(frozen=True)
class MenuOption:
    """An option of a game that a chat sets in /settings: the field of the game's options model, the key its
    button's data carries (no two games share one), the values the button steps through (the model's default
    among them) and the button's icon."""

    field: str
    key: str
    values: tuple[bool | int | str, ...]
    icon: str

    @staticmethod
    def encode(value: object) -> str:
        """A value as a button's data carries it."""
        if isinstance(value, bool):
            return "on" if value else "off"
        return str(value).lower()

    def decode(self, text: str) -> bool | int | str | None:
        """The value a button's data stands for; None for one the menu never offers."""
        return next((v for v in self.values if self.encode(v) == text), None)

    def after(self, value: object) -> bool | int | str:
        """The value the button offers next."""
        values = self.values
        return values[(values.index(value) + 1) % len(values)] if value in values else values[0]


def game_title(variant: str, lang: str) -> str:
    return t(lang, f"game.{variant}")


def plain(text: str) -> str:
    """An HTML text as a picture writes it: tags dropped, entities read, white space made single spaces;
    emoji stay, as Telegram shows them."""
    return " ".join(visible(text).split())


def teams_line(key: str, values: Sequence[int], seating: Seating, lang: str) -> str:
    """A line naming both teams with one number each (``table.score_teams``, ``deal.points_teams``)."""
    return t(lang, key, a=seating.team(0, lang), sa=values[0], pa=values[0], b=seating.team(1, lang),
             sb=values[1], pb=values[1])  # fmt: skip


def each_line(values: Sequence[int], seating: Seating, sign: str = "") -> str:
    """``Ann: +3 · 🤖 Bot 2: 0 …``: one number per seat, set apart from the name (a computer's name ends in
    a digit of its own)."""
    return " · ".join(f"{seating.name(s)}: {sign}{v}" for s, v in enumerate(values))


class Presenter:
    """How one game is shown: its card labels and order, the lines of its table and results, the way its
    hand keyboard works.  The facts (seat counts, teams) come from the engine's variant."""

    name: str = ""
    selects_cards = False  # keyboard mode: cards are toggled, then a move button plays them
    marks_trick_top = False  # the table marks the play that is winning the trick
    german_cards = False  # the table picture draws German-suited cards (K2)
    marked_card: Card | None = None  # the card the table picture frames in gold (the kozel, K5)
    kozel_points: int | None = None  # /stats counts the deals with this many penalty points (the kozel taken)
    stats_counts: tuple[str, ...] = ()  # what /stats counts of the game besides its series ("eggs", "molodkas"…)
    stats_line_key = "stats.line"  # /stats' line of the series played, won and lost
    limit = 0  # the total that ends a series (F15, C14, K8): the length of a result picture's bars
    all_time_key = "score.all_time_line"
    menu_options: tuple[MenuOption, ...] = ()  # the options a chat sets in /settings

    @property
    def variant(self) -> Variant:
        return find_variant(self.name)

    @property
    def capacity(self) -> int:
        return max(self.variant.players)

    @property
    def choose_seats(self) -> bool:
        """In a team game people pick their seat (partners sit opposite); otherwise seats follow arrival."""
        return self.variant.teams

    def card_label(self, card: Card) -> str:
        return str(card)

    def cards_label(self, cards: Iterable[Card]) -> str:
        return " ".join(self.card_label(c) for c in cards)

    def sort_hand(self, cards: Iterable[Card], trump: int | None = None) -> list[Card]:
        return sorted(cards, key=lambda c: (int(c.suit), int(c.rank)))

    def status_lines(self, view: View, seating: Seating, lang: str) -> list[str]:
        return []

    def chosen_lines(self, view: View, chosen: Sequence[Card], lang: str) -> list[str]:
        """The cards chosen so far, and what they still lack (a game that ``selects_cards``)."""
        return [t(lang, "hand.chosen", cards=self.cards_label(chosen))]

    def options_line(self, options: Mapping[str, object], lang: str) -> str | None:
        """The game's options in words, for its lobby (None: nothing to say)."""
        return None

    def settings_line(self, options: Options, lang: str) -> str | None:
        """The game's options a chat sets, in words, for /settings (None: it has none)."""
        return None

    def option_word(self, field: str, value: object, lang: str) -> str:
        """The value of an option in words: on or off, a number as it is, a word of the catalogue
        (``settings.<field>_<value>``)."""
        if isinstance(value, bool):
            return t(lang, "settings.on" if value else "settings.off")
        if isinstance(value, str):
            return t(lang, f"settings.{field}_{value}")
        return str(value)

    def forced_cards(self, view: View) -> tuple[Card, ...] | None:
        """In a game where cards are chosen: the cards of the seat's move when every legal move uses the same
        ones (the whole hand), so the move takes one tap; None otherwise."""
        return None

    def one_tap(self, view: View) -> dict[Card, Action]:
        """In a game where cards are chosen: the seat's cards that can be played in one way only, alone (a
        lead of the only card of its suit, the discard of a card that cannot beat), each with that move, so
        that a tap plays it; the others are chosen first."""
        return {}

    def answer_prompt(self, view: View, lang: str, *, choosing: bool = False) -> str | None:
        """The hand's prompt when the seat answers a trick in its own way (None: the common prompt);
        ``choosing``: cards of his are chosen, so no card plays at one tap."""
        return None

    def score_line(self, totals: Sequence[int], seating: Seating, lang: str) -> str:
        return t(lang, "table.score_players", totals=each_line(totals, seating))

    def tricks_line(self, taken: Sequence[int], seating: Seating, lang: str) -> str:
        """Tricks taken so far in the deal, one number per player (team games: per team)."""
        return t(lang, "table.tricks_players", tricks=each_line(taken, seating))

    def result_lines(self, result: DealResult, seating: Seating, lang: str) -> list[str]:
        raise NotImplementedError

    def outcome_lines(self, outcome: Outcome, seating: Seating, lang: str) -> list[str]:
        raise NotImplementedError

    def deal_summary(self, result: DealResult, seating: Seating, lang: str) -> str:
        """One deal in /score's list of the series."""
        raise NotImplementedError

    def own_outcome(self, outcome: Outcome, seat: int, lang: str) -> str:
        """How the series ended for ``seat``, told to him in private."""
        raise NotImplementedError

    @property
    def against(self) -> bool:
        """Whether the game's totals count against their side (defeat or penalty points)."""
        return self.variant.state_class.TOTALS_AGAINST

    def deal_won(self, result: DealResult, side: int) -> bool:
        """Whether the deal went the way of ``side`` (a team, or a Czech Kozel player)."""
        return self.variant.state_class.deal_won(result, side)

    def result_picture(self, result: DealResult, seating: Seating, lang: str) -> ResultText:
        """What the picture of a deal's result shows."""
        raise NotImplementedError

    def outcome_picture(self, outcome: Outcome, totals: Sequence[int], seating: Seating, lang: str) -> ResultText:
        """What the picture of a series' end shows: the goats drawn as goats, the winners with a cup."""
        raise NotImplementedError

    def seat_count_refusal(self, count: int, lang: str) -> str | None:
        """Why a lobby of ``count`` players cannot start, or None when it can."""
        raise NotImplementedError
