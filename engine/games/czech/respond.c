/* The best response of one seat to the others playing by the heuristics, every card known: the expert's
 * valuation of a sampled world.  The others' play is the heuristics' (cz_heuristic), so the search branches
 * only where the seat itself plays: a search over its own cards, with a transposition table (table.h) whose
 * key is the whole position.  In a game of each for himself this values a card by what the others would
 * really do with it, where the paranoid solver (solve.c) takes them all to play against the seat. */
#include "rules.h"
#include "table.h"

static _Thread_local long nodes; /* each thread's search counts its own */

static uint64_t key_of(const Czech *s) {
    uint64_t h = (uint64_t)s->players;
    for (int i = 0; i < s->players; i++) h = mix(mix(h, s->hand[i]), (uint64_t)s->penalty[i]);
    for (int i = 0; i < s->nplays; i++) h = mix(h, (uint64_t)s->play_card[i] | (uint64_t)s->play_seat[i] << 6);
    uint64_t takers = 0; /* K7 needs to know only who has taken tricks: every one of them, or some */
    for (int i = 0; i < s->players; i++) takers |= (uint64_t)(s->tricks[i] > 0) << i;
    return mix(h, (uint64_t)s->to_move | (uint64_t)s->nplays << 3 | takers << 6 | (uint64_t)s->doubled << 12 |
                      (uint64_t)(s->tricks_done > 0) << 13);
}

/* The others play by the heuristics until it is the seat's turn: 1 when the deal ended meanwhile. */
static int others(Czech *s, int seat) {
    while (s->to_move != seat)
        if (cz_apply(s, cz_heuristic(s))) return 1;
    return 0;
}

/* The deal's worth to the seat from here (it is to move) when it plays its best from now on. */
static int best(const Czech *s, int seat) {
    nodes++;
    uint64_t key = key_of(s);
    Entry *e = &table[key & table_mask];
    int known, first;
    if (tt_probe(e, key, -30000, 30000, &known, &first)) return known;
    int cards[CZ_MAX_ACTIONS], n = cz_legal(s, cards), value = -30000, move = cards[0];
    for (int i = 0; i < n; i++) {
        Czech next = *s;
        int v = cz_apply(&next, cards[i]) || others(&next, seat) ? cz_deal_value(&next, seat) : best(&next, seat);
        if (v > value) value = v, move = cards[i];
    }
    tt_store(e, key, value, move, -30001, 30001);
    return value;
}

/* The deal's worth to the seat when everybody, the seat too, plays by the heuristics from here. */
int cz_playout(const Czech *s, int seat) {
    Czech next = *s;
    if (next.over) return cz_deal_value(&next, seat);
    while (!cz_apply(&next, cz_heuristic(&next))) {
    }
    return cz_deal_value(&next, seat);
}

int cz_best_response(const Czech *s, int seat, int same_world, long *searched) {
    if (!tt_begin(same_world)) return TT_NO_MEMORY;
    nodes = 0;
    Czech next = *s;
    int value = next.over || others(&next, seat) ? cz_deal_value(&next, seat) : best(&next, seat);
    if (searched) *searched = nodes;
    return value;
}
