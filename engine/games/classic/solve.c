/* An exact solver of a classic Kozel position with every card known: alpha-beta with a transposition table,
 * equivalent cards searched once, and the best card found for a position tried first when it comes again.
 *
 * The value is the deal's worth to team 0 (seats 0 and 2), as the engine's deal_value counts it: its card
 * points minus the other team's, plus 15 for each series point more than the other team (C12, C13). */
#include "rules.h"

#include <pthread.h>
#include "table.h"

enum { QUEEN_OF_CLUBS = 1 << 4 | 12, SIX_OF_CLUBS = 1 << 4 | 6 };

static _Thread_local long nodes; /* each thread's solve counts its own */
static int power[64], points[64], esuit_of[64];
static int below[64]; /* the next card down in the same effective suit, or -1 */
static pthread_once_t ready = PTHREAD_ONCE_INIT; /* the tables, made once whichever thread asks first */

static void make_tables(void) {
    int *suit = esuit_of;
    for (int c = 0; c < 64; c++) {
        points[c] = cl_card_points(1ULL << c), below[c] = -1;
        cl_card_info(c, &suit[c], &power[c]);
    }
    for (int c = 0; c < 64; c++) {
        if (suit[c] < 0) continue;
        for (int d = 0; d < 64; d++)
            if (suit[d] == suit[c] && power[d] < power[c] && (below[c] < 0 || power[d] > power[below[c]])) below[c] = d;
    }
}

static uint64_t key_of(const Classic *s) {
    uint64_t h = 0;
    for (int i = 0; i < 4; i++) h = mix(h, s->hand[i]);
    for (int i = 0; i < s->nplays; i++) h = mix(h, (uint64_t)s->play_card[i] | (uint64_t)s->play_seat[i] << 6);
    uint64_t small = (uint64_t)s->to_move | (uint64_t)s->nplays << 2 | (uint64_t)s->banned << 5 |
                     (uint64_t)s->ace_lead << 9 | (uint64_t)s->points[0] << 10 | (uint64_t)s->points[1] << 18 |
                     (uint64_t)(s->tricks[0] > 0) << 26 | (uint64_t)(s->tricks[1] > 0) << 27 |
                     (uint64_t)s->lose_series << 28 | (uint64_t)s->eggs_pending << 29;
    return mix(h, small);
}

/* A card the mover may skip: the next live card below it in its suit is his too and worth the same, so the
 * two play alike (not the queen and the 6 of clubs, whose meeting ends the deal, C12). */
static int equivalent(const Classic *s, uint64_t live, int card) {
    if (card == QUEEN_OF_CLUBS || card == SIX_OF_CLUBS) return 0;
    int d = below[card];
    while (d >= 0 && !(live >> d & 1)) d = below[d];
    return d >= 0 && (s->hand[s->to_move] >> d & 1) && points[d] == points[card] && d != QUEEN_OF_CLUBS &&
           d != SIX_OF_CLUBS;
}

static void widen(int range[2], int value) {
    if (value < range[0]) range[0] = value;
    if (value > range[1]) range[1] = value;
}

static int search(const Classic *s, int alpha, int beta) {
    nodes++;
    uint64_t key = key_of(s);
    Entry *e = &table[key & table_mask];
    int first, known;
    if (tt_probe(e, key, alpha, beta, &known, &first)) return known;
    uint64_t live = s->hand[0] | s->hand[1] | s->hand[2] | s->hand[3];
    for (int i = 0; i < s->nplays; i++) live |= 1ULL << s->play_card[i];
    /* the most and the least the deal can be worth from here: every card point left to one team; the queen
     * caught (C12) while both clubs are still out; every trick to a team that then wins the series instead
     * of series points, the deal worth its 120 card points alone (C13's option) */
    int left = 120 - s->points[0] - s->points[1], range[2]; /* C5: the deck's 120, less the piles */
    range[0] = cl_normal_value(s, s->points[0]), range[1] = cl_normal_value(s, s->points[0] + left);
    if ((live >> QUEEN_OF_CLUBS & 1) && (live >> SIX_OF_CLUBS & 1)) {
        widen(range, 15 * (4 + 2 * s->eggs_pending));
        widen(range, -15 * (4 + 2 * s->eggs_pending));
    }
    if (s->lose_series && !s->tricks[0]) widen(range, -120);
    if (s->lose_series && !s->tricks[1]) widen(range, 120);
    int low = range[0], high = range[1];
    if (high <= alpha) return high;
    if (low >= beta) return low;
    int all[CL_MAX_ACTIONS], cards[CL_MAX_ACTIONS + 1], n = cl_legal(s, all), count = 0;
    for (int i = 0; i < n; i++)
        if (all[i] == first || !equivalent(s, live, all[i])) cards[count++] = all[i];
    /* likely best first: the known best; on a trick partner holds, the dearest card; on a trick that can be won,
     * the dearest winning card; else the cheapest (a lead: the strongest) */
    int order[CL_MAX_ACTIONS + 1], win_power = -1, partner_wins = 0, led = -1;
    if (s->nplays) {
        int leader_power = -1, holder = s->play_seat[0];
        led = esuit_of[s->play_card[0]];
        for (int i = 0; i < s->nplays; i++) {
            int c = s->play_card[i];
            if ((esuit_of[c] == led || esuit_of[c] == 4) && power[c] > leader_power) leader_power = power[c], holder = s->play_seat[i];
        }
        win_power = leader_power, partner_wins = holder % 2 == s->to_move % 2;
    }
    for (int i = 0; i < count; i++) {
        int c = cards[i], o;
        if (c == first) o = 10000;
        else if (!s->nplays) o = power[c];
        else if (partner_wins) o = 100 * points[c] - power[c];
        else if ((esuit_of[c] == led || esuit_of[c] == 4) && power[c] > win_power) o = 5000 + 100 * points[c] - power[c];
        else o = -100 * points[c] - power[c];
        order[i] = o;
    }
    for (int i = 1; i < count; i++)
        for (int j = i; j > 0 && order[j] > order[j - 1]; j--) {
            int t = order[j]; order[j] = order[j - 1], order[j - 1] = t;
            t = cards[j]; cards[j] = cards[j - 1], cards[j - 1] = t;
        }
    int maximize = s->to_move % 2 == 0, original_alpha = alpha, original_beta = beta;
    int best = maximize ? -10000 : 10000, best_card = count ? cards[0] : 0;
    for (int i = 0; i < count; i++) {
        Classic next = *s;
        int value = cl_apply(&next, cards[i]) ? cl_deal_value(&next) : search(&next, alpha, beta);
        if (maximize ? value > best : value < best) best = value, best_card = cards[i];
        if (maximize && best > alpha) alpha = best;
        if (!maximize && best < beta) beta = best;
        if (alpha >= beta) break;
    }
    tt_store(e, key, best, best_card, original_alpha, original_beta);
    return best;
}

int cl_solve(const Classic *s, int same_world, long *searched) {
    pthread_once(&ready, make_tables);
    if (!tt_begin(same_world)) return TT_NO_MEMORY;
    nodes = 0;
    int value = s->over ? cl_deal_value(s) : search(s, -10000, 10000);
    if (searched) *searched = nodes;
    return value;
}
