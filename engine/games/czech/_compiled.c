/* Czech Kozel's compiled module: its methods for Python (the position's layout is compiled.py's). */
#include "pyface.h"
#include "rules.h"

enum { WORDS = 42 };

static int unpack(PyObject *data, Czech *s) {
    int64_t w[WORDS];
    if (read_words(data, w, WORDS, "Czech") < 0) return -1;
    const char *game = "Czech";
    int64_t players = w[0], nplays = w[8];
    if (require(within(players, 3, CZ_MAX_SEATS), game, "3 to 6 players") < 0 ||
        require(within(w[7], 0, players - 1), game, "the seat to move is a player's") < 0 ||
        require(within(nplays, 0, players - 1), game, "a trick holds fewer plays than players") < 0 ||
        require(within(w[33], 0, 10) && within(w[34], 0, 1) && within(w[35], 0, 1), game,
                "0 to 10 tricks done, and flags of 0 or 1") < 0)
        return -1;
    uint64_t seen = 0;
    for (int i = 0; i < CZ_MAX_SEATS; i++) {
        int64_t hand = w[1 + i], penalty = w[21 + i], tricks = w[27 + i], score = w[36 + i];
        if (i >= players) {
            if (require(hand == 0 && penalty == 0 && tricks == 0 && score == 0, game,
                        "the places of seats nobody holds are 0") < 0)
                return -1;
            continue;
        }
        if (require(cards_ok(hand, VALID_32, CZ_MAX_ACTIONS), game, "a hand holds 0 to 10 cards of the deck") < 0 ||
            require(((uint64_t)hand & seen) == 0, game, "a card is in two places") < 0 ||
            require(within(penalty, 0, 21) && within(tricks, 0, 10) && within(score, 0, 42), game,
                    "a seat's penalty points, tricks or score are out of their range") < 0)
            return -1;
        seen |= (uint64_t)hand;
    }
    for (int i = 0; i < CZ_MAX_SEATS; i++) {
        int64_t seat = w[9 + i], card = w[15 + i];
        if (i >= nplays) {
            if (require(seat == 0 && card == 0, game, "a trick's unused plays are 0") < 0) return -1;
            continue;
        }
        if (require(within(seat, 0, players - 1), game, "a play's seat is a player's") < 0 ||
            require(card_ok(card, VALID_32), game, "a play's card is not of the deck") < 0 ||
            require(!(seen >> card & 1), game, "a card is in two places") < 0)
            return -1;
        seen |= 1ULL << card;
    }
    memset(s, 0, sizeof *s);
    s->players = (int)players;
    s->to_move = (int)w[7], s->nplays = (int)nplays;
    for (int i = 0; i < CZ_MAX_SEATS; i++) {
        s->hand[i] = (uint64_t)w[1 + i];
        s->play_seat[i] = (int)w[9 + i], s->play_card[i] = (int)w[15 + i];
        s->penalty[i] = (int)w[21 + i], s->tricks[i] = (int)w[27 + i], s->score[i] = (int)w[36 + i];
    }
    s->tricks_done = (int)w[33], s->doubled = (int)w[34], s->over = (int)w[35];
    return 0;
}

static PyObject *pack(const Czech *s) {
    int64_t w[WORDS] = {0};
    w[0] = s->players, w[7] = s->to_move, w[8] = s->nplays;
    for (int i = 0; i < CZ_MAX_SEATS; i++) {
        w[1 + i] = (int64_t)s->hand[i];
        if (i < s->nplays) w[9 + i] = s->play_seat[i], w[15 + i] = s->play_card[i];
        w[21 + i] = s->penalty[i], w[27 + i] = s->tricks[i], w[36 + i] = s->score[i];
    }
    w[33] = s->tricks_done, w[34] = s->doubled, w[35] = s->over;
    return PyBytes_FromStringAndSize((const char *)w, sizeof w);
}

static PyObject *legal(PyObject *self, PyObject *arg) {
    (void)self;
    Czech s;
    if (unpack(arg, &s) < 0) return NULL;
    int cards[CZ_MAX_ACTIONS], n = cz_legal(&s, cards);
    return card_list(cards, n);
}

static PyObject *step(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *data;
    int card;
    if (!PyArg_ParseTuple(args, "Si", &data, &card)) return NULL;
    Czech s;
    if (unpack(data, &s) < 0) return NULL;
    int cards[CZ_MAX_ACTIONS], n = cz_legal(&s, cards);
    if (check_legal(card, cards, n) < 0) return NULL;
    int over = cz_apply(&s, card);
    return step_result(pack(&s), over);
}

static PyObject *solve(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *data;
    int seat, same_world = 0;
    if (!PyArg_ParseTuple(args, "Si|p", &data, &seat, &same_world)) return NULL;
    Czech s;
    if (unpack(data, &s) < 0) return NULL;
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

static PyObject *random_deals(PyObject *self, PyObject *args) {
    (void)self;
    long deals;
    int players;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "liK", &deals, &players, &seed)) return NULL;
    if (deals < 0) {
        PyErr_SetString(PyExc_ValueError, "a number of deals is 0 or more");
        return NULL;
    }
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

static PyObject *heuristic(PyObject *self, PyObject *arg) {
    (void)self;
    Czech s;
    if (unpack(arg, &s) < 0) return NULL;
    if (require(!s.over, "Czech", "the deal is over") < 0) return NULL;
    return PyLong_FromLong(cz_heuristic(&s));
}

static PyObject *best_response(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *data;
    int seat, same_world = 0;
    if (!PyArg_ParseTuple(args, "Si|p", &data, &seat, &same_world)) return NULL;
    Czech s;
    if (unpack(data, &s) < 0) return NULL;
    if (require(seat >= 0 && seat < s.players, "Czech", "the seat that responds is a player's") < 0) return NULL;
    long nodes = 0;
    int value;
    Py_BEGIN_ALLOW_THREADS
    value = cz_best_response(&s, seat, same_world, &nodes);
    Py_END_ALLOW_THREADS
    if (value == -32768) return PyErr_NoMemory();
    return Py_BuildValue("(il)", value, nodes);
}

static PyObject *playout(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *data;
    int seat;
    if (!PyArg_ParseTuple(args, "Si", &data, &seat)) return NULL;
    Czech s;
    if (unpack(data, &s) < 0) return NULL;
    if (require(seat >= 0 && seat < s.players, "Czech", "the seat is a player's") < 0) return NULL;
    return PyLong_FromLong(cz_playout(&s, seat));
}

static PyMethodDef methods[] = {
    {"legal", legal, METH_O, "The cards the seat to move may play."},
    {"step", step, METH_VARARGS, "Play a legal card: (position, deal over)."},
    {"solve", solve, METH_VARARGS,
     "The exact worth to a seat (times players - 1) against the others together: (value, nodes searched)."},
    {"random_deals", random_deals, METH_VARARGS,
     "Random deals from random shuffles: (cards played, penalty points of all players)."},
    {"heuristic", heuristic, METH_O, "The card the hand-written heuristics play in the position."},
    {"best_response", best_response, METH_VARARGS,
     "The seat's worth when it plays its best against the others' heuristics, every card known: (value, nodes)."},
    {"playout", playout, METH_VARARGS, "The seat's worth when everybody plays by the heuristics from here."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.games.czech._compiled", NULL, -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__compiled(void) { return PyModule_Create(&module); }
