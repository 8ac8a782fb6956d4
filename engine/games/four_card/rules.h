/* Four-card Kozel on bit masks (see rules.c). */
#ifndef KOZEL_FOUR_CARD_H
#define KOZEL_FOUR_CARD_H

#include <stdint.h>

enum { FC_LEAD = 0, FC_BEAT = 1, FC_DISCARD = 2, FC_MOLODKA = 3 };
enum { FC_MAX_ACTIONS = 64 }; /* leads: at most 15 a suit; answers: 2 x 6; molodkas: 4 */

typedef struct {
    int seat, kind;
    uint64_t cards;
} FcAction;

typedef struct {
    uint64_t hand[4];
    uint8_t stock[20];
    int stock_len, stock_pos; /* the stock still to draw is stock[stock_pos..stock_len) */
    int trump, to_move, trick_leader, lead_seat, molodka, top, answered, nplays;
    FcAction plays[4];
    int points[2], tricks[2]; /* card points and tricks of each team's pile so far */
} FourCard;

int fc_legal(const FourCard *s, FcAction *out);
int fc_apply(FourCard *s, FcAction a); /* 1: the deal is over */
int fc_card_points(uint64_t cards);
int fc_defeat_points(int points, int tricks);
long fc_random_deals(long deals, uint64_t seed, long totals[2]);
int fc_deal_value(const FourCard *s); /* the deal's worth to team 0 once it is over */
/* The exact value to team 0 of a position with every card known; ``passed``: the seats that let the next action
 * happen without a molodka out of turn; ``same_world``: the position has the previous solve's stock order, so
 * the transposition table's entries still hold. */
int fc_solve(const FourCard *s, int passed, int same_world, long *nodes);

/* The action the hand-written heuristics take for the seat to move (heuristics.c, as heuristics.py chooses). */
FcAction fc_heuristic(const FourCard *s);
/* The deal's worth to team 0 when the seats to move play by the heuristics from here to its end. */
int fc_playout(const FourCard *s);

/* The heuristics play on until the stock is drawn (0), or the deal is over (1). */
int fc_draw_out(FourCard *s);

#endif
