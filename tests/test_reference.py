"""Every game's engine against an independent reference model of it (its package's ``tests/reference.py``),
move by move, through one driver (``tests/reference/drive.py``).

At every step of seeded random play both must agree on the legal actions of every seat (out-of-turn ones
included), whose turn it is, the hands (so the draw order after a trick), the dealer and the leader; after
every trick on its winner and cards; after every deal on its whole record (card points, score, totals,
tricks, eggs); at the end on the winners and losers, and on what the game's driving adds.  Now and then an
action the reference holds illegal is tried, and the engine must refuse it without changing anything.  The
comparisons are each game's (``engine/games/<game>/tests/test_reference.py``).

The plain run compares a little over a thousand deals in a few seconds; the thorough run is behind the
``reference`` marker: ``.venv/bin/python -m pytest -q -n 2 -m reference``.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from engine import find_variant, variant_names
from tests.reference.drive import driving


@pytest.mark.parametrize("game", variant_names())
def test_reference_models_import_no_engine_rule_code(game: str) -> None:
    """The models stand alone: only the driver and each game's driving touch the engine, and only its public
    data API."""
    module = importlib.import_module(f"{find_variant(game).package}.tests.reference")
    source = Path(module.__file__ or "").read_text(encoding="utf-8")
    assert "from engine" not in source and "import engine" not in source, module.__name__
    assert driving(game).KINDS  # every game is driven
