"""The compiled core's edges, in every game that has one: it checks every word of the position it is given
(a malformed one is refused with ValueError, never read past an array), and solves from several threads at
once as it does from one (each thread has its own transposition table and node count)."""

from __future__ import annotations

import importlib
import random
from array import array
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from types import ModuleType

import pytest

from engine import GameState, find_variant, variant_names
from engine.compiled import CompiledGame, load
from engine.players.search import heuristic_step
from engine.registry import samples

COMPILED = [name for name in variant_names() if find_variant(name).compiled is not None]
# Values no word of a position may take whole: negative, past a card's code, past 32 bits, every bit set.
WILD = (-(2**62), -2, -1, 64, 2**31, 2**40, 2**63 - 1)


def module_of(name: str) -> ModuleType:
    """The game's compiled module itself (its bridge checks nothing the module would not)."""
    return importlib.import_module(f"{find_variant(name).package}._compiled")


def positions(name: str, count: int, seed: int, until: Callable[[CompiledGame, GameState], bool]) -> list[bytes]:
    """Positions of deals played by the heuristics, each taken where ``until`` first holds."""
    variant, core = find_variant(name), load(find_variant(name))
    assert core is not None
    rng, found = random.Random(seed), list[bytes]()
    options = dict(variant.samples[0])
    while len(found) < count:
        state = variant.new_game(rng.getrandbits(40), options)
        while len(state.deals) < variant.typical_deal and state.outcome is None:
            heuristic_step(state)
        deal = len(state.deals)
        while len(state.deals) == deal and state.outcome is None and not until(core, state):
            heuristic_step(state)
        if len(state.deals) == deal and state.outcome is None:
            found.append(core.encode_state(state))
    return found


def in_card_play(core: CompiledGame, state: GameState) -> bool:
    return core.solvable(state, 99)


def words(data: bytes) -> list[int]:
    found = array("q")
    found.frombytes(data)
    return list(found)


def packed(values: list[int]) -> bytes:
    return array("q", values).tobytes()


@pytest.mark.parametrize("name", COMPILED)
def test_every_word_of_a_position_is_checked(name: str) -> None:
    """Each word set to values no position holds: the core refuses it, or reads a position it may (a word
    with a wide range); it never crashes (under ``make sanitize`` it never reads or writes out of bounds)."""
    module = module_of(name)
    refused = 0
    for data in positions(name, 6, 3, in_card_play):
        original = words(data)
        assert module.legal(data)  # the position as it is, read
        for index in range(len(original)):
            for value in WILD:
                mutant = packed([*original[:index], value, *original[index + 1 :]])
                try:
                    module.legal(mutant)
                except ValueError:
                    refused += 1
    assert refused >= 0.9 * 6 * len(words(positions(name, 1, 3, in_card_play)[0])) * len(WILD)


@pytest.mark.parametrize("name", COMPILED)
def test_a_malformed_hand_is_refused_not_read_past_its_array(name: str) -> None:
    """A hand of every card, of a whole suit, or of cards the deck has not: refused, each with what is wrong."""
    module = module_of(name)
    data = positions(name, 1, 5, in_card_play)[0]
    original = words(data)
    first_hand = next(i for i, w in enumerate(original) if w and bin(w).count("1") > 1)
    for bad in (0x7FFFFFFFFFFFFFFF, 0x7FC0, 0xFFFF, 1 << 63 >> 1, 0b111111):
        with pytest.raises(ValueError, match=r"not a .* position"):
            module.legal(packed([*original[:first_hand], bad, *original[first_hand + 1 :]]))
    with pytest.raises(ValueError, match="bytes"):
        module.legal(data[:-8])


def random_positions(rng: random.Random, count: int, size: int) -> list[bytes]:
    """Positions of random words: mostly small numbers, sometimes masks."""
    found = []
    for _ in range(count):
        found.append(packed([rng.choice((rng.randrange(-2, 8), rng.getrandbits(64) - 2**63)) for _ in range(size)]))
    return found


@pytest.mark.parametrize("name", COMPILED)
def test_random_words_never_crash_the_core(name: str) -> None:
    module = module_of(name)
    size = len(words(positions(name, 1, 7, in_card_play)[0]))
    for data in random_positions(random.Random(name), 3000, size):
        try:
            module.legal(data)
        except ValueError:
            continue


@pytest.mark.parametrize(("name", "options"), [s for s in samples() if s[0] in COMPILED])
def test_solves_in_parallel_threads_are_the_solves_of_one_thread(name: str, options: dict[str, object]) -> None:
    """Solves run with the GIL released: from four threads at once each gives the value and the node count it
    gives alone (a table shared by the threads changed the node counts of most solves)."""
    core = load(find_variant(name))
    assert core is not None
    found = positions(name, 24, 11, lambda c, s: c.solvable(s))
    alone = [core.solve(data) for data in found]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(core.solve, found))
    assert together == alone
    assert len({nodes for _, nodes in alone}) > 1  # the solves differ: a mix-up would show
