/* Czech Kozel on bit masks (see rules.c). */
#ifndef KOZEL_CZECH_H
#define KOZEL_CZECH_H

#include <stdint.h>

enum { CZ_MAX_SEATS = 6, CZ_MAX_ACTIONS = 10 }; /* K1; a hand's cards (K3) */

typedef struct {
    int players;
    uint64_t hand[CZ_MAX_SEATS];
    int to_move, nplays;
    int play_seat[CZ_MAX_SEATS], play_card[CZ_MAX_SEATS]; /* the trick on the table, in order */
    int penalty[CZ_MAX_SEATS], tricks[CZ_MAX_SEATS];       /* penalty points taken and tricks, by seat */
    int tricks_done, doubled;                              /* K6 */
    int over, score[CZ_MAX_SEATS];                         /* once the deal is over: its score (K5-K7) */
} Czech;

int cz_legal(const Czech *s, int *cards); /* the cards the seat to move may play */
int cz_apply(Czech *s, int card);         /* 1: the deal is over */
int cz_penalty(uint64_t cards);
/* The deal's worth to ``seat`` once it is over, as the engine's deal_value counts it, times players - 1 (the
 * others' mean penalty minus his own, in whole numbers). */
int cz_deal_value(const Czech *s, int seat);
long cz_random_deals(long deals, int players, uint64_t seed, long *penalties);
/* The exact worth to ``seat`` (times players - 1) of a position with every card known, the others playing
 * together against him (paranoid); ``same_world``: keep the transposition table's entries of the previous
 * solve. */
int cz_solve(const Czech *s, int seat, int same_world, long *nodes);

/* The card the hand-written heuristics play (heuristics.c, as heuristics.py chooses). */
int cz_heuristic(const Czech *s);
/* The best response of ``seat`` to the others playing by the heuristics, every card known (respond.c): the
 * deal's worth to it (as cz_deal_value counts) when it plays its best from here; ``same_world``: keep the
 * transposition table's entries of the previous call (they hold for any position: the key is the whole
 * position).  TT_NO_MEMORY without memory. */
int cz_best_response(const Czech *s, int seat, int same_world, long *nodes);
/* The deal's worth to ``seat`` when everybody plays by the heuristics from here. */
int cz_playout(const Czech *s, int seat);

#endif
