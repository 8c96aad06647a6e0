# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The typed runtime of the kernels: one hand's state in C and the mechanisms over it.

A kernel (generated/kernels/<spec>.pyx, written by `betspec generate` from the spec) is the
spec's betting compiled with C types: its guards, effects, sizing and forced bets, printed from
the same expression trees as the Python engine, over the fields declared in kernel.pxd. This
module holds what every kernel shares: the mechanisms of betspec.runtime.engine.Engine of the
same names, written once more with C types (tests/test_kernel.py plays both side by side), the
random draws of a policy given as data, and the loop that plays hands out.

A kernel plays what a batch needs: hands from a table's blinds to their end, decisions drawn by a
:class:`betspec.runtime.batch.Policy`. Anything else (a refusal, a table it cannot take) raises,
and the batch plays that hand through the Python engine instead, from the same draws: the
outcome, error included, is the Python engine's.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.string cimport memset

from betspec.runtime import table as _table

cdef int MAX_SEATS = _table.MAX_SEATS
cdef chips_t MAX_CHIPS = _table.MAX_CHIPS


class KernelRefusal(Exception):
    """A kernel cannot take this hand as it is (the Python engine decides what happens)."""


cdef class Draws:
    def __cinit__(self, unsigned long long seed):
        self.state = seed

    cdef unsigned long long next64(self) noexcept:
        cdef unsigned long long z
        self.state += 0x9E3779B97F4A7C15ULL
        z = self.state
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
        return z ^ (z >> 31)

    cdef double unit(self) noexcept:
        return <double>(self.next64() >> 11) * (1.0 / 9007199254740992.0)

    cdef chips_t below(self, chips_t n) except? -1:
        if n <= 0:
            raise ValueError("empty range")
        return <chips_t>(self.next64() % <unsigned long long>n)

    @property
    def seed(self) -> int:
        """The generator's state: a Draws built from it draws what this one will."""
        return self.state

    @seed.setter
    def seed(self, unsigned long long value):
        self.state = value

    def random(self) -> float:
        return self.unit()

    def randrange(self, n: int) -> int:
        return self.below(n)


cdef class Kernel:
    def __dealloc__(self):
        PyMem_Free(self._block)

    def __sizeof__(self):
        # The object and its seats' block: what one live hand holds.
        return object.__sizeof__(self) + self._capacity * (6 * sizeof(chips_t) + 2)

    def configure(self, engine_class, options, weights, bint fold_when_free, double all_in, room_share):
        """The hands to come: of ``engine_class`` with ``options``, decided by a policy given as
        its data (``weights`` one per action of ACTIONS; see betspec.runtime.batch.Policy)."""
        cdef int index
        if len(weights) > 8:
            raise KernelRefusal("more actions than a kernel draws from")
        self._engine_class = engine_class
        self._options = dict(options)
        for index in range(8):
            self._weights[index] = weights[index] if index < len(weights) else 0.0
        self._fold_when_free = fold_when_free
        self._all_in = all_in
        self._room_share = room_share
        self._templates = None
        return self

    def play_hand(self, table, Draws draws, list trace=None):
        cdef int n, button
        cdef object stack
        """One hand on ``table`` played to its end; the number of betting actions. Raises (and
        the caller plays the hand through the Python engine instead) where the kernel cannot
        take it: a table the engine would refuse or must check, a rule refusing an action."""
        stacks = table.stacks
        given_button = table.button
        inputs = table.inputs
        if type(stacks) is not tuple and type(stacks) is not list:
            raise KernelRefusal("stacks")
        n = len(stacks)
        if not 2 <= n <= MAX_SEATS or type(given_button) is not int or type(inputs) is not dict:
            raise KernelRefusal("table")
        button = given_button
        if not 0 <= button < n:
            raise KernelRefusal("button")
        for stack in stacks:
            if type(stack) is not int or not 0 < <chips_t>stack <= MAX_CHIPS:
                raise KernelRefusal("stacks")
        if self._templates is None or inputs != self._template_inputs:
            self._templates = {}
            self._template_inputs = dict(inputs)
        template = self._templates.get(n)
        if template is None:
            engine = self._engine_class(table, **self._options)  # the engine checks the table
            template = type(self)()
            (<Kernel>template)._load_template(engine)
            self._templates[n] = template
        self._copy_template(<Kernel>template)
        self._seat_arrays(n)
        self._n = n
        self._deal_in(stacks, button)
        self._begin()
        self._settle()
        chips = self._chips()
        actions = self._play_out(
            draws, self._weights, self._fold_when_free, self._all_in, self._room_share, trace
        )
        if self._chips() != chips:
            raise RuntimeError("chips not conserved")
        return actions

    @property
    def chips(self):
        """Chips on the table: behind and in the middle."""
        return self._chips()

    @property
    def stacks(self):
        """Every seat's chips behind."""
        return tuple([self._behind[seat] for seat in range(self._n)])

    def fields(self):
        """The hand as the Python engine's attributes of the same names hold it (for tests)."""
        cdef int seat
        seats = range(self._n)
        return {
            "_behind": [self._behind[seat] for seat in seats],
            "_put_in": [self._put_in[seat] for seat in seats],
            "_contributed": [self._contributed[seat] for seat in seats],
            "_live": [self._live[seat] for seat in seats],
            "_acted_at": [self._acted_at[seat] for seat in seats],
            "_returned": [self._returned[seat] for seat in seats],
            "_folded": [bool(self._folded[seat]) for seat in seats],
            "_acted": [bool(self._acted[seat]) for seat in seats],
            "_actor": self._actor,
            "_street": self._street,
            "_players_in": self._players_in,
            "_able_count": self._able_count,
            "_bet_level": self._bet_level,
            "_last_raise": self._last_raise,
            "_last_full_level": self._last_full_level,
            "_raises": self._raises,
            "_pot": self._pot,
            "_dead": self._dead,
            "_nominal": self._nominal,
            "_posted_live": self._posted_live,
            "_posted_dead": self._posted_dead,
            "_forced_raises": self._forced_raises,
            "_last_live": self._last_live,
            "_deferred": self._deferred,
            "state": self._state,
        }

    cdef int _seat_arrays(self, int n) except -1:
        cdef size_t wide = 6 * sizeof(chips_t) * n
        cdef char* block
        if n > self._capacity:
            PyMem_Free(self._block)
            self._block = NULL
            self._capacity = 0
            block = <char*>PyMem_Malloc(wide + 2 * n)
            if block == NULL:
                raise MemoryError()
            self._block = block
            self._capacity = n
        block = <char*>self._block
        memset(block, 0, wide + 2 * n)
        self._behind = <chips_t*>block
        self._put_in = self._behind + n
        self._contributed = self._put_in + n
        self._live = self._contributed + n
        self._acted_at = self._live + n
        self._returned = self._acted_at + n
        self._folded = block + wide
        self._acted = self._folded + n
        return 0

    cdef int _deal_in(self, object stacks, int button) except -1:
        """A new hand: the seats' chips, the button, everything else as Engine._setup leaves it
        before the start event (the inputs were loaded by _load_template)."""
        cdef int n = self._n
        cdef int seat
        for seat in range(n):
            self._behind[seat] = stacks[seat]
        self._button = button
        self._actor = -1
        self._bet_level = 0
        self._last_raise = 0
        self._last_full_level = 0
        self._raises = 0
        self._street = 0
        self._pot = 0
        self._dead = 0
        self._players_in = n
        self._last_live = button
        self._deferred = -1
        self._nominal = self._posted_live = self._posted_dead = self._forced_raises = 0
        self._viewed = 0
        self._compute_roles()
        self._check_table()
        self._able_count = 0
        for seat in range(n):
            self._live[seat] = self._playable(seat)
            if self._live[seat] > 0:
                self._able_count += 1
        return 0

    cdef chips_t _chips(self) noexcept:
        cdef chips_t total = self._pot
        cdef int seat
        for seat in range(self._n):
            total += self._behind[seat]
        return total

    # ---- the mechanisms ------------------------------------------------------------------

    cdef int _put(self, int seat, chips_t amount) except -1:
        cdef chips_t before, after
        self._behind[seat] -= amount
        self._contributed[seat] += amount
        self._pot += amount
        before = self._live[seat]
        after = self._playable(seat)
        self._live[seat] = after
        if (before > 0) != (after > 0) and not self._folded[seat]:
            self._able_count += 1 if after > 0 else -1
        return 0

    cdef int _post(self, int seat, chips_t amount, bint live, bint starts_after, bint last, bint in_full, str what) except -1:
        cdef chips_t behind, paid, put
        cdef bint option
        if amount < 0 or not 0 <= seat < self._n:
            raise KernelRefusal(what)
        behind = self._behind[seat]
        if in_full and behind < amount:
            raise KernelRefusal(what)
        option = (starts_after or last) and amount >= self._nominal and amount > 0
        if option:
            if starts_after:
                self._last_live = seat
            else:
                self._deferred = seat
        paid = amount if amount <= behind else behind
        if paid > 0:
            self._put(seat, paid)
        if not live:
            self._posted_dead += paid
            return 0
        self._posted_live += paid
        put = self._put_in[seat] + paid
        self._put_in[seat] = put
        if put > self._bet_level:
            self._bet_level = put
        if amount > self._nominal:
            self._nominal = amount
            if option:
                self._forced_raises += 1
        return 0

    cdef int _begin_street(self, int street) except -1:
        cdef int n = self._n
        self._street = street
        memset(self._put_in, 0, n * sizeof(chips_t))
        memset(self._acted_at, 0, n * sizeof(chips_t))
        memset(self._acted, 0, n)
        self._bet_level = 0
        self._actor = -1
        self._deferred = -1
        return 0

    cdef int _open_betting(self, int after) except -1:
        self._actor = self._next_needing_action(after)
        return 0

    cdef int _commit(self, chips_t to) except -1:
        cdef int seat = self._actor
        self._put(seat, to - self._put_in[seat])
        self._put_in[seat] = to
        if to > self._bet_level:
            self._bet_level = to
        self._mark_acted(seat)
        return 0

    cdef int _mark_checked(self) except -1:
        self._mark_acted(self._actor)
        return 0

    cdef int _mark_folded(self) except -1:
        cdef int seat = self._actor
        if self._live[seat] > 0:
            self._able_count -= 1
        self._folded[seat] = 1
        self._players_in -= 1
        self._mark_acted(seat)
        return 0

    cdef int _mark_acted(self, int seat) except -1:
        if seat == self._deferred:
            self._deferred = -1
        self._acted[seat] = 1
        self._acted_at[seat] = self._bet_level
        return 0

    cdef int _pass_action(self) except -1:
        self._actor = self._next_needing_action(self._actor)
        return 0

    cdef int _close_round(self) except -1:
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
            self._put_in[top] = second
            self._returned[top] += uncalled
        return 0

    cdef int _deal_runout(self, int street) except -1:
        self._street = street
        return 0

    cdef int _next_needing_action(self, int after) noexcept:
        cdef int n = self._n
        cdef int step, seat
        cdef int deferred = self._deferred
        cdef chips_t level = self._bet_level
        for step in range(1, n + 1):
            seat = (after + step) % n
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

    cdef int _next_live(self, int seat) noexcept:
        cdef int step, other
        for step in range(1, self._n + 1):
            other = (seat + step) % self._n
            if self._behind[other] > 0:
                return other
        return seat

    cdef int _prev_live(self, int seat) noexcept:
        cdef int step, other
        for step in range(1, self._n + 1):
            other = (seat - step) % self._n
            if self._behind[other] > 0:
                return other
        return seat

    cdef int _seats_left(self) noexcept:
        cdef int seat, count = 0
        for seat in range(self._n):
            if self._behind[seat] > 0:
                count += 1
        return count

    cdef int _pending(self) noexcept:
        cdef int seat, count = 0
        if self._actor < 0:
            return 0
        for seat in range(self._n):
            if (
                not self._folded[seat]
                and self._live[seat] > 0
                and (not self._acted[seat] or self._put_in[seat] < self._bet_level)
            ):
                count += 1
        return count

    cdef int _others_able(self) noexcept:
        cdef int mine = 1 if self._actor >= 0 and self._live[self._actor] > 0 else 0
        return self._able_count - mine

    cdef int _able_owing(self) noexcept:
        cdef int seat, count = 0
        for seat in range(self._n):
            if self._put_in[seat] < self._bet_level and self._live[seat] > 0 and not self._folded[seat]:
                count += 1
        return count

    cdef bint _answerable(self) noexcept:
        cdef int seat
        for seat in range(self._n):
            if self._put_in[seat] + self._live[seat] > self._bet_level and not self._folded[seat] and seat != self._actor:
                return True
        return False

    # ---- written by each kernel from its spec ---------------------------------------------

    cdef int _load_template(self, object engine) except -1:
        raise NotImplementedError

    cdef int _copy_template(self, Kernel other) except -1:
        raise NotImplementedError

    cdef int _compute_roles(self) except -1:
        raise NotImplementedError

    cdef int _check_table(self) except -1:
        raise NotImplementedError

    cdef int _post_forced_bets(self) except -1:
        raise NotImplementedError

    cdef int _begin(self) except -1:
        raise NotImplementedError

    cdef chips_t _playable(self, int seat) except? -1:
        raise NotImplementedError

    cdef int _view(self) except -1:
        raise NotImplementedError

    cdef int _take(self, int action, chips_t to) except -1:
        raise NotImplementedError

    cdef int _settle(self) except -1:
        raise NotImplementedError

    cdef bint _can_deal(self) except -1:
        raise NotImplementedError

    cdef int _deal(self) except -1:
        raise NotImplementedError

    cdef bint _hand_over(self) noexcept:
        return True

    cdef chips_t _bet_unit(self) noexcept:
        return 1

    # ---- a policy given as data ------------------------------------------------------------

    cdef int _decide(self, Draws draws, double* weights, bint fold_when_free, double all_in, chips_t room_share, chips_t* to) except -2:
        """Policy.decide, in C: the index of the action drawn (its bit in _legal), and ``to``.
        ``weights`` has one weight per action, in the kernel's sorted order."""
        cdef int legal, action, count = 0, chosen = -1
        cdef int fold_bit = self._fold_bit()
        cdef int check_bit = self._check_bit()
        cdef double total = 0.0, point
        cdef chips_t low, high, room, unit, amount
        cdef int picks[8]
        cdef double cumulative[8]
        if not self._viewed:
            self._view()
        legal = self._legal
        for action in range(self._action_count()):
            if legal >> action & 1 and weights[action] > 0:
                if action == fold_bit and not fold_when_free and check_bit >= 0 and legal >> check_bit & 1:
                    continue
                total += weights[action]
                picks[count] = action
                cumulative[count] = total
                count += 1
        if count == 0:
            raise KernelRefusal("the policy gives no weight to any legal action")
        # random.choices: the first cumulative weight above a uniform point of the total.
        point = draws.unit() * total
        chosen = count - 1
        for action in range(count - 1):
            if point < cumulative[action]:
                chosen = action
                break
        action = picks[chosen]
        to[0] = -1
        if self._is_wager(action):
            low, high = self._min_to, self._max_to
            room = (high - low) // room_share + 1
            if room < 1:
                room = 1
            if draws.unit() < all_in:
                amount = high
            else:
                amount = low + draws.below(room)
                if amount > high:
                    amount = high
            unit = self._bet_unit()
            if unit <= 0:
                unit = 1
            if amount != high and amount % unit:
                amount = amount - amount % unit
                if amount < low:
                    amount = low
            to[0] = amount
        return action

    cdef int _play_out(self, Draws draws, double* weights, bint fold_when_free, double all_in, chips_t room_share, list trace) except -1:
        """play_out, in C: deals as rounds end, the policy at each decision; returns the number
        of betting actions. ``trace`` (or None) gets each step as play_out's on_step sees it,
        with the view the decision was drawn from."""
        cdef int actions = 0, action, seat
        cdef chips_t to
        while not self._hand_over():
            seat = self._actor
            if seat < 0:
                if not self._can_deal():
                    break
                self._deal()
                if trace is not None:
                    trace.append((-1, self._street, None, None))
                continue
            action = self._decide(draws, weights, fold_when_free, all_in, room_share, &to)
            if trace is not None:
                trace.append((seat, action, to if to >= 0 else None, (self._legal, self._call, self._min_to, self._max_to)))
            self._take(action, to)
            actions += 1
        return actions

    cdef int _fold_bit(self) noexcept:
        return -1

    cdef int _check_bit(self) noexcept:
        return -1

    cdef int _action_count(self) noexcept:
        return 0

    cdef bint _is_wager(self, int action) noexcept:
        return False
