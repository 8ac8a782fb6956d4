"""Builds of a game's compiled module from a copy of its sources, loaded beside the installed one: the
differential tests compare a build with a planted mistake against the pure engine, which must tell."""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from types import ModuleType

from engine.registry import Variant

SHARED = Path(__file__).resolve().parent.parent / "engine" / "compiled"


def sources_of(game: Variant) -> Path:
    """The folder of the game's C sources: its package's."""
    module = importlib.import_module(game.package)
    assert module.__file__ is not None
    return Path(module.__file__).parent


def build(game: Variant, source_dir: Path, out: Path) -> ModuleType:
    """Compile the game's module from ``source_dir`` into ``out`` and load it (beside the installed one)."""
    name = f"{game.package}._compiled"
    target = out / f"_compiled{sysconfig.get_config_var('EXT_SUFFIX')}"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    sources = sorted(str(p) for p in source_dir.glob("*.c"))
    subprocess.run(
        [compiler, "-O1", "-shared", "-fPIC", f"-I{sysconfig.get_paths()['include']}", f"-I{SHARED}", f"-I{source_dir}",
         "-o", str(target), *sources],
        check=True, capture_output=True,
    )  # fmt: skip
    installed = importlib.import_module(name)  # loading another build registers it under the same name
    loader = importlib.machinery.ExtensionFileLoader(name, str(target))
    spec = importlib.util.spec_from_file_location(name, target, loader=loader)
    assert spec is not None
    try:
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
    finally:
        sys.modules[name] = installed
    assert module is not installed
    return module


def plant(game: Variant, file: str, original: str, mistake: str, tmp_path: Path) -> ModuleType:
    """A build of the game's module with one mistake planted in a copy of its sources."""
    for path in sources_of(game).iterdir():
        if path.suffix in (".c", ".h"):
            shutil.copy(path, tmp_path / path.name)
    code = (tmp_path / file).read_text()
    assert code.count(original) == 1, f"the core no longer says {original!r}: update the mutant"
    (tmp_path / file).write_text(code.replace(original, mistake))
    return build(game, tmp_path, tmp_path)
