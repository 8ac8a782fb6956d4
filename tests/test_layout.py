"""The shape the README promises: each game is its package and nothing else knows a game; each layer imports
only those below it; small modules in ``bot/``; handlers that reach storage and the publisher only through
the use cases; one clock."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from engine import find_variant, variant_names

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "bot"
GAMES = ROOT / "engine" / "games"
PACKAGES = ("engine", "storage", "bot", "playground", "bench", "tests")
MAX_LINES = 400


def modules() -> list[Path]:
    return sorted(BOT.rglob("*.py"))


def test_no_module_of_the_bot_is_long() -> None:
    long = {str(p.relative_to(BOT)): n for p in modules() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}


# --- each game is its package ---------------------------------------------------------------------------------


def outside_the_games() -> Iterator[Path]:
    """Every Python module of the project but those of a game's package (and the games' registration)."""
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if GAMES not in path.parents:
                yield path


def game_words() -> set[str]:
    """What names a game in code: its name."""
    return set(variant_names())


def docstrings(tree: ast.Module) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def conditions(tree: ast.Module) -> Iterator[ast.expr]:
    """Every expression that decides which way the code goes."""
    for node in ast.walk(tree):
        if isinstance(node, ast.If | ast.While | ast.IfExp):
            yield node.test
        elif isinstance(node, ast.comprehension):
            yield from node.ifs
        elif isinstance(node, ast.match_case) and node.guard is not None:
            yield node.guard


def asks_which_game(condition: ast.expr, words: set[str]) -> bool:
    """A comparison with a game's name, or of a ``variant``/``VARIANT`` with any text."""
    for node in ast.walk(condition):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(n, ast.Constant) and n.value in words for side in sides for n in ast.walk(side)):
                return True
            named = [not isinstance(side, ast.Constant) and "variant" in ast.unparse(side).lower() for side in sides]
            texts = [isinstance(side, ast.Constant) and isinstance(side.value, str) for side in sides]
            if any(named) and any(texts):
                return True
    return False


def game_constants(tree: ast.Module, words: set[str]) -> dict[str, str]:
    """The module's names that hold a game's name (``FOUR = "four_card"``)."""
    return {
        target.id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Constant)
        and node.value.value in words
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    }  # fmt: skip


def games_listed(node: ast.AST, words: set[str], named: dict[str, str] | None = None) -> set[str]:
    """The game names a list, tuple, set or dict written in the code holds, by their text or by a name that
    holds it."""
    if not isinstance(node, ast.List | ast.Tuple | ast.Set | ast.Dict):
        return set()
    named = named or {}
    items = [k for k in node.keys if k is not None] if isinstance(node, ast.Dict) else node.elts
    found = {n.value for item in items for n in ast.walk(item) if isinstance(n, ast.Constant) and n.value in words}
    return found | {named[n.id] for item in items for n in ast.walk(item) if isinstance(n, ast.Name) and n.id in named}


def matches_a_game(tree: ast.Module, words: set[str]) -> Iterator[ast.match_case]:
    """The ``case``s of a ``match`` that pick a game: by its name, or a text when what is matched is a variant."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Match):
            on_variant = "variant" in ast.unparse(node.subject).lower()
            for case in node.cases:
                values = [p.value for p in ast.walk(case.pattern) if isinstance(p, ast.MatchValue)]
                texts = [v.value for v in values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
                if any(text in words for text in texts) or (on_variant and texts):
                    yield case


def games_imported(tree: ast.Module) -> set[str]:
    """The games whose packages a module imports (``engine.games.<game>...``)."""
    modules = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    modules += [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module]
    modules += [
        f"engine.games.{a.name}" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module == "engine.games"
        for a in n.names
    ]  # fmt: skip
    return {m.split(".")[2] for m in modules if m.startswith("engine.games.") and m.split(".")[2] in game_words()}


def test_no_code_outside_a_game_asks_which_game_it_is_or_lists_the_games() -> None:
    """A game is its package: outside the games' packages no condition compares with a game's name or asks
    what a variant is, and nothing lists two games or more (tests and benches ask the registry: its names,
    its samples).  Code that is not a test names no game at all but in its docstrings (a test may pick one
    game for a scenario of that game, and say what it expects of it)."""
    words = game_words()
    found = []
    for path in outside_the_games():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(ROOT)
        named = game_constants(tree, words)
        found += [f"{where}:{c.lineno} asks which game" for c in conditions(tree) if asks_which_game(c, words)]
        found += [f"{where}:{c.pattern.lineno} matches a game" for c in matches_a_game(tree, words)]
        found += [
            f"{where}:{getattr(n, 'lineno', 0)} lists {sorted(g)}"
            for n in ast.walk(tree)
            if len(g := games_listed(n, words, named)) > 1
        ]
        imported = games_imported(tree)  # a test may import the one game its scenario is of; code, none
        if len(imported) > (1 if where.parts[0] == "tests" else 0):
            found.append(f"{where} imports the packages of {sorted(imported)}")
        if where.parts[0] != "tests":
            skip = docstrings(tree)
            found += [
                f"{where}:{n.lineno} names {n.value}"
                for n in ast.walk(tree)
                if isinstance(n, ast.Constant) and n.value in words and id(n) not in skip
            ]
    assert found == []


def test_the_game_check_sees_what_it_looks_for() -> None:
    words = game_words()
    name = next(iter(words))
    tree = ast.parse(f"if variant == 'x': pass\nif x in ({name!r}, 'y'): pass\nz = [a for a in b if a.VARIANT != 'q']")
    assert sum(asks_which_game(c, words) for c in conditions(tree)) == 3
    other = next(iter(words - {name}), name)
    assert games_listed(ast.parse(f"{{{name!r}: 1, {other!r}: 2}}").body[0].value, words) == {name, other}  # type: ignore[attr-defined]
    constants = ast.parse(f"A = {name!r}\nB: str = {other!r}\nGAMES = (A, B)")
    named = game_constants(constants, words)
    assert games_listed(constants.body[2].value, words, named) == {name, other}  # type: ignore[attr-defined]
    matching = ast.parse(f"match x:\n    case {name!r}: pass\nmatch state.variant:\n    case 'q' | 'r': pass\n")
    assert len(list(matches_a_game(matching, words))) == 2
    importing = ast.parse(f"from engine.games.{name}.rules import X\nimport engine.games.{other}\n"
                          f"from engine.games import {name}\nfrom engine.games import PACKAGES")  # fmt: skip
    assert games_imported(importing) == {name, other}
    assert f"engine/games/{name}/rules.py" not in {str(p.relative_to(ROOT)) for p in outside_the_games()}
    assert "engine/games/__init__.py" not in {str(p.relative_to(ROOT)) for p in outside_the_games()}
    assert find_variant(name).package == f"engine.games.{name}"


def test_handlers_import_neither_storage_nor_the_publisher() -> None:
    imported = set()
    for path in (BOT / "handlers").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
            elif isinstance(node, ast.Import):
                imported |= {a.name for a in node.names}
    assert {m for m in imported if m.split(".")[0] == "storage" or "publisher" in m} == set()
    assert any(m.startswith("bot.usecases.wiring") for m in imported)  # the test looks at the right files


CLOCK = BOT / "clock.py"
CLOCKS = (CLOCK, ROOT / "engine" / "clock.py")  # the loop's clock, and the process's
TIME_READERS = {  # what reads the time or waits on it, by the names a module would call it
    ("time", "time"), ("time", "monotonic"), ("time", "perf_counter"), ("time", "sleep"), ("time", "process_time"),
    ("time", "thread_time"), ("time", "time_ns"), ("time", "monotonic_ns"), ("time", "perf_counter_ns"),
    ("datetime", "now"), ("datetime", "utcnow"), ("date", "today"),
    ("asyncio", "sleep"), ("asyncio", "wait_for"), ("asyncio", "timeout"),
}  # fmt: skip
LOOP_TIMERS = {"call_later", "call_at"}


def imported_as(tree: ast.Module) -> dict[str, str]:
    """What the module's names of modules and classes stand for: ``import time as t`` makes ``t`` time,
    ``from datetime import datetime as dt`` makes ``dt`` datetime."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.asname or a.name: a.name.split(".")[-1] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names |= {a.asname or a.name: a.name for a in node.names}
    return names


def what_is_asked(node: ast.expr, names: dict[str, str]) -> str | None:
    """What an attribute is read of: a module or class by what it was imported as (``datetime.datetime``
    is datetime), and ``loop`` for an event loop however it was reached."""
    text = ast.unparse(node)
    if text.endswith(("get_running_loop()", "get_event_loop()")) or re.search(r"(^|\.|_)loop$", text):
        return "loop"
    if isinstance(node, ast.Name):
        return names.get(node.id, node.id)
    return node.attr if isinstance(node, ast.Attribute) else None


def clock_reads(tree: ast.Module) -> Iterator[tuple[ast.Attribute, str | None]]:
    """Every attribute read that reads the time or waits on it, with what it is read of."""
    names = imported_as(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            base = what_is_asked(node.value, names)
            timer = node.attr in LOOP_TIMERS and not ast.unparse(node.value).endswith("clock")
            if (base, node.attr) in TIME_READERS or timer or (node.attr == "time" and base == "loop"):
                yield node, base


def time_readers(path: Path) -> list[str]:
    """Where a module reads the time or waits on it other than through the injected clock."""
    tree = ast.parse(path.read_text())
    found = [f"{path.name}:{node.lineno} {base}.{node.attr}" for node, base in clock_reads(tree)]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in ("time", "asyncio"):
            names = {a.name for a in node.names}
            if any((node.module, n) in TIME_READERS for n in names):
                found.append(f"{path.name}:{node.lineno} from {node.module} import {sorted(names)}")
    return found


def test_one_clock_reads_the_time_in_every_package() -> None:
    """Nothing but the clocks reads the time or waits on it: ``bot/clock.py`` on the event loop (so on a loop
    on virtual time the bot's waits, the outbox's budgets and the embedded server's flood control keep one
    clock) and ``engine/clock.py`` outside it (the players' budgets, the simulator, the benches' timings,
    storage's stamps where no clock is handed).  Everything else is handed one of them.  The tests keep
    their own rule (below): on virtual time they read no wall clock."""
    readers = [
        r
        for package in ("engine", "storage", "bot", "playground", "bench")
        for p in sorted((ROOT / package).rglob("*.py"))
        if p not in CLOCKS and layer_of(p) != "tests"
        for r in time_readers(p)
    ]
    assert readers == []
    assert all(time_readers(clock) for clock in CLOCKS)  # the check sees what it looks for


def test_the_clock_check_sees_every_way_of_reading_the_time(tmp_path: Path) -> None:
    ways = [
        "import time as t\nt.monotonic()",
        "import datetime\ndatetime.datetime.now()",
        "from datetime import datetime as dt\ndt.now()",
        "import asyncio\nasyncio.get_running_loop().time()",
        "self._loop.time()",
        "from time import perf_counter",
        "loop.call_later(1, f)",
    ]
    for n, code in enumerate(ways):
        path = tmp_path / f"m{n}.py"
        path.write_text(code)
        assert len(time_readers(path)) == 1, code
    path.write_text("self.clock.call_later(1, f)\nx.time\nimport datetime\ndatetime.timedelta(1)")
    assert time_readers(path) == []


def imports_of(path: Path) -> set[str]:
    """The ``bot`` modules a module imports, those behind ``TYPE_CHECKING`` too."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "bot":
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "bot"}
    return found


def test_no_module_of_the_bot_imports_itself_through_others() -> None:
    names = {".".join(p.relative_to(BOT.parent).with_suffix("").parts).removesuffix(".__init__"): p for p in modules()}
    graph = {name: {m for m in imports_of(path) if m in names and m != name} for name, path in names.items()}
    cycles = []

    def visit(name: str, path: list[str]) -> None:
        for other in graph[name]:
            if other in path:
                cycles.append([*path[path.index(other) :], other])
            elif len(path) < len(graph):
                visit(other, [*path, other])

    for start in sorted(graph):
        visit(start, [start])
    assert cycles == []
    assert imports_of(CLOCK) == set()  # the clock and the task set need nothing of the bot


WALL_CLOCK = {("time", "time"), ("time", "monotonic"), ("time", "perf_counter"), ("datetime", "now")}


def wall_clock_readers(tree: ast.Module) -> dict[str, int]:
    """The functions of a test module that read the wall clock (by name), and where."""
    names = imported_as(tree)
    found: dict[str, int] = {}
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(function):
                if isinstance(node, ast.Attribute) and (what_is_asked(node.value, names), node.attr) in WALL_CLOCK:
                    found.setdefault(function.name, node.lineno)
    return found


def on_real_time(tree: ast.Module) -> set[str]:
    """The functions marked ``real_time`` (or all, when the module is), and the helpers only they call."""
    marked = any(  # pytestmark = pytest.mark.real_time
        isinstance(n, ast.Assign) and "pytestmark" in ast.unparse(n.targets[0]) and "real_time" in ast.unparse(n.value)
        for n in tree.body
    )
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    real = {f.name for f in functions if marked or any("real_time" in ast.unparse(d) for d in f.decorator_list)}
    callers: dict[str, set[str]] = {f.name: set() for f in functions}
    for f in functions:
        for node in ast.walk(f):
            if isinstance(node, ast.Name) and node.id in callers and node.id != f.name:
                callers[node.id].add(f.name)
    changed = True
    while changed:  # a helper used only by real-time tests (or by such helpers) runs on real time too
        changed = False
        for name, by in callers.items():
            if name not in real and by and by <= real:
                real.add(name)
                changed = True
    return real


def test_no_test_on_virtual_time_reads_the_wall_clock() -> None:
    """A test on virtual time measures with the loop's clock: a wall-clock tolerance would make its result
    depend on the machine's load."""
    readers, allowed = [], 0
    for path in sorted([*(ROOT / "tests").glob("*.py"), *GAMES.glob("*/tests/*.py")]):
        tree = ast.parse(path.read_text())
        real = on_real_time(tree)
        found = wall_clock_readers(tree)
        readers += [f"{path.name}:{line} {name}" for name, line in found.items() if name not in real]
        allowed += len(found.keys() & real)
    assert readers == []
    assert allowed  # the check sees what it looks for: the real-time tests read the wall clock


def test_storage_stamps_rows_with_the_bots_clock_never_sqlites() -> None:
    """No statement asks SQLite for the time ('now', CURRENT_TIMESTAMP): rows are stamped by ``storage.db.NOW``,
    which reads the clock the storage was opened with."""
    asking = [
        f"{p.relative_to(ROOT)}:{i}"
        for package in PACKAGES
        if package != "tests"
        for p in sorted((ROOT / package).rglob("*.py"))
        for i, line in enumerate(p.read_text().splitlines(), 1)
        if re.search(r"'now'|current_timestamp|current_time|current_date", line, re.IGNORECASE)
    ]
    assert asking == []  # the migrations' schema: tests/test_storage.py, test_no_column_defaults_to_sqlites_clock


def test_the_playgrounds_page_names_no_game() -> None:
    """The page asks the server, which asks the registry."""
    words = game_words()
    naming = [
        f"{p.name}:{i}"
        for p in sorted((ROOT / "playground" / "static").rglob("*"))
        if p.suffix in (".js", ".html", ".css")
        for i, line in enumerate(p.read_text().splitlines(), 1)
        if any(re.search(rf"[\"'`]{word}[\"'`]", line) for word in words)
    ]
    assert naming == []


# --- layers ------------------------------------------------------------------------------------------------

BELOW = {  # what each layer may import of the project
    "engine": {"engine"},
    "storage": {"engine", "storage"},
    "bot": {"engine", "storage", "bot"},
    "playground": {"engine", "storage", "bot", "playground"},
    "entry": {"engine", "storage", "bot", "playground"},  # python -m bot: the bot in Telegram, or the playground
}


def project_imports(path: Path) -> set[str]:
    """The top-level packages of the project a module imports."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
    return found & set(PACKAGES)


def layer_of(path: Path) -> str:
    """The layer a module belongs to: its package's, but a game's presenter belongs to the bot, a game's
    tests to the tests, and the program's entry point stands above the bot and the playground it picks."""
    relative = path.relative_to(ROOT)
    if relative == Path("bot/__main__.py"):
        return "entry"
    if GAMES in path.parents and path.parent != GAMES:
        inside = path.relative_to(GAMES).parts
        if inside[1] == "tests":
            return "tests"
        if inside[1] == "present.py":
            return "bot"
    return relative.parts[0]


def test_each_layer_imports_only_the_layers_below_it() -> None:
    """The engine imports nothing of the project but itself, storage only the engine, the bot no
    playground, bench or tests; a game's presenter is the bot's part of the game, so it may import the bot,
    and nothing in the engine imports it (it is found through the registry)."""
    wrong = []
    for package in BELOW:
        for path in sorted((ROOT / package).rglob("*.py")):
            layer = layer_of(path)
            if layer in BELOW and (extra := project_imports(path) - BELOW[layer]):
                wrong.append(f"{path.relative_to(ROOT)} ({layer}) imports {sorted(extra)}")
    assert wrong == []
    presenters = sorted(GAMES.glob("*/present.py"))
    assert presenters and all(layer_of(p) == "bot" for p in presenters)
    for path in (ROOT / "engine").rglob("*.py"):
        if layer_of(path) == "engine":
            assert not any(".present" in m for m in modules_imported(path)), path


def modules_imported(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return found


SKIPPED = {".git", ".venv", "build", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis"}


def project_files() -> Iterator[tuple[Path, str]]:
    """Every file of the project that is text, but what tools and builds leave."""
    for path in sorted(ROOT.rglob("*")):
        inside = path.relative_to(ROOT).parts
        if path.is_file() and not SKIPPED & set(inside) and not any(p.endswith(".egg-info") for p in inside):
            try:
                yield path.relative_to(ROOT), path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue


def test_a_new_game_is_its_package_its_catalogue_entries_and_one_line_of_registration() -> None:
    """Outside a game's package its name is written only in its catalogue entries and its line of
    ``engine/games/__init__.py``: no build file, C source, stylesheet, script or configuration lists it.
    Python code outside the packages is held to it by the check above (a docstring may name a game, a test
    may pick one for its scenario), and the docs may name any game."""
    catalogues = {f"bot/locales/{lang}/LC_MESSAGES/kozel.po" for lang in ("en", "ru", "cs")}
    files = list(project_files())
    assert len(files) > 100 and catalogues <= {str(where) for where, _ in files}  # the scan reads the project
    for name in game_words():
        package = Path(*find_variant(name).package.split("."))
        naming = {
            str(where)
            for where, text in files
            if package not in where.parents and where.suffix not in (".py", ".md", ".pyi")
            and re.search(rf"\b{name}\b", text)
        }  # fmt: skip
        assert naming == catalogues, name
        registration = (ROOT / "engine" / "games" / "__init__.py").read_text()
        assert registration.count(f'"{name}"') == 1, name
