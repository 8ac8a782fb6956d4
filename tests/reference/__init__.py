"""An independent reference model of the three games, written straight from the rule book.

Small, slow and plain on purpose: cards are strings such as ``"10♥"``, rank orders are lists copied from the
rule text, and brute force is used wherever it reads more clearly than cleverness.  Nothing here imports the
engine's rule code; the shuffle is the engine's, so each model is handed every deal as dealt and then
follows the actions.  ``tests/test_reference.py`` compares the models with the engine move by move.

An action is ``(seat, kind, cards)`` with ``cards`` a frozenset of card strings; the kinds are the words
of the engine's action log (``lead``, ``beat``, ``discard``, ``molodka``, ``play``, ``redeal``,
``exchange``, ``giveback``, ``double``).
"""
