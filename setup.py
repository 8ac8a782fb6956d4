"""The compiled search core (engine/compiled), built with the C compiler when the package is installed;
everything else about the package is in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine.compiled._core",
            sources=[
                "engine/compiled/_core.c",
                "engine/compiled/four_card.c",
                "engine/compiled/four_card_solve.c",
                "engine/compiled/classic.c",
                "engine/compiled/classic_solve.c",
                "engine/compiled/czech.c",
                "engine/compiled/czech_solve.c",
            ],
            depends=[
                "engine/compiled/four_card.h",
                "engine/compiled/classic.h",
                "engine/compiled/czech.h",
                "engine/compiled/table.h",
            ],
            extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra"],
        )
    ]
)
