"""The compiled search core: each game's rules again, on bit masks in C, for the computer players' search.

The pure engine stays the rules; this is a second, compact form of them for search only, held to the pure
engine by the differential tests (tests/test_compiled.py).  It is built with the C compiler when the package
is installed (setup.py); ``core()`` names what to do when it was not.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from engine.registry import Variant


class CoreMissingError(RuntimeError):
    """The compiled core was not built (the package was installed without a C compiler)."""


def core() -> ModuleType:
    """The compiled module; raises ``CoreMissingError`` with what to do, never falls back to anything weaker."""
    try:
        return importlib.import_module("engine.compiled._core")
    except ImportError as exc:
        raise CoreMissingError(
            "the compiled search core (engine/compiled) is not built: install a C compiler "
            "(Debian: apt install gcc python3-dev) and run the install again (make clean && make test)"
        ) from exc


def of(variant: Variant) -> ModuleType | None:
    """The game's module of the compiled core (``Variant.core``), or None for a game that has none yet."""
    return importlib.import_module(variant.core) if variant.core else None
