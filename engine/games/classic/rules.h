/* Classic Kozel on bit masks (see rules.c). */
#ifndef KOZEL_CLASSIC_H
#define KOZEL_CLASSIC_H

#include <stdint.h>

enum { CL_MAX_ACTIONS = 9 }; /* a hand's cards */

typedef struct {
    uint64_t hand[4];
    int to_move, nplays;
    int play_seat[4], play_card[4]; /* the trick on the table, in order */
    int banned;                     /* C9: the seats (a mask) that may not lead a trump this deal */
    int ace_lead;                   /* C8: the first lead of the series must be the A of diamonds */
    int points[2], tricks[2];       /* card points and tricks of each team so far */
    int eggs_pending;               /* C13: deals ended 60:60 since the last score */
    int lose_series;                /* C13's option: taking every trick wins the series */
    int over, score[2];             /* once the deal is over: the series points it gave each team */
} Classic;

int cl_legal(const Classic *s, int *cards); /* the cards the seat to move may play */
int cl_apply(Classic *s, int card);         /* 1: the deal is over */
int cl_card_points(uint64_t cards);
/* The worth to team 0 of a deal ended by its last trick with team 0 at ``p0`` of the 120 card points, neither
 * team taking every trick (C13 with its eggs): it grows with ``p0``, and bounds the deal's other ends. */
int cl_normal_value(const Classic *s, int p0);
void cl_card_info(int card, int *esuit, int *power); /* its effective suit (4: trumps) and power, -1 if none */
int cl_deal_value(const Classic *s);        /* the deal's worth to team 0 once it is over */
long cl_random_deals(long deals, uint64_t seed, long totals[2]);
/* The exact value to team 0 of a position with every card known; ``same_world``: keep the transposition
 * table's entries of the previous solve (they hold for any position: the key is the whole position). */
int cl_solve(const Classic *s, int same_world, long *nodes);
int cl_heuristic(const Classic *s); /* heuristics.py's card for the seat to move; -1 once the deal is over */
/* The heuristics play the deal on until at most ``cards`` are left in the hands; 1: the deal is over. */
int cl_continue(Classic *s, int cards);

#endif
