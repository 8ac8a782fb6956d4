"""The compiled search core, built with the C compiler when the package is installed: one module for each
game whose package has its C sources (``engine/games/<game>/_compiled.c`` with the rest of its ``.c`` files),
sharing the headers of ``engine/compiled``; everything else about the package is in pyproject.toml."""

from pathlib import Path

from setuptools import Extension, setup

SHARED = Path("engine/compiled")


def compiled(game: Path) -> Extension:
    return Extension(
        f"engine.games.{game.name}._compiled",
        sources=[str(p) for p in sorted(game.glob("*.c"))],
        depends=[str(p) for p in sorted([*game.glob("*.h"), *SHARED.glob("*.h")])],
        include_dirs=[str(SHARED)],
        extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra"],
    )


setup(ext_modules=[compiled(p.parent) for p in sorted(Path("engine/games").glob("*/_compiled.c"))])
