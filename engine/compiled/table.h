/* The transposition table each game's solver keeps: one per solver (this header's functions are static, so
 * every solver that includes it has its own table) and per thread that solves (solves run with the GIL
 * released, so threads solve at once), 2^20 entries made when that thread first solves. */
#ifndef KOZEL_TABLE_H
#define KOZEL_TABLE_H

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

enum { TT_EXACT = 0, TT_LOWER = 1, TT_UPPER = 2, TT_NO_MEMORY = -32768 };

typedef struct {
    uint64_t key;
    uint32_t solve; /* which solve stored it: the others' entries count as empty */
    int16_t value;
    uint8_t flag;
    uint8_t move; /* the best move found, tried first when the position comes again */
} Entry;

static _Thread_local Entry *table; /* each thread that solves has its own table, made when it first solves */
static _Thread_local uint64_t table_mask;
static _Thread_local uint32_t solve_no;

static uint64_t mix(uint64_t h, uint64_t x) {
    h ^= x + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 29);
}

/* A thread's table goes with the thread (a key's destructor frees it). */
static pthread_key_t table_key;
static pthread_once_t table_key_made = PTHREAD_ONCE_INIT;

static void table_key_make(void) { pthread_key_create(&table_key, free); }

/* Ready for a new solve; ``same_world``: the previous solve's entries still hold.  0 without memory. */
static int tt_begin(int same_world) {
    if (!table) {
        table_mask = (1u << 20) - 1; /* 16 MB */
        table = calloc(table_mask + 1, sizeof *table);
        if (!table) return 0;
        pthread_once(&table_key_made, table_key_make);
        pthread_setspecific(table_key, table);
    }
    if (!same_world || solve_no == 0) solve_no++;
    return 1;
}

/* The position's entry; 1 with its value in ``*value`` when that settles the search in [alpha, beta], and
 * its best move (or -1) in ``*first``. */
static int tt_probe(Entry *e, uint64_t key, int alpha, int beta, int *value, int *first) {
    *first = -1;
    if (e->solve != solve_no || e->key != key) return 0;
    *first = e->move, *value = e->value;
    return e->flag == TT_EXACT || (e->flag == TT_LOWER && e->value >= beta) ||
           (e->flag == TT_UPPER && e->value <= alpha);
}

static void tt_store(Entry *e, uint64_t key, int best, int move, int alpha, int beta) {
    e->key = key, e->value = (int16_t)best, e->solve = solve_no, e->move = (uint8_t)move;
    e->flag = best <= alpha ? TT_UPPER : best >= beta ? TT_LOWER : TT_EXACT;
}

#endif
