/* What every game's compiled module shares in talking to Python: a position crosses as bytes holding int64
 * values (the layout is the game's compiled.py's), so that no C structure's padding is part of the interface;
 * each game's _compiled.c includes this and registers its own methods. */
#ifndef KOZEL_PYFACE_H
#define KOZEL_PYFACE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* A position's int64 words out of its bytes, which must be exactly ``count`` of them. */
static inline int read_words(PyObject *data, int64_t *w, int count, const char *game) {
    char *bytes;
    Py_ssize_t size;
    if (PyBytes_AsStringAndSize(data, &bytes, &size) < 0) return -1;
    if (size != (Py_ssize_t)count * 8) {
        PyErr_Format(PyExc_ValueError, "a %s position is %d bytes, not %zd", game, count * 8, size);
        return -1;
    }
    memcpy(w, bytes, (size_t)count * 8);
    return 0;
}

/* The one-card games: the legal cards as a list of codes, and whether a card is among them. */
static inline PyObject *card_list(const int *cards, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(cards[i]));
    return list;
}

static inline int check_legal(int card, const int *cards, int n) {
    for (int i = 0; i < n; i++)
        if (cards[i] == card) return 0;
    PyErr_SetString(PyExc_ValueError, "not a legal card in this position");
    return -1;
}

/* A step's answer: (the position after it, whether the deal is over); takes over ``packed``. */
static inline PyObject *step_result(PyObject *packed, int over) {
    if (!packed) return NULL;
    return Py_BuildValue("(NO)", packed, over ? Py_True : Py_False);
}

/* Every word of a position is checked before it is read into a game's structure: the solvers index arrays
 * by what the words say (cards by code, seats, plays), so a word out of its range is refused here. */
enum { VALID_36 = 0, VALID_32 = 1 };
static const uint64_t VALID_CARDS[2] = {0x7FC07FC07FC07FC0ULL, 0x7F807F807F807F80ULL}; /* 6..A, 7..A of 4 suits */

/* ValueError naming what is wrong with a position (and -1), or 0 when ``ok``. */
static inline int require(int ok, const char *game, const char *what) {
    if (ok) return 0;
    PyErr_Format(PyExc_ValueError, "not a %s position: %s", game, what);
    return -1;
}

static inline int within(int64_t value, int64_t low, int64_t high) { return value >= low && value <= high; }

/* A set of cards of the deck, of at most ``most`` cards. */
static inline int cards_ok(int64_t mask, int deck, int most) {
    uint64_t bits = (uint64_t)mask;
    return (bits & ~VALID_CARDS[deck]) == 0 && __builtin_popcountll(bits) <= most;
}

/* One card of the deck, by its code. */
static inline int card_ok(int64_t code, int deck) {
    return within(code, 0, 63) && (VALID_CARDS[deck] >> code & 1);
}

#endif
