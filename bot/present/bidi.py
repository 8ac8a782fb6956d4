"""The Unicode bidirectional algorithm (UAX #9) for one line of text without explicit embeddings, as the
pictures need it for names: which characters run right to left, and in what order the runs are drawn."""

from __future__ import annotations

from collections.abc import Sequence


def _strong(kind: str) -> str:
    return "L" if kind == "L" else "R"  # R, and numbers, which count as R for the neutrals (N1)


def levels(kinds: Sequence[str]) -> tuple[int, list[int]]:
    """The paragraph's level and each character's, given the characters' bidirectional classes: rules P2-P3,
    W1-W7, N1-N2, I1-I2 and L1.  Explicit embeddings and isolates count as nothing (names do not need them)."""
    base = next((1 if k in ("R", "AL") else 0 for k in kinds if k in ("L", "R", "AL")), 0)
    edge = "R" if base else "L"
    kinds_ = ["BN" if k in ("LRE", "LRO", "RLE", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI") else k for k in kinds]
    n = len(kinds_)
    for i in range(n):  # W1: a mark (and what X9 drops) is what it follows
        if kinds_[i] in ("NSM", "BN"):
            kinds_[i] = kinds_[i - 1] if i else edge
    last = edge
    for i in range(n):  # W2, W3
        if kinds_[i] in ("L", "R", "AL"):
            last = kinds_[i]
        elif kinds_[i] == "EN" and last == "AL":
            kinds_[i] = "AN"
    kinds_ = ["R" if k == "AL" else k for k in kinds_]
    for i in range(1, n - 1):  # W4
        if kinds_[i] == "ES" and kinds_[i - 1] == kinds_[i + 1] == "EN":
            kinds_[i] = "EN"
        elif kinds_[i] == "CS" and kinds_[i - 1] == kinds_[i + 1] and kinds_[i - 1] in ("EN", "AN"):
            kinds_[i] = kinds_[i - 1]
    i = 0
    while i < n:  # W5: terminators by a European number are of it
        if kinds_[i] == "ET":
            j = i
            while j < n and kinds_[j] == "ET":
                j += 1
            if (i and kinds_[i - 1] == "EN") or (j < n and kinds_[j] == "EN"):
                kinds_[i:j] = ["EN"] * (j - i)
            i = j
        else:
            i += 1
    kinds_ = ["ON" if k in ("ES", "ET", "CS") else k for k in kinds_]  # W6
    last = edge
    for i in range(n):  # W7
        if kinds_[i] in ("L", "R"):
            last = kinds_[i]
        elif kinds_[i] == "EN" and last == "L":
            kinds_[i] = "L"
    neutral = ("B", "S", "WS", "ON")
    i = 0
    while i < n:  # N1, N2: neutrals between the same direction take it, others the paragraph's
        if kinds_[i] in neutral:
            j = i
            while j < n and kinds_[j] in neutral:
                j += 1
            before = _strong(kinds_[i - 1]) if i else edge
            after = _strong(kinds_[j]) if j < n else edge
            kinds_[i:j] = [before if before == after else edge] * (j - i)
            i = j
        else:
            i += 1
    found = []
    for kind in kinds_:  # I1, I2
        if base % 2 == 0:
            found.append(base + (1 if kind == "R" else 2 if kind in ("AN", "EN") else 0))
        else:
            found.append(base + (1 if kind in ("L", "EN", "AN") else 0))
    for i in range(n - 1, -1, -1):  # L1: the line's trailing white space at the paragraph's level
        if kinds[i] not in ("WS", "S", "B", "BN"):
            break
        found[i] = base
    return base, found


def visual_order(levels_: Sequence[int]) -> list[int]:
    """The visual order of items at ``levels_`` (rule L2): from the highest level down to the lowest odd one,
    each stretch at that level or higher is reversed."""
    order = list(range(len(levels_)))
    odd = [level for level in levels_ if level % 2]
    if not odd:
        return order
    for level in range(max(levels_), min(odd) - 1, -1):
        i = 0
        while i < len(order):
            if levels_[order[i]] >= level:
                j = i
                while j < len(order) and levels_[order[j]] >= level:
                    j += 1
                order[i:j] = order[i:j][::-1]
                i = j
            else:
                i += 1
    return order
