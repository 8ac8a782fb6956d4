/* An exact solver of a four-card Kozel position with every card known (all hands and the stock's order):
 * alpha-beta with a transposition table, for the computer players' search over sampled worlds.
 *
 * The value is the deal's worth to team 0 (seats 0 and 2), as the engine's deal_value counts it: its card
 * points minus the other team's, less 15 for each defeat point more than the other team (F14).  The players
 * act as the rules allow: the seat to move chooses among his actions; a molodka out of turn (F10) is an
 * interruption its holder may make before any action, so each holder, in F10's order, first chooses between
 * playing it now and letting the play go on (he may interrupt again before the next action). */
#include <stdlib.h>

#include "four_card.h"

enum { EXACT = 0, LOWER = 1, UPPER = 2 };

typedef struct {
    uint64_t key;
    uint32_t solve; /* which solve stored it: the others' entries count as empty */
    int16_t value;
    uint8_t flag;
    uint8_t move; /* the index of the best action found, tried first when the position comes again */
} Entry;

static Entry *table;
static uint64_t table_mask;
static uint32_t solve_no;

static uint64_t mix(uint64_t h, uint64_t x) {
    h ^= x + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 29);
}

static uint64_t key_of(const FourCard *s, int passed) {
    uint64_t h = 0;
    for (int i = 0; i < 4; i++) h = mix(h, s->hand[i]);
    for (int i = 0; i < s->nplays; i++)
        h = mix(mix(h, s->plays[i].cards), (uint64_t)s->plays[i].seat << 2 | (uint64_t)s->plays[i].kind);
    /* one world's stock is drawn from the front, so what is left of it is given by its length */
    uint64_t small = (uint64_t)(s->stock_len - s->stock_pos) | (uint64_t)s->to_move << 5 | (uint64_t)s->trick_leader << 7 |
                     (uint64_t)(s->lead_seat + 1) << 9 | (uint64_t)s->molodka << 12 | (uint64_t)(s->top + 1) << 13 |
                     (uint64_t)s->answered << 16 | (uint64_t)s->nplays << 18 | (uint64_t)passed << 21 |
                     (uint64_t)s->points[0] << 25 | (uint64_t)s->tricks[0] << 33 | (uint64_t)s->tricks[1] << 38;
    return mix(h, small);
}

int fc_deal_value(const FourCard *s) {
    int a = s->points[0], b = s->points[1], score[2] = {0, 0};
    if (a != b) {
        int loser = a < b ? 0 : 1;
        score[loser] = fc_defeat_points(s->points[loser], s->tricks[loser]);
    }
    return a - b - 15 * (score[0] - score[1]);
}

static long nodes;

static int search(const FourCard *s, int passed, int alpha, int beta) {
    nodes++;
    uint64_t key = key_of(s, passed);
    Entry *e = &table[key & table_mask];
    int first = -1;
    if (e->solve == solve_no && e->key == key) {
        first = e->move;
        if (e->flag == EXACT) return e->value;
        if (e->flag == LOWER && e->value >= beta) return e->value;
        if (e->flag == UPPER && e->value <= alpha) return e->value;
    }
    FcAction all[FC_MAX_ACTIONS], mine[FC_MAX_ACTIONS];
    int n = fc_legal(s, all), count = 0, actor = s->to_move, interrupt = 0;
    /* a molodka out of turn first, in F10's order: nearest to the original leader first */
    for (int d = 0; d < 4 && !interrupt; d++) {
        int seat = (s->trick_leader + d) % 4;
        if (seat == s->to_move || (passed >> seat & 1)) continue;
        for (int i = 0; i < n; i++)
            if (all[i].seat == seat) { /* only a molodka is legal out of turn */
                actor = seat, interrupt = 1;
                mine[count++] = all[i];
            }
    }
    if (!interrupt) {
        for (int i = 0; i < n; i++) /* the beats first: they are the likelier best */
            if (all[i].seat == actor && all[i].kind != FC_DISCARD) mine[count++] = all[i];
        for (int i = 0; i < n; i++)
            if (all[i].seat == actor && all[i].kind == FC_DISCARD) mine[count++] = all[i];
    }
    int maximize = actor % 2 == 0, original_alpha = alpha, original_beta = beta;
    int best = maximize ? -10000 : 10000, best_move = 0;
    if (first > count || (first == count && !interrupt)) first = -1;
    for (int j = first < 0 ? 0 : -1; j <= count; j++) {
        int i = j < 0 ? first : j, value;
        if (j >= 0 && i == first) continue;
        if (i == count) { /* the interrupting seat lets the play go on */
            if (!interrupt) break;
            value = search(s, passed | 1 << actor, alpha, beta);
        } else {
            FourCard next = *s;
            value = fc_apply(&next, mine[i]) ? fc_deal_value(&next) : search(&next, 0, alpha, beta);
        }
        if (maximize ? value > best : value < best) best = value, best_move = i;
        if (maximize && best > alpha) alpha = best;
        if (!maximize && best < beta) beta = best;
        if (alpha >= beta) break;
    }
    e->key = key, e->value = (int16_t)best, e->solve = solve_no, e->move = (uint8_t)best_move;
    e->flag = best <= original_alpha ? UPPER : best >= original_beta ? LOWER : EXACT;
    return best;
}

int fc_solve(const FourCard *s, int passed, int same_world, long *searched) {
    if (!table) {
        table_mask = (1u << 20) - 1; /* 16 MB, made once per process */
        table = calloc(table_mask + 1, sizeof *table);
        if (!table) return -32768;
    }
    if (!same_world || solve_no == 0) solve_no++; /* the table's entries hold for one world's stock order */
    nodes = 0;
    int value = search(s, passed & 15, -10000, 10000);
    if (searched) *searched = nodes;
    return value;
}
