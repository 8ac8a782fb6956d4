"""Planted-bug check: does the rule test suite notice a one-rule bug?

    python -m bench.mutants            # every mutation, two at a time
    python -m bench.mutants --only C6  # the mutations of one rule id (or one mutation: --only C6.2)
    python -m bench.mutants --list     # the mutations, without running anything

Each mutation is one plausible programmer's mistake against one rule of the rule book (an off-by-one
boundary, a wrong comparison, order, seat or point value, a missing check).  For each, the script copies the
project's code and tests to a temporary folder, replaces one exact snippet of the engine (or the storage
schema) there, runs the rule tests (``RULE_TESTS``, the module of the rule's game first) with ``-x`` and
reports whether they caught it and with which test.  Every snippet must occur exactly once in the current
code: a refactoring that moves code stops the script with a clear message instead of letting a mutation
pass silently.

Prints one line per mutation, then the tally and the wall time; exits with 1 when a mutation survives.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The rule tests: the scenario tests of the three games and of the engine core, and the storage tests of
# X2.  The property tests (tests/test_properties.py) are left out on purpose: they take minutes, and every
# mutation must be caught by a named scenario test that pins its rule.
RULE_TESTS: tuple[str, ...] = (
    "tests/test_four_card.py",
    "tests/test_classic.py",
    "tests/test_czech.py",
    "tests/test_core.py",
    "tests/test_storage.py::test_X2_one_open_game_per_chat",
    "tests/test_storage.py::test_X2_a_finished_game_frees_the_chat",
)
# The end-to-end fixtures of the conftest and the hypothesis and xdist plugins are not needed by the rule
# tests, and loading them costs more than most runs.
PYTEST = ("-x", "-q", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:xdist", "--noconftest")
# What the tests import: copied to the temporary folder of each mutation.
COPIED: tuple[str, ...] = ("engine", "storage", "bot", "tests", "pyproject.toml")
WORKERS = 2


@dataclass(frozen=True)
class Mutation:
    rule: str
    description: str
    file: str
    old: str
    new: str


def m(rule: str, description: str, file: str, old: str, new: str) -> Mutation:
    return Mutation(rule, description, file, old, new)


F8_ANSWERS = (  # four-card answers as the engine makes them (the F8 mutation below edits three places)
    '                row = [pairs[card] if beaten_by >> card & 1 else singles[card] for card in range(64)]\n'
    '                ANSWERS_TO_ONE[seat][trump][top[0]] = row\n'
    '            for card in hand:\n'
    '                actions += row[card]\n'
    '            return actions\n'
    '        if size == 2:  # two-card answers: can_beat written out, the actions made once\n'
    '            m, n = BEATEN_BY[trump][top[0]], BEATEN_BY[trump][top[1]]\n'
    '            made = ANSWERS_TWO[seat]\n'
    '            for combo in combinations(hand, size):\n'
    '                x, z = combo\n'
    '                answers = made.get(combo)\n'
    '                if answers is None:\n'
    '                    answers = made[combo] = (Action(seat, BEAT, combo), Action(seat, DISCARD, combo))\n'
    '                if (m >> x & n >> z | m >> z & n >> x) & 1:  # either pairing of the cards beats\n'
    '                    actions += answers\n'
    '                else:\n'
    '                    actions.append(answers[1])\n'
    '            return actions\n'
    '        for combo in combinations(hand, size):\n'
    '            if can_beat(combo, top, trump):\n'
    '                actions.append(Action(seat, BEAT, combo))\n'
    '            actions.append(Action(seat, DISCARD, combo))\n'
)


PAIRED = "(m >> x & n >> z | m >> z & n >> x) & 1"  # two cards beat two: either pairing (F8)
CAN_BEAT = "can_beat(combo, top, trump)"
F8_PAIRING = (  # where four-card answers test a beat: two cards inline, more through can_beat (F8 mutations)
    f"                if {PAIRED}:  # either pairing of the cards beats\n"
    "                    actions += answers\n"
    "                else:\n"
    "                    actions.append(answers[1])\n"
    "            return actions\n"
    "        for combo in combinations(hand, size):\n"
    f"            if {CAN_BEAT}:\n"
)


FOUR = "engine/four_card.py"
CLASSIC = "engine/classic.py"
CZECH = "engine/czech.py"
CORE = "engine/core.py"
CARDS = "engine/cards.py"

MUTATIONS: list[Mutation] = [
    # --- four-card Kozel ------------------------------------------------------------------------------
    m("F1", "partners sit side by side: a trick goes to the pile of team winner // 2", FOUR,
      "        team = winner % 2\n", "        team = winner // 2\n"),
    m("F1", "the goats are a seat and his left-hand neighbour", FOUR,
      "losers=(loser, loser + 2),", "losers=(loser, loser + 1),"),
    m("F2", "the ten ranks below the king", FOUR,
      "    Rank.KING,\n    Rank.TEN,\n", "    Rank.TEN,\n    Rank.KING,\n"),
    m("F2", "the queen ranks below the jack", FOUR,
      "    Rank.JACK,\n    Rank.QUEEN,\n", "    Rank.QUEEN,\n    Rank.JACK,\n"),
    m("F3", "the king counts 3 and the queen 4 (the deck still holds 120)", FOUR,
      "Rank.QUEEN: 3, Rank.KING: 4,", "Rank.QUEEN: 4, Rank.KING: 3,"),
    m("F3", "the ten counts 11 and the ace 10", FOUR,
      "Rank.TEN: 10, Rank.ACE: 11}", "Rank.TEN: 11, Rank.ACE: 10}"),
    m("F4", "the stock is the other end of the shuffled deck", FOUR,
      "tuple(deck[16:])", "tuple(reversed(deck[16:]))"),
    m("F4", "every deal of a series is the same shuffle (the deal number is not part of the seed)", CORE,
      'f"kozel/{seed}/{deal_no}/{attempt}"', 'f"kozel/{seed}/{attempt}"'),
    m("F4", "the dealer deals to himself first", CORE,
      "deck[(seat - dealer - 1) % num_players : end", "deck[(seat - dealer) % num_players : end"),
    m("F5", "the trump card may be the first card of the last four of the stock", FOUR,
      "rng.randrange(4, STOCK_SIZE - 4)", "rng.randrange(4, STOCK_SIZE - 3)"),
    m("F5", "the trump card may be the last card of the first four of the stock", FOUR,
      "rng.randrange(4, STOCK_SIZE - 4)", "rng.randrange(3, STOCK_SIZE - 4)"),
    m("F5", "the trump card goes under the stock instead of back to its place", FOUR,
      "        self.stock = list(layout.rest)\n",
      "        self.stock = [c for i, c in enumerate(layout.rest) if i != layout.cut] + [layout.rest[layout.cut]]\n"),
    m("F5", "the trump is the suit of the top card of the stock", FOUR,
      "self.trump = self.trump_card.suit", "self.trump = self.stock[0].suit"),
    m("F6", "any card beats a plain card of another suit", FOUR,
      "    return sx == trump\n", "    return sy != trump\n"),
    m("F6", "a plain card beats a trump of lower rank", FOUR,
      "    if sx == sy:\n        return ORDER[x] > ORDER[y]\n",
      "    if sx == sy or sy == trump:\n        return ORDER[x] > ORDER[y]\n"),
    m("F7", "no lead of three cards", FOUR,
      "range(1, min(len(cards), 3) + 1)", "range(1, min(len(cards), 2) + 1)"),
    m("F7", "a lead may mix suits", FOUR,
      "cards = tuple(hand[start:stop])  # the cards of one suit", "cards = tuple(hand)  # the cards of one suit"),
    m("F8", "beats are paired in the order of the cards, no other pairing is tried", FOUR, F8_PAIRING,
      F8_PAIRING.replace(PAIRED, "(m >> x & n >> z) & 1")
      .replace(CAN_BEAT, "all(BEATEN_BY[trump][y] >> x & 1 for x, y in zip(combo, top, strict=True))")),
    m("F8", "a beat must beat the lead, not the current top", FOUR,
      "top = self.trick[self.top].cards", "top = self.trick[0].cards"),
    m("F8", "two beating cards may beat the same card of the top", FOUR, F8_PAIRING,
      F8_PAIRING.replace(PAIRED, "((m | n) >> x & (m | n) >> z) & 1")
      .replace(CAN_BEAT, "all(any(BEATEN_BY[trump][y] >> x & 1 for y in top) for x in combo)")),
    m("F8", "an answer may have fewer cards than the lead (one)", FOUR,
      "        size = len(top)\n", "        size = 1\n"),
    m("F8", "the answers go counter-clockwise", FOUR,
      "        self.to_move = (seat + 1) % 4\n\n    def _finish_trick",
      "        self.to_move = (seat + 3) % 4\n\n    def _finish_trick"),
    m("F8", "the leader answers too: the trick ends after four answers", FOUR,
      "if self.answered == 3:", "if self.answered == 4:"),
    m("F8", "no discard when a beat is possible", FOUR, F8_ANSWERS,
      F8_ANSWERS.replace("[pairs[card] if", "[pairs[card][:1] if")
      .replace("                    actions += answers\n", "                    actions.append(answers[0])\n")
      .replace("            actions.append(Action(seat, DISCARD, combo))\n",
               "            else:\n                actions.append(Action(seat, DISCARD, combo))\n")),
    m("F9", "the beat does not become the current top", FOUR,
      "self.top = len(trick) - 1  # F8", "pass  # F8"),
    m("F9", "the leader always takes the trick", FOUR,
      "winner = trick[self.top].seat  # F9", "winner = trick[0].seat  # F9"),
    m("F9", "discards do not go to the trick's pile", FOUR,
      "        for play in trick:\n            pile += play.cards\n",
      "        for play in trick:\n            if play.kind is not Kind.DISCARD:\n"
      "                pile += play.cards\n"),
    m("F10", "a farther molodka may replace a nearer one", FOUR,
      "self._distance(seat) < self._distance(self.lead_seat)", "self._distance(seat) > self._distance(self.lead_seat)"),
    m("F10", "a molodka may be replaced after it was answered", FOUR,
      "return self.answered == 0 and self._distance", "return self._distance"),
    m("F10", "the cards on the table do not go back to their hands", FOUR,
      "            for play in self.trick:  # F10: the cards on the table go back to their hands\n"
      "                for card in play.cards:\n                    insort(self.hands[play.seat], card)\n",
      "            pass\n"),
    m("F10", "a replacement molodka cannot itself be replaced (only a molodka of the farthest seat can)", FOUR,
      "self._distance(seat) < self._distance(self.lead_seat)",
      "self._distance(seat) < self._distance(self.lead_seat) == 3"),
    m("F10", "play after a molodka goes on from the original leader", FOUR,
      "        self.to_move = (seat + 1) % 4\n\n    def _finish_trick",
      "        self.to_move = (seat + 1) % 4 if kind is not Kind.MOLODKA else (self.trick_leader + 1) % 4\n\n"
      "    def _finish_trick"),
    m("F11", "drawing starts left of the trick's winner", FOUR,
      "seat = (winner + i) % 4", "seat = (winner + 1 + i) % 4"),
    m("F12", "the leader of a trick leads the next one too", FOUR,
      "self._new_trick(winner)  # F12", "self._new_trick(self.trick_leader)  # F12"),
    m("F13", "the deal ends when the stock is empty", FOUR,
      "if not self.hands[0]:  # F13", "if not self.stock:  # F13"),
    m("F14", "30 card points give 2 defeat points", FOUR,
      "return 4 if points <= 30 else 2", "return 4 if points < 30 else 2"),
    m("F14", "a team with no card points (but a trick) gets 6", FOUR,
      "    if tricks == 0:\n        return 6\n", "    if points == 0:\n        return 6\n"),
    m("F14", "the winner of the deal gets the defeat points", FOUR,
      "loser = 0 if points[0] < points[1] else 1", "loser = 0 if points[0] > points[1] else 1"),
    m("F14", "60:60 is no eggs: team A counts as the winner", FOUR,
      "eggs = points[0] == points[1]", "eggs = False"),
    m("F15", "12 defeat points are not yet the goats", FOUR,
      "totals[team] >= SERIES_LIMIT", "totals[team] > SERIES_LIMIT"),
    m("F15", "only eggs in the last deal make goats with eggs", FOUR,
      "with_eggs=self.eggs > 0,", "with_eggs=eggs,"),
    m("F16", "the dealer leads the first trick", FOUR,
      "self.leader = (self.dealer + 1) % 4  # F16", "self.leader = self.dealer  # F16"),
    m("F16", "the deal passes counter-clockwise", FOUR,
      "self.dealer = (self.dealer + 1) % 4  # F16", "self.dealer = (self.dealer + 3) % 4  # F16"),
    m("F16", "the player left of the new dealer leads the next deal", FOUR,
      "self.leader = self.tricks_done[-1].winner  # F16", "self.leader = (self.dealer + 1) % 4  # F16"),
    # --- classic Kozel --------------------------------------------------------------------------------
    m("C1", "partners sit side by side: a trick goes to the pile of team winner // 2", CLASSIC,
      "        team = winner % 2\n", "        team = winner // 2\n"),
    m("C2", "the 32-card deck drops the sevens instead of the sixes", CARDS,
      "if r != Rank.SIX)", "if r != Rank.SEVEN)"),
    m("C3", "the J♥ ranks below the J♦", CLASSIC,
      '"7C 8C 9C KC TC AC JD JH JS JC QD QH QS QC 6C"', '"7C 8C 9C KC TC AC JH JD JS JC QD QH QS QC 6C"'),
    m("C3", "the 10♣ ranks below the K♣", CLASSIC,
      '"7C 8C 9C KC TC AC JD JH JS JC QD QH QS QC 6C"', '"7C 8C 9C TC KC AC JD JH JS JC QD QH QS QC 6C"'),
    m("C3", "the Q♠ ranks above the Q♣", CLASSIC,
      '"7C 8C 9C KC TC AC JD JH JS JC QD QH QS QC 6C"', '"7C 8C 9C KC TC AC JD JH JS JC QD QH QC QS 6C"'),
    m("C3", "the 6♣ is the lowest trump", CLASSIC,
      '"7C 8C 9C KC TC AC JD JH JS JC QD QH QS QC 6C"', '"6C 7C 8C 9C KC TC AC JD JH JS JC QD QH QS QC"'),
    m("C3", "the jacks rank above the queens", CLASSIC,
      '"7C 8C 9C KC TC AC JD JH JS JC QD QH QS QC 6C"', '"7C 8C 9C KC TC AC QD QH QS QC JD JH JS JC 6C"'),
    m("C4", "the plain ten ranks below the king", CLASSIC,
      "Rank.NINE, Rank.KING, Rank.TEN, Rank.ACE)", "Rank.NINE, Rank.TEN, Rank.KING, Rank.ACE)"),
    m("C4", "a jack or queen must follow its printed suit", CLASSIC,
      "follow = [play[c] for c in hand if ESUIT[c] == led]  # C10",
      "follow = [play[c] for c in hand if ESUIT[c] == led or c.suit == led]  # C10"),
    m("C5", "the queen counts 2 and the jack 3", CLASSIC,
      "Rank.QUEEN: 3, Rank.JACK: 2}", "Rank.QUEEN: 2, Rank.JACK: 3}"),
    m("C6", "a hand of exactly 13 card points may not call a redeal", CLASSIC,
      "card_points(hand) <= REDEAL_MAX_POINTS", "card_points(hand) < REDEAL_MAX_POINTS"),
    m("C6", "the redeal ignores the option", CLASSIC,
      "if self.options.redeal and card_points", "if card_points"),
    m("C6", "a redeal passes the deal to the next dealer", CLASSIC,
      "            self.attempt += 1\n            self._deal()\n",
      "            self.attempt += 1\n            self.dealer = (self.dealer + 1) % 4\n            self._deal()\n"),
    m("C6", "at most one redeal per deal", CLASSIC,
      "if self.options.redeal and card_points", "if self.options.redeal and self.attempt == 0 and card_points"),
    m("C6", "no redeal after an exchange", CLASSIC,
      "if self.options.redeal and card_points", "if self.options.redeal and not self.exchanged and card_points"),
    m("C6", "a redeal is still possible during the first trick", CLASSIC,
      "        if not self.trick and not self.tricks_done:  # before the first lead\n"
      "            if self.options.redeal",
      "        if not self.tricks_done:\n            if self.options.redeal"),
    m("C6", "a redeal deals the same cards again (the attempt is not part of the seed)", CORE,
      'f"kozel/{seed}/{deal_no}/{attempt}"', 'f"kozel/{seed}/{deal_no}"'),
    m("C7", "going out of trumps in the first deal too", CLASSIC,
      "self.deal_no > 0\n", "self.deal_no >= 0\n"),
    m("C7", "going out with more than one trump (the lowest)", CLASSIC,
      "and len(trumps) == 1\n", "and len(trumps) >= 1\n"),
    m("C7", "a second exchange by the same team", CLASSIC,
      "and seat % 2 not in self.exchanged\n", "\n"),
    m("C7", "at most one exchange per deal, not per team", CLASSIC,
      "and seat % 2 not in self.exchanged\n", "and not self.exchanged\n"),
    m("C7", "the partner need not hold a plain card", CLASSIC,
      "and any(not is_trump(c) for c in self.hands[(seat + 2) % 4])\n", "\n"),
    m("C7", "the trump goes to the left-hand neighbour", CLASSIC,
      "            partner = (seat + 2) % 4\n", "            partner = (seat + 1) % 4\n"),
    m("C7", "the partner may give back a trump", CLASSIC,
      "return [Action(seat, Kind.GIVE_BACK, (c,)) for c in hand if not is_trump(c)]",
      "return [Action(seat, Kind.GIVE_BACK, (c,)) for c in hand]"),
    m("C7", "the others may act while the card is owed back", CLASSIC,
      "            if seat != self.giving_back:\n                return []\n"
      "            return [Action(seat, Kind.GIVE_BACK, (c,)) for c in hand if not is_trump(c)]\n",
      "            if seat == self.giving_back:\n"
      "                return [Action(seat, Kind.GIVE_BACK, (c,)) for c in hand if not is_trump(c)]\n"),
    m("C7", "after the exchange the partner leads", CLASSIC,
      "            self.giving_back = -1\n            self.to_move = self.leader\n",
      "            self.giving_back = -1\n            self.to_move = seat\n"),
    m("C8", "the first deal is led left of the dealer", CLASSIC,
      "self.leader = next(s for s in range(4) if ACE_OF_DIAMONDS in self.hands[s])",
      "self.leader = (self.dealer + 1) % 4"),
    m("C8", "the A♦ holder may lead any card", CLASSIC,
      "                return [Action(seat, Kind.PLAY, (ACE_OF_DIAMONDS,))]\n", "                pass\n"),
    m("C8", "the first lead passes to the right", CLASSIC,
      "self.leader = (previous + 1) % 4  # C8", "self.leader = (previous + 3) % 4  # C8"),
    m("C8", "the deal passes clockwise from the first dealer, not right of the leader", CLASSIC,
      "self.dealer = previous  # C8", "self.dealer = (self.dealer + 1) % 4  # C8"),
    m("C9", "no trump-lead ban in the first deal", CLASSIC,
      "            self.banned = [0, 1, 2, 3]\n", "            self.banned = []\n"),
    m("C9", "the ban falls on the team of the new first leader", CLASSIC,
      "self.banned = [previous % 2, previous % 2 + 2]  # C9",
      "self.banned = [(previous + 1) % 2, (previous + 1) % 2 + 2]  # C9"),
    m("C9", "in later deals nobody is banned", CLASSIC,
      "self.banned = [previous % 2, previous % 2 + 2]  # C9", "self.banned = []  # C9"),
    m("C9", "a banned player who holds only trumps cannot lead", CLASSIC,
      "choices = plain or hand", "choices = plain"),
    m("C9", "the ban also forbids trumping a plain lead", CLASSIC,
      "return follow or [play[c] for c in hand]\n",
      "return follow or [play[c] for c in hand if seat not in self.banned or not is_trump(c)]"
      " or [play[c] for c in hand]\n"),
    m("C10", "no duty to follow", CLASSIC,
      "follow = [play[c] for c in hand if ESUIT[c] == led]  # C10", "follow = [play[c] for c in hand]  # C10"),
    m("C10", "a trump lead is followed by the trump's printed suit", CLASSIC,
      "            led = ESUIT[self.trick[0].cards[0]]\n            follow",
      "            led = self.trick[0].cards[0].suit\n            follow"),
    m("C11", "a trump played on a plain lead does not win", CLASSIC,
      "if ESUIT[p.cards[0]] in (led, TRUMP_SUIT)", "if ESUIT[p.cards[0]] == led"),
    m("C11", "trumps do not rank above plain cards", CLASSIC,
      "POWER[_card] = 100 + TRUMP_ORDER.index(_card)", "POWER[_card] = TRUMP_ORDER.index(_card)"),
    m("C11", "a plain card of another suit can win", CLASSIC,
      "if ESUIT[p.cards[0]] in (led, TRUMP_SUIT)", "if True"),
    m("C11", "the trick's leader leads next", CLASSIC,
      "self.to_move = winner  # C11", "self.to_move = self.trick[0].seat  # C11"),
    m("C12", "partners catch the queen too", CLASSIC,
      "if queen is None or six is None or queen % 2 == six % 2:", "if queen is None or six is None:"),
    m("C12", "the queen's team scores the catch", CLASSIC,
      "score[six % 2] = 4", "score[queen % 2] = 4"),
    m("C12", "a catch scores 2", CLASSIC,
      "score[six % 2] = 4", "score[six % 2] = 2"),
    m("C12", "the card points taken before the catch are counted", CLASSIC,
      'self._settle((0, 0), score, events=["queen_caught"])',
      'self._settle((card_points(self.piles[0]), card_points(self.piles[1])), score, events=["queen_caught"])'),
    m("C12", "the catch is only seen when the trick is complete", CLASSIC,
      "        if card in QUEEN_AND_SIX and self._queen_caught():  # the catch happens as the second of them falls\n"
      "            return\n        if len(self.trick) < 4:\n",
      "        if len(self.trick) == 4 and self._queen_caught():\n            return\n"
      "        if len(self.trick) < 4:\n"),
    m("C13", "91 card points give one pair", CLASSIC, "if points >= 91:", "if points > 91:"),
    m("C13", "61 card points give nothing", CLASSIC, "2 if points >= 61 else 0", "2 if points > 61 else 0"),
    m("C13", "taking every trick does not drop the others' series points", CLASSIC,
      "            totals[0 if score[0] == 0 else 1] = 0\n", "            pass\n"),
    m("C13", "taking every trick scores 2", CLASSIC,
      "            score[taker] = 4\n", "            score[taker] = 2\n"),
    m("C13", "eggs in a row do not add up", CLASSIC,
      "score[scorer] += 2 * self.eggs_pending", "score[scorer] += 2"),
    m("C13", "the lose-series option is ignored", CLASSIC,
      'if self.options.all_tricks == "lose_series":', 'if False:'),
    m("C13", "the eggs bonus is lost on a queen catch", CLASSIC,
      "        elif self.eggs_pending and any(score):\n",
      '        elif self.eggs_pending and any(score) and "queen_caught" not in events:\n'),
    m("C14", "12 series points are not yet the end", CLASSIC,
      "max(totals) >= SERIES_TARGET", "max(totals) > SERIES_TARGET"),
    m("C14", "the team that reached 12 are the goats", CLASSIC,
      'outcome = self._outcome(0 if totals[0] >= SERIES_TARGET else 1, "series_points")',
      'outcome = self._outcome(1 if totals[0] >= SERIES_TARGET else 0, "series_points")'),
    # --- Czech Kozel ----------------------------------------------------------------------------------
    m("K1", "two players may play", CZECH, "ge=3, le=6", "ge=2, le=6"),
    m("K1", "seven players may play", CZECH, "ge=3, le=6", "ge=3, le=7"),
    m("K2", "the ten ranks between the under and the over", CZECH,
      "key=lambda p: p.cards[0]).seat", "key=lambda p: p.cards[0] + (1.5 if p.cards[0].rank == Rank.TEN else 0)).seat"),
    m("K2", "the ten ranks above the king", CZECH,
      "key=lambda p: p.cards[0]).seat", "key=lambda p: p.cards[0] + (3.5 if p.cards[0].rank == Rank.TEN else 0)).seat"),
    m("K3", "six players get 4 cards each", CZECH, "5: 6, 6: 5}", "5: 6, 6: 4}"),
    m("K3", "the dealer leads the first deal", CZECH,
      "self.leader = (self.dealer + 1) % self.num_players  # K3", "self.leader = self.dealer  # K3"),
    m("K3", "the deal passes counter-clockwise", CZECH,
      "self.dealer = (self.dealer + 1) % self.num_players  # K3",
      "self.dealer = (self.dealer - 1) % self.num_players  # K3"),
    m("K4", "the highest card of any suit wins", CZECH,
      "for p in self.trick if p.cards[0] >> 4 == led)", "for p in self.trick)"),
    m("K4", "no duty to follow suit", CZECH,
      "actions = [play[c] for c in hand if c >> 4 == led] or", "actions = [play[c] for c in hand] or"),
    m("K4", "the last player of a trick leads next", CZECH,
      "        self.to_move = winner\n", "        self.to_move = seat\n"),
    m("K5", "the diamonds (kule, also red) count instead of the hearts", CZECH,
      "1 if _card.suit is Suit.HEARTS else 0", "1 if _card.suit is Suit.DIAMONDS else 0"),
    m("K5", "the kozel counts 12", CZECH, "13 if _card == KOZEL else", "12 if _card == KOZEL else"),
    m("K5", "the kozel is the acorn svršek", CZECH,
      "KOZEL = Card(Suit.SPADES, Rank.QUEEN)", "KOZEL = Card(Suit.CLUBS, Rank.QUEEN)"),
    m("K6", "a double changes nothing", CZECH, "factor = 2 if self.doubled else 1", "factor = 1"),
    m("K6", "a double is possible during the first trick", CZECH,
      "if not self.doubled and not self.trick and not self.tricks_done and KOZEL in hand:",
      "if not self.doubled and not self.tricks_done and KOZEL in hand:"),
    m("K6", "a double carries over to the next deal", CZECH,
      "        self.doubled = False\n        self.to_move = self.leader\n",
      "        self.to_move = self.leader\n"),
    m("K6", "the kozel's holder may double only on his turn", CZECH,
      "not self.tricks_done and KOZEL in hand:", "not self.tricks_done and KOZEL in hand and seat == self.to_move:"),
    m("K6", "anybody may double", CZECH,
      "if not self.doubled and not self.trick and not self.tricks_done and KOZEL in hand:",
      "if not self.doubled and not self.trick and not self.tricks_done:"),
    m("K7", "taking everything is not doubled", CZECH,
      "ALL_TRICKS_PENALTY * factor for s", "ALL_TRICKS_PENALTY for s"),
    m("K7", "taking everything gives the others 20", CZECH, "ALL_TRICKS_PENALTY = 21", "ALL_TRICKS_PENALTY = 20"),
    m("K7", "the taker of every trick keeps his own penalties", CZECH,
      "score = tuple(0 if s == taker else", "score = tuple(points[s] * factor if s == taker else"),
    m("K8", "a total of exactly 100 ends the game", CZECH, "if max(totals) > GAME_LIMIT:  # K8",
      "if max(totals) >= GAME_LIMIT:  # K8"),
    m("K8", "the winner is the player with the highest total", CZECH,
      "            best = min(totals)\n            outcome", "            best = max(totals)\n            outcome"),
    m("K9", "a winner with 0 gets no bonus", CZECH, "(3 + (3 if t == 0 else 0))", "3"),
    m("K9", "a total of exactly 100 gets 0 table points", CZECH,
      "0 if t > GAME_LIMIT else 1 for t", "0 if t >= GAME_LIMIT else 1 for t"),
    m("K9", "the lowest total gets nothing when it is over 100 too", CZECH,
      "if t == best else 0 if t > GAME_LIMIT", "if t == best and t <= GAME_LIMIT else 0 if t > GAME_LIMIT"),
    m("K9", "everyone else gets 0", CZECH, "0 if t > GAME_LIMIT else 1 for t", "0 for t"),
    m("K10", "the player to move may play any card", CORE,
      "        if action not in legal:\n", "        if action not in legal and action.seat != self.to_move:\n"),
    # --- common ---------------------------------------------------------------------------------------
    m("X1", "everybody sees the discards", CORE,
      "return action.kind is Kind.DISCARD and action.seat != seat", "return False"),
    m("X1", "the opponents see the exchanged cards", CLASSIC,
      "return seat is None or seat % 2 != action.seat % 2", "return seat is None"),
    m("X1", "a view shares its hand with the state", CORE,
      "hand=tuple(self.hands[seat]) if seat is not None else (),",
      "hand=self.hands[seat] if seat is not None else (),  # type: ignore[arg-type]"),
    m("X2", "a chat may open a second game", "storage/migrations/0001_initial.sql",
      "CREATE UNIQUE INDEX games_one_open_per_chat", "CREATE INDEX games_one_open_per_chat"),
    m("X2", "a finished game keeps the chat busy", "storage/migrations/0001_initial.sql",
      "WHERE status IN ('lobby', 'active')", "WHERE status IN ('lobby', 'active', 'finished')"),
    m("X3", "an action is not recorded in the history", CORE,
      "        self.history.append(action)\n", "\n"),
]


def label(mutations: list[Mutation]) -> list[str]:
    """Ids like ``C6.3``: the rule id and the mutation's number within it."""
    seen: dict[str, int] = {}
    labels = []
    for mutation in mutations:
        seen[mutation.rule] = seen.get(mutation.rule, 0) + 1
        labels.append(f"{mutation.rule}.{seen[mutation.rule]}")
    return labels


def check_snippets(mutations: list[Mutation]) -> None:
    """Every snippet must occur exactly once in the current code, and change it."""
    problems = []
    for name, mutation in zip(label(mutations), mutations, strict=True):
        text = (ROOT / mutation.file).read_text(encoding="utf-8")
        count = text.count(mutation.old)
        if count != 1:
            problems.append(f"{name} ({mutation.description}): the snippet occurs {count} times in {mutation.file}")
        if mutation.old == mutation.new:
            problems.append(f"{name}: the new snippet equals the old one")
    if problems:
        raise SystemExit("bench.mutants: the code has moved; update the mutations:\n  " + "\n  ".join(problems))


_FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.MULTILINE)


@dataclass(frozen=True)
class Verdict:
    caught: bool
    by_rule_test: bool  # caught by a test named after the mutated rule (test_F8_...)
    note: str  # the first failing test, or what went wrong
    seconds: float


def run_one(mutation: Mutation | None) -> Verdict:
    """Copy, mutate and run the rule tests: first those named after the mutated rule, then all of them."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kozel-mutant-") as tmp:
        folder = Path(tmp)
        for name in COPIED:
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, folder / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                shutil.copy2(source, folder / name)
        if mutation is not None:
            path = folder / mutation.file
            path.write_text(path.read_text(encoding="utf-8").replace(mutation.old, mutation.new), encoding="utf-8")
        env = dict(os.environ, PYTHONPATH=str(folder), PYTHONDONTWRITEBYTECODE="1")
        stages: list[list[str]] = [[*RULE_TESTS]]
        if mutation is not None:
            stages.insert(0, [*RULE_TESTS, "-k", f"_{mutation.rule}_"])
        for stage, arguments in enumerate(stages):
            proc = subprocess.run(
                [sys.executable, "-m", "pytest", *PYTEST, *arguments],
                cwd=folder,
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
            if proc.returncode == NO_TESTS and stage < len(stages) - 1:
                continue  # no test is named after this rule: the full run decides
            if proc.returncode != 0:
                break
    seconds = time.perf_counter() - started
    if proc.returncode == 0:
        return Verdict(False, False, "", seconds)
    by_rule_test = mutation is not None and stage == 0
    found = _FAILED.search(proc.stdout)
    if found:
        return Verdict(True, by_rule_test, found.group(1), seconds)
    tail = (proc.stdout + proc.stderr).strip().splitlines()[-1:] or ["(no output)"]
    return Verdict(True, by_rule_test, f"exit {proc.returncode}: {tail[0]}", seconds)


NO_TESTS = 5  # pytest's exit code when no test was selected


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", help="a rule id (F8) or one mutation (F8.2)")
    parser.add_argument("--list", action="store_true", help="list the mutations and exit")
    parser.add_argument("--no-baseline", action="store_true", help="skip the run of the unmutated code")
    args = parser.parse_args(argv)

    names = label(MUTATIONS)
    check_snippets(MUTATIONS)
    chosen = [
        (n, mu) for n, mu in zip(names, MUTATIONS, strict=True) if args.only in (None, mu.rule, n)
    ]
    if not chosen:
        raise SystemExit(f"bench.mutants: no mutation matches {args.only!r}")
    if args.list:
        for name, mutation in chosen:
            print(f"{name:7} {mutation.file:36} {mutation.description}")
        return 0

    started = time.perf_counter()
    if not args.no_baseline:
        base = run_one(None)
        verdict = "FAIL: " + base.note if base.caught else "pass"
        print(f"baseline: the unmutated rule tests {verdict} ({base.seconds:.1f} s)", flush=True)
        if base.caught:
            return 2
    missed: list[str] = []
    elsewhere: list[str] = []
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        results = pool.map(lambda item: (item, run_one(item[1])), chosen)
        for (name, mutation), result in results:
            if not result.caught:
                word = "MISSED"
                missed.append(name)
            elif result.by_rule_test:
                word = "caught"
            else:
                word = "caught*"
                elsewhere.append(name)
            note = result.note or "every rule test passed"
            print(f"{name:7} {word:8} {mutation.description}  [{note}] ({result.seconds:.1f} s)", flush=True)
    wall = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime
    caught = len(chosen) - len(missed)
    if elsewhere:
        print(f"caught* = not by a test named after its rule, only by another: {', '.join(elsewhere)}")
    print(
        f"tally: {caught} of {len(chosen)} mutations caught ({caught - len(elsewhere)} by a test named after "
        f"their rule), {len(missed)} missed" + (f" ({', '.join(missed)})" if missed else "")
        + f"; wall time {wall:.0f} s with {WORKERS} workers, {cpu:.0f} s of CPU in the test runs"
    )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
