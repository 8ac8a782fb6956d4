/* Classic Kozel's compiled module: its methods for Python (the position's layout is compiled.py's). */
#include "pyface.h"
#include "rules.h"

enum { WORDS = 25 };

static int unpack(PyObject *data, Classic *s) {
    int64_t w[WORDS];
    if (read_words(data, w, WORDS, "classic") < 0) return -1;
    const char *game = "classic";
    uint64_t seen = 0;
    for (int i = 0; i < 4; i++) {
        if (require(cards_ok(w[i], VALID_36, CL_MAX_ACTIONS), game, "a hand holds 0 to 9 cards of the deck") < 0 ||
            require(((uint64_t)w[i] & seen) == 0, game, "a card is in two places") < 0)
            return -1;
        seen |= (uint64_t)w[i];
    }
    int64_t nplays = w[5];
    if (require(within(w[4], 0, 3), game, "the seat to move is 0 to 3") < 0 ||
        require(within(nplays, 0, 3), game, "a trick holds 0 to 3 plays before its last") < 0)
        return -1;
    for (int i = 0; i < 4; i++) {
        int64_t seat = w[6 + i], card = w[10 + i];
        if (i >= nplays) {
            if (require(seat == 0 && card == 0, game, "a trick's unused plays are 0") < 0) return -1;
            continue;
        }
        if (require(within(seat, 0, 3), game, "a play's seat is 0 to 3") < 0 ||
            require(card_ok(card, VALID_36), game, "a play's card is not of the deck") < 0 ||
            require(!(seen >> card & 1), game, "a card is in two places") < 0)
            return -1;
        seen |= 1ULL << card;
    }
    if (require(within(w[14], 0, 15), game, "the banned seats are a mask of 4 seats") < 0 ||
        require(within(w[15], 0, 1) && within(w[21], 0, 1) && within(w[22], 0, 1), game, "a flag is 0 or 1") < 0 ||
        require(within(w[16], 0, 120) && within(w[17], 0, 120) && w[16] + w[17] <= 120, game,
                "the teams' card points are 0 to 120 in all") < 0 ||
        require(within(w[18], 0, 9) && within(w[19], 0, 9), game, "a team's tricks are 0 to 9") < 0 ||
        require(within(w[20], 0, 1000), game, "the deals of eggs waiting are 0 to 1000") < 0 ||
        require(within(w[23], 0, 2010) && within(w[24], 0, 2010), game, "a deal's series points are 0 to 2010") < 0)
        return -1;
    memset(s, 0, sizeof *s);
    for (int i = 0; i < 4; i++) s->hand[i] = (uint64_t)w[i];
    s->to_move = (int)w[4], s->nplays = (int)nplays;
    for (int i = 0; i < 4; i++) s->play_seat[i] = (int)w[6 + i], s->play_card[i] = (int)w[10 + i];
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
    int same_world = 0, cards = 36;
    if (!PyArg_ParseTuple(args, "S|pi", &data, &same_world, &cards)) return NULL;
    if (cards < 0 || cards > 36) {
        PyErr_SetString(PyExc_ValueError, "the cards left where a solve starts are 0 to 36");
        return NULL;
    }
    Classic s;
    if (unpack(data, &s) < 0) return NULL;
    long nodes = 0;
    int value;
    Py_BEGIN_ALLOW_THREADS
    cl_continue(&s, cards);
    value = cl_solve(&s, same_world, &nodes);
    Py_END_ALLOW_THREADS
    if (value == -32768) return PyErr_NoMemory();
    return Py_BuildValue("(il)", value, nodes);
}

static PyObject *heuristic(PyObject *self, PyObject *arg) {
    (void)self;
    Classic s;
    if (unpack(arg, &s) < 0) return NULL;
    if (s.over) {
        PyErr_SetString(PyExc_ValueError, "the deal is over: nobody plays");
        return NULL;
    }
    return PyLong_FromLong(cl_heuristic(&s));
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
    actions = cl_random_deals(deals, seed, totals);
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(lll)", actions, totals[0], totals[1]);
}

static PyMethodDef methods[] = {
    {"legal", legal, METH_O, "The cards the seat to move may play."},
    {"step", step, METH_VARARGS, "Play a legal card: (position, deal over)."},
    {"solve", solve, METH_VARARGS,
     "The exact value to team 0 of a position with every card known, the heuristics playing on until at most "
     "the cards given are left: (value, nodes searched)."},
    {"heuristic", heuristic, METH_O, "The card the heuristics play for the seat to move."},
    {"random_deals", random_deals, METH_VARARGS,
     "Random deals from random shuffles: (cards played, card points of team 0, of team 1)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.games.classic._compiled", NULL, -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__compiled(void) { return PyModule_Create(&module); }
