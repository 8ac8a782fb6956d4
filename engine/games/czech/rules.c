/* Czech Kozel (rules K2-K7) on bit masks: the compiled form of rules.py, for search only.
 *
 * A card is the engine's code, suit << 4 | rank (7..14 in Czech Kozel's order), and a set of cards is a 64-bit
 * mask of codes.  The core plays the cards; the double (K6), made before the first card, is the pure engine's.
 * The rules are written here again from the rule book, and the differential test (tests/test_compiled.py here)
 * holds the two to the same legal plays, steps and scores. */
#include "rules.h"

#include <string.h>

enum { HEARTS = 3, SPADES = 0 };
#define CODE(suit, rank) ((suit) << 4 | (rank))
#define KOZEL CODE(SPADES, 12) /* the green svrsek */
#define SUIT_MASK(suit) (0xFFFFULL << ((suit) * 16))

int cz_penalty(uint64_t cards) { /* K5: a heart 1, the kozel 13 */
    return __builtin_popcountll(cards & SUIT_MASK(HEARTS)) + ((cards >> KOZEL & 1) ? 13 : 0);
}

int cz_legal(const Czech *s, int *cards) {
    if (s->over) return 0;
    uint64_t hand = s->hand[s->to_move], allowed = hand;
    if (s->nplays) { /* K4: follow the led suit if you can */
        uint64_t follow = hand & SUIT_MASK(s->play_card[0] >> 4);
        if (follow) allowed = follow;
    }
    int n = 0;
    for (; allowed; allowed &= allowed - 1) cards[n++] = __builtin_ctzll(allowed);
    return n;
}

static void score_deal(Czech *s) {
    int factor = s->doubled ? 2 : 1, taker = -1; /* K6 */
    for (int i = 0; i < s->players; i++)
        if (s->tricks[i] == s->tricks_done) taker = i;
    for (int i = 0; i < s->players; i++) /* K7: every trick to one player */
        s->score[i] = taker >= 0 ? (i == taker ? 0 : 21 * factor) : s->penalty[i] * factor;
    s->over = 1;
}

int cz_apply(Czech *s, int card) {
    int seat = s->to_move;
    s->hand[seat] &= ~(1ULL << card);
    s->play_seat[s->nplays] = seat, s->play_card[s->nplays] = card;
    if (++s->nplays < s->players) {
        s->to_move = (seat + 1) % s->players;
        return 0;
    }
    int led = s->play_card[0] >> 4, best = s->play_card[0], winner = s->play_seat[0]; /* K4 */
    uint64_t taken = 0;
    for (int i = 0; i < s->players; i++) {
        int c = s->play_card[i];
        taken |= 1ULL << c;
        if (c >> 4 == led && c > best) best = c, winner = s->play_seat[i];
    }
    s->penalty[winner] += cz_penalty(taken);
    s->tricks[winner]++;
    s->tricks_done++;
    s->nplays = 0;
    s->to_move = winner;
    if (s->hand[winner]) return 0;
    score_deal(s);
    return 1;
}

int cz_deal_value(const Czech *s, int seat) {
    int others = 0;
    for (int i = 0; i < s->players; i++)
        if (i != seat) others += s->score[i];
    return others - (s->players - 1) * s->score[seat];
}

static uint64_t next_random(uint64_t *x) {
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

long cz_random_deals(long deals, int players, uint64_t seed, long *penalties) {
    static const int per[7] = {0, 0, 0, 10, 8, 6, 5}; /* K3 */
    uint64_t x = seed * 2654435761ULL + 1;
    long actions = 0;
    int deck[32], n = 0;
    for (int suit = 0; suit < 4; suit++)
        for (int rank = 7; rank <= 14; rank++) deck[n++] = CODE(suit, rank);
    for (long d = 0; d < deals; d++) {
        for (int i = 31; i > 0; i--) {
            int j = (int)(next_random(&x) % (uint64_t)(i + 1)), t = deck[i];
            deck[i] = deck[j], deck[j] = t;
        }
        Czech s;
        memset(&s, 0, sizeof s);
        s.players = players;
        for (int i = 0; i < players * per[players]; i++) s.hand[i % players] |= 1ULL << deck[i];
        s.to_move = (int)(next_random(&x) % (uint64_t)players);
        int cards[CZ_MAX_ACTIONS], over = 0;
        while (!over) {
            int k = cz_legal(&s, cards);
            over = cz_apply(&s, cards[next_random(&x) % (uint64_t)k]);
            actions++;
        }
        for (int i = 0; i < players; i++) penalties[i] += s.score[i];
    }
    return actions;
}
