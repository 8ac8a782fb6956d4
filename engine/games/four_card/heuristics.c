/* Four-card Kozel's hand-written heuristics (heuristics.py) in C, for the expert's playouts: the same action
 * in every position, which the differential test (tests/test_compiled.py here) holds it to.  Only the seat to
 * move acts, as in the search's playouts (heuristic_step). */
#include "rules.h"

static const int ORDER[16] = {-1, -1, -1, -1, -1, -1, 0, 1, 2, 3, 7, 4, 5, 6, 8, -1}; /* F2, by rank */
static const int POINTS[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 2, 3, 4, 11, 0};   /* F3, by rank */

static int cost(uint64_t cards, int trump) { /* how much the cards are worth keeping: rank, trump, points */
    int total = 0;
    for (; cards; cards &= cards - 1) {
        int c = __builtin_ctzll(cards);
        total += ORDER[c & 15] + ((c >> 4) == trump ? 12 : 0) + POINTS[c & 15] / 2;
    }
    return total;
}

static int lowest_order(uint64_t cards) {
    int low = 99;
    for (; cards; cards &= cards - 1)
        if (ORDER[__builtin_ctzll(cards) & 15] < low) low = ORDER[__builtin_ctzll(cards) & 15];
    return low;
}

/* -1, 0 or 1 as (a1, a2, a3) is below, equal to or above (b1, b2, b3), the last compared as unsigned masks. */
static int compare(long a1, long a2, uint64_t a3, long b1, long b2, uint64_t b3) {
    if (a1 != b1) return a1 < b1 ? -1 : 1;
    if (a2 != b2) return a2 < b2 ? -1 : 1;
    return a3 == b3 ? 0 : a3 < b3 ? -1 : 1;
}

FcAction fc_heuristic(const FourCard *s) {
    FcAction all[FC_MAX_ACTIONS], best = {-1, -1, 0};
    int n = fc_legal(s, all), seat = s->to_move, trump = s->trump, found = 0;
    FcAction molodka = best;
    for (int i = 0; i < n; i++)
        if (all[i].seat == seat && all[i].kind == FC_MOLODKA) molodka = all[i];
    if (s->nplays == 0) { /* the lead (F7): a molodka, else the most cards of one suit, plain first, low */
        if (molodka.seat >= 0) return molodka;
        long k1 = 0, k2 = 0;
        for (int i = 0; i < n; i++) {
            if (all[i].seat != seat || all[i].kind != FC_LEAD) continue;
            uint64_t cards = all[i].cards;
            long a1 = __builtin_popcountll(cards) * 10 + ((__builtin_ctzll(cards) >> 4) != trump ? 5 : 0);
            long a2 = lowest_order(cards);
            if (!found || compare(a1, a2, cards, k1, k2, best.cards) > 0) best = all[i], k1 = a1, k2 = a2, found = 1;
        }
        return best;
    }
    int top_seat = s->plays[s->top].seat, partner = (seat + 2) % 4, last = s->nplays == 3, on_table = 0;
    if (molodka.seat >= 0 && top_seat % 2 != seat % 2) return molodka; /* F10: take the trick over */
    for (int i = 0; i < s->nplays; i++) on_table += fc_card_points(s->plays[i].cards);
    FcAction beat = best, discard = best, richest = best;
    long beat_cost = 0, discard_cost = 0, rich1 = 0, rich2 = 0;
    for (int i = 0; i < n; i++) {
        if (all[i].seat != seat) continue;
        uint64_t cards = all[i].cards;
        long c = cost(cards, trump);
        if (all[i].kind == FC_BEAT && (beat.seat < 0 || compare(c, 0, cards, beat_cost, 0, beat.cards) < 0))
            beat = all[i], beat_cost = c;
        if (all[i].kind != FC_DISCARD) continue;
        if (discard.seat < 0 || compare(c, 0, cards, discard_cost, 0, discard.cards) < 0) discard = all[i], discard_cost = c;
        long p = fc_card_points(cards);
        if (richest.seat < 0 || compare(p, -c, cards, rich1, rich2, richest.cards) > 0) richest = all[i], rich1 = p, rich2 = -c;
    }
    if (top_seat == partner) return last ? richest : discard; /* the trick is ours: add points, or keep cards */
    if (beat.seat >= 0) {
        int uses_trump = (beat.cards & (0xFFFFULL << (trump * 16))) != 0;
        if (on_table + fc_card_points(beat.cards) >= 10 || !uses_trump || last) return beat;
    }
    return discard;
}

int fc_playout(const FourCard *s) {
    FourCard next = *s;
    while (!fc_apply(&next, fc_heuristic(&next))) {
    }
    return fc_deal_value(&next);
}

int fc_draw_out(FourCard *s) {
    while (s->stock_pos < s->stock_len)
        if (fc_apply(s, fc_heuristic(s))) return 1;
    return 0;
}
