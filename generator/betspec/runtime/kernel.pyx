# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The typed runtime of the kernels: one hand's state in C and the mechanisms over it.

A kernel (generated/kernels/<spec>.pyx, written by `betspec generate` from the spec) is the
spec's betting compiled with C types: its guards, effects, sizing and forced bets, printed from
the same expression trees as the Python engine, over the fields declared in kernel.pxd. This
module holds what every kernel shares: the mechanisms of betspec.runtime.engine.Engine of the
same names, written once more with C types (tests/test_kernel.py plays both side by side), the
random draws of a policy given as data, the loop that plays a hand out, and the engine's API for
a hand played action by action.

A kernel answers what a betting round needs in C: who acts, what is legal, the bounds, the
actions and the deals. Anything else (a refusal and its error, chips pushed, words said, a
snapshot, the pots paid, a table the kernel cannot take) is the Python engine's: the hand is
replayed through it, step by step, and it answers, its error included. A hand handed over that
way stays with the Python engine.
"""

from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from cpython.dict cimport PyDict_GetItemWithError, PyDict_Next, PyDict_Size
from cpython.object cimport PyObject, PyTypeObject
from cpython.sequence cimport PySequence_Fast_GET_SIZE, PySequence_Fast_ITEMS
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE
from libc.string cimport memcpy, memset

import copy as copy_module
import importlib

from betspec.runtime import table as _table
from betspec.runtime.errors import BetspecError, InvalidTable, shown
from betspec.vocabulary import BETTING_PHASES, CARRIED_POT as _CARRIED_POT, HAND_OVER_PHASES


class ChangedWhilePacked(BetspecError):
    """Logged hands whose steps changed while Logged packed them: code a step's names ran when
    compared (objects that are not strs) changed a list of steps. replay_hands leaves such a batch
    to the Python engine, which answers it as it answers any step."""


cdef object _TABLE = _table.Table
#: The table input of a pot carried in (a C global: read per table without a module lookup).
cdef str _CARRIED_POT_KEY = _CARRIED_POT


cdef extern from "Python.h":
    PyTypeObject PyLong_Type
    PyTypeObject PyTuple_Type
    PyTypeObject* _type_of "Py_TYPE"(PyObject* o)

    ctypedef struct PyMemberDef:
        int type
        Py_ssize_t offset

    ctypedef struct PyMemberDescrObject:
        PyMemberDef* d_member


#: T_OBJECT_EX: a slot of __slots__, an object or unset (structmember.h).
cdef int _SLOT_OBJECT = 16


cdef Py_ssize_t _slot_offset(str name) except -2:
    """Where a Table holds its slot ``name`` (its place in the object), or -1 where Table's
    attribute is not such a slot (each read then asks for the attribute)."""
    descriptor = _TABLE.__dict__.get(name)
    if type(descriptor) is not type(_table.Table.__dict__["button"]):
        return -1
    if (<PyMemberDescrObject*>descriptor).d_member.type != _SLOT_OBJECT:
        return -1
    return (<PyMemberDescrObject*>descriptor).d_member.offset


cdef Py_ssize_t _STACKS_AT = _slot_offset("stacks")
cdef Py_ssize_t _BUTTON_AT = _slot_offset("button")
cdef Py_ssize_t _INPUTS_AT = _slot_offset("inputs")


cdef inline object _slot(object table, Py_ssize_t offset, str name):
    """``getattr(table, name)``, read in place from a Table's slot where it is set (a table
    read per hand pays no attribute lookup)."""
    cdef PyObject* found
    if offset >= 0 and type(table) is _TABLE:
        found = (<PyObject**>((<char*><PyObject*>table) + offset))[0]
        if found != NULL:
            return <object>found
    return getattr(table, name)
cdef int MAX_SEATS = _table.MAX_SEATS
#: The action number a step recorded as an all-in has (kernels have at most 8 actions).
cdef int ALL_IN = 15
cdef chips_t MAX_CHIPS = _table.MAX_CHIPS
#: The chips a kernel's table may hold in all: every table the engine takes (MAX_SEATS stacks
#: of at most MAX_CHIPS, under 2^55; the per-seat arrays are 64-bit, and the generator bounds the
#: inputs so that no expression of a spec leaves 64 bits with a table this large).
SEAT_CHIPS_MAX = 1 << 55
cdef chips_t _SEAT_CHIPS_MAX = SEAT_CHIPS_MAX
#: Chips summed in C up to this (2^62), then added to a Python int: a hand adds at most 2^55.
cdef chips_t _CHIPS_SUMMED = 1LL << 62
cdef enum:
    #: The most seats a table drawn in C has (Batch.play_drawn; MAX_SEATS bounds it too).
    _DRAWN_SEATS = 64


class KernelRefusal(Exception):
    """A kernel cannot take this hand or this step as it is (the Python engine decides)."""


class _Missing:
    """An argument not given (the call goes to the engine's method as it was made)."""

    def __repr__(self):
        return "<not given>"


_MISSING = _Missing()


cdef tuple _given(object first, object second, object third, tuple extra):
    """The positional arguments of a call as it was made (those not given left out; a call
    leaving out one before another it gives names the rest)."""
    given = []
    for value in (first, second, third):
        if value is _MISSING:
            break
        given.append(value)
    return (*given, *extra)


class _NoTableHand:
    """What a kernel without a hand answers: nothing (it was made without a table)."""

    def __getattr__(self, name):
        raise InvalidTable("a kernel hand is built from a betspec.runtime.Table: this one has none")


_NO_TABLE = _NoTableHand()


class _Forwarded:
    """A method of the Python engine, called for a kernel hand (``Kernel._forward``)."""

    __slots__ = ("_hand", "_name")

    def __init__(self, hand, name):
        self._hand = hand
        self._name = name

    def __call__(self, *args, **kwargs):
        return self._hand._forward(self._name, *args, **kwargs)

    def __repr__(self):
        return f"<{self._name} of a kernel hand, answered by the Python engine>"


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
            raise ValueError("empty range for randrange")
        return <chips_t>(self.next64() % <unsigned long long>n)

    def split(self):
        """Another generator, seeded from this one's next number (as batch.Draws.split)."""
        return Draws(self.next64())

    @property
    def seed(self):
        """The generator's state: a Draws built from it draws what this one will."""
        return self.state

    @seed.setter
    def seed(self, unsigned long long value):
        self.state = value

    def random(self):
        return self.unit()

    def randrange(self, n):
        return self.below(n)


cdef class Inputs:
    cdef int _load(self, object engine) except -1:
        raise NotImplementedError

    cdef int _bound(self, tuple values, chips_t bound) except -1:
        """Refuse inputs beyond ``bound`` (each number, and each in a tuple) where the products
        they enter would leave 64 bits: the kernel's generator found that within ``bound`` no
        expression of the spec does; beyond it, the kernel's _fits computes the products with
        these very inputs, and a table it refuses is the Python engine's."""
        if self._magnitude(values) > bound and not self._fits():
            raise KernelRefusal("an input beyond what the kernel computes in 64 bits")
        return 0

    cdef bint _fits(self) except -1:
        """Whether no expression of the spec leaves 64 bits with these inputs (a kernel whose
        spec multiplies inputs writes it; none may reach it otherwise)."""
        return False

    cdef object _magnitude(self, object value):
        """The largest absolute number in ``value`` (a number, or tuples of them), a Python int."""
        if type(value) is tuple:
            return max([self._magnitude(item) for item in value], default=0)
        if value is None or type(value) is str:
            return 0
        return abs(value)


cdef class Templates:
    def __cinit__(self, make):
        self._make = make

    cdef Inputs get(self, object engine_class, dict options, object table, int seats):
        cdef Inputs found
        # Threads: hands in other threads call this too, and may run at any Python call below.
        # The cache is read into locals once and replaced whole (its four fields set with no
        # Python call between them), so each call loads and files its inputs under one
        # consistent set of table inputs and options.
        given = _slot(table, _INPUTS_AT, "inputs")
        by_seats = self._by_seats
        loaded_options = self._options
        table_inputs = self._table_inputs
        if (
            by_seats is None
            or engine_class is not self._engine_class
            or type(given) is not dict
            or not _same(given, table_inputs)
            or not _same(options, loaded_options)
        ):
            loaded_options = dict(options)
            # Lists as tuples: a list given, and changed later, cannot change what was loaded
            # (such a table never compares the same, and its inputs are loaded each time). The
            # comparison is by type as well as value (_same): 5.0, True or a Decimal equal to 5
            # are not 5, and the engine checks them as it does any table it has not seen.
            table_inputs = {name: _table._frozen(value) for name, value in given.items()}
            by_seats = {}
            self._by_seats = by_seats
            self._engine_class = engine_class
            self._options = loaded_options
            self._table_inputs = table_inputs
        found = by_seats.get(seats)
        if found is None:
            engine = engine_class(table, **options)  # the engine checks the table, and refuses it
            found = self._make()
            found._engine_class = engine_class
            found._options = loaded_options
            found._table_inputs = table_inputs
            found._load(engine)
            by_seats[seats] = found
        return found


cdef int _read_table(object table, chips_t* read, int* button, chips_t* carried) except -1:
    """A table as a kernel takes it (else KernelRefusal, or OverflowError for a stack beyond 64
    bits: the Python engine's then): its number of seats returned, its stacks into ``read``
    (room for _DRAWN_SEATS), its button and the pot it carries in."""
    cdef int n, seat, overflow = 0
    cdef chips_t total = 0, stack
    cdef long long at
    cdef PyObject** items
    cdef PyObject* found
    if type(table) is not _TABLE:
        raise KernelRefusal("a table is a betspec.runtime.Table")
    stacks = _slot(table, _STACKS_AT, "stacks")
    given = _slot(table, _BUTTON_AT, "button")
    if type(stacks) is not tuple and type(stacks) is not list:
        raise KernelRefusal("stacks")
    n = PySequence_Fast_GET_SIZE(stacks)
    if not 2 <= n <= MAX_SEATS or n > _DRAWN_SEATS or type(given) is not int:
        raise KernelRefusal("table")
    at = PyLong_AsLongLongAndOverflow(given, &overflow)
    if overflow or not 0 <= at < n:
        raise KernelRefusal("table")
    # The stacks read once, in place (a list or a tuple of ints: nothing here runs Python
    # code that could change them), into C numbers.
    items = PySequence_Fast_ITEMS(stacks)
    for seat in range(n):
        value = <object>items[seat]
        if type(value) is not int:
            raise KernelRefusal("stacks")
        stack = value  # an int beyond 64 bits raises OverflowError: the Python engine's then
        if not 0 < stack <= MAX_CHIPS:
            raise KernelRefusal("stacks")
        read[seat] = stack
        total += stack
    if total > _SEAT_CHIPS_MAX:
        raise KernelRefusal("more chips than a kernel's table holds")
    # A pot a dead hand carried here is dead money in the middle from the start.
    inputs = _slot(table, _INPUTS_AT, "inputs")
    if type(inputs) is not dict:
        raise KernelRefusal("carried pot")
    carried[0] = 0
    found = PyDict_GetItemWithError(inputs, _CARRIED_POT_KEY)
    if found != NULL:
        given_pot = <object>found
        if type(given_pot) is not int:
            raise KernelRefusal("carried pot")
        carried[0] = PyLong_AsLongLongAndOverflow(given_pot, &overflow)
        if overflow or not 0 <= carried[0] <= MAX_CHIPS or total + carried[0] > _SEAT_CHIPS_MAX:
            raise KernelRefusal("carried pot")
    button[0] = <int>at
    return n


cdef class Policy:
    def __cinit__(self, weights, bint fold_when_free, double all_in, chips_t room_share):
        cdef int index
        if len(weights) > 8:
            raise KernelRefusal("more actions than a kernel draws from")
        for index in range(8):
            self.weights[index] = weights[index] if index < len(weights) else 0.0
        self.fold_when_free = fold_when_free
        self.all_in = all_in
        self.room_share = room_share
        self._room_shift = -1
        for index in range(62):
            if room_share == (<chips_t>1) << index:
                self._room_shift = index
        self._for_actions = -1

    cdef int _prepare(self, int actions, int fold_bit, int check_bit) except -1:
        """The actions drawn from, and their cumulative weights, for every set of legal actions
        of a kernel with ``actions`` actions (its fold and check bits): what _decide summed at
        each decision, in the same order, so the same numbers."""
        cdef int legal, action, count
        cdef double total
        if actions == self._for_actions and fold_bit == self._for_fold and check_bit == self._for_check:
            return 0
        if not 0 <= actions <= 8:
            raise KernelRefusal("more actions than a kernel draws from")
        for legal in range(1 << actions):
            count = 0
            total = 0.0
            for action in range(actions):
                if legal >> action & 1 and self.weights[action] > 0:
                    if action == fold_bit and not self.fold_when_free and check_bit >= 0 and legal >> check_bit & 1:
                        continue
                    total += self.weights[action]
                    self._picks[legal][count] = <signed char>action
                    self._cumulative[legal][count] = total
                    count += 1
            self._counts[legal] = count
        self._for_actions, self._for_fold, self._for_check = actions, fold_bit, check_bit
        return 0


cdef class Batch:
    def __cinit__(self, Kernel kernel, engine_class, dict options, Policy policy):
        self._kernel = kernel
        self._engine_class = engine_class
        self._options = options
        self._policy = policy

    def play_hand(self, table, Draws draws, list trace=None):
        """One hand on ``table`` played to its end by the policy; the number of betting actions.
        Raises where the kernel cannot take it (the caller plays it through the Python engine,
        from the same draws): a table the engine refuses or a rule refusing an action."""
        cdef Kernel kernel = self._kernel
        kernel._start(table, self._engine_class, self._options)
        chips = kernel._chips()
        actions = kernel._play_out(draws, self._policy, trace)
        if kernel._chips() != chips:
            raise RuntimeError("chips not conserved")
        return actions

    def play_tables(self, list tables, Py_ssize_t start, Draws draws, list stacks=None):
        """Hands on ``tables[start:]`` played one after another in C by the policy: (tables
        done, betting actions, chips checked). It stops before the first table the kernel
        cannot take (nothing raised, the draws as they stood before it), which the caller plays
        through the Python engine; ``stacks`` gets each hand's final stacks."""
        cdef Kernel kernel = self._kernel
        cdef Templates templates = kernel._templates()
        cdef Py_ssize_t index
        cdef long long actions = 0
        cdef chips_t chips, summed = 0, carried
        cdef chips_t read[_DRAWN_SEATS]
        cdef unsigned long long seed
        cdef int n, seat, button
        engine_class, options = self._engine_class, self._options
        # The inputs Templates.get found, by number of seats, while its cache is the one they
        # were found in (by_seats) and a table's inputs and the options compare the same with
        # the ones it holds: a table read per hand costs no call and no lookup by number.
        by_seats = None
        cdef list found_by_seats = [None] * (MAX_SEATS + 1)
        # The options compared the same with the ones Templates holds, and no Python code run
        # since (only Templates.get runs any: the engine it builds).
        cdef bint options_same = False
        total = 0  # the chips checked: summed in C, added here before 64 bits could overflow
        for index in range(start, len(tables)):
            seed = draws.state
            try:
                table = tables[index]
                n = _read_table(table, read, &button, &carried)  # as Kernel._start reads it
                if (
                    by_seats is not None
                    and templates._by_seats is by_seats
                    and templates._engine_class is engine_class
                    and _same_inputs(_slot(table, _INPUTS_AT, "inputs"), templates._table_inputs)
                    and (options_same or _same(options, templates._options))
                ):
                    options_same = True
                    found = found_by_seats[n]
                    if found is None:
                        options_same = False
                        found = templates.get(engine_class, options, table, n)
                        found_by_seats[n] = found
                else:
                    options_same = False
                    found = templates.get(engine_class, options, table, n)
                    by_seats = templates._by_seats
                    found_by_seats = [None] * (MAX_SEATS + 1)
                    found_by_seats[n] = found
                _seated(kernel, <Inputs>found, n, read, button, carried)
                chips = kernel._chips()
                actions += kernel._play_out(draws, self._policy, None)
            except Exception:
                draws.state = seed
                return index - start, actions, total + summed
            total = _tallied(kernel, chips, &summed, total, stacks)
        return len(tables) - start, actions, total + summed

    def play_drawn(self, Py_ssize_t count, tuple shape, Draws tables, Draws draws, object make, list stacks=None):
        """``count`` hands played one after another in C, each on a table drawn from ``tables``
        as batch.TableDraw draws it (``shape``: its seats, stacks and stack unit, in that order;
        ``make(stacks, button)`` the spec's example table, asked for once per number of seats)
        and played by the policy from ``draws``: (hands done, betting actions, chips checked).
        It stops before the first table the kernel cannot take (nothing raised, both draws as
        they stood before it), which the caller draws again and plays through the Python
        engine; ``stacks`` gets each hand's final stacks."""
        cdef Kernel kernel = self._kernel
        cdef Py_ssize_t index
        cdef long long actions = 0
        cdef chips_t chips, summed = 0, least, stack_span, unit
        cdef chips_t drawn[_DRAWN_SEATS]
        cdef int n, seat, button, fewest, seat_span
        cdef unsigned long long table_seed, seed
        low_seats, most, least_stack, most_stack, stack_unit = shape
        # A shape the kernel's tables cannot hold (or beyond 64 bits) is the Python engine's.
        if (
            any([type(value) is not int for value in shape])
            or not 2 <= low_seats <= most <= min(MAX_SEATS, _DRAWN_SEATS)
            or not 0 < least_stack <= most_stack
            or not 0 < stack_unit
            or most_stack * stack_unit > MAX_CHIPS
            or most * most_stack * stack_unit > _SEAT_CHIPS_MAX
        ):
            return 0, 0, 0
        fewest = low_seats
        seat_span = most - fewest + 1
        least = least_stack
        stack_span = most_stack - least_stack + 1
        unit = stack_unit
        loaded = [None] * (most + 1)  # the inputs loaded, by number of seats
        total = 0  # the chips checked: summed in C, added here before 64 bits could overflow
        for index in range(count):
            table_seed, seed = tables.state, draws.state
            n = fewest + <int>tables.below(seat_span)
            chips = 0
            for seat in range(n):
                drawn[seat] = (least + tables.below(stack_span)) * unit
                chips += drawn[seat]
            button = <int>tables.below(n)
            try:
                found = loaded[n]
                if found is None:
                    # The first table of n seats: built, checked and loaded as any table is.
                    table = make([drawn[seat] for seat in range(n)], button)
                    kernel._start(table, self._engine_class, self._options)
                    chips = kernel._chips()  # a pot carried in counts too
                    if type(table.inputs) is dict and _CARRIED_POT not in table.inputs:
                        loaded[n] = kernel._inputs
                else:
                    _seated(kernel, <Inputs>found, n, drawn, button, 0)
                actions += kernel._play_out(draws, self._policy, None)
            except Exception:
                tables.state, draws.state = table_seed, seed
                return index, actions, total + summed
            total = _tallied(kernel, chips, &summed, total, stacks)
        return count, actions, total + summed

    @property
    def kernel(self):
        """The hand last played, as the kernel holds it."""
        return self._kernel


cdef class Kernel:
    def __dealloc__(self):
        PyMem_Free(self._block)
        PyMem_Free(self._steps)

    def __copy__(self):
        """``copy.copy(hand)``: an independent copy of this hand as it stands (Engine.__copy__, for a
        kernel): its C state and its steps copied, its loaded inputs shared (never changed once
        loaded), a hand handed to the Python engine copied with it. Acting on either hand leaves
        the other as it was."""
        cdef Kernel other = type(self).__new__(type(self))
        cdef size_t wide
        if self._python is _NO_TABLE or not self._handed:
            # No hand yet, or the kernel's: a Python engine replayed for a question is made again.
            other._python = _NO_TABLE if self._python is _NO_TABLE else None
        else:
            other._python = copy_module.copy(self._python)  # the hand is the Python engine's
        other._handed = self._handed
        other._inputs = self._inputs
        other._n, other._button, other._actor, other._street = self._n, self._button, self._actor, self._street
        other._state, other._players_in, other._able_count = self._state, self._players_in, self._able_count
        other._last_live, other._deferred, other._viewed, other._legal = (
            self._last_live, self._deferred, self._viewed, self._legal
        )
        other._bet_level, other._last_raise, other._last_full_level = (
            self._bet_level, self._last_raise, self._last_full_level
        )
        other._raises, other._pot, other._dead, other._nominal = self._raises, self._pot, self._dead, self._nominal
        other._posted_live, other._posted_dead, other._forced_raises = (
            self._posted_live, self._posted_dead, self._forced_raises
        )
        other._call, other._min_to, other._max_to = self._call, self._min_to, self._max_to
        other._drawn_actions, other._drawn_fold, other._drawn_check = (
            self._drawn_actions, self._drawn_fold, self._drawn_check
        )
        other._drawn_wagers, other._drawn_over = self._drawn_wagers, self._drawn_over
        if self._block != NULL:
            other._seat_arrays(self._n)
            wide = 5 * sizeof(seat_chips_t) * self._n
            memcpy(other._block, self._block, wide + 2 * self._n)
        if self._step_count:
            other._steps = <chips_t*>PyMem_Malloc(self._step_count * 2 * sizeof(chips_t))
            if other._steps == NULL:
                raise MemoryError()
            memcpy(other._steps, self._steps, self._step_count * 2 * sizeof(chips_t))
            other._step_capacity = self._step_count
        other._step_count = self._step_count
        self._copy_fields(other)
        return other

    def __deepcopy__(self, memo):
        return self.__copy__()  # its shared inputs are never changed: a copy is as deep as it needs

    def __sizeof__(self):
        # The object, its seats' block and its steps: what one live hand holds.
        return (
            object.__sizeof__(self)
            + self._capacity * (5 * sizeof(seat_chips_t) + 2)
            + self._step_capacity * 2 * sizeof(chips_t)
        )

    cdef int _seat_arrays(self, int n) except -1:
        cdef size_t wide = 5 * sizeof(seat_chips_t) * n
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
        self._behind = <seat_chips_t*>block
        self._put_in = self._behind + n
        self._contributed = self._put_in + n
        self._live = self._contributed + n
        self._acted_at = self._live + n
        self._folded = block + wide
        self._acted = self._folded + n
        return 0

    cdef int _start(self, object table, object engine_class, dict options) except -1:
        """A new hand of ``engine_class`` with ``options``: the table's inputs (loaded once for
        tables alike), the seats' chips, the button, everything else as Engine._setup leaves it,
        then the start event and the automatic transitions."""
        cdef int n, seat, button
        cdef chips_t carried
        cdef chips_t read[_DRAWN_SEATS]
        n = _read_table(table, read, &button, &carried)
        self._inputs = self._templates().get(engine_class, options, table, n)
        self._seat_arrays(n)
        self._n = n
        for seat in range(n):
            self._behind[seat] = <seat_chips_t>read[seat]
        return self._open(button, carried)

    cdef int _open(self, int button, chips_t carried) except -1:
        """The hand on the seats' chips and inputs set (by _start, or by Logged from its packed
        tables): the button, everything else as Engine._setup leaves it, then the start event
        and the automatic transitions."""
        cdef int n = self._n
        cdef int seat
        self._button = button
        self._actor = -1
        self._bet_level = 0
        self._last_raise = 0
        self._last_full_level = 0
        self._raises = 0
        self._street = 0
        self._pot = carried
        self._dead = carried
        self._players_in = n
        self._last_live = button
        self._deferred = -1
        self._nominal = self._posted_live = self._posted_dead = self._forced_raises = 0
        self._viewed = 0
        self._step_count = 0
        self._python = None
        self._handed = False
        self._compute_roles()
        self._check_table()
        self._able_count = 0
        for seat in range(n):
            self._live[seat] = <seat_chips_t>self._playable(seat)
            if self._live[seat] > 0:
                self._able_count += 1
        self._begin()
        self._settle()
        return 0

    cdef chips_t _chips(self) noexcept:
        cdef chips_t total = self._pot
        cdef int seat
        for seat in range(self._n):
            total += self._behind[seat]
        return total

    cdef int _record(self, int code, chips_t to) except -1:
        cdef int wanted
        cdef chips_t* grown
        if self._step_count >= self._step_capacity:
            wanted = 4 if self._step_capacity == 0 else 2 * self._step_capacity
            grown = <chips_t*>PyMem_Realloc(self._steps, wanted * 2 * sizeof(chips_t))
            if grown == NULL:
                raise MemoryError()
            self._steps = grown
            self._step_capacity = wanted
        self._steps[2 * self._step_count] = code
        self._steps[2 * self._step_count + 1] = to
        self._step_count += 1
        return 0

    # ---- the mechanisms ------------------------------------------------------------------

    cdef int _post(self, int seat, chips_t amount, str what, bint live, bint dead_money, str order, bint in_full) except -1:
        cdef chips_t behind, paid, put
        cdef bint option
        if amount < 0 or not 0 <= seat < self._n or amount > _SEAT_CHIPS_MAX:
            raise KernelRefusal(what)
        behind = self._behind[seat]
        if in_full and behind < amount:
            raise KernelRefusal(what)
        option = order != "in_turn" and amount >= self._nominal and amount > 0
        if option:
            if order == "starts_after":
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
        self._put_in[seat] = <seat_chips_t>put
        if put > self._bet_level:
            self._bet_level = put
        if amount > self._nominal:
            self._nominal = amount
            if option:
                self._forced_raises += 1
        return 0

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

    # ---- written by each kernel from its spec ---------------------------------------------

    cdef Templates _templates(self):
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

    cdef int _copy_fields(self, Kernel other) except -1:
        return 0  # a kernel with roles or variables of its spec's copies them

    cdef bint _can_deal(self) except -1:
        raise NotImplementedError

    cdef int _deal(self) except -1:
        raise NotImplementedError

    cdef bint _hand_over(self) noexcept:
        return True

    cdef chips_t _bet_unit(self) noexcept:
        return 1

    cdef int _fold_bit(self) noexcept:
        return -1

    cdef int _check_bit(self) noexcept:
        return -1

    cdef int _action_count(self) noexcept:
        return 0

    cdef bint _is_wager(self, int action) noexcept:
        return False

    cdef chips_t _all_in_to(self) except? -1:
        raise NotImplementedError

    cdef bint _allowed(self, int action) except -1:
        raise NotImplementedError

    cdef tuple _names(self):
        return ()

    cdef tuple _legal_sets(self):
        return ((),)

    cdef tuple _streets(self):
        return ()

    cdef tuple _phases(self):
        return ()

    # ---- a policy given as data ------------------------------------------------------------

    cdef int _decide(self, Draws draws, Policy policy, chips_t* to, int actions, int wagers) except -2:
        """Policy.decide, in C: the index of the action drawn (its bit in _legal), and ``to``.
        ``actions`` and ``wagers`` (a bit per wager) are the kernel's (_action_count,
        _is_wager), asked once per kernel object, and ``policy`` prepared for its actions (_prepare)."""
        cdef int legal, action, count, chosen
        cdef double point
        cdef chips_t low, high, room, unit, amount
        cdef double* cumulative
        if not self._viewed:
            self._view()
        legal = self._legal & ((1 << actions) - 1)
        count = policy._counts[legal]
        if count == 0:
            raise KernelRefusal("the policy gives no weight to any legal action")
        cumulative = policy._cumulative[legal]
        # random.choices: the first cumulative weight above a uniform point of the total.
        point = draws.unit() * cumulative[count - 1]
        chosen = count - 1
        for action in range(count - 1):
            if point < cumulative[action]:
                chosen = action
                break
        action = policy._picks[legal][chosen]
        to[0] = -1
        if wagers >> action & 1:
            low, high = self._min_to, self._max_to
            # (high - low) // room_share: a shift floors as // does, and takes no division
            if policy._room_shift >= 0:
                room = ((high - low) >> policy._room_shift) + 1
            else:
                room = (high - low) // policy.room_share + 1
            if room < 1:
                room = 1
            if draws.unit() < policy.all_in:
                amount = high
            else:
                amount = low + draws.below(room)
                if amount > high:
                    amount = high
            unit = self._bet_unit()
            if unit <= 0:
                unit = 1
            if amount != high and unit != 1 and amount % unit:
                amount = amount - amount % unit
                if amount < low:
                    amount = low
            to[0] = amount
        return action

    cdef int _play_out(self, Draws draws, Policy policy, list trace) except -1:
        """play_out, in C: deals as rounds end, the policy at each decision; returns the number
        of betting actions. ``trace`` (or None) gets each step, with the view it was drawn from."""
        cdef int actions = 0, action, seat, state
        cdef chips_t to
        cdef int count, fold_bit, check_bit, wagers
        cdef unsigned long long over
        if self._drawn_actions < 0:
            wagers = 0
            for action in range(self._action_count()):
                if self._is_wager(action):
                    wagers |= 1 << action
            self._drawn_fold, self._drawn_check, self._drawn_wagers = self._fold_bit(), self._check_bit(), wagers
            over = 0
            for state, phase in enumerate(self._phases()):
                if phase in HAND_OVER_PHASES:
                    over |= (<unsigned long long>1) << state
            self._drawn_over = over
            self._drawn_actions = self._action_count()
        count, fold_bit, check_bit, wagers = self._drawn_actions, self._drawn_fold, self._drawn_check, self._drawn_wagers
        over = self._drawn_over
        policy._prepare(count, fold_bit, check_bit)
        while not (over >> self._state) & 1:  # not self._hand_over()
            seat = self._actor
            if seat < 0:
                if not self._can_deal():
                    break
                self._deal()
                if trace is not None:
                    trace.append((-1, self._street, None, None))
                continue
            action = self._decide(draws, policy, &to, count, wagers)
            if trace is not None:
                trace.append((seat, action, to if to >= 0 else None, (self._legal, self._call, self._min_to, self._max_to)))
            self._take(action, to)
            actions += 1
        return actions

    # ---- logged hands, replayed in one call --------------------------------------------------

    cdef Py_ssize_t _replay(self, chips_t* steps, Py_ssize_t count) except -2:
        """Take ``count`` steps packed by Logged (three numbers each) in C: -1 when every one was
        taken, else the index of the first the kernel does not take as it is (the hand then
        stands before it)."""
        cdef Py_ssize_t index
        cdef chips_t seat, code, to
        cdef int action
        for index in range(count):
            seat, code, to = steps[0], steps[1], steps[2]
            steps += 3
            if seat < 0:  # a deal of street number ``code``
                if self._actor >= 0 or to != _NO_AMOUNT or code != self._street + 1 or not self._can_deal():
                    return index
                self._deal()
                continue
            if seat != self._actor or code < 0:
                return index
            if code >= _EITHER:  # the first of two actions legal now, else the second
                action = <int>((code - _EITHER) >> 4)
                if not self._allowed(action):
                    action = <int>((code - _EITHER) & 15)
            else:
                action = <int>code
            if not self._allowed(action):
                return index
            if self._is_wager(action):
                if to < 0:
                    return index
            elif to != _NO_AMOUNT:
                return index
            try:
                self._take(action, to)
            except KernelRefusal:
                return index  # nothing changed: the Python engine says why
            steps[-2] = action  # a pair as the one taken (Logged replays a copy: Logged.taken)
        return -1

    # ---- one hand, action by action: the engine's API ---------------------------------------

    def __cinit__(self):
        # No hand until a table starts one (__init__, or a batch's play_hand): until then every
        # question is answered by _NO_TABLE, which refuses it as the engine refuses no table.
        self._python = _NO_TABLE
        self._handed = True
        self._drawn_actions = -1

    def __init__(self, *args, start=None, **options):
        """A hand on the table given, as the spec's Python engine takes it: refused as it refuses
        (no table, two, a table or option it cannot be built from); ``start`` and a table the
        kernel cannot take are the Python engine's to play."""
        engine_class = _engine_class_of(type(self))
        if len(args) != 1:
            engine_class(*args, start=start, **options)  # raises InvalidTable, as the engine class does
            raise InvalidTable(f"{engine_class.SPEC_NAME} takes one table, not {len(args)} arguments")
        table = args[0]
        if start is None:
            try:
                self._start(table, engine_class, options)
                return
            except Exception:
                pass  # the Python engine refuses the table, or plays it
        self._python = _NO_TABLE
        self._handed = True
        self._python = engine_class(table, start=start, **options)

    @classmethod
    def example_table(cls, stacks, button=0, **inputs):
        """A table for ``stacks``, as the spec's engine class makes one (Engine.example_table)."""
        return _engine_class_of(cls).example_table(stacks, button, **inputs)

    cdef object _engine(self):
        """The Python engine at this very point of the hand (the steps replayed through it)."""
        cdef int index, code
        cdef chips_t to
        if self._python is not None:
            return self._python
        inputs = self._inputs
        stacks = [self._behind[seat] + self._contributed[seat] for seat in range(self._n)]
        table = _table.Table(stacks, self._button, **inputs._table_inputs)
        engine = inputs._engine_class(table, **inputs._options)
        names, streets = self._names(), self._streets()
        for index in range(self._step_count):
            code, to = <int>self._steps[2 * index], self._steps[2 * index + 1]
            if code < 0:
                engine.deal(streets[-1 - code])
            elif code & 15 == ALL_IN:
                engine.all_in(code >> 4)
            else:
                engine.act(code >> 4, names[code & 15], None if to < 0 else to)
        self._python = engine
        return engine

    def _forward(self, name, *args, **kwargs):
        """Ask the Python engine (the hand replayed through it); a call that changes the hand
        (the engine logs every change) leaves the hand its own, a refusal leaves it the kernel's."""
        engine = self._engine()
        if self._handed:
            return getattr(engine, name)(*args, **kwargs)
        calls = len(engine._log)
        result = getattr(engine, name)(*args, **kwargs)
        if len(engine._log) != calls:
            self._handed = True
        return result

    def __getattr__(self, name):
        # What the kernel does not answer, the Python engine does. A method of it may change the
        # hand: it is called through _forward, so that the hand is the engine's only once a call
        # has changed it (a refused push, declaration or settle changes nothing).
        if name.startswith("__"):
            raise AttributeError(name)
        value = getattr(self._engine(), name)
        if self._handed or not callable(value) or name in _READS:
            return value
        return _Forwarded(self, name)

    @property
    def python(self):
        """Whether the Python engine plays this hand now (handed over, or from the start)."""
        return self._handed

    def legal_actions(self):
        """The legal actions of the seat to act, sorted; empty when nobody is to act."""
        if self._handed:
            return self._python.legal_actions()
        if not self._viewed:
            self._view()
        return self._legal_sets()[self._legal]

    @property
    def call_amount(self):
        if self._handed:
            return self._python.call_amount
        if not self._viewed:
            self._view()
        return self._call

    @property
    def min_to(self):
        if self._handed:
            return self._python.min_to
        if not self._viewed:
            self._view()
        return None if self._min_to < 0 else self._min_to

    @property
    def max_to(self):
        if self._handed:
            return self._python.max_to
        if not self._viewed:
            self._view()
        return None if self._max_to < 0 else self._max_to

    @property
    def to_act(self):
        if self._handed:
            return self._python.to_act
        return None if self._actor < 0 else self._actor

    @property
    def next_street(self):
        if self._handed:
            return self._python.next_street
        if self._can_deal():
            return self._streets()[self._street + 1]
        return None

    @property
    def street_name(self):
        if self._handed:
            return self._python.street_name
        phase = self._phases()[self._state]
        if phase in ("runout", "showdown"):
            return "showdown"
        return phase if phase == "settled" or phase == "dead" else self._streets()[self._street]

    @property
    def phase(self):
        if self._handed:
            return self._python.phase
        return self._phases()[self._state]

    @property
    def round_over(self):
        if self._handed:
            return self._python.round_over
        return self._phases()[self._state] not in BETTING_PHASES

    @property
    def hand_over(self):
        if self._handed:
            return self._python.hand_over
        return self._hand_over()

    @property
    def stacks(self):
        if self._handed:
            return self._python.stacks
        return tuple([self._behind[seat] for seat in range(self._n)])

    @property
    def committed(self):
        if self._handed:
            return self._python.committed
        return tuple([self._put_in[seat] for seat in range(self._n)])

    @property
    def contributed(self):
        if self._handed:
            return self._python.contributed
        return tuple([self._contributed[seat] for seat in range(self._n)])

    @property
    def folded(self):
        if self._handed:
            return self._python.folded
        return tuple([bool(self._folded[seat]) for seat in range(self._n)])

    @property
    def pot(self):
        if self._handed:
            return self._python.pot
        return self._pot

    @property
    def bet_level(self):
        if self._handed:
            return self._python.bet_level
        return self._bet_level

    @property
    def seats(self):
        if self._handed:
            return self._python.seats
        return self._n

    @property
    def button(self):
        if self._handed:
            return self._python.button
        return self._button

    def total_chips(self):
        if self._handed:
            return self._python.total_chips()
        return self._chips()

    cdef bint _try(self, object seat, object action, object to) except -1:
        """Take ``action`` (a name) for ``seat`` in C when the kernel can and the rules allow it;
        False (nothing changed) leaves the call to the Python engine, which takes it or says why
        not, with its code."""
        cdef int index
        if self._handed or type(seat) is not int or self._actor < 0 or seat != self._actor or type(action) is not str:
            return False
        index = _index(self._names(), action)
        if index < 0 or not (self._legal >> index & 1 if self._viewed else self._allowed(index)):
            return False
        if self._is_wager(index):
            return type(to) is int and 0 <= to <= _SEAT_CHIPS_MAX and self._take_or_refuse(index, to)
        return to is None and self._take_or_refuse(index, -1)

    def act(self, seat=_MISSING, action=_MISSING, to=None, *extra, **named):
        """Dispatch by name, as Engine.act: an action of the kernel's taken in C, anything else
        (and every refusal, with its error) by the Python engine."""
        if extra or named or action is _MISSING or not self._try(seat, action, to):
            if seat is _MISSING or action is _MISSING:  # a call leaving out what it names after
                named = {**named, **{k: v for k, v in (("seat", seat), ("action", action), ("to", to)) if v is not _MISSING}}
                self._forward("act", *extra, **named)
            else:
                self._forward("act", *_given(seat, action, to, extra), **named)

    cdef bint _take_or_refuse(self, int index, chips_t to) except -1:
        cdef int seat = self._actor
        try:
            self._take(index, to)
        except KernelRefusal:
            return False  # nothing changed: the Python engine says why
        self._record(seat * 16 + index, to)
        self._python = None
        return True

    def all_in(self, seat=_MISSING, *extra, **named):
        """Every chip the seat can, as Engine.all_in: a call, a bet or a raise by what it comes to."""
        cdef chips_t to
        cdef int index
        if not extra and not named and not self._handed and type(seat) is int and self._actor >= 0 and seat == self._actor:
            to = self._all_in_to()
            names = self._names()
            index = _index(names, "call" if to <= self._bet_level else "bet" if self._bet_level == 0 else "raise")
            if index >= 0 and (self._legal >> index & 1 if self._viewed else self._allowed(index)) and self._take_or_refuse(index, to if self._is_wager(index) else -1):
                self._steps[2 * self._step_count - 2] = seat * 16 + ALL_IN  # replayed as the all-in it was
                return
        self._forward("all_in", *_given(seat, _MISSING, _MISSING, extra), **named)

    # Each action by its own method, as the engine's: what the kernel cannot take is the engine's
    # method of the same name (which checks the seat before the amount, as `act` does not).
    def fold(self, seat=_MISSING, *extra, **named):
        if extra or named or not self._try(seat, "fold", None):
            self._forward("fold", *_given(seat, _MISSING, _MISSING, extra), **named)

    def check(self, seat=_MISSING, *extra, **named):
        if extra or named or not self._try(seat, "check", None):
            self._forward("check", *_given(seat, _MISSING, _MISSING, extra), **named)

    def call(self, seat=_MISSING, *extra, **named):
        if extra or named or not self._try(seat, "call", None):
            self._forward("call", *_given(seat, _MISSING, _MISSING, extra), **named)

    def bet(self, seat=_MISSING, to=_MISSING, *extra, **named):
        if extra or named or to is _MISSING or not self._try(seat, "bet", to):
            if seat is _MISSING and to is not _MISSING:
                named = {**named, "to": to}
            self._forward("bet", *_given(seat, to, _MISSING, extra), **named)

    def raise_to(self, seat=_MISSING, to=_MISSING, *extra, **named):
        if extra or named or to is _MISSING or not self._try(seat, "raise", to):
            if seat is _MISSING and to is not _MISSING:
                named = {**named, "to": to}
            self._forward("raise_to", *_given(seat, to, _MISSING, extra), **named)

    def bring_in(self, seat=_MISSING, *extra, **named):
        if extra or named or not self._try(seat, "bring_in", None):
            self._forward("bring_in", *_given(seat, _MISSING, _MISSING, extra), **named)

    def deal(self, street=_MISSING, /, *extra, **given):
        """Deal ``street``, as Engine.deal (a deal giving inputs is the Python engine's)."""
        cdef int dealt
        if not self._handed and not extra and not given and self._actor < 0 and type(street) is str and self._can_deal():
            dealt = self._street + 1
            if self._streets()[dealt] == street:
                self._deal()
                self._record(-1 - dealt, -1)
                self._python = None
                return
        self._forward("deal", *_given(street, _MISSING, _MISSING, extra), **given)

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




#: A packed step's amount where it gives none, and where it gives one a kernel does not take.
cdef chips_t _NO_AMOUNT = -1
cdef chips_t _NOT_TAKEN = -2
#: A packed action from this number up is a pair: the first of two legal now, else the second.
cdef chips_t _EITHER = 1000


#: How many of the last distinct inputs a packed table is compared with (Logged._group).
cdef Py_ssize_t _GROUPS_SEEN = 8
cdef enum:
    #: The places of the actions and streets a Logged knows by identity (Logged._code), and
    #: how many objects it holds for them at most.
    _SEEN_BITS = 8
    _SEEN = 1 << _SEEN_BITS
    _SEEN_HELD = 1024


cdef class Logged:
    """Logged hands of one kernel class packed for a replay in C: each hand's table, and its
    steps as three 64-bit numbers each (seat or -1 for a deal; the action's number, a pair of
    them, or the street's; "to" or -1), in one block. A step a kernel does not take as it is
    (an action or a street it does not know, a deal given inputs, an amount not a plain int)
    is packed as one it refuses, so that the Python engine rules on it."""

    cdef chips_t* _data
    cdef chips_t* _taken  # the copy of _data the last replay took, its pairs as the action taken
    cdef bint _pairs  # whether a step is a pair of actions (else a replay takes _data itself)
    cdef Py_ssize_t _size
    cdef Py_ssize_t* _starts
    cdef list _tables
    cdef Py_ssize_t _count
    cdef object _kind
    # Each plain table packed too (its seats, button and stacks, and which of the distinct
    # inputs it gives): a hand starts from them without reading the table's objects again.
    cdef int* _seats
    cdef int* _buttons
    cdef int* _groups
    cdef Py_ssize_t* _stacks_at
    cdef chips_t* _stacks
    cdef list _given
    cdef tuple _names
    cdef tuple _streets
    # The actions (row 0) and deals' streets (row 1) packed so far, found by identity (a log's
    # names are mostly the same few objects): each a str or a pair of them, at one of two
    # places its address gives (_place_of), its packed number beside it; each held in _seen,
    # so that no other object takes its address while it is there.
    cdef PyObject* _seen_at[2][_SEEN]
    cdef chips_t _seen_codes[2][_SEEN]
    cdef list _seen

    def __cinit__(self, kind, hands):
        cdef Kernel kernel
        cdef Py_ssize_t index, step, size = 0, at = 0, chips_at = 0
        cdef chips_t* data
        cdef list logged, tables
        if not (isinstance(kind, type) and issubclass(kind, Kernel)):
            raise BetspecError(f"hands are packed for a kernel class, not {shown(kind)}")
        if type(hands) is not list and type(hands) is not tuple:
            try:
                hands = list(hands)
            except TypeError:
                raise BetspecError(f"logged hands are a list of (table, steps), not {shown(hands)}") from None
        for index in range(len(hands)):
            hand = hands[index]
            if not isinstance(hand, (tuple, list)) or len(hand) != 2:
                raise BetspecError(f"logged hand {index} is (table, steps), not {shown(hand)}")
            if not isinstance(hand[0], _TABLE):
                raise BetspecError(f"logged hand {index}'s table is a betspec.runtime.Table, not {shown(hand[0])}")
            if not isinstance(hand[1], (tuple, list)):
                raise BetspecError(f"logged hand {index}'s steps are a list of (seat, action, to), not {shown(hand[1])}")
        kernel = kind.__new__(kind)
        names, streets = kernel._names(), kernel._streets()
        self._names, self._streets = names, streets
        self._kind = kind
        self._tables = tables = []
        self._given = []
        self._seen = []
        logged = []
        for hand in hands:
            if type(hand) is tuple and PyTuple_GET_SIZE(hand) == 2:
                table = <object>PyTuple_GET_ITEM(hand, 0)
                steps = <object>PyTuple_GET_ITEM(hand, 1)
            else:
                table, steps = hand
            if type(steps) is not list and type(steps) is not tuple:
                steps = list(steps)  # a list or tuple subclass, read as what it holds
            tables.append(table)
            logged.append(steps)
            size += PySequence_Fast_GET_SIZE(steps)
        self._count = len(logged)
        self._size = size
        self._starts = <Py_ssize_t*>PyMem_Malloc((self._count + 1) * sizeof(Py_ssize_t))
        self._data = <chips_t*>PyMem_Malloc((3 * size + 1) * sizeof(chips_t))
        self._seats = <int*>PyMem_Malloc((self._count + 1) * 3 * sizeof(int))
        self._stacks_at = <Py_ssize_t*>PyMem_Malloc((self._count + 1) * sizeof(Py_ssize_t))
        self._stacks = <chips_t*>PyMem_Malloc((self._count * MAX_SEATS + 1) * sizeof(chips_t))
        if self._starts == NULL or self._data == NULL or self._seats == NULL or self._stacks_at == NULL or self._stacks == NULL:
            raise MemoryError()
        self._buttons = self._seats + self._count + 1
        self._groups = self._buttons + self._count + 1
        data = self._data
        for index in range(self._count):
            self._starts[index] = at
            # Each hand's steps read in place (a list or a tuple), read again after each step:
            # an action's name first looked up by value may run Python code (a pair of names
            # that are not strs), which could change a list.
            steps = logged[index]
            step = 0
            while step < PySequence_Fast_GET_SIZE(steps):
                if at >= size:
                    raise ChangedWhilePacked("a logged hand's steps changed while they were packed (a step's names compared by code that changes the steps)")
                self._pack(PySequence_Fast_ITEMS(steps)[step], data + 3 * at)
                at += 1
                step += 1
            self._stacks_at[index] = chips_at
            chips_at += self._pack_table(index)
        self._starts[self._count] = at
        for index in range(at):
            if data[3 * index + 1] >= _EITHER:
                self._pairs = True
                break

    cdef Py_ssize_t _pack_table(self, Py_ssize_t index) except -1:
        """Hand ``index``'s table packed where it is plain (as _start checks it); its seats 0
        where not (_start then takes the table itself). Returns the stacks packed."""
        cdef Py_ssize_t seat, n
        cdef chips_t stack, total = 0
        cdef long long at
        cdef int overflow = 0
        cdef PyObject** items
        cdef chips_t* out = self._stacks + self._stacks_at[index]
        table = self._tables[index]
        self._seats[index] = 0
        if type(table) is not _TABLE:
            return 0
        stacks = _slot(table, _STACKS_AT, "stacks")
        button = _slot(table, _BUTTON_AT, "button")
        given = _slot(table, _INPUTS_AT, "inputs")
        if (type(stacks) is not tuple and type(stacks) is not list) or type(button) is not int or type(given) is not dict:
            return 0
        if _CARRIED_POT_KEY in given:
            return 0  # a pot carried in: _start takes the table itself
        n = PySequence_Fast_GET_SIZE(stacks)
        if not 2 <= n <= MAX_SEATS:
            return 0
        at = PyLong_AsLongLongAndOverflow(button, &overflow)
        if overflow or not 0 <= at < n:
            return 0
        items = PySequence_Fast_ITEMS(stacks)  # read in place: no Python code runs below
        for seat in range(n):
            value = <object>items[seat]
            if type(value) is not int:
                return 0
            stack = PyLong_AsLongLongAndOverflow(value, &overflow)
            if overflow or not 0 < stack <= MAX_CHIPS:
                return 0
            out[seat] = stack
            total += stack
        if total > _SEAT_CHIPS_MAX:
            return 0
        self._groups[index] = self._group(given)
        self._buttons[index] = <int>at
        self._seats[index] = <int>n
        return n

    cdef int _pack(self, PyObject* step, chips_t* out) except -1:
        """One logged step (seat, action, to) packed into ``out``: the seat (-1 for a deal), the
        action's number (a pair's, a street's; _NOT_TAKEN for one a kernel does not take) and
        "to" (_NO_AMOUNT for none, _NOT_TAKEN for one not a plain int of 64 bits)."""
        cdef int overflow = 0
        cdef long long seat, value
        cdef PyObject* given_seat
        cdef PyObject* action
        cdef PyObject* to
        cdef size_t place
        out[0], out[1], out[2] = 0, _NOT_TAKEN, _NOT_TAKEN
        # The tuple and its items read in place, borrowed (nothing here runs Python code until
        # an action is first looked up by value, in _code), its numbers as C integers (an int
        # beyond 64 bits is not one the kernel takes: the Python engine rules on it).
        if _type_of(step) != &PyTuple_Type or PyTuple_GET_SIZE(<object>step) != 3:
            return 0
        given_seat = PyTuple_GET_ITEM(<object>step, 0)
        action = PyTuple_GET_ITEM(<object>step, 1)
        to = PyTuple_GET_ITEM(<object>step, 2)
        if _type_of(given_seat) != &PyLong_Type:
            return 0
        seat = PyLong_AsLongLongAndOverflow(<object>given_seat, &overflow)
        if overflow or not -1 <= seat < MAX_SEATS:
            return 0
        out[0] = seat
        if to == <PyObject*>None:
            out[2] = _NO_AMOUNT
        elif _type_of(to) == &PyLong_Type:
            value = PyLong_AsLongLongAndOverflow(<object>to, &overflow)
            if not overflow and 0 <= value <= _SEAT_CHIPS_MAX:
                out[2] = value
        place = _place_of(action)
        if self._seen_at[seat < 0][place] == action:  # packed before: _code's answer
            out[1] = self._seen_codes[seat < 0][place]
        elif self._seen_at[seat < 0][place ^ 1] == action:
            out[1] = self._seen_codes[seat < 0][place ^ 1]
        else:
            held = <object>action  # held: looking it up by value may run Python code
            out[1] = self._code(held, seat < 0)
        return 0

    cdef chips_t _code(self, object action, bint deal) except -3:
        """The packed number of a step's action (of a deal's street where ``deal``): as _number
        finds it, found by identity for an action or a street already packed."""
        cdef PyObject* key = <PyObject*>action
        cdef size_t place = _place_of(key)
        cdef chips_t code
        if self._seen_at[deal][place] == key:
            return self._seen_codes[deal][place]
        if self._seen_at[deal][place ^ 1] == key:
            return self._seen_codes[deal][place ^ 1]
        code = _number(action, deal, self._names, self._streets)
        # Only a str, or a pair of them, is kept: its number cannot change while it is held.
        if len(self._seen) < _SEEN_HELD and (
            type(action) is str
            or (
                type(action) is tuple
                and PyTuple_GET_SIZE(action) == 2
                and type(<object>PyTuple_GET_ITEM(action, 0)) is str
                and type(<object>PyTuple_GET_ITEM(action, 1)) is str
            )
        ):
            self._seen.append(action)
            if self._seen_at[deal][place] != NULL and self._seen_at[deal][place ^ 1] == NULL:
                place ^= 1  # two places an address: the second where the first is taken
            self._seen_at[deal][place] = key
            self._seen_codes[deal][place] = code
        return code

    cdef int _group(self, dict given) except -1:
        """Which of the distinct inputs packed so far ``given`` is (the same as one of the last
        _GROUPS_SEEN, as _same compares them), else a new one: hands of a log alternate between
        a few sets of inputs (with an ante, without), each loaded once a number of seats."""
        cdef Py_ssize_t group, count = len(self._given)
        for group in range(count - 1, max(count - _GROUPS_SEEN, 0) - 1, -1):
            if _same(given, self._given[group]):
                return <int>group
        self._given.append(given)
        return <int>count

    def __dealloc__(self):
        PyMem_Free(self._data)
        PyMem_Free(self._taken)
        PyMem_Free(self._starts)
        PyMem_Free(self._seats)
        PyMem_Free(self._stacks_at)
        PyMem_Free(self._stacks)

    def __len__(self):
        return self._count

    def taken(self, index):
        """Hand ``index``'s steps as the last replay took them (a hand it took to its end): (seat,
        action, to), a pair of actions as the one taken; a deal (-1, street, None)."""
        cdef Py_ssize_t at
        cdef chips_t seat, code, to
        cdef chips_t* data = self._taken if self._taken != NULL else self._data
        if type(index) is not int:
            raise BetspecError(f"a logged hand is found by its number, not {shown(index)}")
        if not 0 <= index < self._count:
            raise BetspecError(f"no logged hand {index}: {self._count} were packed")
        steps = []
        for at in range(3 * self._starts[index], 3 * self._starts[index + 1], 3):
            seat, code, to = data[at], data[at + 1], data[at + 2]
            if seat < 0:
                steps.append((-1, self._streets[code] if 0 <= code < len(self._streets) else None, None))
            elif 0 <= code < len(self._names):
                steps.append((seat, self._names[code], None if to < 0 else to))
            elif code >= _EITHER:  # a pair the replay did not reach
                steps.append((seat, (self._names[(code - _EITHER) >> 4], self._names[(code - _EITHER) & 15]), None if to < 0 else to))
            else:
                steps.append((seat, None, None if to < 0 else to))
        return steps

    def replay(self, engine_class, dict options, list ends=None):
        """Each hand replayed in C, one after another on one kernel hand: -1 where the kernel
        took every step, else the index of the first step it did not take (0 also where it did
        not take the table: the table, or any step, is then the Python engine's to rule on).
        With ``ends``, each hand taken appends (to_act, street_name, hand_over) as it ends."""
        cdef Kernel kernel = self._kind.__new__(self._kind)
        cdef Templates templates = kernel._templates()
        cdef Py_ssize_t index, taken, seat
        cdef int n
        cdef Inputs inputs
        cdef chips_t* steps
        cdef Py_ssize_t at
        cdef Py_ssize_t width = MAX_SEATS + 1
        # The inputs loaded, by distinct inputs and number of seats (at group * width + seats).
        cdef list loaded = [None] * (len(self._given) * width)
        answers = []
        steps = self._data
        if self._pairs:  # replayed from a copy, where each pair becomes the action taken
            if self._taken == NULL:
                self._taken = <chips_t*>PyMem_Malloc((3 * self._size + 1) * sizeof(chips_t))
                if self._taken == NULL:
                    raise MemoryError()
            memcpy(self._taken, self._data, 3 * self._size * sizeof(chips_t))
            steps = self._taken
        for index in range(self._count):
            n = self._seats[index]
            try:
                if n == 0:
                    kernel._start(self._tables[index], engine_class, options)
                else:
                    at = self._groups[index] * width + n
                    found = loaded[at]
                    if found is None:
                        found = templates.get(engine_class, options, self._tables[index], n)
                        loaded[at] = found
                    inputs = <Inputs>found
                    kernel._inputs = inputs
                    kernel._seat_arrays(n)
                    kernel._n = n
                    for seat in range(n):
                        kernel._behind[seat] = self._stacks[self._stacks_at[index] + seat]
                    kernel._open(self._buttons[index], 0)
            except Exception:
                answers.append(0)  # the Python engine refuses the table, or plays it
                continue
            taken = kernel._replay(steps + 3 * self._starts[index], self._starts[index + 1] - self._starts[index])
            answers.append(taken)
            if taken < 0 and ends is not None:
                ends.append((kernel.to_act, kernel.street_name, kernel._hand_over()))
        return answers


cdef inline size_t _place_of(PyObject* key) noexcept:
    """The first of the two places of Logged's table of names an address has (the other is
    this one ^ 1): its bits mixed (Fibonacci hashing), the top ones kept."""
    return <size_t>(((<unsigned long long><size_t>key >> 4) * 0x9E3779B97F4A7C15ULL) >> (64 - _SEEN_BITS))


cdef chips_t _number(object action, bint deal, tuple names, tuple streets) except -3:
    """A logged step's action packed: a deal's street (its number), an action's name (its
    number) or a pair of names; _NOT_TAKEN for one a kernel does not know."""
    cdef int first, second
    cdef chips_t code = _NOT_TAKEN
    if deal:
        if type(action) is str:
            for first in range(len(streets)):
                if streets[first] == action:
                    code = first
        return code
    if type(action) is str:
        first = _index(names, action)
        if first >= 0:
            code = first
    elif type(action) is tuple and len(action) == 2:
        first, second = _index(names, action[0]), _index(names, action[1])
        if first >= 0 and second >= 0:
            code = _EITHER + first * 16 + second
    return code


def replay_hands(kind, engine_class, dict options, hands, list ends=None):
    """Logged hands of ``kind`` (a kernel class), each (table, steps), packed (Logged) and
    replayed in C: Logged.replay's answers. A step is (seat, action, to): an action's name (or a
    pair of names: the first legal then, else the second) and its "to" (None for an action that
    takes none); a deal is (-1, street, None)."""
    return Logged(kind, hands).replay(engine_class, options, ends)


#: The engine's methods that only read the hand: asking them leaves the hand with the kernel.
_READS = frozenset({"pots", "snapshot", "stakes", "to_phh", "total_chips"})


cdef inline void _seated(Kernel kernel, Inputs inputs, int n, chips_t* stacks, int button, chips_t carried) except *:
    """A hand of a batch begun on inputs already loaded and checked: ``n`` seats of ``stacks``,
    the button and a pot carried in (as Kernel._start begins one, less the checks)."""
    cdef int seat
    kernel._inputs = inputs
    kernel._seat_arrays(n)
    kernel._n = n
    for seat in range(n):
        kernel._behind[seat] = <seat_chips_t>stacks[seat]
    kernel._open(button, carried)


cdef inline object _tallied(Kernel kernel, chips_t chips, chips_t* summed, object total, list stacks):
    """A batch's hand played: its chips checked against the ``chips`` it began with, counted
    (in ``summed``, in C, added to ``total`` before 64 bits could overflow: a hand adds at most
    _SEAT_CHIPS_MAX), its final stacks kept in ``stacks``; returns ``total``."""
    if kernel._chips() != chips:
        raise RuntimeError("chips not conserved")
    summed[0] += chips
    if summed[0] > _CHIPS_SUMMED:
        total += summed[0]
        summed[0] = 0
    if stacks is not None:
        stacks.append(kernel.stacks)
    return total


cdef inline bint _same_items(object a, object b) noexcept:
    """Whether dicts ``a`` and ``b`` of one size hold the very same keys in the same order, and
    for each the very same value or tuples of the very same items (as a table's inputs and the
    copy Templates keeps of them do): the same then."""
    cdef Py_ssize_t mine = 0, theirs = 0, index, size
    cdef PyObject* key
    cdef PyObject* value
    cdef PyObject* other_key
    cdef PyObject* other
    while PyDict_Next(a, &mine, &key, &value):
        if not PyDict_Next(b, &theirs, &other_key, &other) or key != other_key:
            return False
        if type(<object>key) is not str:  # as _same: inputs are named by strs
            return False
        if value == other:
            continue
        if type(<object>value) is not tuple or type(<object>other) is not tuple:
            return False
        size = PyTuple_GET_SIZE(<object>value)
        if size != PyTuple_GET_SIZE(<object>other):
            return False
        for index in range(size):
            if PyTuple_GET_ITEM(<object>value, index) != PyTuple_GET_ITEM(<object>other, index):
                return False
    return True


cdef inline bint _same_inputs(object a, object b) except -1:
    """_same of a table's inputs and the ones Templates holds: at once where they are dicts of
    the very same items (_same_items), else by _same."""
    if type(a) is dict and type(b) is dict and PyDict_Size(a) == PyDict_Size(b) and _same_items(a, b):
        return True
    return _same(a, b)


cdef bint _same(object a, object b) except -1:
    """Whether ``a`` and ``b`` are the same inputs or options: equal, and of the same types
    throughout (the engine refuses 5.0, True, a Decimal or a numpy integer where it wants 5)."""
    cdef Py_ssize_t index, size
    cdef PyObject* key
    cdef PyObject* value
    cdef PyObject* other
    cdef PyObject* other_key
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is int or kind is str or kind is bool:
        return a == b
    if kind is tuple:  # read in place: a tuple's items cannot change while they are compared
        size = PyTuple_GET_SIZE(a)
        if size != PyTuple_GET_SIZE(b):
            return False
        for index in range(size):
            if PyTuple_GET_ITEM(a, index) != PyTuple_GET_ITEM(b, index) and not _same(
                <object>PyTuple_GET_ITEM(a, index), <object>PyTuple_GET_ITEM(b, index)
            ):
                return False
        return True
    if kind is list:
        if len(a) != len(b):
            return False
        for index in range(len(a)):
            if not _same(a[index], b[index]):
                return False
        return True
    if kind is dict:
        if PyDict_Size(a) != PyDict_Size(b):
            return False
        if _same_items(a, b):
            return True
        # Walked in place (each key and value held while it is looked up and compared). Dicts
        # built alike hold the same key objects in the same order: their values are compared
        # side by side, with no lookup, while the keys are the very same strs.
        index = 0
        size = 0
        while PyDict_Next(a, &index, &key, &value) and PyDict_Next(b, &size, &other_key, &other):
            if key != other_key or type(<object>key) is not str:
                break
            if value == other:  # the very same value
                continue
            mine = <object>value
            theirs = <object>other
            if not _same(mine, theirs):
                return False
        else:
            return True
        index = 0
        while PyDict_Next(a, &index, &key, &value):
            name = <object>key
            if type(name) is not str:
                return False
            mine = <object>value
            other = PyDict_GetItemWithError(b, name)
            if other == NULL:
                return False
            theirs = <object>other
            if not _same(mine, theirs):
                return False
        return True
    return False  # anything else is checked by the engine each time


cdef int _index(tuple names, object action):
    cdef int index
    for index in range(len(names)):
        if names[index] is action:  # the common case: the same interned name
            return index
    for index in range(len(names)):
        if names[index] == action:
            return index
    return -1


_ENGINE_CLASSES = {}


def _engine_class_of(kind):
    """The Python engine class a kernel class plays as: its generated module's ENGINE, found
    beside the kernels' package (``<package>.kernels.<spec>`` plays ``<package>.<spec>``)."""
    found = _ENGINE_CLASSES.get(kind)
    if found is None:
        module = importlib.import_module(kind.__module__)
        if not hasattr(module, "SPEC_NAME"):
            raise InvalidTable(f"{kind.__name__} is the kernels' runtime, not a spec's kernel: it plays no hand")
        package = kind.__module__.rsplit(".", 2)[0]
        engines = importlib.import_module(f"{package}.{module.SPEC_NAME}")
        found = _ENGINE_CLASSES[kind] = engines.ENGINE
    return found
