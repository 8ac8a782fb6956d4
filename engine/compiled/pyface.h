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

#endif
