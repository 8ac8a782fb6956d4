"""The games, one package each: a game's package holds everything that is particular to it (its rules, its
compiled core, its computer players' heuristics, worlds and search tuning, its presenter, its options and
the configurations tests and benches play), and registers it (``engine.registry``) when it is imported.

A game is added by its package and its line in ``PACKAGES``; their order is the order the bot offers the
games in, and the first is a chat's game until it picks another (docs/games.md).
"""

import importlib

PACKAGES = (
    "four_card",
    "classic",
    "czech",
)

for _package in PACKAGES:
    importlib.import_module(f"engine.games.{_package}")
