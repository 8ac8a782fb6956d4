/* Classic Kozel (rules C1-C13) on bit masks: the compiled form of rules.py, for search only.
 *
 * A card is the engine's code, suit << 4 | rank (6..14), and a set of cards is a 64-bit mask of codes.  The
 * core plays the cards (C8-C13); the announcements before the first lead (C6, C7) stay with the pure engine.
 * The rules are written here again from the rule book, and the differential test (tests/test_compiled.py here)
 * holds the two to the same legal plays, steps and scores. */
#include "rules.h"

#include <pthread.h>

#include <string.h>

enum { SPADES = 0, CLUBS = 1, DIAMONDS = 2, HEARTS = 3, TRUMPS = 4 };
#define CODE(suit, rank) ((suit) << 4 | (rank))
#define ACE_OF_DIAMONDS CODE(DIAMONDS, 14)
#define QUEEN_OF_CLUBS CODE(CLUBS, 12)
#define SIX_OF_CLUBS CODE(CLUBS, 6)

static int esuit[64], power[64], points[64];
static pthread_once_t ready = PTHREAD_ONCE_INIT; /* the tables, made once whichever thread asks first */

static void make_tables(void) {
    /* C3: the trumps, low to high: 7 8 9 K 10 A of clubs, the jacks, the queens (diamonds, hearts, spades,
     * clubs), and the 6 of clubs on top */
    static const int trumps[15][2] = {
        {CLUBS, 7}, {CLUBS, 8},  {CLUBS, 9},    {CLUBS, 13},  {CLUBS, 10},  {CLUBS, 14},  {DIAMONDS, 11}, {HEARTS, 11},
        {SPADES, 11}, {CLUBS, 11}, {DIAMONDS, 12}, {HEARTS, 12}, {SPADES, 12}, {CLUBS, 12}, {CLUBS, 6},
    };
    static const int plain[7] = {6, 7, 8, 9, 13, 10, 14}; /* C4 */
    for (int c = 0; c < 64; c++) esuit[c] = c >> 4, power[c] = -1, points[c] = 0;
    for (int suit = 0; suit < 4; suit++)
        for (int i = 0; i < 7; i++) power[CODE(suit, plain[i])] = i;
    for (int i = 0; i < 15; i++) {
        int c = CODE(trumps[i][0], trumps[i][1]);
        esuit[c] = TRUMPS, power[c] = 100 + i;
    }
    for (int suit = 0; suit < 4; suit++) { /* C5 */
        points[CODE(suit, 14)] = 11, points[CODE(suit, 10)] = 10, points[CODE(suit, 13)] = 4;
        points[CODE(suit, 12)] = 3, points[CODE(suit, 11)] = 2;
    }
}

int cl_card_points(uint64_t cards) {
    pthread_once(&ready, make_tables);
    int total = 0;
    for (; cards; cards &= cards - 1) total += points[__builtin_ctzll(cards)];
    return total;
}

void cl_card_info(int card, int *suit, int *rank_power) {
    pthread_once(&ready, make_tables);
    *suit = power[card] < 0 ? -1 : esuit[card];
    *rank_power = power[card];
}

static uint64_t of_suit(uint64_t hand, int suit) {
    uint64_t m = 0;
    for (uint64_t h = hand; h; h &= h - 1) {
        int c = __builtin_ctzll(h);
        if (esuit[c] == suit) m |= 1ULL << c;
    }
    return m;
}

int cl_legal(const Classic *s, int *cards) {
    pthread_once(&ready, make_tables);
    if (s->over) return 0;
    uint64_t hand = s->hand[s->to_move], allowed = hand;
    if (s->nplays) { /* C10: follow the led suit (the trumps are one suit), else any card */
        uint64_t follow = of_suit(hand, esuit[s->play_card[0]]);
        if (follow) allowed = follow;
    } else if (s->ace_lead) { /* C8 */
        allowed = hand & 1ULL << ACE_OF_DIAMONDS;
    } else if (s->banned >> s->to_move & 1) { /* C9, lifted for a hand of trumps only */
        uint64_t plain = hand & ~of_suit(hand, TRUMPS);
        if (plain) allowed = plain;
    }
    int n = 0;
    for (; allowed; allowed &= allowed - 1) cards[n++] = __builtin_ctzll(allowed);
    return n;
}

static int pairs_for(int p) { return p >= 91 ? 4 : p >= 61 ? 2 : 0; } /* C13 */

/* C13's eggs: the next team to score takes 2 more for every deal that ended 60:60 before. */
static void add_eggs(int score[2], int eggs_pending) {
    if (eggs_pending && (score[0] || score[1])) score[score[0] ? 0 : 1] += 2 * eggs_pending;
}

static void settle(Classic *s, int eggs) {
    if (!eggs) add_eggs(s->score, s->eggs_pending);
    s->over = 1;
}

int cl_normal_value(const Classic *s, int p0) {
    int p1 = 120 - p0, pairs[2] = {pairs_for(p0), pairs_for(p1)};
    if (p0 != p1) add_eggs(pairs, s->eggs_pending);
    return p0 - p1 + 15 * (pairs[0] - pairs[1]);
}

static void score_deal(Classic *s) {
    s->score[0] = pairs_for(s->points[0]), s->score[1] = pairs_for(s->points[1]);
    if (!s->tricks[0] || !s->tricks[1]) { /* every trick to one team */
        int taker = s->tricks[0] ? 0 : 1;
        if (s->lose_series) {
            s->score[0] = s->score[1] = 0;
        } else {
            s->score[taker] = 4, s->score[1 - taker] = 0;
        }
        settle(s, 0);
        return;
    }
    settle(s, s->points[0] == s->points[1]);
}

int cl_apply(Classic *s, int card) {
    int seat = s->to_move;
    s->hand[seat] &= ~(1ULL << card);
    s->play_seat[s->nplays] = seat, s->play_card[s->nplays] = card;
    s->nplays++;
    s->ace_lead = 0;
    if (card == QUEEN_OF_CLUBS || card == SIX_OF_CLUBS) { /* C12: caught as the second of them falls */
        int queen = -1, six = -1;
        for (int i = 0; i < s->nplays; i++) {
            if (s->play_card[i] == QUEEN_OF_CLUBS) queen = s->play_seat[i];
            if (s->play_card[i] == SIX_OF_CLUBS) six = s->play_seat[i];
        }
        if (queen >= 0 && six >= 0 && queen % 2 != six % 2) {
            s->points[0] = s->points[1] = 0;
            s->score[six % 2] = 4, s->score[queen % 2] = 0;
            settle(s, 0);
            return 1;
        }
    }
    if (s->nplays < 4) {
        s->to_move = (seat + 1) % 4;
        return 0;
    }
    int led = esuit[s->play_card[0]], winner = s->play_seat[0], best = -1, taken = 0; /* C11 */
    for (int i = 0; i < 4; i++) {
        int c = s->play_card[i];
        taken += points[c];
        if ((esuit[c] == led || esuit[c] == TRUMPS) && power[c] > best) best = power[c], winner = s->play_seat[i];
    }
    s->points[winner % 2] += taken;
    s->tricks[winner % 2]++;
    s->nplays = 0;
    s->to_move = winner;
    if (s->hand[winner]) return 0;
    score_deal(s);
    return 1;
}

int cl_deal_value(const Classic *s) {
    return s->points[0] - s->points[1] + 15 * (s->score[0] - s->score[1]);
}

/* A xorshift generator for the random deals (no libc state shared with anything else). */
static uint64_t next_random(uint64_t *x) {
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

long cl_random_deals(long deals, uint64_t seed, long totals[2]) {
    pthread_once(&ready, make_tables);
    uint64_t x = seed * 2654435761ULL + 1;
    long actions = 0;
    int deck[36], n = 0;
    for (int suit = 0; suit < 4; suit++)
        for (int rank = 6; rank <= 14; rank++) deck[n++] = CODE(suit, rank);
    for (long d = 0; d < deals; d++) {
        for (int i = 35; i > 0; i--) {
            int j = (int)(next_random(&x) % (uint64_t)(i + 1)), t = deck[i];
            deck[i] = deck[j], deck[j] = t;
        }
        Classic s;
        memset(&s, 0, sizeof s);
        for (int i = 0; i < 36; i++) s.hand[i % 4] |= 1ULL << deck[i];
        s.to_move = (int)(next_random(&x) % 4);
        int cards[CL_MAX_ACTIONS], over = 0;
        while (!over) {
            int k = cl_legal(&s, cards);
            over = cl_apply(&s, cards[next_random(&x) % (uint64_t)k]);
            actions++;
        }
        totals[0] += s.points[0], totals[1] += s.points[1];
    }
    return actions;
}
