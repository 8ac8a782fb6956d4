"""Planted-bug check: does the rule test suite notice a one-rule bug?

    python -m bench.mutants            # every mutation, two at a time
    python -m bench.mutants --only C6  # the mutations of one rule id (or one mutation: --only C6.2)
    python -m bench.mutants --list     # the mutations, without running anything

Each mutation is one plausible programmer's mistake against one rule of the rule book (an off-by-one
boundary, a wrong comparison, order, seat or point value, a missing check): each game's are in its package's
``tests/mutants.py`` as (rule id, what goes wrong, the file of the package it edits, a snippet that occurs
there exactly once, what replaces it); those of the code every game shares are below.  For each, the script copies the
project's code and tests to a temporary folder, replaces one exact snippet of the engine (or the storage
schema) there, runs the rule tests (``RULE_TESTS``, the module of the rule's game first) with ``-x`` and
reports whether they caught it and with which test.  Every snippet must occur exactly once in the current
code: a refactoring that moves code stops the script with a clear message instead of letting a mutation
pass silently.

Prints one line per mutation, then the tally and the wall time; exits with 1 when a mutation survives.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from engine import clock, find_variant, variant_names

ROOT = Path(__file__).resolve().parent.parent


def package_folder(name: str) -> str:
    """The folder of a game's package, from the repository's root."""
    return find_variant(name).package.replace(".", "/")


# The rule tests: each game's scenario tests (its package's tests/test_rules.py), those of the state every
# game shares, and the storage tests of X2.  The property tests (each package's tests/test_properties.py) are
# left out on purpose: they take minutes, and every mutation must be caught by a named scenario test that
# pins its rule.
RULE_TESTS: tuple[str, ...] = (
    *(f"{package_folder(name)}/tests/test_rules.py" for name in variant_names()),
    "tests/test_state.py",
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


def game_mutations() -> list[Mutation]:
    """Each game's mutations (its package's ``tests/mutants.py``), their files found in its package."""
    found = []
    for name in variant_names():
        module = importlib.import_module(f"{find_variant(name).package}.tests.mutants")
        folder = package_folder(name)
        found += [m(rule, what, f"{folder}/{file}", old, new) for rule, what, file, old, new in module.MUTATIONS]
    return found


STATE = "engine/state.py"
CARDS = "engine/cards.py"

MUTATIONS: list[Mutation] = [  # of the code every game shares; each game's are in its package
    m("F4", "every deal of a series is the same shuffle (the deal number is not part of the seed)", STATE,
      'f"kozel/{seed}/{deal_no}/{attempt}"', 'f"kozel/{seed}/{attempt}"'),
    m("F4", "the dealer deals to himself first", STATE,
      "deck[(seat - dealer - 1) % num_players : end", "deck[(seat - dealer) % num_players : end"),
    m("C2", "the 32-card deck drops the sevens instead of the sixes", CARDS,
      "if r != Rank.SIX)", "if r != Rank.SEVEN)"),
    m("C6", "a redeal deals the same cards again (the attempt is not part of the seed)", STATE,
      'f"kozel/{seed}/{deal_no}/{attempt}"', 'f"kozel/{seed}/{deal_no}"'),
    m("K10", "the player to move may play any card", STATE,
      "        if action not in legal:\n", "        if action not in legal and action.seat != self.to_move:\n"),
    m("X1", "everybody sees the discards", STATE,
      "return action.kind is Kind.DISCARD and action.seat != seat", "return False"),
    m("X1", "a view shares its hand with the state", STATE,
      "hand=tuple(self.hands[seat]) if seat is not None else (),",
      "hand=self.hands[seat] if seat is not None else (),  # type: ignore[arg-type]"),
    m("X2", "a chat may open a second game", "storage/migrations/0001_initial.sql",
      "CREATE UNIQUE INDEX games_one_open_per_chat", "CREATE INDEX games_one_open_per_chat"),
    m("X2", "a finished game keeps the chat busy", "storage/migrations/0001_initial.sql",
      "WHERE status IN ('lobby', 'active')", "WHERE status IN ('lobby', 'active', 'finished')"),
    m("X3", "an action is not recorded in the history", STATE,
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
    started = clock.perf()
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
    seconds = clock.perf() - started
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

    mutations = game_mutations() + MUTATIONS
    names = label(mutations)
    check_snippets(mutations)
    chosen = [
        (n, mu) for n, mu in zip(names, mutations, strict=True) if args.only in (None, mu.rule, n)
    ]
    if not chosen:
        raise SystemExit(f"bench.mutants: no mutation matches {args.only!r}")
    if args.list:
        for name, mutation in chosen:
            print(f"{name:7} {mutation.file:36} {mutation.description}")
        return 0

    started = clock.perf()
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
    wall = clock.perf() - started
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
