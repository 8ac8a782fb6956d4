/* Czech Kozel's hand-written heuristics (heuristics.py) in C, for the best-response search: the same card in
 * every position, which the differential test (tests/test_compiled.py here) holds it to. */
#include "rules.h"

enum { HEARTS = 3, SPADES = 0, KOZEL = SPADES << 4 | 12 };

/* How much a card risks penalties if kept: the kozel first, then hearts, then high cards. */
static int danger(int card) { return cz_penalty(1ULL << card) * 20 + (card & 15); }

int cz_heuristic(const Czech *s) {
    int cards[CZ_MAX_ACTIONS], n = cz_legal(s, cards), best = cards[0];
    /* cards come lowest code first, as the engine lists them: a tie keeps the first */
    if (!s->nplays) { /* lead the lowest card, hearts last, never the kozel by choice */
        int key = 1 << 30;
        for (int i = 0; i < n; i++) {
            int c = cards[i], k = (c == KOZEL) << 8 | (c >> 4 == HEARTS) << 4 | (c & 15);
            if (k < key) key = k, best = c;
        }
        return best;
    }
    int led = s->play_card[0] >> 4, top = -1;
    for (int i = 0; i < s->nplays; i++)
        if (s->play_card[i] >> 4 == led && s->play_card[i] > top) top = s->play_card[i];
    if (cards[0] >> 4 != led) { /* K4: free to throw the worst card away */
        int key = -1;
        for (int i = 0; i < n; i++)
            if (danger(cards[i]) > key) key = danger(cards[i]), best = cards[i];
        return best;
    }
    int under = -1, under_key = -1;
    for (int i = 0; i < n; i++) { /* the highest card that does not take the trick, the kozel above all */
        int c = cards[i], k = (c == KOZEL) << 8 | c;
        if (c < top && k > under_key) under_key = k, under = c;
    }
    if (under >= 0) return under;
    int last = s->nplays == s->players - 1, key = last ? -1 : 1 << 30;
    for (int i = 0; i < n; i++) {
        int c = cards[i];
        if (last) { /* it takes the trick anyway: with the highest card, the kozel last */
            int k = (c != KOZEL) << 8 | c;
            if (k > key) key = k, best = c;
        } else { /* the lowest, the kozel last */
            int k = (c == KOZEL) << 8 | c;
            if (k < key) key = k, best = c;
        }
    }
    return best;
}
