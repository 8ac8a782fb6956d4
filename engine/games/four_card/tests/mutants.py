"""One-rule bugs planted in four-card Kozel's rules, which this package's rule tests must catch (``bench.mutants``
says what a mutation is and runs them)."""

from __future__ import annotations

RULES = "rules.py"

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

MUTATIONS: list[tuple[str, str, str, str, str]] = [
    ("F1", "partners sit side by side: a trick goes to the pile of team winner // 2", RULES,
      "        team = winner % 2\n", "        team = winner // 2\n"),
    ("F1", "the goats are a seat and his left-hand neighbour", RULES,
      "losers=(loser, loser + 2),", "losers=(loser, loser + 1),"),
    ("F2", "the ten ranks below the king", RULES,
      "    Rank.KING,\n    Rank.TEN,\n", "    Rank.TEN,\n    Rank.KING,\n"),
    ("F2", "the queen ranks below the jack", RULES,
      "    Rank.JACK,\n    Rank.QUEEN,\n", "    Rank.QUEEN,\n    Rank.JACK,\n"),
    ("F3", "the king counts 3 and the queen 4 (the deck still holds 120)", RULES,
      "Rank.QUEEN: 3, Rank.KING: 4,", "Rank.QUEEN: 4, Rank.KING: 3,"),
    ("F3", "the ten counts 11 and the ace 10", RULES,
      "Rank.TEN: 10, Rank.ACE: 11}", "Rank.TEN: 11, Rank.ACE: 10}"),
    ("F4", "the stock is the other end of the shuffled deck", RULES,
      "tuple(deck[16:])", "tuple(reversed(deck[16:]))"),
    ("F5", "the trump card may be the first card of the last four of the stock", RULES,
      "rng.randrange(4, STOCK_SIZE - 4)", "rng.randrange(4, STOCK_SIZE - 3)"),
    ("F5", "the trump card may be the last card of the first four of the stock", RULES,
      "rng.randrange(4, STOCK_SIZE - 4)", "rng.randrange(3, STOCK_SIZE - 4)"),
    ("F5", "the trump card goes under the stock instead of back to its place", RULES,
      "        self.stock = list(layout.rest)\n",
      "        self.stock = [c for i, c in enumerate(layout.rest) if i != layout.cut] + [layout.rest[layout.cut]]\n"),
    ("F5", "the trump is the suit of the top card of the stock", RULES,
      "self.trump = self.trump_card.suit", "self.trump = self.stock[0].suit"),
    ("F6", "any card beats a plain card of another suit", RULES,
      "    return sx == trump\n", "    return sy != trump\n"),
    ("F6", "a plain card beats a trump of lower rank", RULES,
      "    if sx == sy:\n        return ORDER[x] > ORDER[y]\n",
      "    if sx == sy or sy == trump:\n        return ORDER[x] > ORDER[y]\n"),
    ("F7", "no lead of three cards", RULES,
      "range(1, min(len(cards), 3) + 1)", "range(1, min(len(cards), 2) + 1)"),
    ("F7", "a lead may mix suits", RULES,
      "cards = tuple(hand[start:stop])  # the cards of one suit", "cards = tuple(hand)  # the cards of one suit"),
    ("F8", "beats are paired in the order of the cards, no other pairing is tried", RULES, F8_PAIRING,
      F8_PAIRING.replace(PAIRED, "(m >> x & n >> z) & 1")
      .replace(CAN_BEAT, "all(BEATEN_BY[trump][y] >> x & 1 for x, y in zip(combo, top, strict=True))")),
    ("F8", "a beat must beat the lead, not the current top", RULES,
      "top = self.trick[self.top].cards", "top = self.trick[0].cards"),
    ("F8", "two beating cards may beat the same card of the top", RULES, F8_PAIRING,
      F8_PAIRING.replace(PAIRED, "((m | n) >> x & (m | n) >> z) & 1")
      .replace(CAN_BEAT, "all(any(BEATEN_BY[trump][y] >> x & 1 for y in top) for x in combo)")),
    ("F8", "an answer may have fewer cards than the lead (one)", RULES,
      "        size = len(top)\n", "        size = 1\n"),
    ("F8", "the answers go counter-clockwise", RULES,
      "        self.to_move = (seat + 1) % 4\n\n    def _finish_trick",
      "        self.to_move = (seat + 3) % 4\n\n    def _finish_trick"),
    ("F8", "the leader answers too: the trick ends after four answers", RULES,
      "if self.answered == 3:", "if self.answered == 4:"),
    ("F8", "no discard when a beat is possible", RULES, F8_ANSWERS,
      F8_ANSWERS.replace("[pairs[card] if", "[pairs[card][:1] if")
      .replace("                    actions += answers\n", "                    actions.append(answers[0])\n")
      .replace("            actions.append(Action(seat, DISCARD, combo))\n",
               "            else:\n                actions.append(Action(seat, DISCARD, combo))\n")),
    ("F9", "the beat does not become the current top", RULES,
      "self.top = len(trick) - 1  # F8", "pass  # F8"),
    ("F9", "the leader always takes the trick", RULES,
      "winner = trick[self.top].seat  # F9", "winner = trick[0].seat  # F9"),
    ("F9", "discards do not go to the trick's pile", RULES,
      "        for play in trick:\n            pile += play.cards\n",
      "        for play in trick:\n            if play.kind is not Kind.DISCARD:\n"
      "                pile += play.cards\n"),
    ("F10", "a farther molodka may replace a nearer one", RULES,
      "self._distance(seat) < self._distance(self.lead_seat)", "self._distance(seat) > self._distance(self.lead_seat)"),
    ("F10", "a molodka may be replaced after it was answered", RULES,
      "return self.answered == 0 and self._distance", "return self._distance"),
    ("F10", "the cards on the table do not go back to their hands", RULES,
      "            for play in self.trick:  # F10: the cards on the table go back to their hands\n"
      "                for card in play.cards:\n                    insort(self.hands[play.seat], card)\n",
      "            pass\n"),
    ("F10", "a replacement molodka cannot itself be replaced (only a molodka of the farthest seat can)", RULES,
      "self._distance(seat) < self._distance(self.lead_seat)",
      "self._distance(seat) < self._distance(self.lead_seat) == 3"),
    ("F10", "play after a molodka goes on from the original leader", RULES,
      "        self.to_move = (seat + 1) % 4\n\n    def _finish_trick",
      "        self.to_move = (seat + 1) % 4 if kind is not Kind.MOLODKA else (self.trick_leader + 1) % 4\n\n"
      "    def _finish_trick"),
    ("F11", "drawing starts left of the trick's winner", RULES,
      "seat = (winner + i) % 4", "seat = (winner + 1 + i) % 4"),
    ("F12", "the leader of a trick leads the next one too", RULES,
      "self._new_trick(winner)  # F12", "self._new_trick(self.trick_leader)  # F12"),
    ("F13", "the deal ends when the stock is empty", RULES,
      "if not self.hands[0]:  # F13", "if not self.stock:  # F13"),
    ("F14", "30 card points give 2 defeat points", RULES,
      "return 4 if points <= 30 else 2", "return 4 if points < 30 else 2"),
    ("F14", "a team with no card points (but a trick) gets 6", RULES,
      "    if tricks == 0:\n        return 6\n", "    if points == 0:\n        return 6\n"),
    ("F14", "the winner of the deal gets the defeat points", RULES,
      "loser = 0 if points[0] < points[1] else 1", "loser = 0 if points[0] > points[1] else 1"),
    ("F14", "60:60 is no eggs: team A counts as the winner", RULES,
      "eggs = points[0] == points[1]", "eggs = False"),
    ("F15", "12 defeat points are not yet the goats", RULES,
      "totals[team] >= SERIES_LIMIT", "totals[team] > SERIES_LIMIT"),
    ("F15", "only eggs in the last deal make goats with eggs", RULES,
      "with_eggs=self.eggs > 0,", "with_eggs=eggs,"),
    ("F16", "the dealer leads the first trick", RULES,
      "self.leader = (self.dealer + 1) % 4  # F16", "self.leader = self.dealer  # F16"),
    ("F16", "the deal passes counter-clockwise", RULES,
      "self.dealer = (self.dealer + 1) % 4  # F16", "self.dealer = (self.dealer + 3) % 4  # F16"),
    ("F16", "the player left of the new dealer leads the next deal", RULES,
      "self.leader = self.tricks_done[-1].winner  # F16", "self.leader = (self.dealer + 1) % 4  # F16"),
]  # fmt: skip
