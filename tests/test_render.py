"""Render functions tested without Telegram, for every game and phase, in each language; and the catalogues."""

from __future__ import annotations

import io
import random
import re
import string
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from unittest import mock

import pytest
from telegram import InlineKeyboardMarkup

from bot import callbacks
from bot.handlers.commands import games_list, typed_name
from bot.i18n import (
    CATALOGUES,
    EN,
    LANGUAGES,
    PLURALS,
    CatalogueError,
    load_catalogues,
    pick_language,
    read_catalogue,
    t,
    tn,
)
from bot.present import GAMES, game_title, presenter
from bot.present.hand import render_hand
from bot.present.menus import (
    TIMER_CHOICES,
    LobbySeat,
    StatsLine,
    apply_setting,
    render_cancel_vote,
    render_kick_choices,
    render_lobby,
    render_lobby_started,
    render_settings,
    render_stats,
)
from bot.present.render import (
    Seating,
    render_deal_result,
    render_outcome,
    render_table,
    sort_hand,
)
from engine import Action, Card, GameState, Kind, find_variant, variant_named, variant_names
from engine.simulate import play_random
from storage import ChatSettings
from tests.helpers import GAME_CONFIGS, act, card_buttons_that_play, first_legal

NAMES = Seating(("Ann", "Bob <b>", "Cid", "Dan", "Eve", "Fay"), "Friends & Co")


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalogue_is_complete_with_the_same_placeholders(lang: str) -> None:
    catalogue = CATALOGUES[lang]
    assert set(catalogue) == set(EN), f"missing in {lang}: {set(EN) - set(catalogue)}"
    for key, text in EN.items():
        assert placeholders(catalogue[key]) == placeholders(text), key


def test_russian_english_and_czech_catalogues_are_gettext_files(tmp_path: Path) -> None:
    """The catalogues are .po files; a fuzzy or empty message is refused when they load."""
    assert {"en", "ru", "cs"} <= set(LANGUAGES)
    assert t("cs", "game.czech") == "Český kozel" and t("ru", "game.czech") == "Чешский козёл"
    for lang in LANGUAGES:
        assert all(text.strip() for text in CATALOGUES[lang].values()), lang
    broken = tmp_path / "bot" / "locales" / "xx" / "LC_MESSAGES"
    broken.mkdir(parents=True)
    (broken / "kozel.po").write_text('#, fuzzy\nmsgid "press.bad"\nmsgstr "?"\n', encoding="utf-8")
    (tmp_path / "bot" / "locales" / "en" / "LC_MESSAGES").mkdir(parents=True)
    with mock.patch("bot.i18n.resources.files", return_value=tmp_path / "bot"), pytest.raises(CatalogueError):
        load_catalogues()


def test_a_message_id_given_twice_in_a_catalogue_is_refused() -> None:
    """Only one of two entries with the same id would ever be shown: the other text would be silently lost."""
    twice = b'msgid "lobby.full"\nmsgstr "A"\n\nmsgid "lobby.join"\nmsgstr "B"\n\nmsgid "lobby.full"\nmsgstr "C"\n'
    with pytest.raises(CatalogueError, match=r"lobby\.full"):
        read_catalogue("en", io.BytesIO(twice))
    messages, _ = read_catalogue("en", io.BytesIO(twice.rsplit(b"\n\n", 1)[0] + b"\n"))
    assert messages == {"lobby.full": "A", "lobby.join": "B"}


def test_language_choice() -> None:
    assert pick_language("ru-RU") == "ru"
    assert pick_language(None, "ru") == "ru"
    assert pick_language("de", None) == "en"
    assert t("xx", "press.stale") == EN["press.stale"]


def keyboard_data(markup: InlineKeyboardMarkup | None) -> list[str]:
    if markup is None:
        return []
    return [b.callback_data for row in markup.inline_keyboard for b in row if isinstance(b.callback_data, str)]


def check_hand(
    state: GameState, seat: int, lang: str, selection: frozenset[Card] = frozenset()
) -> tuple[str, InlineKeyboardMarkup | None]:
    view = state.view(seat)
    text, markup = render_hand(view, NAMES, lang, game_id=123456789, version=len(state.history), selection=selection)
    data = keyboard_data(markup)
    moves = [d for d in data if isinstance(callbacks.parse(d), callbacks.Play)]
    assert len(moves) == len(set(moves)), moves  # no two buttons for one move
    for item in data:
        assert len(item.encode()) <= callbacks.MAX_BYTES
        press = callbacks.parse(item)
        assert isinstance(press, callbacks.HandPress) and press.version == len(state.history)
    actions = [d.split(":")[2][1:] for d in data if d.split(":")[2].startswith("a")]
    for encoded in actions:  # every active action button is a legal action of this seat
        assert Action.decode(encoded) in view.legal
    if presenter(view.variant).selects_cards:  # a card's own button plays it only when it has one use, alone
        assert one_tap_cards(view.variant, markup) == ({} if selection else one_use(view.legal))
    assert len(text) < 4096
    assert "Bob <b>" not in text  # names are escaped for HTML
    return text, markup


def one_use(legal: Sequence[Action]) -> dict[Card, Action]:
    """The cards that only one lead, beat or discard uses, that one being the card alone."""
    moves = [a for a in legal if a.kind in (Kind.LEAD, Kind.BEAT, Kind.DISCARD)]
    uses = Counter(c for a in moves for c in a.cards)
    return {a.cards[0]: a for a in moves if len(a.cards) == 1 and uses[a.cards[0]] == 1}


def one_tap_cards(variant: str, markup: InlineKeyboardMarkup | None) -> dict[Card, Action]:
    """The card buttons that play a move at once, by card."""
    buttons = [(b.text, str(b.callback_data)) for row in markup.inline_keyboard for b in row] if markup else []
    return {action.cards[0]: action for action in card_buttons_that_play(buttons, variant).values()}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("name", "options"), GAME_CONFIGS)
def test_renders_of_every_phase_of_a_random_series(name: str, options: dict[str, object], lang: str) -> None:
    state = find_variant(name).new_game(4, options)
    rng = random.Random(4)
    for _ in range(400):
        if state.is_over:
            break
        public = render_table(state.view(None), NAMES, lang)
        assert "Bob &lt;b&gt;" in public  # names are escaped
        for seat in range(state.num_players):
            check_hand(state, seat, lang)
        action = rng.choice(state.all_legal_actions())
        state.apply(action)
    for result in state.deals:
        text = render_deal_result(result, name, NAMES, lang)
        assert str(result.totals[0]) in text
    play_random(state, rng)
    assert state.outcome is not None
    outcome = render_outcome(state.outcome, name, NAMES, lang)
    assert outcome


def test_four_card_multi_card_selection_buttons() -> None:
    state = find_variant("four_card").new_game(
        1, stacked=["6S 7S 8S TD | KS AS 9C 9H | QS JS 6C 7C | 6H 7H 8H 6D / AD ... @ 0"], dealer=3
    )
    _, markup = check_hand(state, 0, "en")
    texts = [b.text for row in markup.inline_keyboard for b in row] if markup else []
    assert texts[:4] == ["6♠", "7♠", "8♠", "10♦"]  # spades, then the trump suit
    text, markup = check_hand(state, 0, "en", frozenset({Card.parse("6S"), Card.parse("7S")}))
    labels = [b.text for row in markup.inline_keyboard for b in row] if markup else []
    assert "Lead 2" in labels and "Clear" in labels and "✅6♠" in labels
    assert "Chosen: 6♠ 7♠" in text
    act(state, "0 lead 6S 7S")
    text, markup = check_hand(state, 1, "en", frozenset({Card.parse("KS"), Card.parse("AS")}))
    labels = [b.text for row in markup.inline_keyboard for b in row] if markup else []
    assert "Beat 2" in labels and "Discard 2" in labels
    assert "beat 2 cards or discard 2" in text
    public = render_table(state.view(None), NAMES, "en")
    assert "Ann: 6♠ 7♠" in public and "Turn: <b>Bob &lt;b&gt;</b>" in public
    act(state, "1 discard 9C 9H")
    public = render_table(state.view(None), NAMES, "en")
    assert "🂠🂠" in public and "9♣" not in public and "9♥" not in public


@pytest.mark.parametrize("lang", LANGUAGES)
def test_F7_F8_the_cards_chosen_say_what_they_lack(lang: str) -> None:
    """F8: an answer is as many cards as the lead, so a short choice says how many more and a long one how many
    too many; F7: a lead is of one suit, so a choice of two suits says why no Lead button shows."""
    state = find_variant("four_card").new_game(
        1, stacked=["6S 7S 8S TD | KS AS 9C 9H | QS JS 6C 7C | 6H 7H 8H 6D / AD ... @ 0"], dealer=3
    )
    one_suit = t(lang, "hand.lead_one_suit")
    text, markup = check_hand(state, 0, lang, frozenset({Card.parse("6S"), Card.parse("TD")}))
    assert one_suit in text and not any(d.split(":")[2].startswith("a") for d in keyboard_data(markup))
    text, _ = check_hand(state, 0, lang, frozenset({Card.parse("6S"), Card.parse("7S")}))
    assert one_suit not in text
    act(state, "0 lead 6S 7S")
    text, _ = check_hand(state, 1, lang, frozenset({Card.parse("KS")}))
    assert tn(lang, "hand.chosen_more", 1, cards="K♠") in text
    text, _ = check_hand(state, 1, lang, frozenset({Card.parse("KS"), Card.parse("AS")}))
    assert t(lang, "hand.chosen", cards="K♠ A♠") in text
    text, _ = check_hand(state, 1, lang, frozenset({Card.parse("KS"), Card.parse("AS"), Card.parse("9C")}))
    assert tn(lang, "hand.chosen_over", 1, cards="K♠ A♠ 9♣") in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_greyed_cards_are_explained_on_ones_turn(lang: str) -> None:
    """Cards that cannot be played now are shown ·between dots·: a line says so while it is his turn and some
    card is greyed, and only then."""
    state = find_variant("classic").new_game(3, {"deck": 36})
    legend = t(lang, "hand.greyed")
    first = state.to_move
    assert first is not None
    text, markup = check_hand(state, first, lang)
    labels = [b.text for row in markup.inline_keyboard for b in row] if markup else []
    assert (legend in text) == any(label.startswith("·") for label in labels)
    waiting = (first + 1) % 4
    assert legend not in check_hand(state, waiting, lang)[0]
    while not any(label.startswith("·") for label in labels):  # on to a turn that greys some card
        state.apply(state.legal_actions(first)[0])
        first = state.to_move
        assert first is not None
        text, markup = check_hand(state, first, lang)
        labels = [b.text for row in markup.inline_keyboard for b in row] if markup else []
    assert legend in text


def test_four_card_a_card_of_one_use_is_played_with_one_tap() -> None:
    """F7/F8: the only card of its suit leads with one tap, and so does a card that cannot beat a single led card
    (it can only be discarded); a card with a choice (a lead with others of its suit, beat or discard) is chosen
    first, and once a card is chosen every tap chooses."""
    state = find_variant("four_card").new_game(
        1, stacked=["6S 7S 8S TD | KS AS 9C 9H | QS JS 6C 7C | 6H 7H 8H 6D / AD ... @ 0"], dealer=3
    )
    _, markup = check_hand(state, 0, "en")
    assert one_tap_cards("four_card", markup) == {Card.parse("TD"): Action(0, Kind.LEAD, (Card.parse("TD"),))}
    act(state, "0 lead 6S")
    text, markup = check_hand(state, 1, "en")
    assert one_tap_cards("four_card", markup) == {
        Card.parse(c): Action(1, Kind.DISCARD, (Card.parse(c),)) for c in ("9C", "9H")
    }  # the king and the ace may beat or be discarded: chosen first
    assert "🂠 marks a card that can't beat: one tap discards it face down." in text
    labels = [b.text for row in markup.inline_keyboard for b in row] if markup else []
    assert labels == ["K♠", "A♠", "🂠9♣", "🂠9♥"], labels  # the discards show the back they will show
    text, markup = check_hand(state, 1, "ru")
    assert "🂠 — карта, которая не бьёт: одно нажатие сбрасывает её рубашкой вверх." in text
    _, markup = check_hand(state, 1, "en", frozenset({Card.parse("KS")}))
    assert one_tap_cards("four_card", markup) == {}
    _, markup = check_hand(state, 2, "en")  # not his turn: nothing plays at once
    assert one_tap_cards("four_card", markup) == {}
    act(state, "1 beat KS")
    text, _ = check_hand(state, 2, "en")  # the queen and the jack cannot beat the king: every card has one use
    assert "one tap discards" in text


def test_F15_C14_the_series_line_says_what_counts_toward_12() -> None:
    """Four-card Kozel counts penalty points, 12 lose (F15); classic Kozel series points, 12 win (C14): the same
    word for both read as if a four-card team near 12 were winning.  The tricks line numbers the teams, which the
    series line just below names."""
    for name in (name for name in variant_names() if find_variant(name).teams):
        words = "Penalty points: Team 1 (Ann &amp; Cid" if find_variant(name).state_class.TOTALS_AGAINST else "Score: Team 1 (Ann"
        state = find_variant(name).new_game(2)
        while not state.tricks_done:
            state.apply(first_legal(state))
        for text in (render_table(state.view(None), NAMES, "en"), check_hand(state, 0, "en")[0]):
            assert words in text, text
            taken = state.tricks_taken
            assert f"Tricks: Team 1 — {taken[0]} · Team 2 — {taken[1]}" in text, text
    state = find_variant("four_card").new_game(2)
    assert "Штрафные очки: Команда 1 (Ann" in render_table(state.view(None), NAMES, "ru")


def test_four_card_molodka_button_for_an_out_of_turn_player() -> None:
    state = find_variant("four_card").new_game(
        1, stacked=["6S 7S 8S TD | 6C 7C 8C 9C | JS QS 6D 7D | 6H 7H 8H 9H / AD ... @ 0"], dealer=3
    )
    _, markup = check_hand(state, 3, "ru")
    labels = [b.text for row in markup.inline_keyboard for b in row] if markup else []
    assert "🔥 Молодка!" in labels


def test_classic_special_buttons_and_the_private_exchange() -> None:
    first = "AD 6D 7D 8D 9S 8S 7S 6S 6H | 6C QC QS QH QD JC JS JH JD | 7C 8C 9C KC TC AC KD TD 9D | AS TS KS AH TH KH 9H 8H 7H"
    later = "7C AD 6D 7D 8D 9S 8S 7S 6S | 6C QC QS QH QD JC JS JH 7H | 8C 9C KC TC AC KD TD 9D JD | AS TS KS AH TH KH 9H 8H 6H"
    state = find_variant("classic").new_game(1, stacked=[first, later], dealer=3)
    _, markup = check_hand(state, 0, "en")
    labels = [b.text for row in markup.inline_keyboard for b in row] if markup else []
    assert "🔄 Redeal (≤13 points)" in labels
    assert markup is not None and "A♦" in [b.text for row in markup.inline_keyboard for b in row]  # the first lead
    while state.deal_no == 0:
        mover = state.to_move
        assert mover is not None
        state.apply(next(a for a in state.legal_actions(mover) if a.kind is Kind.PLAY))
    _, markup = check_hand(state, 0, "en")
    labels = [b.text for row in markup.inline_keyboard for b in row] if markup else []
    assert "🤝 Swap your trump (7♣)" in labels
    act(state, "0 exchange 7C")
    text, _ = check_hand(state, 2, "en")
    assert "choose a plain card to give back" in text
    act(state, "2 giveback 9D")
    assert "7♣ ↔ 9♦" in check_hand(state, 0, "en")[0]
    assert "7♣ ↔" not in check_hand(state, 1, "en")[0]  # the other team is not told the cards
    public = render_table(state.view(None), NAMES, "en")
    assert "Ann swapped their trump" in public and "9♦" not in public


@pytest.mark.parametrize("lang", LANGUAGES)
def test_C9_a_first_deal_where_nobody_may_lead_a_trump_says_so_in_a_word(lang: str) -> None:
    """C9: in the first deal nobody leads a trump; later only the team that led first. The table says
    "nobody" rather than listing all four names, and names the two of a team."""
    state = find_variant("classic").new_game(3)
    table = render_table(state.view(None), NAMES, lang)
    everybody = ", ".join(NAMES.name(s) for s in range(4))
    assert t(lang, "table.ban_all") in table and t(lang, "table.ban", names=everybody) not in table
    while state.deal_no == 0:
        mover = state.to_move
        assert mover is not None
        state.apply(next(a for a in state.legal_actions(mover) if a.kind is Kind.PLAY))
    banned = state.view(None).trump_lead_banned
    assert len(banned) == 2
    table = render_table(state.view(None), NAMES, lang)
    names = ", ".join(NAMES.name(s) for s in banned)
    assert t(lang, "table.ban", names=names) in table and t(lang, "table.ban_all") not in table


@pytest.mark.parametrize("lang", LANGUAGES)
def test_F4_the_stock_count_goes_from_the_table_once_the_stock_is_used_up(lang: str) -> None:
    state = find_variant("four_card").new_game(5)
    stock_line = t(lang, "table.stock", count=state.view(None).stock_size)
    assert stock_line in render_table(state.view(None), NAMES, lang)
    rng = random.Random(5)
    while state.view(None).stock_size and not state.is_over:
        state.apply(rng.choice(state.all_legal_actions()))
    if state.is_over:
        pytest.fail("the series ended before the stock ran out")
    assert t(lang, "table.stock", count=0) not in render_table(state.view(None), NAMES, lang)


def test_czech_german_cards_and_the_double() -> None:
    state = find_variant("czech").new_game(
        1,
        {"players": 4},
        stacked=[
            "7H 8H 7S 8S 7C 8C 7D AD | 9H TH QS 9S 9C TC 9D TD | JH QH TS JS JC QC JD QD | KH AH KS AS KC AC KD 8D"
        ],
        dealer=3,
    )
    _, markup = check_hand(state, 1, "en")
    labels = [b.text for row in markup.inline_keyboard for b in row] if markup else []
    assert "·O🍃🐐·" in labels  # the kozel, marked,, not playable now (not his turn)
    assert any("Double" in label for label in labels)
    act(state, "1 double QS")
    public = render_table(state.view(None), NAMES, "en")
    assert "Doubled" in public and "Bob &lt;b&gt; doubled" in public


def test_sort_hand_orders() -> None:
    cards = [Card.parse(c) for c in ["AH", "6C", "QS", "7H", "JD"]]
    assert [str(c) for c in sort_hand(cards, "classic")] == ["J♦", "Q♠", "6♣", "7♥", "A♥"]  # trumps first
    assert [str(c) for c in sort_hand(cards, "czech")] == ["Q♠", "6♣", "J♦", "7♥", "A♥"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_lobby_render(lang: str) -> None:
    text, markup = render_lobby(
        42, "classic", {"deck": 32}, [LobbySeat(0, "Ann"), LobbySeat(2, "Cid")], bot_username="kozel_bot", lang=lang
    )
    assert "Ann" in text and "32" in text and "deck" not in text and "=" not in text  # options in words
    urls = [b.url for row in markup.inline_keyboard for b in row if b.url]
    assert urls == ["https://t.me/kozel_bot?start=j42"]
    data = keyboard_data(markup)
    assert "L42:seat1" in data and "L42:seat3" in data and "L42:start" in data
    text, markup = render_lobby(7, "czech", {}, [LobbySeat(0, "Ann")], bot_username="b", lang=lang)
    assert not any(":seat" in d for d in keyboard_data(markup))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_full_lobby_offers_no_join_button(lang: str) -> None:
    """With every seat taken, Join and Add computer would only earn a refusal: the lobby says to start."""
    seats = [LobbySeat(s, name) for s, name in enumerate(["Ann", "Bob", "Cid", "Dan"])]
    text, markup = render_lobby(42, "four_card", {}, seats, bot_username="kozel_bot", lang=lang)
    assert not [b.url for row in markup.inline_keyboard for b in row if b.url]
    data = keyboard_data(markup)
    assert "L42:start" in data and not any("seat" in d or d.endswith(":bot") for d in data)
    assert t(lang, "lobby.all_seated") in text and t(lang, "lobby.how") not in text
    text, markup = render_lobby(42, "four_card", {}, seats[:3], bot_username="kozel_bot", lang=lang)
    assert [b.url for row in markup.inline_keyboard for b in row if b.url] == ["https://t.me/kozel_bot?start=j42"]


@pytest.mark.parametrize("data", ["", "x", "g1:2", "g:1:a", "L1:jump", "g1:2:" + "a" * 60, "g1:2:A", "L1:seat9"])
def test_forged_button_data_is_refused(data: str) -> None:
    with pytest.raises(callbacks.ForgedDataError):
        callbacks.parse(data)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_settings_menu_offers_every_value_and_only_those(lang: str) -> None:
    """Pressing a /settings button walks each setting through its values; anything else is refused."""
    settings = ChatSettings()
    seen_timers = set()
    for _ in range(len(TIMER_CHOICES)):
        text, markup = render_settings(settings, "Friends & Co", lang)
        assert "Friends &amp; Co" in text and markup is not None
        presses = [callbacks.parse(d) for d in keyboard_data(markup)]
        assert all(isinstance(p, callbacks.Setting) for p in presses)
        timer = next(p for p in presses if isinstance(p, callbacks.Setting) and p.key == "timer")
        assert isinstance(timer, callbacks.Setting)
        changed = apply_setting(settings, timer.key, timer.value)
        assert changed is not None
        settings = changed
        seen_timers.add(settings.turn_timer)
    assert seen_timers == set(TIMER_CHOICES)
    classic = apply_setting(ChatSettings(), "deck", "32")
    assert classic is not None and classic.options["classic"]["deck"] == 32
    assert find_variant("classic").options(classic.options["classic"])  # the options a game will accept
    for key, value in (("timer", "7"), ("deck", "40"), ("lang", "de"), ("level", "genius"), ("nope", "1"),
                       ("table", "photo")):  # fmt: skip
        assert apply_setting(ChatSettings(), key, value) is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_setting_shows_a_picture_by_default_and_switches_to_text_and_back(lang: str) -> None:
    """Issue 34: "Table: picture / text", a picture unless the chat chose the text."""
    settings = ChatSettings()
    assert settings.table == "picture"
    for shown, then in (("picture", "text"), ("text", "picture")):
        text, markup = render_settings(settings, "Friends", lang)
        assert t(lang, "settings.table", table=t(lang, f"settings.table_{shown}")) in text
        assert f"s:table={then}" in keyboard_data(markup)
        changed = apply_setting(settings, "table", then)
        assert changed is not None and changed.table == then
        settings = changed


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_lobby_that_began_says_who_plays_and_offers_nothing(lang: str) -> None:
    """A picture table is a message of its own: the lobby's message then names the teams (or the players),
    escaped, with no button left to press."""
    seats = [LobbySeat(s, name) for s, name in enumerate(["Ann <3", "Bob", "Cid", "Dan"])]
    text = render_lobby_started("classic", {"deck": 32}, seats, lang)
    assert text.startswith(t(lang, "lobby.started", game=game_title("classic", lang)))
    seating = Seating(("Ann <3", "Bob", "Cid", "Dan"))
    assert seating.team(0, lang) in text and seating.team(1, lang) in text and "Ann &lt;3" in text
    assert "32" in text and t(lang, "lobby.how") not in text
    czech = render_lobby_started("czech", {}, seats[:3], lang)
    assert "Ann &lt;3, Bob, Cid" in czech


@pytest.mark.parametrize("lang", LANGUAGES)
def test_cancel_vote_kick_choices_and_stats(lang: str) -> None:
    text, markup = render_cancel_vote(42, proposer="Bob <b>", votes=1, needed=3, total=4, lang=lang)
    assert "Bob &lt;b&gt;" in text and keyboard_data(markup) == ["L42:vote"]
    text, markup = render_kick_choices(42, NAMES, [0, 2], lang)
    assert keyboard_data(markup) == ["L42:kick0", "L42:kick2"]
    assert render_stats([], lang) == t(lang, "stats.none")
    stats = render_stats([StatsLine("czech", 3, 1, 1, 0, 0, 2)], lang)
    assert t(lang, "game.czech") in stats and "2" in stats


@pytest.mark.parametrize("lang", LANGUAGES)
def test_away_hand_offers_only_i_am_back(lang: str) -> None:
    state = find_variant("czech").new_game(3)
    text, markup = render_hand(state.view(0), NAMES, lang, game_id=7, version=0, away=True)
    assert keyboard_data(markup) == ["L7:back"]
    assert t(lang, "hand.away") in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_plural_entry_has_its_languages_forms_and_the_same_placeholders(lang: str) -> None:
    """Numbers take real plural forms (gettext's Plural-Forms: ru and cs three, en two), each form with the
    placeholders of the English entry."""
    plurals, english = PLURALS[lang], PLURALS["en"]
    assert plurals.count == {"en": 2, "ru": 3, "cs": 3}[lang]
    assert set(plurals.forms) == set(english.forms) and english.forms
    for key, forms in plurals.forms.items():
        assert len(forms) == plurals.count, key
        expected = placeholders(english.forms[key][0])
        assert all(placeholders(form) == expected for form in forms), key


def test_numbers_take_the_right_plural_form_in_russian_and_czech() -> None:
    assert tn("ru", "deal.defeat", 4, team="X") == "X получает 4 штрафных очка."
    assert tn("ru", "deal.defeat", 21, team="X") == "X получает 21 штрафное очко."
    assert tn("ru", "deal.defeat", 6, team="X") == "X получает 6 штрафных очков."
    assert tn("cs", "deal.defeat", 6, team="X") == "X dostává 6 trestných bodů."
    assert tn("cs", "deal.defeat", 2, team="X") == "X dostává 2 trestné body."
    assert tn("en", "deal.defeat", 1, team="X") == "X gets 1 penalty point."
    assert "15 minut," in tn("cs", "lobby.expired", 15) and "15 минут," in tn("ru", "lobby.expired", 15)


PLURAL_FORM_AT = {  # the form each language's Plural-Forms picks at 1, 2, 5, 21 and 22
    "en": (0, 1, 1, 1, 1),
    "ru": (0, 1, 2, 0, 1),
    "cs": (0, 1, 2, 2, 2),
}
NUMBERS = (1, 2, 5, 21, 22)
# Messages whose number stands alone, as a label or an ordinal ("Stock: 5", "deal 2", "Lead 2", "(1/3)"): no word
# agrees with it, so they need no plural forms.  A new message with a number is a plural entry, or joins here.
NUMBER_LABELS = {
    "button.beat", "button.discard", "button.lead", "cancel.vote", "cancel.vote_button", "computer.name",
    "deal.header", "deal.points_teams", "hand.deal_over", "hand.header", "lobby.moved", "lobby.need_players_czech",
    "lobby.need_players_team", "lobby.seats_in_turn", "lobby.sit", "score.all_time_czech_line", "score.all_time_line",
    "score.card_points", "score.current", "score.deal_line", "settings.seconds", "stats.eggs", "stats.line",
    "table.header", "table.penalty_teams", "table.score_teams", "table.stock", "table.talon", "table.tricks_teams",
    "timer.expired", "timer.reminder", "stats.rated", "stats.place", "top.line", "top.line_you", "picture.title",
    "picture.talon", "picture.deal", "stats.line_czech", "stats.molodkas", "stats.kozels", "picture.nameless",
    "ordinal.one", "ordinal.two", "ordinal.few", "ordinal.other",
}  # fmt: skip
NUMBER_NAMES = {"count", "needed", "total", "votes", "seconds", "n", "deal", "seat", "points", "played", "won",
                "lost", "rank", "eggs", "molodkas", "kozels", "sa", "sb", "pa", "pb", "place", "between"}  # fmt: skip


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_number_in_a_message_at_1_2_5_21_and_22(lang: str) -> None:
    """A plural entry takes its language's form at each of the numbers whose forms differ (Czech 21 is "21
    karet", Russian "21 карта"), and every form reads; a message with a number and no plural forms is one whose
    number no word agrees with (Czech "souhlas 1 hráčů" came from a message that was neither)."""
    plurals = PLURALS[lang]
    for key, forms in plurals.forms.items():
        for number, form in zip(NUMBERS, PLURAL_FORM_AT[lang], strict=True):
            values = dict.fromkeys(placeholders(forms[0]) - {"count"}, number)
            assert tn(lang, key, number, **values) == forms[form].format(count=number, **values), (key, number)
    numbered = {key for key, text in CATALOGUES[lang].items() if placeholders(text) & NUMBER_NAMES}
    assert numbered == NUMBER_LABELS, numbered ^ NUMBER_LABELS


def test_no_message_needs_a_players_gender() -> None:
    """Telegram tells no one's gender: no Russian or Czech message puts a gendered past-tense verb or
    pronoun next to a player's name (issue 15)."""
    gendered = re.compile(r"\b(создавший|отменил|отошёл|удвоил|взял|пропустил|заблокировал|вышел|за него|он не|"
                          r"zdvojil|zrušil|vzal|nestihl|zablokoval|opustil|za něj|jeho)\b")  # fmt: skip
    for lang in ("ru", "cs"):
        for key, text in CATALOGUES[lang].items():
            if "{name}" in text or "{team}" in text:
                assert not gendered.search(text), (lang, key, text)
        for key, forms in PLURALS[lang].forms.items():
            for text in forms:
                assert not gendered.search(text), (lang, key, text)
    assert "„" in t("cs", "timer.reminder", chat="X", seconds=1) and "«" not in "".join(CATALOGUES["cs"].values())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_what_players_are_told_to_type_after_newgame_opens_that_game(lang: str) -> None:
    """Each language names the games in its own words ("/newgame классика", "/newgame klasický"), and what
    it tells players to type must open the game it names."""
    for name in GAMES:
        variant = variant_named(typed_name(name, lang))
        assert variant is not None and variant.name == name, (lang, name)
        assert f"/newgame {typed_name(name, lang)}" in games_list(lang, "/newgame")
    if lang != "en":
        assert "classic" not in games_list(lang, "/newgame")
