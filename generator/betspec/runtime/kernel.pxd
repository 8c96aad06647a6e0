# cython: language_level=3
# The typed state of one hand and the runtime's mechanisms over it, for the kernels that
# `betspec generate` writes per spec (generated/kernels/<spec>.pyx). The declarations a kernel
# cimports; kernel.pyx holds the bodies. The fields are named as the Python engine's
# (betspec.runtime.engine.Engine), so that a spec expression reads the same in both.

#: Chips: every amount, total and bound.
cimport cython
from libc.string cimport memset

ctypedef long long chips_t
#: A seat's chips in the per-seat arrays: 64-bit, as every table the engine takes holds at most
#: MAX_SEATS * MAX_CHIPS (under SEAT_CHIPS_MAX, 2^55) in all.
ctypedef long long seat_chips_t


cdef inline chips_t ceil_to(chips_t value, chips_t unit) except? -1:
    if unit <= 0:
        return value
    return -(-value // unit) * unit


cdef inline chips_t floor_to(chips_t value, chips_t unit) except? -1:
    if unit <= 0:
        return value
    return value // unit * unit


# A spec's rounding and remainders as Python computes them (the Cython back end prints these for
# ``-(-value // unit) * unit``, ``value // unit * unit`` and ``value % divisor``), without the
# division where its answer is known: a unit of 1 (the betting unit's default), a value already
# below its divisor (a seat number after the button). A 64-bit division takes tens of cycles, a
# dozen of them a hand, where the plain C floor divides twice.
cdef inline chips_t rounded_up(chips_t value, chips_t unit) except? -1:
    if unit == 1:
        return value
    return -(-value // unit) * unit


cdef inline chips_t rounded_down(chips_t value, chips_t unit) except? -1:
    if unit == 1:
        return value
    return value // unit * unit


cdef inline chips_t remainder(chips_t value, chips_t divisor) except? -1:
    if 0 <= value < divisor:
        return value
    if divisor == 1:
        return 0
    return value % divisor


@cython.final
cdef class Draws:
    """SplitMix64: the random draws of a policy given as data, the same in C and in Python
    (betspec.runtime.batch.Draws is this generator written in Python)."""
    cdef unsigned long long state
    cdef unsigned long long next64(self) noexcept
    cdef double unit(self) noexcept
    cdef chips_t below(self, chips_t n) except? -1


cdef class Inputs:
    """What a table gives beside its stacks and button, as the Python engine loaded and checked
    it, shared by every hand with the same inputs, options and number of seats. Each kernel
    declares the fields of its spec's options, table inputs and deal inputs."""
    cdef object _engine_class
    cdef dict _options
    cdef dict _table_inputs
    cdef int _load(self, object engine) except -1
    cdef int _bound(self, tuple values, chips_t bound) except -1
    cdef bint _fits(self) except -1
    cdef object _magnitude(self, object value)


cdef class Templates:
    """The inputs loaded for the table inputs and options seen last, per number of seats."""
    cdef object _make
    cdef object _engine_class
    cdef dict _options
    cdef dict _table_inputs
    cdef dict _by_seats
    cdef Inputs get(self, object engine_class, dict options, object table, int seats)


cdef class Kernel:
    # The hand, as Engine keeps it.
    cdef int _n
    cdef int _button
    cdef int _actor
    cdef int _street
    cdef int _state
    cdef int _players_in
    cdef int _able_count
    cdef int _last_live
    cdef int _deferred
    cdef int _viewed
    cdef int _legal
    cdef int _capacity
    cdef chips_t _bet_level
    cdef chips_t _last_raise
    cdef chips_t _last_full_level
    cdef chips_t _raises
    cdef chips_t _pot
    cdef chips_t _dead
    cdef chips_t _nominal
    cdef chips_t _posted_live
    cdef chips_t _posted_dead
    cdef chips_t _forced_raises
    # The view of the seat to act: a bit per legal action (sorted names), the bounds (-1: none).
    cdef chips_t _call
    cdef chips_t _min_to
    cdef chips_t _max_to
    # Per seat, one block of memory (_block) sized for the table's seats.
    cdef seat_chips_t* _behind
    cdef seat_chips_t* _put_in
    cdef seat_chips_t* _contributed
    cdef seat_chips_t* _live
    cdef seat_chips_t* _acted_at
    cdef char* _folded
    cdef char* _acted
    cdef void* _block
    # The table's inputs, loaded.
    cdef Inputs _inputs
    # Played action by action: every step taken (two numbers each), and the Python engine the
    # hand is handed to when the kernel cannot answer (None until then). A step's amount is at most
    # the table's chips (64-bit, as the seats').
    cdef chips_t* _steps
    cdef int _step_count
    cdef int _step_capacity
    cdef bint _handed
    cdef object _python
    # The kernel's actions as a policy draws from them (_play_out asks once per kernel object:
    # they are its class's): their count, the fold and check bits, a bit per wager; -1 until asked.
    cdef int _drawn_actions
    cdef int _drawn_fold
    cdef int _drawn_check
    cdef int _drawn_wagers
    # The states in which the hand is over, a bit each (the kernel's _hand_over as data, asked
    # once with the actions): the loop tests a bit rather than calling through the vtable.
    cdef unsigned long long _drawn_over

    cdef int _seat_arrays(self, int n) except -1
    cdef int _start(self, object table, object engine_class, dict options) except -1
    cdef int _open(self, int button, chips_t carried) except -1
    @cython.final
    cdef chips_t _chips(self) noexcept
    cdef int _record(self, int code, chips_t to) except -1

    # The mechanisms (engine.py's of the same names).
    @cython.final
    cdef inline int _put(self, int seat, chips_t amount) except -1:
        cdef chips_t before, after
        self._behind[seat] -= amount
        self._contributed[seat] += amount
        self._pot += amount
        before = self._live[seat]
        after = self._playable(seat)
        self._live[seat] = <seat_chips_t>after
        if (before > 0) != (after > 0) and not self._folded[seat]:
            self._able_count += 1 if after > 0 else -1
        return 0
    cdef int _post(self, int seat, chips_t amount, str what, bint live, bint dead_money, str order, bint in_full) except -1
    @cython.final
    cdef inline int _begin_street(self, int street) except -1:
        cdef int n = self._n
        self._street = street
        memset(self._put_in, 0, n * sizeof(seat_chips_t))
        memset(self._acted_at, 0, n * sizeof(seat_chips_t))
        memset(self._acted, 0, n)
        self._bet_level = 0
        self._actor = -1
        self._deferred = -1
        return 0
    @cython.final
    cdef inline int _open_betting(self, int after) except -1:
        self._actor = self._next_needing_action(after)
        return 0
    @cython.final
    cdef inline int _commit(self, chips_t to) except -1:
        cdef int seat = self._actor
        cdef chips_t amount = to - self._put_in[seat]
        self._put(seat, amount)
        self._put_in[seat] = <seat_chips_t>to
        if to > self._bet_level:
            self._bet_level = to
        # Nothing put in and still short of the bet: no action on it (Engine._commit).
        if amount != 0 or to >= self._bet_level:
            self._mark_acted(seat)
        return 0
    @cython.final
    cdef inline int _mark_checked(self) except -1:
        self._mark_acted(self._actor)
        return 0
    @cython.final
    cdef inline int _mark_folded(self) except -1:
        cdef int seat = self._actor
        if self._live[seat] > 0:
            self._able_count -= 1
        self._folded[seat] = 1
        self._players_in -= 1
        self._mark_acted(seat)
        return 0
    @cython.final
    cdef inline int _mark_acted(self, int seat) except -1:
        if seat == self._deferred:
            self._deferred = -1
        self._acted[seat] = 1
        self._acted_at[seat] = <seat_chips_t>self._bet_level
        return 0
    @cython.final
    cdef inline int _pass_action(self) except -1:
        self._actor = self._next_needing_action(self._actor)
        return 0
    @cython.final
    cdef inline int _close_round(self) except -1:
        cdef int n = self._n
        cdef int seat, top = 0
        cdef chips_t second = 0, uncalled
        self._actor = -1
        for seat in range(1, n):
            if self._put_in[seat] > self._put_in[top]:
                top = seat
        for seat in range(n):
            if seat != top and self._put_in[seat] > second:
                second = self._put_in[seat]
        uncalled = self._put_in[top] - second
        if uncalled > 0:
            self._put(top, -uncalled)
            self._put_in[top] = <seat_chips_t>second
        return 0
    @cython.final
    cdef inline int _deal_runout(self, int street) except -1:
        self._street = street
        return 0
    @cython.final
    cdef inline int _next_needing_action(self, int after) noexcept:
        cdef int n = self._n
        cdef int step, seat
        cdef int deferred = self._deferred
        cdef chips_t level = self._bet_level
        if not 0 <= after < n:
            after = after % n
        seat = after
        for step in range(n):
            seat += 1
            if seat == n:  # clockwise, without a division per seat
                seat = 0
            if (
                self._live[seat] > 0
                and not self._folded[seat]
                and (not self._acted[seat] or self._put_in[seat] < level)
                and seat != deferred
            ):
                return seat
        if deferred < 0 or self._live[deferred] <= 0 or self._folded[deferred]:
            return -1
        return deferred if not self._acted[deferred] or self._put_in[deferred] < level else -1
    @cython.final
    cdef int _next_live(self, int seat) noexcept
    @cython.final
    cdef int _prev_live(self, int seat) noexcept
    @cython.final
    cdef int _seats_left(self) noexcept
    @cython.final
    cdef int _pending(self) noexcept
    @cython.final
    cdef inline int _others_able(self) noexcept:
        cdef int mine = 1 if self._actor >= 0 and self._live[self._actor] > 0 else 0
        return self._able_count - mine
    @cython.final
    cdef inline int _able_owing(self) noexcept:
        cdef int seat, count = 0
        for seat in range(self._n):
            if self._put_in[seat] < self._bet_level and self._live[seat] > 0 and not self._folded[seat]:
                count += 1
        return count
    @cython.final
    cdef inline bint _answerable(self) noexcept:
        cdef int seat
        for seat in range(self._n):
            if <chips_t>self._put_in[seat] + self._live[seat] > self._bet_level and not self._folded[seat] and seat != self._actor:
                return True
        return False

    # What each kernel writes from its spec.
    cdef Templates _templates(self)
    cdef int _compute_roles(self) except -1
    cdef int _check_table(self) except -1
    cdef int _post_forced_bets(self) except -1
    cdef int _begin(self) except -1
    cdef chips_t _playable(self, int seat) except? -1
    cdef int _view(self) except -1
    cdef int _take(self, int action, chips_t to) except -1
    cdef int _settle(self) except -1
    cdef bint _can_deal(self) except -1
    cdef int _deal(self) except -1
    cdef bint _hand_over(self) noexcept
    cdef chips_t _bet_unit(self) noexcept
    cdef int _fold_bit(self) noexcept
    cdef int _check_bit(self) noexcept
    cdef int _action_count(self) noexcept
    cdef bint _is_wager(self, int action) noexcept
    cdef chips_t _all_in_to(self) except? -1
    cdef bint _allowed(self, int action) except -1
    cdef tuple _names(self)
    cdef tuple _legal_sets(self)
    cdef tuple _streets(self)
    cdef tuple _phases(self)
    cdef int _copy_fields(self, Kernel other) except -1

    # Played by a policy given as data.
    @cython.final
    cdef int _decide(self, Draws draws, Policy policy, chips_t* to, int actions, int wagers) except -2
    @cython.final
    cdef int _play_out(self, Draws draws, Policy policy, list trace) except -1

    # Logged hands replayed in one call (replay_hands).
    cdef Py_ssize_t _replay(self, chips_t* steps, Py_ssize_t count) except -2

    # Handed to the Python engine.
    cdef object _engine(self)
    cdef bint _take_or_refuse(self, int index, chips_t to) except -1
    cdef bint _try(self, object seat, object action, object to) except -1


@cython.final
cdef class Policy:
    """A policy given as data (betspec.runtime.batch.Policy), for a kernel's actions."""
    cdef double weights[8]
    cdef bint fold_when_free
    cdef double all_in
    cdef chips_t room_share
    cdef int _room_shift  # room_share as a power of two (its exponent), else -1: a shift, not a division
    # The draw of an action for each set of legal actions, worked out once for a kernel's
    # actions (_prepare): the actions weighed, in order, and their cumulative weights.
    cdef int _for_actions, _for_fold, _for_check
    cdef int _counts[256]
    cdef signed char _picks[256][8]
    cdef double _cumulative[256][8]
    cdef int _prepare(self, int actions, int fold_bit, int check_bit) except -1


cdef class Batch:
    """Hands of one kernel class played one after another by one policy."""
    cdef Kernel _kernel
    cdef object _engine_class
    cdef dict _options
    cdef Policy _policy
