/* Four-card Kozel's compiled module: its methods for Python (the position's layout is compiled.py's). */
#include "pyface.h"
#include "rules.h"

enum { WORDS = 49 };

static int unpack(PyObject *data, FourCard *s) {
    int64_t w[WORDS];
    if (read_words(data, w, WORDS, "four-card") < 0) return -1;
    const char *game = "four-card";
    uint64_t seen = 0;
    for (int i = 0; i < 4; i++) {
        if (require(cards_ok(w[i], VALID_36, 4), game, "a hand holds 0 to 4 cards of the deck") < 0 ||
            require(((uint64_t)w[i] & seen) == 0, game, "a card is in two places") < 0)
            return -1;
        seen |= (uint64_t)w[i];
    }
    if (require(within(w[4], 0, 20), game, "a stock holds 0 to 20 cards") < 0) return -1;
    for (int i = 0; i < 20; i++) {
        if (i >= w[4]) {
            if (require(w[5 + i] == 0, game, "a stock's unused places are 0") < 0) return -1;
            continue;
        }
        if (require(card_ok(w[5 + i], VALID_36), game, "a stock's card is not of the deck") < 0 ||
            require(!(seen >> w[5 + i] & 1), game, "a card is in two places") < 0)
            return -1;
        seen |= 1ULL << w[5 + i];
    }
    int64_t nplays = w[32];
    if (require(within(w[25], 0, 3), game, "the trump is a suit, 0 to 3") < 0 ||
        require(within(w[26], 0, 3) && within(w[27], 0, 3), game, "a seat is 0 to 3") < 0 ||
        require(within(w[28], -1, 3), game, "the lead's seat is -1 (none yet) or 0 to 3") < 0 ||
        require(within(w[29], 0, 1), game, "the molodka flag is 0 or 1") < 0 ||
        require(within(nplays, 0, 4), game, "a trick holds 0 to 4 plays") < 0 ||
        require(nplays == 0 ? w[30] == -1 : within(w[30], 0, nplays - 1), game, "the top is a play of the trick") < 0 ||
        require(within(w[31], 0, 3), game, "the answers are 0 to 3") < 0)
        return -1;
    for (int i = 0; i < 4; i++) {
        int64_t seat = w[33 + i], kind = w[37 + i], cards = w[41 + i];
        if (i >= nplays) {
            if (require(seat == 0 && kind == 0 && cards == 0, game, "a trick's unused plays are 0") < 0) return -1;
            continue;
        }
        if (require(within(seat, 0, 3), game, "a play's seat is 0 to 3") < 0 ||
            require(within(kind, FC_LEAD, FC_MOLODKA), game, "a play's kind is 0 to 3") < 0 ||
            require(cards != 0 && cards_ok(cards, VALID_36, 4), game, "a play is 1 to 4 cards of the deck") < 0 ||
            require(((uint64_t)cards & seen) == 0, game, "a card is in two places") < 0)
            return -1;
        seen |= (uint64_t)cards;
    }
    if (require(within(w[45], 0, 120) && within(w[46], 0, 120) && w[45] + w[46] <= 120, game,
                "the teams' card points are 0 to 120 in all") < 0 ||
        require(within(w[47], 0, 9) && within(w[48], 0, 9), game, "a team's tricks are 0 to 9") < 0)
        return -1;
    memset(s, 0, sizeof *s);
    for (int i = 0; i < 4; i++) s->hand[i] = (uint64_t)w[i];
    s->stock_len = (int)w[4];
    for (int i = 0; i < 20; i++) s->stock[i] = (uint8_t)w[5 + i];
    s->trump = (int)w[25], s->to_move = (int)w[26], s->trick_leader = (int)w[27], s->lead_seat = (int)w[28];
    s->molodka = (int)w[29], s->top = (int)w[30], s->answered = (int)w[31], s->nplays = (int)nplays;
    for (int i = 0; i < 4; i++) {
        s->plays[i].seat = (int)w[33 + i], s->plays[i].kind = (int)w[37 + i];
        s->plays[i].cards = (uint64_t)w[41 + i];
    }
    s->points[0] = (int)w[45], s->points[1] = (int)w[46], s->tricks[0] = (int)w[47], s->tricks[1] = (int)w[48];
    return 0;
}

static PyObject *pack(const FourCard *s) {
    int64_t w[WORDS] = {0};
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

static PyObject *legal(PyObject *self, PyObject *arg) {
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

static PyObject *step(PyObject *self, PyObject *args) {
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

static PyObject *defeat_points(PyObject *self, PyObject *args) {
    (void)self;
    int points, tricks;
    if (!PyArg_ParseTuple(args, "ii", &points, &tricks)) return NULL;
    return PyLong_FromLong(fc_defeat_points(points, tricks));
}

static PyObject *solve(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *data;
    int passed = 0, same_world = 0;
    if (!PyArg_ParseTuple(args, "S|ip", &data, &passed, &same_world)) return NULL;
    FourCard s;
    if (unpack(data, &s) < 0) return NULL;
    if (require(passed >= 0 && passed <= 15, "four-card", "the seats that passed are a mask of 4 seats") < 0)
        return NULL;
    long nodes = 0;
    int value;
    Py_BEGIN_ALLOW_THREADS
    value = fc_solve(&s, passed, same_world, &nodes);
    Py_END_ALLOW_THREADS
    if (value == -32768) return PyErr_NoMemory();
    return Py_BuildValue("(il)", value, nodes);
}

static PyObject *random_deals(PyObject *self, PyObject *args) {
    (void)self;
    long deals;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "lK", &deals, &seed)) return NULL;
    if (deals < 0) {
        PyErr_SetString(PyExc_ValueError, "a number of deals is 0 or more");
        return NULL;
    }
    long totals[2] = {0, 0}, actions;
    Py_BEGIN_ALLOW_THREADS
    actions = fc_random_deals(deals, seed, totals);
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(lll)", actions, totals[0], totals[1]);
}

static PyObject *heuristic(PyObject *self, PyObject *arg) {
    (void)self;
    FourCard s;
    if (unpack(arg, &s) < 0) return NULL;
    FcAction a = fc_heuristic(&s);
    return Py_BuildValue("(iiK)", a.seat, a.kind, (unsigned long long)a.cards);
}

static PyObject *playout(PyObject *self, PyObject *arg) {
    (void)self;
    FourCard s;
    if (unpack(arg, &s) < 0) return NULL;
    int value;
    Py_BEGIN_ALLOW_THREADS
    value = fc_playout(&s);
    Py_END_ALLOW_THREADS
    return PyLong_FromLong(value);
}

static PyObject *draw_out(PyObject *self, PyObject *arg) {
    (void)self;
    FourCard s;
    if (unpack(arg, &s) < 0) return NULL;
    int over = fc_draw_out(&s);
    return Py_BuildValue("(NOi)", pack(&s), over ? Py_True : Py_False, over ? fc_deal_value(&s) : 0);
}

static PyMethodDef methods[] = {
    {"legal", legal, METH_O, "Every seat's legal actions: (seat, kind, card mask)."},
    {"step", step, METH_VARARGS, "Apply a legal action: (position, deal over)."},
    {"defeat_points", defeat_points, METH_VARARGS, "F14: the losing team's points."},
    {"solve", solve, METH_VARARGS,
     "The exact value to team 0 of a position with every card known: (value, nodes searched)."},
    {"random_deals", random_deals, METH_VARARGS,
     "Random deals from random shuffles: (actions, card points of team 0, of team 1)."},
    {"heuristic", heuristic, METH_O, "The action the heuristics take for the seat to move: (seat, kind, mask)."},
    {"playout", playout, METH_O, "The deal's worth to team 0 when the heuristics play it to its end."},
    {"draw_out", draw_out, METH_O,
     "The heuristics play on until the stock is drawn: (position, deal over, its worth to team 0 if over)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.games.four_card._compiled", NULL, -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__compiled(void) { return PyModule_Create(&module); }
