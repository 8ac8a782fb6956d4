"""One-rule bugs planted in Czech Kozel's rules, each a plausible mistake (an off-by-one boundary, a wrong
comparison, order, seat or point value, a missing check): ``python -m bench.mutants`` plants them one at a
time in a copy of the code and this package's rule tests must catch each.

A mutation is (rule id, what goes wrong, the file of this package it edits, a snippet that occurs there
exactly once, what replaces it).
"""

from __future__ import annotations

RULES = "rules.py"

MUTATIONS: list[tuple[str, str, str, str, str]] = [
    ("K1", "two players may play", RULES, "ge=3, le=6", "ge=2, le=6"),
    ("K1", "seven players may play", RULES, "ge=3, le=6", "ge=3, le=7"),
    ("K2", "the ten ranks between the under and the over", RULES,
      "key=lambda p: p.cards[0]).seat", "key=lambda p: p.cards[0] + (1.5 if p.cards[0].rank == Rank.TEN else 0)).seat"),
    ("K2", "the ten ranks above the king", RULES,
      "key=lambda p: p.cards[0]).seat", "key=lambda p: p.cards[0] + (3.5 if p.cards[0].rank == Rank.TEN else 0)).seat"),
    ("K3", "six players get 4 cards each", RULES, "5: 6, 6: 5}", "5: 6, 6: 4}"),
    ("K3", "the dealer leads the first deal", RULES,
      "self.leader = (self.dealer + 1) % self.num_players  # K3", "self.leader = self.dealer  # K3"),
    ("K3", "the deal passes counter-clockwise", RULES,
      "self.dealer = (self.dealer + 1) % self.num_players  # K3",
      "self.dealer = (self.dealer - 1) % self.num_players  # K3"),
    ("K4", "the highest card of any suit wins", RULES,
      "for p in self.trick if p.cards[0] >> 4 == led)", "for p in self.trick)"),
    ("K4", "no duty to follow suit", RULES,
      "actions = [play[c] for c in hand if c >> 4 == led] or", "actions = [play[c] for c in hand] or"),
    ("K4", "the last player of a trick leads next", RULES,
      "        self.to_move = winner\n", "        self.to_move = seat\n"),
    ("K5", "the diamonds (kule, also red) count instead of the hearts", RULES,
      "1 if _card.suit is Suit.HEARTS else 0", "1 if _card.suit is Suit.DIAMONDS else 0"),
    ("K5", "the kozel counts 12", RULES, "13 if _card == KOZEL else", "12 if _card == KOZEL else"),
    ("K5", "the kozel is the acorn svršek", RULES,
      "KOZEL = Card(Suit.SPADES, Rank.QUEEN)", "KOZEL = Card(Suit.CLUBS, Rank.QUEEN)"),
    ("K6", "a double changes nothing", RULES, "factor = 2 if self.doubled else 1", "factor = 1"),
    ("K6", "a double is possible during the first trick", RULES,
      "if not self.doubled and not self.trick and not self.tricks_done and KOZEL in hand:",
      "if not self.doubled and not self.tricks_done and KOZEL in hand:"),
    ("K6", "a double carries over to the next deal", RULES,
      "        self.doubled = False\n        self.to_move = self.leader\n",
      "        self.to_move = self.leader\n"),
    ("K6", "the kozel's holder may double only on his turn", RULES,
      "not self.tricks_done and KOZEL in hand:", "not self.tricks_done and KOZEL in hand and seat == self.to_move:"),
    ("K6", "anybody may double", RULES,
      "if not self.doubled and not self.trick and not self.tricks_done and KOZEL in hand:",
      "if not self.doubled and not self.trick and not self.tricks_done:"),
    ("K7", "taking everything is not doubled", RULES,
      "ALL_TRICKS_PENALTY * factor for s", "ALL_TRICKS_PENALTY for s"),
    ("K7", "taking everything gives the others 20", RULES, "ALL_TRICKS_PENALTY = 21", "ALL_TRICKS_PENALTY = 20"),
    ("K7", "the taker of every trick keeps his own penalties", RULES,
      "score = tuple(0 if s == taker else", "score = tuple(points[s] * factor if s == taker else"),
    ("K8", "a total of exactly 100 ends the game", RULES, "if max(totals) > GAME_LIMIT:  # K8",
      "if max(totals) >= GAME_LIMIT:  # K8"),
    ("K8", "the winner is the player with the highest total", RULES,
      "            best = min(totals)\n            outcome", "            best = max(totals)\n            outcome"),
    ("K9", "a winner with 0 gets no bonus", RULES, "(3 + (3 if t == 0 else 0))", "3"),
    ("K9", "a total of exactly 100 gets 0 table points", RULES,
      "0 if t > GAME_LIMIT else 1 for t", "0 if t >= GAME_LIMIT else 1 for t"),
    ("K9", "the lowest total gets nothing when it is over 100 too", RULES,
      "if t == best else 0 if t > GAME_LIMIT", "if t == best and t <= GAME_LIMIT else 0 if t > GAME_LIMIT"),
    ("K9", "everyone else gets 0", RULES, "0 if t > GAME_LIMIT else 1 for t", "0 for t"),
]  # fmt: skip
