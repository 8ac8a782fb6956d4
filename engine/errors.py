"""Typed errors, all under ``ValueError``, each message naming the input and the situation."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises for bad input."""


class ParseError(EngineError):
    """Text or a code that names no card, action or layout."""


class IllegalActionError(EngineError):
    """An action that is not among the legal actions of its seat at this moment."""


class NotYourTurnError(IllegalActionError):
    """An action by a seat that has nothing to do at this moment."""


class GameOverError(IllegalActionError):
    """An action after the series or game has ended."""


class UnknownVariantError(EngineError):
    """A variant name that is not registered."""


class OptionsError(EngineError):
    """Options that the variant does not accept."""
