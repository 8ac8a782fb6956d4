/* An exact solver of a four-card Kozel position with every card known (all hands and the stock's order):
 * alpha-beta with a transposition table, for the computer players' search over sampled worlds.
 *
 * The value is the deal's worth to team 0 (seats 0 and 2), as the engine's deal_value counts it: its card
 * points minus the other team's, less 15 for each defeat point more than the other team (F14).  The players
 * act as the rules allow: the seat to move chooses among his actions; a molodka out of turn (F10) is an
 * interruption its holder may make before any action, so each holder, in F10's order, first chooses between
 * playing it now and letting the play go on (he may interrupt again before the next action). */
#include "rules.h"
#include "table.h"

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

/* The worth to team 0 of a deal ended with these card points and tricks (F14). */
static int end_value(const int points[2], const int tricks[2]) {
    int score[2] = {0, 0};
    if (points[0] != points[1]) {
        int loser = points[0] < points[1] ? 0 : 1;
        score[loser] = fc_defeat_points(points[loser], tricks[loser]);
    }
    return points[0] - points[1] - 15 * (score[0] - score[1]);
}

int fc_deal_value(const FourCard *s) { return end_value(s->points, s->tricks); }

static _Thread_local long nodes; /* each thread's solve counts its own */

static int search(const FourCard *s, int passed, int alpha, int beta) {
    nodes++;
    uint64_t key = key_of(s, passed);
    Entry *e = &table[key & table_mask];
    int first, known;
    if (tt_probe(e, key, alpha, beta, &known, &first)) return known;
    /* the most and the least the deal can be worth from here: the card points still out (of the 120) and
     * the trick on the table, or more, all to one team */
    int left = 120 - s->points[0] - s->points[1];
    int best_points[2] = {s->points[0] + left, s->points[1]}, best_tricks[2] = {s->tricks[0] + 1, s->tricks[1]};
    int worst_points[2] = {s->points[0], s->points[1] + left}, worst_tricks[2] = {s->tricks[0], s->tricks[1] + 1};
    int high = end_value(best_points, best_tricks), low = end_value(worst_points, worst_tricks);
    if (high <= alpha) return high;
    if (low >= beta) return low;
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
    tt_store(e, key, best, best_move, original_alpha, original_beta);
    return best;
}

int fc_solve(const FourCard *s, int passed, int same_world, long *searched) {
    if (!tt_begin(same_world)) return TT_NO_MEMORY; /* same_world: the entries hold for one stock order */
    nodes = 0;
    int value = search(s, passed & 15, -10000, 10000);
    if (searched) *searched = nodes;
    return value;
}
