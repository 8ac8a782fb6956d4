/* The Python face of the compiled search core: a position crosses as bytes holding int64 values (the layout
 * is engine/compiled/four_card.py's), so that no C structure's padding is part of the interface. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "classic.h"
#include "czech.h"
#include "four_card.h"

enum { FC_WORDS = 49, CL_WORDS = 25, CZ_WORDS = 42 };

/* A position's int64 words out of its bytes, which must be exactly ``count`` of them. */
static int read_words(PyObject *data, int64_t *w, int count, const char *game) {
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
static PyObject *card_list(const int *cards, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(cards[i]));
    return list;
}

static int check_legal(int card, const int *cards, int n) {
    for (int i = 0; i < n; i++)
        if (cards[i] == card) return 0;
    PyErr_SetString(PyExc_ValueError, "not a legal card in this position");
    return -1;
}

/* A step's answer: (the position after it, whether the deal is over); takes over ``packed``. */
static PyObject *step_result(PyObject *packed, int over) {
    if (!packed) return NULL;
    return Py_BuildValue("(NO)", packed, over ? Py_True : Py_False);
}

static int unpack(PyObject *data, FourCard *s) {
    int64_t w[FC_WORDS];
    if (read_words(data, w, FC_WORDS, "four-card") < 0) return -1;
    memset(s, 0, sizeof *s);
    for (int i = 0; i < 4; i++) s->hand[i] = (uint64_t)w[i];
    s->stock_len = (int)w[4];
    if (s->stock_len < 0 || s->stock_len > 20) {
        PyErr_SetString(PyExc_ValueError, "a stock holds 0 to 20 cards");
        return -1;
    }
    for (int i = 0; i < 20; i++) s->stock[i] = (uint8_t)w[5 + i];
    s->trump = (int)w[25], s->to_move = (int)w[26], s->trick_leader = (int)w[27], s->lead_seat = (int)w[28];
    s->molodka = (int)w[29], s->top = (int)w[30], s->answered = (int)w[31], s->nplays = (int)w[32];
    if (s->nplays < 0 || s->nplays > 4 || s->to_move < 0 || s->to_move > 3 || s->top > s->nplays) {
        PyErr_SetString(PyExc_ValueError, "not a four-card position");
        return -1;
    }
    for (int i = 0; i < 4; i++) {
        s->plays[i].seat = (int)w[33 + i], s->plays[i].kind = (int)w[37 + i];
        s->plays[i].cards = (uint64_t)w[41 + i];
    }
    s->points[0] = (int)w[45], s->points[1] = (int)w[46], s->tricks[0] = (int)w[47], s->tricks[1] = (int)w[48];
    return 0;
}

static PyObject *pack(const FourCard *s) {
    int64_t w[FC_WORDS] = {0};
    for (int i = 0; i < 4; i++) w[i] = (int64_t)s->hand[i];
    w[4] = s->stock_len - s->stock_pos; /* what is still to draw, first */
    for (int i = s->stock_pos; i < s->stock_len; i++) w[5 + i - s->stock_pos] = s->stock[i];
    w[25] = s->trump, w[26] = s->to_move, w[27] = s->trick_leader, w[28] = s->lead_seat;
    w[29] = s->molodka, w[30] = s->top, w[31] = s->answered, w[32] = s->nplays;
    for (int i = 0; i < s->nplays; i++) {
        w[33 + i] = s->plays[i].seat, w[37 + i] = s->plays[i].kind, w[41 + i] = (int64_t)s->plays[i].cards;
    }
    w[45] = s->points[0], w[46] = s->points[1], w[47] = s->tricks[0], w[48] = s->tricks[1];
    return PyBytes_FromStringAndSize((const char *)w, sizeof w);
}

static PyObject *four_card_legal(PyObject *self, PyObject *arg) {
    (void)self;
    FourCard s;
    if (unpack(arg, &s) < 0) return NULL;
    FcAction out[FC_MAX_ACTIONS];
    int n = fc_legal(&s, out);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *item = Py_BuildValue("(iiK)", out[i].seat, out[i].kind, (unsigned long long)out[i].cards);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

static PyObject *four_card_step(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *data;
    int seat, kind;
    unsigned long long cards;
    if (!PyArg_ParseTuple(args, "SiiK", &data, &seat, &kind, &cards)) return NULL;
    FourCard s;
    if (unpack(data, &s) < 0) return NULL;
    FcAction out[FC_MAX_ACTIONS];
    int n = fc_legal(&s, out), found = -1;
    for (int i = 0; i < n && found < 0; i++)
        if (out[i].seat == seat && out[i].kind == kind && out[i].cards == cards) found = i;
    if (found < 0) {
        PyErr_SetString(PyExc_ValueError, "not a legal action in this position");
        return NULL;
    }
    int over = fc_apply(&s, out[found]);
    return step_result(pack(&s), over);
}

static PyObject *four_card_defeat_points(PyObject *self, PyObject *args) {
    (void)self;
    int points, tricks;
    if (!PyArg_ParseTuple(args, "ii", &points, &tricks)) return NULL;
    return PyLong_FromLong(fc_defeat_points(points, tricks));
}

static PyObject *four_card_solve(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *data;
    int passed = 0, same_world = 0;
    if (!PyArg_ParseTuple(args, "S|ip", &data, &passed, &same_world)) return NULL;
    FourCard s;
    if (unpack(data, &s) < 0) return NULL;
    long nodes = 0;
    int value;
    Py_BEGIN_ALLOW_THREADS
    value = fc_solve(&s, passed, same_world, &nodes);
    Py_END_ALLOW_THREADS
    if (value == -32768) return PyErr_NoMemory();
    return Py_BuildValue("(il)", value, nodes);
}

static PyObject *four_card_random_deals(PyObject *self, PyObject *args) {
    (void)self;
    long deals;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "lK", &deals, &seed)) return NULL;
    long totals[2] = {0, 0}, actions;
    Py_BEGIN_ALLOW_THREADS
    actions = fc_random_deals(deals, seed, totals);
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(lll)", actions, totals[0], totals[1]);
}

/* Classic Kozel: the layout is engine/compiled/classic.py's. */
static int unpack_classic(PyObject *data, Classic *s) {
    int64_t w[CL_WORDS];
    if (read_words(data, w, CL_WORDS, "classic") < 0) return -1;
    memset(s, 0, sizeof *s);
    for (int i = 0; i < 4; i++) s->hand[i] = (uint64_t)w[i];
    s->to_move = (int)w[4], s->nplays = (int)w[5];
    if (s->nplays < 0 || s->nplays > 3 || s->to_move < 0 || s->to_move > 3) {
        PyErr_SetString(PyExc_ValueError, "not a classic position");
        return -1;
    }
    for (int i = 0; i < 4; i++) {
        s->play_seat[i] = (int)w[6 + i], s->play_card[i] = (int)w[10 + i];
        if (s->play_card[i] < 0 || s->play_card[i] > 63) {
            PyErr_SetString(PyExc_ValueError, "a card is a code from 0 to 63");
            return -1;
        }
    }
    s->banned = (int)w[14], s->ace_lead = (int)w[15];
    s->points[0] = (int)w[16], s->points[1] = (int)w[17], s->tricks[0] = (int)w[18], s->tricks[1] = (int)w[19];
    s->eggs_pending = (int)w[20], s->lose_series = (int)w[21], s->over = (int)w[22];
    s->score[0] = (int)w[23], s->score[1] = (int)w[24];
    return 0;
}

static PyObject *pack_classic(const Classic *s) {
    int64_t w[CL_WORDS] = {0};
    for (int i = 0; i < 4; i++) w[i] = (int64_t)s->hand[i];
    w[4] = s->to_move, w[5] = s->nplays;
    for (int i = 0; i < s->nplays; i++) w[6 + i] = s->play_seat[i], w[10 + i] = s->play_card[i];
    w[14] = s->banned, w[15] = s->ace_lead;
    w[16] = s->points[0], w[17] = s->points[1], w[18] = s->tricks[0], w[19] = s->tricks[1];
    w[20] = s->eggs_pending, w[21] = s->lose_series, w[22] = s->over, w[23] = s->score[0], w[24] = s->score[1];
    return PyBytes_FromStringAndSize((const char *)w, sizeof w);
}

static PyObject *classic_legal(PyObject *self, PyObject *arg) {
    (void)self;
    Classic s;
    if (unpack_classic(arg, &s) < 0) return NULL;
    int cards[CL_MAX_ACTIONS], n = cl_legal(&s, cards);
    return card_list(cards, n);
}

static PyObject *classic_step(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *data;
    int card;
    if (!PyArg_ParseTuple(args, "Si", &data, &card)) return NULL;
    Classic s;
    if (unpack_classic(data, &s) < 0) return NULL;
    int cards[CL_MAX_ACTIONS], n = cl_legal(&s, cards);
    if (check_legal(card, cards, n) < 0) return NULL;
    int over = cl_apply(&s, card);
    return step_result(pack_classic(&s), over);
}

static PyObject *classic_solve(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *data;
    int same_world = 0;
    if (!PyArg_ParseTuple(args, "S|p", &data, &same_world)) return NULL;
    Classic s;
    if (unpack_classic(data, &s) < 0) return NULL;
    long nodes = 0;
    int value;
    Py_BEGIN_ALLOW_THREADS
    value = cl_solve(&s, same_world, &nodes);
    Py_END_ALLOW_THREADS
    if (value == -32768) return PyErr_NoMemory();
    return Py_BuildValue("(il)", value, nodes);
}

static PyObject *classic_random_deals(PyObject *self, PyObject *args) {
    (void)self;
    long deals;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "lK", &deals, &seed)) return NULL;
    long totals[2] = {0, 0}, actions;
    Py_BEGIN_ALLOW_THREADS
    actions = cl_random_deals(deals, seed, totals);
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(lll)", actions, totals[0], totals[1]);
}

/* Czech Kozel: the layout is engine/compiled/czech.py's. */
static int unpack_czech(PyObject *data, Czech *s) {
    int64_t w[CZ_WORDS];
    if (read_words(data, w, CZ_WORDS, "Czech") < 0) return -1;
    memset(s, 0, sizeof *s);
    s->players = (int)w[0];
    s->to_move = (int)w[7], s->nplays = (int)w[8];
    if (s->players < 3 || s->players > 6 || s->to_move < 0 || s->to_move >= s->players || s->nplays < 0 ||
        s->nplays >= s->players) {
        PyErr_SetString(PyExc_ValueError, "not a Czech position");
        return -1;
    }
    for (int i = 0; i < CZ_MAX_SEATS; i++) {
        s->hand[i] = (uint64_t)w[1 + i];
        s->play_seat[i] = (int)w[9 + i], s->play_card[i] = (int)w[15 + i];
        s->penalty[i] = (int)w[21 + i], s->tricks[i] = (int)w[27 + i], s->score[i] = (int)w[36 + i];
        if (s->play_card[i] < 0 || s->play_card[i] > 63) {
            PyErr_SetString(PyExc_ValueError, "a card is a code from 0 to 63");
            return -1;
        }
    }
    s->tricks_done = (int)w[33], s->doubled = (int)w[34], s->over = (int)w[35];
    return 0;
}

static PyObject *pack_czech(const Czech *s) {
    int64_t w[CZ_WORDS] = {0};
    w[0] = s->players, w[7] = s->to_move, w[8] = s->nplays;
    for (int i = 0; i < CZ_MAX_SEATS; i++) {
        w[1 + i] = (int64_t)s->hand[i];
        if (i < s->nplays) w[9 + i] = s->play_seat[i], w[15 + i] = s->play_card[i];
        w[21 + i] = s->penalty[i], w[27 + i] = s->tricks[i], w[36 + i] = s->score[i];
    }
    w[33] = s->tricks_done, w[34] = s->doubled, w[35] = s->over;
    return PyBytes_FromStringAndSize((const char *)w, sizeof w);
}

static PyObject *czech_legal(PyObject *self, PyObject *arg) {
    (void)self;
    Czech s;
    if (unpack_czech(arg, &s) < 0) return NULL;
    int cards[CZ_MAX_ACTIONS], n = cz_legal(&s, cards);
    return card_list(cards, n);
}

static PyObject *czech_step(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *data;
    int card;
    if (!PyArg_ParseTuple(args, "Si", &data, &card)) return NULL;
    Czech s;
    if (unpack_czech(data, &s) < 0) return NULL;
    int cards[CZ_MAX_ACTIONS], n = cz_legal(&s, cards);
    if (check_legal(card, cards, n) < 0) return NULL;
    int over = cz_apply(&s, card);
    return step_result(pack_czech(&s), over);
}

static PyObject *czech_solve(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *data;
    int seat, same_world = 0;
    if (!PyArg_ParseTuple(args, "Si|p", &data, &seat, &same_world)) return NULL;
    Czech s;
    if (unpack_czech(data, &s) < 0) return NULL;
    if (seat < 0 || seat >= s.players) {
        PyErr_SetString(PyExc_ValueError, "no such seat");
        return NULL;
    }
    long nodes = 0;
    int value;
    Py_BEGIN_ALLOW_THREADS
    value = cz_solve(&s, seat, same_world, &nodes);
    Py_END_ALLOW_THREADS
    if (value == -32768) return PyErr_NoMemory();
    return Py_BuildValue("(il)", value, nodes);
}

static PyObject *czech_random_deals(PyObject *self, PyObject *args) {
    (void)self;
    long deals;
    int players;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "liK", &deals, &players, &seed)) return NULL;
    if (players < 3 || players > 6) {
        PyErr_SetString(PyExc_ValueError, "Czech Kozel is for 3 to 6 players");
        return NULL;
    }
    long penalties[CZ_MAX_SEATS] = {0}, actions;
    Py_BEGIN_ALLOW_THREADS
    actions = cz_random_deals(deals, players, seed, penalties);
    Py_END_ALLOW_THREADS
    long total = 0;
    for (int i = 0; i < players; i++) total += penalties[i];
    return Py_BuildValue("(ll)", actions, total);
}

static PyMethodDef methods[] = {
    {"four_card_legal", four_card_legal, METH_O, "Every seat's legal actions: (seat, kind, card mask)."},
    {"four_card_step", four_card_step, METH_VARARGS, "Apply a legal action: (position, deal over)."},
    {"four_card_defeat_points", four_card_defeat_points, METH_VARARGS, "F14: the losing team's points."},
    {"four_card_solve", four_card_solve, METH_VARARGS,
     "The exact value to team 0 of a position with every card known: (value, nodes searched)."},
    {"four_card_random_deals", four_card_random_deals, METH_VARARGS,
     "Random deals from random shuffles: (actions, card points of team 0, of team 1)."},
    {"classic_legal", classic_legal, METH_O, "The cards the seat to move may play."},
    {"classic_step", classic_step, METH_VARARGS, "Play a legal card: (position, deal over)."},
    {"classic_solve", classic_solve, METH_VARARGS,
     "The exact value to team 0 of a position with every card known: (value, nodes searched)."},
    {"classic_random_deals", classic_random_deals, METH_VARARGS,
     "Random deals from random shuffles: (cards played, card points of team 0, of team 1)."},
    {"czech_legal", czech_legal, METH_O, "The cards the seat to move may play."},
    {"czech_step", czech_step, METH_VARARGS, "Play a legal card: (position, deal over)."},
    {"czech_solve", czech_solve, METH_VARARGS,
     "The exact worth to a seat (times players - 1) against the others together: (value, nodes searched)."},
    {"czech_random_deals", czech_random_deals, METH_VARARGS,
     "Random deals from random shuffles: (cards played, penalty points of all players)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.compiled._core", NULL, -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }
