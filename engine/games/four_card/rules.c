/* Four-card Kozel (rules F1-F16) on bit masks: the compiled form of rules.py, for search only.
 *
 * A card is the engine's code, suit << 4 | rank (6..14), and a set of cards is a 64-bit mask of codes.  The
 * rules are written here again from the rule book, not generated from the pure engine, and the differential
 * test (tests/test_compiled.py here) holds the two to the same legal actions, steps and scores. */
#include "rules.h"

#include <pthread.h>

#include <string.h>

#define SUIT(code) ((code) >> 4)
#define SUIT_MASK(suit) (0xFFFFULL << ((suit) * 16))

static int order[16];  /* F2: 6 7 8 9 J Q K 10 A, lowest first (-1: no such rank) */
static int points[16]; /* F3 */
static uint64_t beaten_by[4][64]; /* [trump][card]: the cards that beat it (F6) */
static pthread_once_t ready = PTHREAD_ONCE_INIT; /* the tables, made once whichever thread asks first */

static void make_tables(void) {
    static const int ranks[9] = {6, 7, 8, 9, 11, 12, 13, 10, 14};
    for (int r = 0; r < 16; r++) order[r] = -1, points[r] = 0;
    for (int i = 0; i < 9; i++) order[ranks[i]] = i;
    points[11] = 2, points[12] = 3, points[13] = 4, points[10] = 10, points[14] = 11;
    for (int trump = 0; trump < 4; trump++)
        for (int y = 0; y < 64; y++) {
            uint64_t m = 0;
            for (int x = 0; x < 64 && order[y & 15] >= 0; x++) {
                if (order[x & 15] < 0) continue;
                int same = SUIT(x) == SUIT(y);
                if ((same && order[x & 15] > order[y & 15]) || (!same && SUIT(x) == trump)) m |= 1ULL << x;
            }
            beaten_by[trump][y] = m;
        }
}

int fc_card_points(uint64_t cards) {
    pthread_once(&ready, make_tables);
    int total = 0;
    for (; cards; cards &= cards - 1) total += points[__builtin_ctzll(cards) & 15];
    return total;
}

static int popcount(uint64_t x) { return __builtin_popcountll(x); }

/* F8: the cards can be paired one to one with the top's cards, each beating its partner. */
static int can_beat(uint64_t cards, uint64_t top, int trump) {
    if (!top) return 1;
    int y = __builtin_ctzll(top);
    uint64_t rest = top & (top - 1);
    for (uint64_t c = cards & beaten_by[trump][y]; c; c &= c - 1)
        if (can_beat(cards & ~(c & -c), rest, trump)) return 1;
    return 0;
}

/* F10: four cards of one suit in hand, and priority between two molodkas. */
static int may_molodka(const FourCard *s, int seat) {
    uint64_t hand = s->hand[seat];
    if (popcount(hand) != 4 || (hand & ~SUIT_MASK(SUIT(__builtin_ctzll(hand))))) return 0;
    if (!s->molodka) return 1;
    int distance = (seat - s->trick_leader + 4) % 4, leader = (s->lead_seat - s->trick_leader + 4) % 4;
    return s->answered == 0 && distance < leader;
}

int fc_legal(const FourCard *s, FcAction *out) {
    pthread_once(&ready, make_tables);
    int n = 0, mover = s->to_move;
    uint64_t hand = s->hand[mover];
    if (s->lead_seat < 0) { /* F7, and F10 for the leader's own four of a suit */
        for (int suit = 0; suit < 4; suit++) {
            uint64_t cards = hand & SUIT_MASK(suit);
            if (popcount(cards) == 4) out[n++] = (FcAction){mover, FC_MOLODKA, cards};
            for (uint64_t sub = cards; sub; sub = (sub - 1) & cards)
                if (popcount(sub) <= 3) out[n++] = (FcAction){mover, FC_LEAD, sub};
        }
    } else { /* F8: beat the current top, or discard as many cards face down */
        uint64_t top = s->plays[s->top].cards;
        int size = popcount(top);
        for (uint64_t sub = hand; sub; sub = (sub - 1) & hand) {
            if (popcount(sub) != size) continue;
            if (can_beat(sub, top, s->trump)) out[n++] = (FcAction){mover, FC_BEAT, sub};
            out[n++] = (FcAction){mover, FC_DISCARD, sub};
        }
    }
    for (int seat = 0; seat < 4; seat++) /* F10: out of turn too */
        if (!(seat == mover && s->lead_seat < 0) && may_molodka(s, seat))
            out[n++] = (FcAction){seat, FC_MOLODKA, s->hand[seat]};
    return n;
}

static void new_trick(FourCard *s, int leader) {
    s->nplays = 0, s->trick_leader = leader, s->to_move = leader, s->lead_seat = -1;
    s->molodka = 0, s->top = -1, s->answered = 0;
}

int fc_apply(FourCard *s, FcAction a) {
    pthread_once(&ready, make_tables);
    int seat = a.seat;
    s->hand[seat] &= ~a.cards;
    if (a.kind == FC_MOLODKA || a.kind == FC_LEAD) {
        if (a.kind == FC_MOLODKA) /* F10: the cards on the table go back to their hands */
            for (int i = 0; i < s->nplays; i++) s->hand[s->plays[i].seat] |= s->plays[i].cards;
        s->plays[0] = a, s->nplays = 1;
        s->lead_seat = seat, s->molodka = a.kind == FC_MOLODKA, s->top = 0, s->answered = 0;
        s->to_move = (seat + 1) % 4;
        return 0;
    }
    s->plays[s->nplays++] = a;
    if (a.kind == FC_BEAT) s->top = s->nplays - 1; /* F8: the beat is the new top */
    if (++s->answered < 3) {
        s->to_move = (seat + 1) % 4;
        return 0;
    }
    int winner = s->plays[s->top].seat, team = winner % 2; /* F9 */
    for (int i = 0; i < s->nplays; i++) s->points[team] += fc_card_points(s->plays[i].cards);
    s->tricks[team]++;
    while (s->stock_pos < s->stock_len && popcount(s->hand[winner]) < 4) /* F11 */
        for (int i = 0; i < 4; i++) s->hand[(winner + i) % 4] |= 1ULL << s->stock[s->stock_pos++];
    if (!s->hand[0]) return 1; /* F13 */
    new_trick(s, winner); /* F12 */
    return 0;
}

int fc_defeat_points(int points, int tricks) { /* F14: the losing team's */
    if (tricks == 0) return 6;
    return points <= 30 ? 4 : 2;
}

static uint64_t next_random(uint64_t *state) { /* splitmix64 */
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

long fc_random_deals(long deals, uint64_t seed, long totals[2]) {
    pthread_once(&ready, make_tables);
    static const int ranks[9] = {6, 7, 8, 9, 10, 11, 12, 13, 14};
    uint64_t rng = seed;
    long actions = 0;
    FcAction legal[FC_MAX_ACTIONS];
    for (long d = 0; d < deals; d++) {
        uint8_t deck[36];
        int k = 0;
        for (int suit = 0; suit < 4; suit++)
            for (int r = 0; r < 9; r++) deck[k++] = (uint8_t)(suit << 4 | ranks[r]);
        for (int i = 35; i > 0; i--) { /* Fisher-Yates */
            int j = (int)(next_random(&rng) % (uint64_t)(i + 1));
            uint8_t t = deck[i];
            deck[i] = deck[j], deck[j] = t;
        }
        FourCard s;
        memset(&s, 0, sizeof s);
        int dealer = (int)(d % 4);
        for (int i = 0; i < 16; i++) s.hand[(dealer + 1 + i) % 4] |= 1ULL << deck[i]; /* F4 */
        memcpy(s.stock, deck + 16, 20);
        s.stock_len = 20;
        s.trump = SUIT(s.stock[4 + next_random(&rng) % 12]); /* F5 */
        new_trick(&s, (dealer + 1) % 4);
        for (;;) {
            int n = fc_legal(&s, legal);
            actions++;
            if (fc_apply(&s, legal[next_random(&rng) % (uint64_t)n])) break;
        }
        totals[0] += s.points[0], totals[1] += s.points[1];
    }
    return actions;
}
