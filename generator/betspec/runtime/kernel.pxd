# cython: language_level=3
# The typed state of one hand and the runtime's mechanisms over it, for the kernels that
# `betspec generate` writes per spec (generated/kernels/<spec>.pyx). The declarations a kernel
# cimports; kernel.pyx holds the bodies. The fields are named as the Python engine's
# (betspec.runtime.engine.Engine), so that a spec expression reads the same in both.

ctypedef long long chips_t


cdef inline chips_t ceil_to(chips_t value, chips_t unit) except? -1:
    if unit <= 0:
        return value
    return -(-value // unit) * unit


cdef inline chips_t floor_to(chips_t value, chips_t unit) except? -1:
    if unit <= 0:
        return value
    return value // unit * unit


cdef class Draws:
    """SplitMix64: the random draws of a policy given as data, the same in C and in Python
    (betspec.runtime.batch.Draws is this generator written in Python)."""
    cdef unsigned long long state
    cdef unsigned long long next64(self) noexcept
    cdef double unit(self) noexcept
    cdef chips_t below(self, chips_t n) except? -1


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
    # Per seat, one block of memory (_block) sized for the table's seats.
    cdef chips_t* _behind
    cdef chips_t* _put_in
    cdef chips_t* _contributed
    cdef chips_t* _live
    cdef chips_t* _acted_at
    cdef chips_t* _returned
    cdef char* _folded
    cdef char* _acted
    cdef void* _block
    cdef int _capacity
    # The view of the seat to act: a bit per legal action (sorted names), the bounds (-1: none).
    cdef int _viewed
    cdef int _legal
    cdef chips_t _call
    cdef chips_t _min_to
    cdef chips_t _max_to
    # The inputs last loaded, and per number of seats a kernel holding them loaded (the
    # inputs' values depend on the table's inputs and its number of seats only).
    cdef object _template_inputs
    cdef dict _templates

    cdef int _seat_arrays(self, int n) except -1
    cdef int _deal_in(self, object stacks, int button) except -1
    cdef chips_t _chips(self) noexcept

    # The mechanisms (engine.py's of the same names).
    cdef int _put(self, int seat, chips_t amount) except -1
    cdef int _post(self, int seat, chips_t amount, bint live, bint starts_after, bint last, bint in_full, str what) except -1
    cdef int _begin_street(self, int street) except -1
    cdef int _open_betting(self, int after) except -1
    cdef int _commit(self, chips_t to) except -1
    cdef int _mark_checked(self) except -1
    cdef int _mark_folded(self) except -1
    cdef int _mark_acted(self, int seat) except -1
    cdef int _pass_action(self) except -1
    cdef int _close_round(self) except -1
    cdef int _deal_runout(self, int street) except -1
    cdef int _next_needing_action(self, int after) noexcept
    cdef int _next_live(self, int seat) noexcept
    cdef int _prev_live(self, int seat) noexcept
    cdef int _seats_left(self) noexcept
    cdef int _pending(self) noexcept
    cdef int _others_able(self) noexcept
    cdef int _able_owing(self) noexcept
    cdef bint _answerable(self) noexcept

    # What each kernel writes from its spec.
    cdef int _load_template(self, object engine) except -1
    cdef int _copy_template(self, Kernel other) except -1
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

    # Playing hands with a policy given as data (configure sets it).
    cdef object _engine_class
    cdef dict _options
    cdef double _weights[8]
    cdef bint _fold_when_free
    cdef double _all_in
    cdef chips_t _room_share

    cdef int _decide(self, Draws draws, double* weights, bint fold_when_free, double all_in, chips_t room_share, chips_t* to) except -2
    cdef int _play_out(self, Draws draws, double* weights, bint fold_when_free, double all_in, chips_t room_share, list trace) except -1
