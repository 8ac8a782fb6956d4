"""The games, one package each: a game's package holds everything that is particular to it (its rules, its
compiled core, its computer players' heuristics, worlds and search tuning, its presenter, its options and
the configurations tests and benches play), and registers it (``engine.registry``).

A game is added by its package and its line below; the lines' order is the order the bot offers the games
in, and the first is a chat's game until it picks another (docs/games.md).
"""

from engine.games import classic as classic
from engine.games import czech as czech
from engine.games import four_card as four_card
