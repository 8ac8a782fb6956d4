/* An exact solver of a Czech Kozel position with every card known, for one seat against the others together
 * (the paranoid view: every other player plays to hurt him): alpha-beta with a transposition table,
 * equivalent cards searched once, and the best card found tried first when the position comes again. */
#include "rules.h"
#include "table.h"

static _Thread_local long nodes; /* each thread's solve counts its own */

static uint64_t key_of(const Czech *s, int seat) {
    uint64_t h = (uint64_t)seat << 3 | (uint64_t)s->players;
    for (int i = 0; i < s->players; i++) h = mix(mix(h, s->hand[i]), (uint64_t)s->penalty[i]);
    for (int i = 0; i < s->nplays; i++) h = mix(h, (uint64_t)s->play_card[i] | (uint64_t)s->play_seat[i] << 6);
    /* K7 needs to know only who has taken tricks: every one of them, or some */
    uint64_t takers = 0;
    for (int i = 0; i < s->players; i++) takers |= (uint64_t)(s->tricks[i] > 0) << i;
    return mix(h, (uint64_t)s->to_move | (uint64_t)s->nplays << 3 | takers << 6 | (uint64_t)s->doubled << 12 |
                      (uint64_t)(s->tricks_done > 0) << 13);
}

/* A card the mover may skip: the next live card below it in its suit is his too and costs the same. */
static int equivalent(const Czech *s, uint64_t live, int card) {
    for (int d = card - 1; (d & 15) >= 7 && d >> 4 == card >> 4; d--) {
        if (!(live >> d & 1)) continue;
        return (s->hand[s->to_move] >> d & 1) && cz_penalty(1ULL << d) == cz_penalty(1ULL << card);
    }
    return 0;
}

static int search(const Czech *s, int seat, int alpha, int beta) {
    nodes++;
    uint64_t key = key_of(s, seat);
    Entry *e = &table[key & table_mask];
    int first, known;
    if (tt_probe(e, key, alpha, beta, &known, &first)) return known;
    int all[CZ_MAX_ACTIONS], cards[CZ_MAX_ACTIONS], order[CZ_MAX_ACTIONS], n = cz_legal(s, all), count = 0;
    uint64_t live = 0;
    for (int i = 0; i < s->players; i++) live |= s->hand[i];
    for (int i = 0; i < s->nplays; i++) live |= 1ULL << s->play_card[i];
    int best_led = s->nplays ? s->play_card[0] : -1;
    for (int i = 1; i < s->nplays; i++)
        if (s->play_card[i] >> 4 == best_led >> 4 && s->play_card[i] > best_led) best_led = s->play_card[i];
    for (int i = 0; i < n; i++) {
        int c = all[i];
        if (c != first && equivalent(s, live, c)) continue;
        /* likely best first: the known best, then a card that does not take the trick (the dearest of those),
         * then the lowest */
        int loses = best_led >= 0 && (c >> 4 != best_led >> 4 || c < best_led);
        order[count] = c == first ? 1000 : loses ? 500 + 20 * cz_penalty(1ULL << c) + (c & 15) : -(c & 15);
        cards[count++] = c;
    }
    for (int i = 1; i < count; i++)
        for (int j = i; j > 0 && order[j] > order[j - 1]; j--) {
            int t = order[j];
            order[j] = order[j - 1], order[j - 1] = t;
            t = cards[j], cards[j] = cards[j - 1], cards[j - 1] = t;
        }
    int maximize = s->to_move == seat, original_alpha = alpha, original_beta = beta;
    int best = maximize ? -30000 : 30000, best_card = count ? cards[0] : 0;
    for (int i = 0; i < count; i++) {
        Czech next = *s;
        int value = cz_apply(&next, cards[i]) ? cz_deal_value(&next, seat) : search(&next, seat, alpha, beta);
        if (maximize ? value > best : value < best) best = value, best_card = cards[i];
        if (maximize && best > alpha) alpha = best;
        if (!maximize && best < beta) beta = best;
        if (alpha >= beta) break;
    }
    tt_store(e, key, best, best_card, original_alpha, original_beta);
    return best;
}

int cz_solve(const Czech *s, int seat, int same_world, long *searched) {
    if (!tt_begin(same_world)) return TT_NO_MEMORY;
    nodes = 0;
    int value = s->over ? cz_deal_value(s, seat) : search(s, seat, -30000, 30000);
    if (searched) *searched = nodes;
    return value;
}
