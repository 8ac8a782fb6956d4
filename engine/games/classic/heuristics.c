/* Classic Kozel's hand-written heuristics (heuristics.py) in card play, in C: the expert's continuation of a
 * deal until its solve is affordable.  The same card in every position, which the differential test
 * (tests/test_compiled.py here) holds it to; where heuristics.py's min or max meets a tie it keeps the first
 * legal card, and so does every choice here (the legal cards come in the same order, by code). */
#include "rules.h"

enum { TRUMPS = 4, ACE = 14, JACK_OF_CLUBS = 1 << 4 | 11, QUEEN_OF_CLUBS = 1 << 4 | 12, SIX_OF_CLUBS = 1 << 4 | 6 };

typedef struct {
    int esuit, power, points;
} Info;

static Info info(int card) {
    Info i;
    cl_card_info(card, &i.esuit, &i.power);
    i.points = cl_card_points(1ULL << card);
    return i;
}

static int keep(int card) { /* how much a card is worth keeping: heuristics.py's _cl_keep */
    Info i = info(card);
    return i.power + i.points;
}

/* The first legal card with the least key (``sign`` 1) or the greatest (``sign`` -1). */
static int first_best(const int *cards, int n, const long *key, int sign) {
    int best = 0;
    for (int i = 1; i < n; i++)
        if (sign * key[i] < sign * key[best]) best = i;
    return cards[best];
}

static int lead(const Classic *s, const int *cards, int n) {
    uint64_t hand = s->hand[s->to_move];
    int trumps = 0, length[4] = {0, 0, 0, 0};
    for (uint64_t h = hand; h; h &= h - 1) {
        Info i = info(__builtin_ctzll(h));
        if (i.esuit == TRUMPS) trumps++;
        else length[i.esuit]++;
    }
    long key[CL_MAX_ACTIONS];
    int plain = 0, trump_plays = 0, ace = -1;
    for (int k = 0; k < n; k++) {
        Info i = info(cards[k]);
        if (i.esuit == TRUMPS) {
            trump_plays++;
            continue;
        }
        plain++;
        if ((cards[k] & 15) == ACE && ace < 0) ace = cards[k];
    }
    if (trumps >= 4 && trump_plays) { /* draw the other trumps with the best one */
        for (int k = 0; k < n; k++) key[k] = info(cards[k]).esuit == TRUMPS ? info(cards[k]).power : -1;
        return first_best(cards, n, key, -1);
    }
    if (ace >= 0) return ace;
    if (plain) { /* the lowest card of the shortest plain suit, to be free to trump it soon */
        for (int k = 0; k < n; k++) {
            Info i = info(cards[k]);
            key[k] = i.esuit == TRUMPS ? 1L << 30 : length[i.esuit] * 1000L + i.power;
        }
        return first_best(cards, n, key, 1);
    }
    for (int k = 0; k < n; k++) key[k] = keep(cards[k]);
    return first_best(cards, n, key, 1);
}

int cl_heuristic(const Classic *s) {
    int cards[CL_MAX_ACTIONS], n = cl_legal(s, cards), seat = s->to_move;
    if (!n) return -1;
    if (!s->nplays) return lead(s, cards, n);
    int queen_by = -1, has_six = 0;
    for (int i = 0; i < s->nplays; i++)
        if (s->play_card[i] == QUEEN_OF_CLUBS) queen_by = s->play_seat[i];
    for (int k = 0; k < n; k++) has_six |= cards[k] == SIX_OF_CLUBS;
    if (has_six && queen_by >= 0 && queen_by % 2 != seat % 2) return SIX_OF_CLUBS; /* C12: catch the queen */
    int led = info(s->play_card[0]).esuit, winner = -1, top = -1, top_power = -1; /* C11: the winner so far */
    for (int i = 0; i < s->nplays; i++) {
        Info p = info(s->play_card[i]);
        if ((p.esuit == led || p.esuit == TRUMPS) && p.power > top_power)
            top_power = p.power, top = s->play_card[i], winner = s->play_seat[i];
    }
    int last = s->nplays == 3;
    long key[CL_MAX_ACTIONS];
    if (winner % 2 == seat % 2) {
        int safe = last || top_power >= info(JACK_OF_CLUBS).power || (top & 15) == ACE;
        for (int k = 0; k < n; k++) {
            Info i = info(cards[k]);
            key[k] = safe ? i.points - (i.esuit == TRUMPS ? 20 : 0) : keep(cards[k]);
        }
        return first_best(cards, n, key, safe ? -1 : 1); /* ours: add points if it is safe, else keep cards */
    }
    int winning = 0;
    for (int k = 0; k < n; k++) {
        Info i = info(cards[k]);
        int beats = (i.esuit == led || i.esuit == TRUMPS) && i.power > top_power;
        winning += beats;
        /* the cheapest winning card, or on the last play the richest; the losers out of the running */
        key[k] = !beats ? (last ? -(1L << 30) : 1L << 30) : last ? i.points * 10L - i.power : i.power;
    }
    if (winning) return first_best(cards, n, key, last ? -1 : 1);
    for (int k = 0; k < n; k++) {
        Info i = info(cards[k]);
        key[k] = i.points * 1000L + i.power;
    }
    return first_best(cards, n, key, 1);
}

int cl_continue(Classic *s, int cards) {
    while (!s->over) {
        int left = 0;
        for (int seat = 0; seat < 4; seat++) left += __builtin_popcountll(s->hand[seat]);
        if (left <= cards) return 0;
        if (cl_apply(s, cl_heuristic(s))) return 1;
    }
    return 1;
}
