/* Classic Kozel's compiled module: its methods for Python (the position's layout is compiled.py's). */
#include "pyface.h"
#include "rules.h"

enum { WORDS = 25 };

static int unpack(PyObject *data, Classic *s) {
    int64_t w[WORDS];
    if (read_words(data, w, WORDS, "classic") < 0) return -1;
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

static PyObject *pack(const Classic *s) {
    int64_t w[WORDS] = {0};
    for (int i = 0; i < 4; i++) w[i] = (int64_t)s->hand[i];
    w[4] = s->to_move, w[5] = s->nplays;
    for (int i = 0; i < s->nplays; i++) w[6 + i] = s->play_seat[i], w[10 + i] = s->play_card[i];
    w[14] = s->banned, w[15] = s->ace_lead;
    w[16] = s->points[0], w[17] = s->points[1], w[18] = s->tricks[0], w[19] = s->tricks[1];
    w[20] = s->eggs_pending, w[21] = s->lose_series, w[22] = s->over, w[23] = s->score[0], w[24] = s->score[1];
    return PyBytes_FromStringAndSize((const char *)w, sizeof w);
}

static PyObject *legal(PyObject *self, PyObject *arg) {
    (void)self;
    Classic s;
    if (unpack(arg, &s) < 0) return NULL;
    int cards[CL_MAX_ACTIONS], n = cl_legal(&s, cards);
    return card_list(cards, n);
}

static PyObject *step(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *data;
    int card;
    if (!PyArg_ParseTuple(args, "Si", &data, &card)) return NULL;
    Classic s;
    if (unpack(data, &s) < 0) return NULL;
    int cards[CL_MAX_ACTIONS], n = cl_legal(&s, cards);
    if (check_legal(card, cards, n) < 0) return NULL;
    int over = cl_apply(&s, card);
    return step_result(pack(&s), over);
}

static PyObject *solve(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *data;
    int same_world = 0;
    if (!PyArg_ParseTuple(args, "S|p", &data, &same_world)) return NULL;
    Classic s;
    if (unpack(data, &s) < 0) return NULL;
    long nodes = 0;
    int value;
    Py_BEGIN_ALLOW_THREADS
    value = cl_solve(&s, same_world, &nodes);
    Py_END_ALLOW_THREADS
    if (value == -32768) return PyErr_NoMemory();
    return Py_BuildValue("(il)", value, nodes);
}

static PyObject *random_deals(PyObject *self, PyObject *args) {
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

static PyMethodDef methods[] = {
    {"legal", legal, METH_O, "The cards the seat to move may play."},
    {"step", step, METH_VARARGS, "Play a legal card: (position, deal over)."},
    {"solve", solve, METH_VARARGS,
     "The exact value to team 0 of a position with every card known: (value, nodes searched)."},
    {"random_deals", random_deals, METH_VARARGS,
     "Random deals from random shuffles: (cards played, card points of team 0, of team 1)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.games.classic._compiled", NULL, -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__compiled(void) { return PyModule_Create(&module); }
