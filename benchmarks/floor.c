/* The plain C floor of no-limit hold'em betting: a hand-written C loop with the rules of
 * spec/no_limit.json as its default options play them (blinds, no ante, no straddle, bet unit 1),
 * for benchmarks/compiled.py to time beside the kernel as the limit of what C does.
 *
 *   floor_self_play: hands on given tables played to their end by simulate's bot (the weights,
 *     the all-in share and the sizing of betspec.runtime.batch.Policy), its decisions drawn from
 *     SplitMix64 as the kernels' Draws draws them: the very hands play_hands plays, one Draws for
 *     the whole batch.
 *   floor_replay: recorded hands (seat, action, to per step; a deal as seat -1) replayed with
 *     every action checked as the engine checks it (the seat to act, the action legal, the
 *     amount within the bounds); returns the number of hands refused (0 when all are legal).
 *
 * No allocation per hand, no function pointer, no Python: the state of one hand on the stack.
 * Compiled by the benchmark with the system `cc -O2`.
 */
#include <stdint.h>
#include <string.h>

#define SEATS 23
enum { UNOPENED = 1, FACING = 2, COMPLETE = 3, RUNOUT = 4, SHOWDOWN = 5, SETTLED = 6 };
enum { BET = 0, CALL = 1, CHECK = 2, FOLD = 3, RAISE = 4, DEAL = -1 };

typedef long long chips;

typedef struct {
    int n, button, actor, street, state, players_in, able;
    chips big_blind, level, last_raise, pot;
    chips behind[SEATS], put_in[SEATS], acted_at[SEATS];
    char folded[SEATS], acted[SEATS];
} Hand;

static uint64_t draw_state;

static inline uint64_t next64(void) {
    uint64_t z = (draw_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline double unit(void) { return (double)(next64() >> 11) * (1.0 / 9007199254740992.0); }

static inline void put(Hand* h, int seat, chips amount) {
    chips before = h->behind[seat];
    h->behind[seat] -= amount;
    h->pot += amount;
    if ((before > 0) != (h->behind[seat] > 0) && !h->folded[seat]) h->able += h->behind[seat] > 0 ? 1 : -1;
}

static int next_needing(const Hand* h, int after) {
    int seat = after;
    for (int step = 0; step < h->n; step++) {
        if (++seat == h->n) seat = 0;
        if (h->behind[seat] > 0 && !h->folded[seat] && (!h->acted[seat] || h->put_in[seat] < h->level)) return seat;
    }
    return -1;
}

static void close_round(Hand* h) {
    int top = 0;
    chips second = 0, uncalled;
    h->actor = -1;
    for (int seat = 1; seat < h->n; seat++)
        if (h->put_in[seat] > h->put_in[top]) top = seat;
    for (int seat = 0; seat < h->n; seat++)
        if (seat != top && h->put_in[seat] > second) second = h->put_in[seat];
    uncalled = h->put_in[top] - second;
    if (uncalled > 0) {
        put(h, top, -uncalled);
        h->put_in[top] = second;
    }
}

static int able_owing(const Hand* h) {
    int count = 0;
    for (int seat = 0; seat < h->n; seat++)
        if (h->put_in[seat] < h->level && h->behind[seat] > 0 && !h->folded[seat]) count++;
    return count;
}

static void settle(Hand* h) {
    if (h->state != UNOPENED && h->state != FACING) return;
    if (h->players_in == 1) h->state = SETTLED;
    else if (h->street == 3 && (h->actor < 0 || (h->able <= 1 && able_owing(h) == 0))) h->state = SHOWDOWN;
    else if (h->able <= 1 && able_owing(h) == 0) h->state = RUNOUT;
    else if (h->actor < 0) h->state = COMPLETE;
    else return;
    close_round(h);
}

static void post(Hand* h, int seat, chips amount) {
    chips paid = amount <= h->behind[seat] ? amount : h->behind[seat];
    if (paid > 0) put(h, seat, paid);
    h->put_in[seat] += paid;
    if (h->put_in[seat] > h->level) h->level = h->put_in[seat];
}

static void start(Hand* h, int n, const chips* stacks, int button, chips small_blind, chips big_blind) {
    int sb, bb;
    memset(h, 0, sizeof(Hand));
    h->n = n;
    h->button = button;
    h->players_in = n;
    h->big_blind = big_blind;
    for (int seat = 0; seat < n; seat++) {
        h->behind[seat] = stacks[seat];
        h->able += stacks[seat] > 0;
    }
    sb = n == 2 ? button : (button + 1) % n;
    bb = (sb + 1) % n;
    if (small_blind) post(h, sb, small_blind);
    if (big_blind) post(h, bb, big_blind);
    if (h->level < big_blind) h->level = big_blind;
    h->last_raise = big_blind;
    h->actor = next_needing(h, bb);
    h->state = h->level > 0 ? FACING : UNOPENED;
    settle(h);
}

static int answerable(const Hand* h) {
    for (int seat = 0; seat < h->n; seat++)
        if (h->put_in[seat] + h->behind[seat] > h->level && !h->folded[seat] && seat != h->actor) return 1;
    return 0;
}

/* The legal actions (a bit each) and the bounds of a bet or raise. */
static int view(const Hand* h, chips* low, chips* high) {
    int a = h->actor, legal = 0;
    chips call = h->level - h->put_in[a], all_in = h->put_in[a] + h->behind[a], least;
    if (call > h->behind[a]) call = h->behind[a];
    if (h->state == UNOPENED && h->level == 0 && answerable(h)) legal |= 1 << BET;
    if (h->state == FACING && call > 0) legal |= 1 << CALL;
    if (call == 0) legal |= 1 << CHECK;
    legal |= 1 << FOLD;
    if (h->state == FACING && h->level > 0 && h->behind[a] > call && answerable(h)
        && (!h->acted[a] || h->level - h->acted_at[a] >= h->last_raise))
        legal |= 1 << RAISE;
    if (legal & (1 << BET)) least = h->big_blind > 1 ? h->big_blind : 1;
    else {
        least = h->last_raise > h->big_blind ? h->last_raise : h->big_blind;
        least = h->level + (least > 1 ? least : 1);
    }
    *low = least < all_in ? least : all_in;
    *high = all_in > *low ? all_in : *low;
    return legal;
}

static void commit(Hand* h, chips to) {
    int a = h->actor;
    put(h, a, to - h->put_in[a]);
    h->put_in[a] = to;
    if (to > h->level) h->level = to;
    h->acted[a] = 1;
    h->acted_at[a] = h->level;
}

static void take(Hand* h, int action, chips to) {
    int a = h->actor;
    chips call;
    switch (action) {
    case BET:
    case RAISE:
        if (to - h->level >= h->last_raise) h->last_raise = to - h->level;
        commit(h, to);
        h->state = FACING;
        break;
    case CALL:
        call = h->level - h->put_in[a];
        commit(h, h->put_in[a] + (call < h->behind[a] ? call : h->behind[a]));
        break;
    case FOLD:
        if (h->behind[a] > 0) h->able--;
        h->folded[a] = 1;
        h->players_in--;
        /* fall through: marked as acted */
    default:
        h->acted[a] = 1;
        h->acted_at[a] = h->level;
    }
    h->actor = next_needing(h, a);
    settle(h);
}

static int can_deal(const Hand* h) { return h->street < 3 && (h->state == COMPLETE || h->state == RUNOUT); }

static void deal(Hand* h) {
    h->street++;
    if (h->state == RUNOUT) return; /* the board dealt out: no betting */
    h->last_raise = h->big_blind;
    memset(h->put_in, 0, sizeof(h->put_in));
    memset(h->acted_at, 0, sizeof(h->acted_at));
    memset(h->acted, 0, sizeof(h->acted));
    h->level = 0;
    h->actor = next_needing(h, h->button);
    h->state = UNOPENED;
    settle(h);
}

static chips total(const Hand* h) {
    chips sum = h->pot;
    for (int seat = 0; seat < h->n; seat++) sum += h->behind[seat];
    return sum;
}

/* simulate's bot: bet 2, call 4, check 4, fold 3 (never when a check is free), raise 1.5;
 * all-in with chance 0.08, else the minimum plus a draw below a quarter of the room. */
static const double WEIGHTS[5] = {2.0, 4.0, 4.0, 3.0, 1.5};

static int decide(Hand* h, chips* to) {
    chips low, high, room, amount;
    int legal = view(h, &low, &high), picks[5], count = 0, chosen;
    double cumulative[5], sum = 0.0, point;
    for (int action = 0; action < 5; action++) {
        if (!(legal >> action & 1)) continue;
        if (action == FOLD && (legal >> CHECK & 1)) continue;
        sum += WEIGHTS[action];
        picks[count] = action;
        cumulative[count++] = sum;
    }
    point = unit() * sum;
    chosen = count - 1;
    for (int index = 0; index < count - 1; index++)
        if (point < cumulative[index]) {
            chosen = index;
            break;
        }
    *to = -1;
    if (picks[chosen] == BET || picks[chosen] == RAISE) {
        room = (high - low) / 4 + 1;
        if (unit() < 0.08) amount = high;
        else {
            amount = low + (chips)(next64() % (uint64_t)room);
            if (amount > high) amount = high;
        }
        *to = amount;
    }
    return picks[chosen];
}

/* out[0] actions, out[1] chips (each hand's total, summed). Returns the hands played. */
long long floor_self_play(int hands, const int* seats, const chips* stacks, const int* buttons,
                          const chips* blinds, uint64_t seed, chips* out) {
    Hand h;
    chips actions = 0, chips_in = 0, before, to;
    int action;
    draw_state = seed;
    for (int index = 0; index < hands; index++) {
        start(&h, seats[index], stacks, buttons[index], blinds[2 * index], blinds[2 * index + 1]);
        stacks += seats[index];
        before = total(&h);
        while (h.state != RUNOUT && h.state != SHOWDOWN && h.state != SETTLED) {
            if (h.actor < 0) {
                if (!can_deal(&h)) break;
                deal(&h);
                continue;
            }
            action = decide(&h, &to);
            take(&h, action, to);
            actions++;
        }
        if (total(&h) != before) return -1;
        chips_in += before;
    }
    out[0] = actions;
    out[1] = chips_in;
    return hands;
}

/* steps: (seat, action, to) per step, a deal as seat -1; counts: the steps of each hand.
 * out[0] actions taken. Returns the number of hands with a step refused. */
long long floor_replay(int hands, const int* seats, const chips* stacks, const int* buttons, const chips* blinds,
                       const int* counts, const chips* steps, chips* out) {
    Hand h;
    chips actions = 0, low, high, to;
    int legal, action, refused = 0, bad;
    for (int index = 0; index < hands; index++) {
        start(&h, seats[index], stacks, buttons[index], blinds[2 * index], blinds[2 * index + 1]);
        stacks += seats[index];
        bad = 0;
        for (int step = 0; step < counts[index]; step++, steps += 3) {
            if (bad) continue;
            if (steps[0] < 0) {
                if (h.actor >= 0 || !can_deal(&h)) bad = 1;
                else deal(&h);
                continue;
            }
            if (h.actor < 0 || steps[0] != h.actor || h.state == RUNOUT || h.state == SHOWDOWN || h.state == SETTLED) {
                bad = 1;
                continue;
            }
            action = (int)steps[1];
            to = steps[2];
            legal = view(&h, &low, &high);
            if (action < 0 || action > 4 || !(legal >> action & 1)) {
                bad = 1;
                continue;
            }
            if (action == BET || action == RAISE) {
                if (to <= h.level || to < low || to > high) {
                    bad = 1;
                    continue;
                }
            } else if (to >= 0) {
                bad = 1;
                continue;
            }
            take(&h, action, to);
            actions++;
        }
        refused += bad;
    }
    out[0] = actions;
    return refused;
}
