"""Pure render functions: engine views and records in, message text and inline keyboards out.

Nothing here talks to Telegram or decides a rule: the choices offered are exactly ``view.legal``.  Texts
are HTML (names are escaped here).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import Back, Clear, Kick, Lobby, LobbyOp, Play, Setting, Sit, Toggle, Unplayable, Vote
from bot.i18n import DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES, t
from engine import Action, Card, DealResult, Kind, Outcome, SeenPlay, View, find_variant
from engine.classic import ESUIT, POWER, TRUMP_SUIT
from engine.four_card import ORDER as FOUR_CARD_ORDER
from engine.names import german_short
from storage.models import ChatSettings

CARDS_PER_ROW = 5
FACE_DOWN = "🂠"
VARIANT_NAMES = ("four_card", "classic", "czech")
Rendered = tuple[str, InlineKeyboardMarkup | None]


@dataclass(frozen=True)
class Seating:
    """Who sits where, and the group's title: what the renders need besides the view."""

    names: tuple[str, ...]
    chat_title: str = ""

    def name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return "?"
        return escape(self.names[seat])

    def team(self, team: int, lang: str) -> str:
        names = " &amp; ".join(self.name(s) for s in range(team, len(self.names), 2))
        return t(lang, "team.a" if team == 0 else "team.b", names=names)


# --- cards --------------------------------------------------------------------------------------------------


def card_label(card: Card, variant: str) -> str:
    return german_short(card) if variant == "czech" else str(card)


def cards_label(cards: Sequence[Card], variant: str) -> str:
    return " ".join(card_label(c, variant) for c in cards)


def sort_hand(cards: Iterable[Card], variant: str, trump: int | None = None) -> list[Card]:
    """Cards sorted for display: by suit and rank order of the game (trumps together, classic trumps first)."""
    if variant == "classic":
        return sorted(cards, key=lambda c: (ESUIT[c] != TRUMP_SUIT, ESUIT[c], POWER[c]))
    if variant == "four_card":
        return sorted(cards, key=lambda c: (c.suit == trump, int(c.suit), FOUR_CARD_ORDER[c]))
    return sorted(cards, key=lambda c: (int(c.suit), int(c.rank)))


def play_label(play: SeenPlay, variant: str) -> str:
    if play.face_down:
        return FACE_DOWN * play.count
    return cards_label(play.cards, variant)


# --- the table ----------------------------------------------------------------------------------------------


def trick_lines(view: View, seating: Seating, lang: str) -> list[str]:
    if not view.trick:
        return [t(lang, "table.trick_empty")]
    lines = [t(lang, "table.trick")]
    for index, play in enumerate(view.trick):
        text = play_label(play, view.variant)
        if play.kind is Kind.MOLODKA:
            text = "🔥 " + text
        line = "  " + t(lang, "table.play", name=seating.name(play.seat), cards=text)
        if view.variant == "four_card" and index == view.trick_top and len(view.trick) > 1:
            line += t(lang, "table.top")
        lines.append(line)
    return lines


def teams_line(key: str, values: Sequence[int], seating: Seating, lang: str) -> str:
    """A line naming both teams with one number each (``table.score_teams``, ``deal.points_teams``)."""
    return t(lang, key, a=seating.team(0, lang), sa=values[0], pa=values[0], b=seating.team(1, lang),
             sb=values[1], pb=values[1])  # fmt: skip


def score_line(view: View, seating: Seating, lang: str) -> str:
    if len(view.totals) == 2 and view.variant != "czech":
        return teams_line("table.score_teams", view.totals, seating, lang)
    totals = ", ".join(f"{seating.name(s)} {v}" for s, v in enumerate(view.totals))
    return t(lang, "table.score_players", totals=totals)


def announcements(view: View, seating: Seating, lang: str) -> list[str]:
    keys = {
        Kind.EXCHANGE: "table.announce.exchange",
        Kind.DOUBLE: "table.announce.double",
    }
    return [t(lang, keys[p.kind], name=seating.name(p.seat)) for p in view.deal_log if p.kind in keys]


def game_title(variant: str, lang: str) -> str:
    return t(lang, f"game.{variant}")


def status_lines(view: View, seating: Seating, lang: str) -> list[str]:
    """Trump, stock or talon and the special state of the deal."""
    lines = []
    if view.variant == "four_card" and view.trump is not None and view.trump_card is not None:
        card = card_label(view.trump_card, view.variant)
        if view.trump_card_holder is None:
            lines.append(t(lang, "table.trump", suit=view.trump.symbol, card=card))
        else:
            lines.append(
                t(
                    lang,
                    "table.trump_taken",
                    suit=view.trump.symbol,
                    card=card,
                    name=seating.name(view.trump_card_holder),
                )
            )
        lines.append(t(lang, "table.stock", count=view.stock_size))
    elif view.variant == "classic":
        lines.append(t(lang, "table.classic_trumps"))
        if view.trump_lead_banned:
            banned = ", ".join(seating.name(s) for s in view.trump_lead_banned)
            lines.append(t(lang, "table.ban", names=banned))
        if view.eggs_pending:
            lines.append(t(lang, "table.eggs_pending", count=view.eggs_pending))
    elif view.variant == "czech":
        if view.talon_size:
            lines.append(t(lang, "table.talon", count=view.talon_size))
        if view.doubled:
            lines.append(t(lang, "table.doubled"))
    if view.variant == "four_card" and view.eggs_pending:
        lines.append(t(lang, "table.eggs_pending", count=view.eggs_pending))
    return lines


def render_table(view: View, seating: Seating, lang: str) -> str:
    """The group's one table message for the current deal (public view only)."""
    lines = [
        t(lang, "table.header", game=game_title(view.variant, lang), deal=view.deal_no + 1),
        t(lang, "table.dealer", name=seating.name(view.dealer)),
        *status_lines(view, seating, lang),
        *announcements(view, seating, lang),
        "",
        *trick_lines(view, seating, lang),
    ]
    if view.last_trick_winner is not None and not view.trick:
        lines.append(t(lang, "table.last_trick", name=seating.name(view.last_trick_winner)))
    lines.append("")
    if view.to_move is not None:
        lines.append(t(lang, "table.turn", name=seating.name(view.to_move)))
    lines.append(score_line(view, seating, lang))
    return "\n".join(lines)


# --- the hand -----------------------------------------------------------------------------------------------


def hand_status(view: View, seating: Seating, lang: str) -> str:
    assert view.seat is not None
    plays = [a for a in view.legal if a.kind in (Kind.PLAY, Kind.LEAD, Kind.BEAT, Kind.DISCARD, Kind.GIVE_BACK)]
    if any(a.kind is Kind.GIVE_BACK for a in view.legal):
        received = view.deal_log[-1].cards if view.deal_log and view.deal_log[-1].cards else ()
        return t(lang, "hand.giveback", card=cards_label(received, view.variant))
    if view.to_move == view.seat and plays:
        if view.variant == "four_card" and view.trick:
            return t(lang, "hand.your_answer", count=len(view.trick[0].cards))
        return t(lang, "hand.your_turn_lead" if not view.trick else "hand.your_turn")
    return t(lang, "hand.wait", name=seating.name(view.to_move))


def render_hand(
    view: View,
    seating: Seating,
    lang: str,
    *,
    game_id: int,
    version: int,
    selection: frozenset[Card] = frozenset(),
    away: bool = False,
) -> tuple[str, InlineKeyboardMarkup | None]:
    """A player's hand message: the table as he sees it, and his cards as buttons (legal ones active).
    ``away``: a computer player holds his seat; he sees his cards and one button to come back."""
    assert view.seat is not None
    lines = [
        t(
            lang,
            "hand.header",
            game=game_title(view.variant, lang),
            chat=escape(seating.chat_title),
            deal=view.deal_no + 1,
        ),
        *status_lines(view, seating, lang),
        *trick_lines(view, seating, lang),
        score_line(view, seating, lang),
    ]
    if view.exchange is not None:
        given, back = view.exchange
        lines.append(
            t(lang, "hand.exchange_known", given=card_label(given, view.variant), back=card_label(back, view.variant))
        )
    selection = frozenset(c for c in selection if c in view.hand)
    if view.variant == "four_card" and selection:
        lines.append(
            t(lang, "hand.chosen", cards=cards_label(sort_hand(selection, "four_card", view.trump), "four_card"))
        )
    if away:
        trump = int(view.trump) if view.trump is not None else None
        lines += ["", cards_label(sort_hand(view.hand, view.variant, trump), view.variant), t(lang, "hand.away")]
        button = InlineKeyboardButton(t(lang, "hand.back_button"), callback_data=Back(game_id).data())
        return "\n".join(lines), InlineKeyboardMarkup([[button]])
    lines += ["", hand_status(view, seating, lang)]
    return "\n".join(lines), hand_keyboard(view, lang, game_id, version, selection)


def hand_keyboard(
    view: View, lang: str, game_id: int, version: int, selection: frozenset[Card]
) -> InlineKeyboardMarkup | None:
    """Card buttons (legal ones active) and the special moves; None for an empty hand (Telegram refuses an
    empty keyboard)."""

    def play(action: Action) -> str:
        return Play(game_id, version, action).data()

    unplayable = Unplayable(game_id, version).data()
    trump = int(view.trump) if view.trump is not None else None
    cards = sort_hand(view.hand, view.variant, trump)
    rows: list[list[InlineKeyboardButton]] = []
    card_buttons = []
    if view.variant == "four_card":
        playable = {c for a in view.legal for c in a.cards}
        for card in cards:
            label = card_label(card, view.variant)
            toggle = Toggle(game_id, version, card).data()
            if card in selection:
                card_buttons.append(InlineKeyboardButton("✅" + label, callback_data=toggle))
            elif card in playable:
                card_buttons.append(InlineKeyboardButton(label, callback_data=toggle))
            else:
                card_buttons.append(InlineKeyboardButton(f"·{label}·", callback_data=unplayable))
    else:
        by_card: dict[Card, Action] = {
            a.cards[0]: a for a in view.legal if a.kind in (Kind.PLAY, Kind.GIVE_BACK) and len(a.cards) == 1
        }
        for card in cards:
            label = card_label(card, view.variant)
            action = by_card.get(card)
            if action is not None:
                card_buttons.append(InlineKeyboardButton(label, callback_data=play(action)))
            else:
                card_buttons.append(InlineKeyboardButton(f"·{label}·", callback_data=unplayable))
    rows += [card_buttons[i : i + CARDS_PER_ROW] for i in range(0, len(card_buttons), CARDS_PER_ROW)]

    specials: list[InlineKeyboardButton] = []
    if view.variant == "four_card" and selection:
        chosen = tuple(sorted(selection))
        assert view.seat is not None
        for kind, key in ((Kind.LEAD, "button.lead"), (Kind.BEAT, "button.beat"), (Kind.DISCARD, "button.discard")):
            action = Action(view.seat, kind, chosen)
            if action in view.legal:
                specials.append(
                    InlineKeyboardButton(t(lang, key, count=len(chosen)), callback_data=play(action))
                )
        specials.append(InlineKeyboardButton(t(lang, "button.clear"), callback_data=Clear(game_id, version).data()))
    for action in view.legal:
        if action.kind is Kind.MOLODKA:
            specials.append(InlineKeyboardButton(t(lang, "button.molodka"), callback_data=play(action)))
        elif action.kind is Kind.REDEAL:
            specials.append(InlineKeyboardButton(t(lang, "button.redeal"), callback_data=play(action)))
        elif action.kind is Kind.EXCHANGE:
            label = t(lang, "button.exchange", card=card_label(action.cards[0], view.variant))
            specials.append(InlineKeyboardButton(label, callback_data=play(action)))
        elif action.kind is Kind.DOUBLE:
            specials.append(InlineKeyboardButton(t(lang, "button.double"), callback_data=play(action)))
    rows += [specials[i : i + 2] for i in range(0, len(specials), 2)]
    return InlineKeyboardMarkup(rows) if rows else None


def render_hand_closed(deal_no: int, lang: str, game_over: bool) -> str:
    """The hand message of a finished deal (``deal_no`` counted from 1), without buttons."""
    return t(lang, "hand.game_over") if game_over else t(lang, "hand.deal_over", deal=deal_no)


# --- results ------------------------------------------------------------------------------------------------


def render_deal_result(result: DealResult, variant: str, seating: Seating, lang: str) -> str:
    lines = [t(lang, "deal.header", deal=result.deal_no + 1, game=game_title(variant, lang))]
    if variant == "czech":
        lines += czech_result_lines(result, seating, lang)
    else:
        lines += team_result_lines(result, variant, seating, lang)
    return "\n".join(lines)


def team_result_lines(result: DealResult, variant: str, seating: Seating, lang: str) -> list[str]:
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
            key = "deal.defeat" if variant == "four_card" else "deal.pairs"
            lines.append(t(lang, key, team=seating.team(team, lang), points=result.score[team]))
    if "reset" in events:
        lines.append(t(lang, "deal.reset"))
    for event in result.events:
        if event.startswith("egg_bonus:"):
            lines.append(t(lang, "deal.egg_bonus", points=event.split(":")[1]))
    lines.append(teams_line("table.score_teams", result.totals, seating, lang))
    return lines


def czech_result_lines(result: DealResult, seating: Seating, lang: str) -> list[str]:
    lines = []
    if "double" in result.events:
        lines.append(t(lang, "deal.doubled"))
    if "all_tricks" in result.events:
        taker = result.score.index(0)
        lines.append(t(lang, "deal.shoot", name=seating.name(taker), points=max(result.score)))
    else:
        penalties = ", ".join(f"{seating.name(s)} +{v}" for s, v in enumerate(result.score))
        lines.append(t(lang, "deal.penalties", lines=penalties))
    totals = ", ".join(f"{seating.name(s)} {v}" for s, v in enumerate(result.totals))
    lines.append(t(lang, "deal.totals", totals=totals))
    return lines


def render_outcome(outcome: Outcome, variant: str, seating: Seating, lang: str) -> str:
    lines = []
    if variant == "czech":
        lines.append(t(lang, "series.winners", names=", ".join(seating.name(s) for s in outcome.winners)))
        points = ", ".join(f"{seating.name(s)} {p}" for s, p in enumerate(outcome.table_points))
        lines.append(t(lang, "series.table_points", lines=points))
        return "\n".join(lines)
    goats = outcome.losers[0] % 2
    if outcome.reason == "no_trick":
        lines.append(t(lang, "series.no_trick", team=seating.team(goats, lang)))
    lines.append(t(lang, "series.goats_eggs" if outcome.with_eggs else "series.goats", team=seating.team(goats, lang)))
    lines.append(t(lang, "series.winners", names=seating.team(1 - goats, lang)))
    return "\n".join(lines)


# --- the lobby ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LobbySeat:
    seat: int
    name: str | None
    computer: bool = False


def render_lobby(
    game_id: int,
    variant: str,
    options: dict[str, object],
    seats: Sequence[LobbySeat],
    *,
    bot_username: str,
    lang: str,
) -> tuple[str, InlineKeyboardMarkup]:
    team_game = variant != "czech"
    lines = [t(lang, "lobby.title", game=game_title(variant, lang))]
    if options:
        lines.append(t(lang, "lobby.options", options=", ".join(f"{k}={v}" for k, v in sorted(options.items()))))
    rows: list[list[InlineKeyboardButton]] = []
    if team_game:
        lines.append(t(lang, "lobby.seats_team"))
        by_seat = {s.seat: s for s in seats}
        for seat in range(4):
            holder = by_seat.get(seat)
            name = escape(holder.name) if holder and holder.name else t(lang, "lobby.empty_seat")
            lines.append(f"  {seat + 1}. {name}")
        sit = [
            InlineKeyboardButton(t(lang, "lobby.sit", seat=s + 1), callback_data=Sit(game_id, s).data())
            for s in range(4)
            if s not in by_seat
        ]
        if sit and seats:
            rows.append(sit)
    else:
        lines.append(t(lang, "lobby.seats_czech", count=len(seats)))
        for index, holder in enumerate(sorted(seats, key=lambda s: s.seat)):
            lines.append(f"  {index + 1}. {escape(holder.name or '?')}")
    lines += ["", t(lang, "lobby.how")]
    join_url = f"https://t.me/{bot_username}?start=j{game_id}"
    rows.insert(0, [InlineKeyboardButton(t(lang, "lobby.join"), url=join_url)])
    capacity = max(find_variant(variant).players)
    computers = (
        [InlineKeyboardButton(t(lang, "lobby.add_computer"), callback_data=Lobby(game_id, LobbyOp.ADD_COMPUTER).data())]
        if len(seats) < capacity
        else []
    )
    if any(s.computer for s in seats):
        computers.append(
            InlineKeyboardButton(
                t(lang, "lobby.remove_computer"), callback_data=Lobby(game_id, LobbyOp.REMOVE_COMPUTER).data()
            )
        )
    if computers:
        rows.append(computers)
    rows.append(
        [
            InlineKeyboardButton(t(lang, "lobby.leave"), callback_data=Lobby(game_id, LobbyOp.LEAVE).data()),
            InlineKeyboardButton(t(lang, "lobby.start"), callback_data=Lobby(game_id, LobbyOp.START).data()),
            InlineKeyboardButton(t(lang, "lobby.cancel"), callback_data=Lobby(game_id, LobbyOp.CANCEL).data()),
        ]
    )
    return "\n".join(lines), InlineKeyboardMarkup(rows)


# --- /score -------------------------------------------------------------------------------------------------


def deal_line(result: DealResult, variant: str, seating: Seating, lang: str) -> str:
    if variant == "czech":
        score = ", ".join(f"{seating.name(s)} +{v}" for s, v in enumerate(result.score))
    else:
        marks = []
        if result.eggs:
            marks.append("🥚")
        if "queen_caught" in result.events:
            marks.append("👑")
        score = f"{result.points[0]}:{result.points[1]} → +{result.score[0]}/+{result.score[1]}"
        score += (" " + " ".join(marks)) if marks else ""
    return t(lang, "score.deal_line", deal=result.deal_no + 1, line=score)


# --- /cancel, /kick, /settings, /stats --------------------------------------------------------------------------


def render_cancel_vote(game_id: int, *, proposer: str, votes: int, needed: int, total: int, lang: str) -> Rendered:
    """The vote to cancel a game: who proposed it, how many must agree, and the button to agree."""
    label = t(lang, "cancel.vote_button", votes=votes, needed=needed)
    button = InlineKeyboardButton(label, callback_data=Vote(game_id).data())
    return t(lang, "cancel.vote", name=escape(proposer), needed=needed, total=total), InlineKeyboardMarkup([[button]])


def render_kick_choices(game_id: int, seating: Seating, seats: Sequence[int], lang: str) -> Rendered:
    """/kick without a reply: one button per person at the table whose seat can go to a computer player."""
    buttons = [
        [
            InlineKeyboardButton(
                t(lang, "kick.button", name=seating.names[s]), callback_data=Kick(game_id, s).data()
            )
        ]
        for s in seats
    ]
    return t(lang, "kick.usage"), InlineKeyboardMarkup(buttons) if buttons else None


TIMER_CHOICES = (0, 30, 60, 120, 300)
LEVEL_CHOICES = ("random", "basic", "strong")


def _next(choices: Sequence[Any], current: Any) -> Any:
    return choices[(choices.index(current) + 1) % len(choices)] if current in choices else choices[0]


def render_settings(settings: ChatSettings, chat_title: str, lang: str) -> Rendered:
    """The /settings menu: the chat's settings, each with a button that switches it to its next value."""
    classic = {"deck": 36, "redeal": True, "all_tricks": "score"} | settings.options.get("classic", {})
    on_off = {True: t(lang, "settings.on"), False: t(lang, "settings.off")}
    timer = t(lang, "settings.seconds", n=settings.turn_timer) if settings.turn_timer else t(lang, "settings.off")
    language = settings.language or DEFAULT_LANGUAGE
    rule = t(lang, f"settings.all_tricks_{classic['all_tricks']}")
    lines = [
        t(lang, "settings.title", chat=escape(chat_title)),
        t(lang, "settings.default_game", game=game_title(settings.default_variant, lang)),
        t(lang, "settings.classic", deck=classic["deck"], redeal=on_off[bool(classic["redeal"])], all_tricks=rule),
        t(lang, "settings.timer", timer=timer),
        t(lang, "settings.language", language=LANGUAGE_NAMES.get(language, language)),
        t(lang, "settings.level", level=t(lang, f"level.{settings.computer_level}")),
        "",
        t(lang, "settings.hint"),
    ]

    def button(label: str, key: str, value: object) -> InlineKeyboardButton:
        return InlineKeyboardButton(label, callback_data=Setting(key, str(value).lower()).data())

    next_game = _next(VARIANT_NAMES, settings.default_variant)
    rows = [
        [button("🎴 " + game_title(next_game, lang), "game", next_game)],
        [
            button(f"🂠 {_next((36, 32), classic['deck'])}", "deck", _next((36, 32), classic["deck"])),
            button("🔄 " + on_off[not classic["redeal"]], "redeal", "off" if classic["redeal"] else "on"),
            button("🏆 " + t(lang, "settings.all_tricks_" + _next(("score", "lose_series"), classic["all_tricks"])),
                   "alltricks", _next(("score", "lose_series"), classic["all_tricks"])),
        ],
        [
            button("⏱ " + (t(lang, "settings.seconds", n=n) if (n := _next(TIMER_CHOICES, settings.turn_timer))
                          else t(lang, "settings.off")), "timer", n),
            button("🌐 " + LANGUAGE_NAMES[_next(LANGUAGES, language)], "lang", _next(LANGUAGES, language)),
            button("🤖 " + t(lang, "level." + _next(LEVEL_CHOICES, settings.computer_level)), "level",
                   _next(LEVEL_CHOICES, settings.computer_level)),
        ],
    ]  # fmt: skip
    return "\n".join(lines), InlineKeyboardMarkup(rows)


def apply_setting(settings: ChatSettings, key: str, value: str) -> ChatSettings | None:
    """The settings with one menu choice applied, or None for a choice the menu never offers."""
    classic = {"deck": 36, "redeal": True, "all_tricks": "score"} | settings.options.get("classic", {})
    update: dict[str, Any] = {}
    if key == "game" and value in VARIANT_NAMES:
        update["default_variant"] = value
    elif key == "deck" and value in ("36", "32"):
        classic["deck"] = int(value)
    elif key == "redeal" and value in ("on", "off"):
        classic["redeal"] = value == "on"
    elif key == "alltricks" and value in ("score", "lose_series"):
        classic["all_tricks"] = value
    elif key == "timer" and value.isdigit() and int(value) in TIMER_CHOICES:
        update["turn_timer"] = int(value)
    elif key == "lang" and value in LANGUAGES:
        update["language"] = value
    elif key == "level" and value in LEVEL_CHOICES:
        update["computer_level"] = value
    else:
        return None
    if key in ("deck", "redeal", "alltricks"):
        update["options"] = settings.options | {"classic": classic}
    return settings.model_copy(update=update)


@dataclass(frozen=True)
class StatsLine:
    variant: str
    played: int
    won: int
    lost: int
    eggs: int
    molodkas: int
    kozels: int


def render_stats(lines: Sequence[StatsLine], lang: str) -> str:
    """/stats: a person's games, per game."""
    if not lines:
        return t(lang, "stats.none")
    out = [t(lang, "stats.title")]
    for line in lines:
        out.append(
            t(lang, "stats.line", game=game_title(line.variant, lang), played=line.played, won=line.won, lost=line.lost)
        )
        out.append("   " + t(lang, "stats.extra", eggs=line.eggs, molodkas=line.molodkas, kozels=line.kozels))
    return "\n".join(out)
