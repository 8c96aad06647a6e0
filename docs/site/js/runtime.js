// Compiled by betspec (python -m betspec.tools.site_js) from generated/typescript/src, sources sha256 2e2f75e1a3708d30abf0cf81aa6f09eb3cfe6feba183c33acdb43ee6422febd6.
// Do not edit: run `betspec generate`, then `python -m betspec.tools.site_js`.
(function (root) {
  "use strict";
  var modules = {};
  // define(name, dependencies, factory): an AMD module as tsc prints it, registered under its name.
  function define(name, dependencies, factory) {
    var exports = {};
    var given = dependencies.map(function (dependency) {
      if (dependency === "require") {
        return function () { throw new Error("betspec: require is not available"); };
      }
      if (dependency === "exports") { return exports; }
      var key = dependency.replace(/^\.\//, "").replace(/\.js$/, "");
      if (!Object.prototype.hasOwnProperty.call(modules, key)) {
        throw new Error("betspec: module " + key + " is not loaded (load js/runtime.js first)");
      }
      return modules[key];
    });
    factory.apply(null, given);
    modules[name] = exports;
    return exports;
  }
  root.betspec = { modules: modules, define: define };
})(typeof globalThis !== "undefined" ? globalThis : this);
(function (define) {
// Printed by betspec 0.2.0 from betspec/vocabulary.py: the words the TypeScript runtime
// shares with the Python one. Do not edit: run `betspec generate`.
define(["require", "exports"], function (require, exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    exports.HAND_CATEGORIES = exports.HAND_KINDS = exports.CARD_SUITS = exports.CARD_RANKS = exports.WAGERS = exports.OUT_OF_TURN_DECLARATIONS = exports.HAND_OVER_PHASES = exports.DECLARATIONS = exports.BETTING_PHASES = exports.ACT_NAMES = void 0;
    exports.ACT_NAMES = ["fold", "check", "call", "bet", "raise", "bring_in", "all_in", "timeout"];
    exports.BETTING_PHASES = ["unopened", "facing_bet"];
    exports.DECLARATIONS = ["fold", "check", "call", "bet", "raise"];
    exports.HAND_OVER_PHASES = ["runout", "showdown", "settled", "dead"];
    exports.OUT_OF_TURN_DECLARATIONS = ["check", "call", "bet", "raise"];
    exports.WAGERS = ["bet", "raise"];
    exports.CARD_RANKS = "23456789TJQKA";
    exports.CARD_SUITS = "cdhs";
    exports.HAND_KINDS = ["high", "short_deck_high", "omaha_high", "omaha_low_eight", "low_eight", "ace_to_five_low", "deuce_to_seven_low", "high_cards", "badugi"];
    exports.HAND_CATEGORIES = ["high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind", "straight_flush"];
});
})(function (dependencies, factory) { betspec.define("vocabulary", dependencies, factory); });
(function (define) {
// Copied by betspec 0.2.0 from betspec/runtime/typescript/runtime.ts (the hand-written runtime).
// Do not edit: change the source and run `betspec generate`.
// The TypeScript runtime of betspec's generated engines: seats, chips and the primitives specs are
// written in, the table procedures (chips pushed, words said, declarations out of turn), settling
// pots, the next table and snapshots. A port of betspec/runtime/engine.py (and table.py,
// errors.py, snapshot_format.py, snapshot.py): the same mechanisms, the same error codes, rule
// ids and texts; it decides nothing about sizes or legality, which each generated module holds.
//
// Chips are JavaScript numbers holding integers: every amount given is checked to be a safe
// integer, and a table whose chips could take a computation past 2**53 is refused, so that
// every sum, product and floor division the specs compute is exact.
define(["require", "exports", "./vocabulary.js"], function (require, exports, vocabulary_js_1) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    exports.MAX_DEPTH = exports.MAX_TEXT = exports.MAX_VALUES = exports.Engine = exports.MAX_LOG = exports.SNAPSHOT_VERSION = exports.SNAPSHOT_FORMAT = exports.CARRIED_POT = exports.NO_VIEW = exports.Said = exports.MAX_TABLE_CHIPS = exports.MAX_CHIPS = exports.MAX_SEATS = exports.SnapshotError = exports.InvalidTable = exports.IllegalAction = exports.BetspecError = void 0;
    exports.shown = shown;
    exports.typeName = typeName;
    exports.isInt = isInt;
    exports.didYouMean = didYouMean;
    exports.ceilTo = ceilTo;
    exports.floorTo = floorTo;
    exports.floorDiv = floorDiv;
    exports.mod = mod;
    exports.intOption = intOption;
    exports.optionalIntOption = optionalIntOption;
    exports.boolOption = boolOption;
    exports.choiceOption = choiceOption;
    exports.requiredInput = requiredInput;
    exports.unknownInputs = unknownInputs;
    exports.intInput = intInput;
    exports.optionalIntInput = optionalIntInput;
    exports.boolInput = boolInput;
    exports.choiceInput = choiceInput;
    exports.seatInput = seatInput;
    exports.optionalSeatInput = optionalSeatInput;
    exports.seatsInput = seatsInput;
    exports.itemsInput = itemsInput;
    exports.perSeatInput = perSeatInput;
    exports.checkedTable = checkedTable;
    exports.shows = shows;
    exports.jsonEqual = jsonEqual;
    exports.copyHand = copyHand;
    exports.restore = restore;
    exports.fire = fire;
    // ---- errors ----------------------------------------------------------------------------------
    /** Base class of every error betspec raises on purpose: a code a program tests, a message a dealer reads. */
    class BetspecError extends Error {
        code;
        constructor(message, code = "error") {
            super(message);
            this.code = code;
            this.name = "BetspecError";
        }
    }
    exports.BetspecError = BetspecError;
    /** An action or deal the rules forbid. The engine's state is exactly as it was before it. */
    class IllegalAction extends BetspecError {
        rule;
        source;
        constructor(code, message, rule = "", source = "") {
            super(message, code);
            this.rule = rule;
            this.source = source;
            this.name = "IllegalAction";
        }
    }
    exports.IllegalAction = IllegalAction;
    /** A table, start or option an engine cannot be built from; `rule` the spec check it breaks. */
    class InvalidTable extends BetspecError {
        rule;
        constructor(message, rule = "") {
            super(message, "invalid_table");
            this.rule = rule;
            this.name = "InvalidTable";
        }
    }
    exports.InvalidTable = InvalidTable;
    /** A snapshot that cannot be restored; the message says why. */
    class SnapshotError extends BetspecError {
        constructor(message) {
            super(message, "bad_snapshot");
            this.name = "SnapshotError";
        }
    }
    exports.SnapshotError = SnapshotError;
    const SHOWN = 60;
    function pyString(text) {
        const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
        let out = quote;
        for (const ch of text) {
            if (ch === "\\")
                out += "\\\\";
            else if (ch === quote)
                out += "\\" + ch;
            else if (ch === "\n")
                out += "\\n";
            else if (ch === "\r")
                out += "\\r";
            else if (ch === "\t")
                out += "\\t";
            else if (ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127)
                out += "\\x" + ch.charCodeAt(0).toString(16).padStart(2, "0");
            else
                out += ch;
        }
        return out + quote;
    }
    function reprOf(value, depth) {
        if (value === null || value === undefined)
            return "None";
        if (typeof value === "boolean")
            return value ? "True" : "False";
        if (typeof value === "number") {
            // An integer past 2**53 written out whole, as Python writes the int it stands for.
            if (Number.isInteger(value))
                return Number.isSafeInteger(value) ? String(value) : BigInt(value).toString();
            return String(value);
        }
        if (typeof value === "bigint")
            return String(value);
        if (typeof value === "string")
            return pyString(value.slice(0, SHOWN + 1));
        if (Array.isArray(value)) {
            if (depth <= 0)
                return "[...]";
            const items = [];
            for (let i = 0; i < value.length; i++) {
                if (i === 8) {
                    items.push("...");
                    break;
                }
                items.push(reprOf(value[i], depth - 1));
            }
            return `[${items.join(", ")}]`;
        }
        if (typeof value === "object") {
            if (depth <= 0)
                return "{...}";
            const items = [];
            let i = 0;
            for (const [key, inner] of Object.entries(value)) {
                if (i++ === 8) {
                    items.push("...");
                    break;
                }
                items.push(`${reprOf(key, depth - 1)}: ${reprOf(inner, depth - 1)}`);
            }
            return `{${items.join(", ")}}`;
        }
        return `<${typeof value}>`;
    }
    /** A value as Python's repr shows it, cut short: a message never echoes a huge input. */
    function shown(value) {
        let text;
        try {
            text = reprOf(value, 3);
        }
        catch {
            text = `<${typeof value}>`;
        }
        return text.length <= SHOWN ? text : text.slice(0, SHOWN - 3) + "...";
    }
    /** The name of a value's type as the Python engine's messages name it. */
    function typeName(value) {
        if (value === null || value === undefined)
            return "NoneType";
        if (typeof value === "boolean")
            return "bool";
        if (typeof value === "number")
            return Number.isInteger(value) ? "int" : "float";
        if (typeof value === "string")
            return "str";
        if (Array.isArray(value))
            return "list";
        if (typeof value === "object")
            return "dict";
        return typeof value;
    }
    /** A plain whole number (not a boolean, not a fraction, within the safe integers). */
    function isInt(value) {
        return typeof value === "number" && Number.isSafeInteger(value);
    }
    function isMapping(value) {
        return typeof value === "object" && value !== null && !Array.isArray(value);
    }
    /** " (did you mean 'x'?)" for a near name (Ratcliff/Obershelp, as Python's difflib), else "". */
    function didYouMean(name, candidates) {
        let best = "";
        let score = 0.6;
        for (const candidate of [...new Set(candidates)].sort()) {
            const ratio = similarity(name, candidate);
            if (ratio > score || (ratio === score && best === "")) {
                if (ratio >= score) {
                    best = candidate;
                    score = ratio;
                }
            }
        }
        return best ? ` (did you mean ${pyString(best)}?)` : "";
    }
    function matching(a, b) {
        if (!a.length || !b.length)
            return 0;
        let bestI = 0;
        let bestJ = 0;
        let size = 0;
        for (let i = 0; i < a.length; i++) {
            for (let j = 0; j < b.length; j++) {
                let k = 0;
                while (i + k < a.length && j + k < b.length && a[i + k] === b[j + k])
                    k++;
                if (k > size) {
                    size = k;
                    bestI = i;
                    bestJ = j;
                }
            }
        }
        if (!size)
            return 0;
        return size + matching(a.slice(0, bestI), b.slice(0, bestJ)) + matching(a.slice(bestI + size), b.slice(bestJ + size));
    }
    function similarity(a, b) {
        const total = a.length + b.length;
        return total ? (2 * matching(a, b)) / total : 1;
    }
    // ---- arithmetic the specs' expressions call ---------------------------------------------------
    /** `value` rounded up to a multiple of `unit` (unchanged when `unit` is not positive). */
    function ceilTo(value, unit) {
        if (unit <= 0)
            return value;
        return -Math.floor(-value / unit) * unit;
    }
    /** `value` rounded down to a multiple of `unit` (unchanged when `unit` is not positive). */
    function floorTo(value, unit) {
        if (unit <= 0)
            return value;
        return Math.floor(value / unit) * unit;
    }
    /** Python's floor division of integers (exact below 2**53). */
    function floorDiv(a, b) {
        if (b === 0)
            throw new RangeError("integer division by zero");
        return Math.floor(a / b);
    }
    /** Python's modulo of integers: the sign of the divisor. */
    function mod(a, b) {
        if (b === 0)
            throw new RangeError("integer modulo by zero");
        const r = a % b;
        return r !== 0 && r < 0 !== b < 0 ? r + b : r;
    }
    // ---- tables, starts, options and inputs --------------------------------------------------------
    exports.MAX_SEATS = 23;
    exports.MAX_CHIPS = 10 ** 15;
    /** The most chips a table may hold in all here: every value the specs compute stays below 2**53. */
    exports.MAX_TABLE_CHIPS = 2 ** 49;
    function whole(name, value, minimum, maximum, orNull) {
        if (typeof value !== "number" || !Number.isInteger(value)) {
            throw new InvalidTable(`option ${name} must be a whole number${orNull ? " or null" : ""}, not ${shown(value)}`);
        }
        if (minimum !== null && value < minimum)
            throw new InvalidTable(`option ${name} must be at least ${minimum}, not ${shown(value)}`);
        if (maximum !== null && value > maximum)
            throw new InvalidTable(`option ${name} must be at most ${maximum}, not ${shown(value)}`);
        if (Math.abs(value) > exports.MAX_CHIPS)
            throw new InvalidTable(`option ${name} is out of range: ${shown(value)}`);
        return value;
    }
    function intOption(name, value, minimum = null, maximum = null) {
        return whole(name, value, minimum, maximum, false);
    }
    function optionalIntOption(name, value, minimum = null, maximum = null) {
        return value === null || value === undefined ? null : whole(name, value, minimum, maximum, true);
    }
    function boolOption(name, value) {
        if (typeof value !== "boolean")
            throw new InvalidTable(`option ${name} must be true or false, not ${shown(value)}`);
        return value;
    }
    function choiceOption(name, value, choices) {
        if (typeof value !== "string" || !choices.includes(value)) {
            throw new InvalidTable(`option ${name} must be one of ${choices.join(", ")}, not ${shown(value)}`);
        }
        return value;
    }
    function requiredInput(spec, name) {
        return new InvalidTable(`${spec} needs the table's ${name}`);
    }
    function unknownInputs(spec, given, names) {
        for (const name of Object.keys(given)) {
            if (!names.includes(name)) {
                const known = [...names].sort().join(", ") || "none";
                throw new InvalidTable(`${spec} has no table input ${shown(name)}${didYouMean(name, names)} (its inputs: ${known})`);
            }
        }
    }
    function intInput(name, value, minimum = null, maximum = null) {
        return whole(`table input ${name}`, value, minimum, maximum, false);
    }
    function optionalIntInput(name, value, minimum = null, maximum = null) {
        return value === null || value === undefined ? null : whole(`table input ${name}`, value, minimum, maximum, true);
    }
    function boolInput(name, value) {
        return boolOption(`table input ${name}`, value);
    }
    function choiceInput(name, value, choices) {
        return choiceOption(`table input ${name}`, value, choices);
    }
    function seatInput(name, value, seats) {
        return whole(`table input ${name} (a seat)`, value, 0, seats - 1, false);
    }
    function optionalSeatInput(name, value, seats) {
        return value === null || value === undefined ? null : seatInput(name, value, seats);
    }
    function seatsInput(name, value, seats) {
        if (!Array.isArray(value))
            throw new InvalidTable(`table input ${name} is a list of seats, not ${shown(value)}`);
        const found = value.map((seat) => seatInput(name, seat, seats));
        if (new Set(found).size !== found.length)
            throw new InvalidTable(`table input ${name} names a seat twice: ${shown(found)}`);
        return found;
    }
    function itemsInput(name, value, count, minimum, maximum) {
        if (!Array.isArray(value) || value.length !== count) {
            throw new InvalidTable(`table input ${name} is a list of ${count} whole numbers, not ${shown(value)}`);
        }
        return value.map((v) => whole(`table input ${name}`, v, minimum, maximum, false));
    }
    function perSeatInput(name, value, seats, check) {
        if (!Array.isArray(value)) {
            const one = check(name, value);
            return Array.from({ length: seats }, () => one);
        }
        if (value.length !== seats)
            throw new InvalidTable(`table input ${name} gives ${value.length} values for ${seats} seats`);
        return value.map((v) => check(name, v));
    }
    function chips(value, what) {
        if (typeof value !== "number" || !Number.isInteger(value))
            throw new InvalidTable(`${what} must be a whole number of chips, not ${shown(value)}`);
        if (!(value >= 0 && value <= exports.MAX_CHIPS))
            throw new InvalidTable(`${what} must be between 0 and ${exports.MAX_CHIPS}, not ${shown(value)}`);
        return value;
    }
    function jsonCopy(value) {
        return value === undefined ? value : JSON.parse(JSON.stringify(value));
    }
    /** A table checked as the Python engine checks it: the stacks, the button; the inputs as given. */
    function checkedTable(table) {
        if (!isMapping(table))
            throw new InvalidTable(`a table is a JSON object, not ${typeName(table)}`);
        if (!("stacks" in table))
            throw new InvalidTable("a table needs its stacks");
        const stacks = table.stacks;
        if (!Array.isArray(stacks))
            throw new InvalidTable("stacks must be a list of chip counts");
        if (stacks.length < 2 || stacks.length > exports.MAX_SEATS)
            throw new InvalidTable(`a table has 2 to ${exports.MAX_SEATS} seats, not ${stacks.length}`);
        stacks.forEach((stack, seat) => chips(stack, `stack of seat ${seat}`));
        const button = "button" in table ? table.button : 0;
        if (typeof button !== "number" || !Number.isInteger(button))
            throw new InvalidTable(`button must be a seat number, not ${shown(button)}`);
        if (!(button >= 0 && button < stacks.length))
            throw new InvalidTable(`button ${shown(button)} is not a seat (0..${stacks.length - 1})`);
        const inputs = {};
        for (const [name, value] of Object.entries(table)) {
            if (name !== "stacks" && name !== "button")
                inputs[name] = jsonCopy(value);
        }
        return { stacks: [...stacks], button, inputs };
    }
    function checkedStart(start) {
        if (!isMapping(start))
            throw new InvalidTable(`a start is a JSON object, not ${typeName(start)}`);
        const names = ["street", "pot", "inputs"];
        const unknown = Object.keys(start).filter((key) => !names.includes(key)).sort();
        if (unknown.length)
            throw new InvalidTable(`a start has no field ${shown(unknown[0])} (its fields: ${names.join(", ")})`);
        if (!("street" in start))
            throw new InvalidTable("a start needs street");
        if (typeof start.street !== "string")
            throw new InvalidTable(`start street must be a street's name, not ${shown(start.street)}`);
        const inputs = start.inputs ?? {};
        if (!isMapping(inputs))
            throw new InvalidTable("a start's inputs are named");
        return { street: start.street, pot: chips(start.pot ?? 0, "start pot"), inputs: jsonCopy(inputs) };
    }
    function isCard(card) {
        return typeof card === "string" && card.length === 2 && vocabulary_js_1.CARD_RANKS.includes(card[0]) && vocabulary_js_1.CARD_SUITS.includes(card[1]);
    }
    /** Whether `cards` hold one card of each of `ranks` (all of one suit where `suited` is true, not
     * all of one suit where it is false; either where null): as the Python runtime's shows. */
    function shows(cards, ranks, suited) {
        const pick = (start, left, suits) => {
            if (start === ranks.length)
                return suited === null || (new Set(suits).size === 1) === suited;
            for (const card of left) {
                if (card[0] === ranks[start]) {
                    const rest = [...left];
                    rest.splice(rest.indexOf(card), 1);
                    if (pick(start + 1, rest, [...suits, card[1]]))
                        return true;
                }
            }
            return false;
        };
        return pick(0, [...cards], []);
    }
    /** What a player said with (or instead of) his chips. */
    class Said {
        fold;
        check;
        call;
        bet;
        raise_;
        to;
        constructor(fold = false, check = false, call = false, bet = false, raise_ = false, to = null) {
            this.fold = fold;
            this.check = check;
            this.call = call;
            this.bet = bet;
            this.raise_ = raise_;
            this.to = to;
        }
        get wager() {
            return this.bet || this.raise_;
        }
    }
    exports.Said = Said;
    exports.NO_VIEW = [[], 0, null, null];
    /** What any table may give besides its spec's inputs: the pot a dead hand carried to it. */
    exports.CARRIED_POT = "carried_pot";
    /** The phases of a hand that ends with no winner: settling it pays nobody. */
    const DEAD_PHASES = ["dead"];
    const NOT_BOUND = 0;
    const BOUND_TO_CALL = 1;
    const BOUND_TO_WAGER = 2;
    const BOUNDS = { below_minimum: [2, "at least"], above_maximum: [3, "at most"] };
    exports.SNAPSHOT_FORMAT = "betspec.snapshot";
    exports.SNAPSHOT_VERSION = 2;
    exports.MAX_LOG = 10_000;
    function saying(said) {
        if (said.to !== null)
            return { act: said.bet ? "bet" : "raise", to: said.to };
        for (const word of vocabulary_js_1.DECLARATIONS) {
            if (said[word === "raise" ? "raise_" : word])
                return word;
        }
        return null;
    }
    function plain(value) {
        if (Array.isArray(value))
            return value.map(plain);
        return value === null || value === undefined || isInt(value) ? (value ?? null) : null;
    }
    /** One hand of one betting structure. Seats are 0..n-1 clockwise. */
    class Engine {
        // The state, read by the generated code (not part of the API: use the getters).
        /** @internal */ _able_count = 0;
        /** @internal */ _acted = [];
        /** @internal */ _acted_at = [];
        /** @internal */ _actor = -1;
        /** @internal */ _announced = -1;
        /** @internal */ _behind = [];
        /** @internal */ _bet_level = 0;
        /** @internal */ _button = 0;
        /** @internal */ _contributed = [];
        /** @internal */ _dead = 0;
        /** @internal */ _dead_in = [];
        /** @internal */ _declared = NOT_BOUND;
        /** @internal */ _deferred = -1;
        /** @internal */ _folded = [];
        /** @internal */ _forced_raises = 0;
        /** @internal */ _last_full_level = 0;
        /** @internal */ _last_live = 0;
        /** @internal */ _last_raise = 0;
        /** @internal */ _live = [];
        /** @internal */ _log = [];
        /** @internal */ _n = 0;
        /** @internal */ _nominal = 0;
        /** @internal */ _out_of_turn = new Map();
        /** @internal */ _paid = false;
        /** @internal */ _raked = [0, 0];
        /** @internal */ _paidOut = [];
        /** @internal */ _players_in = 0;
        /** @internal */ _posted_dead = 0;
        /** @internal */ _posted_live = 0;
        /** @internal */ _pot = 0;
        /** @internal */ _put_in = [];
        /** @internal */ _raises = 0;
        /** @internal */ _returned = [];
        /** @internal */ _won = [];
        /** @internal */ _start = null;
        /** @internal */ _state = "";
        /** @internal */ _street = 0;
        /** @internal */ _table = { stacks: [], button: 0, inputs: {} };
        /** @internal */ _view = null;
        /** @internal */ _options = {};
        /** The spec this engine plays. */
        meta;
        constructor(meta) {
            this.meta = meta;
        }
        /** The options given, checked as the spec declares them: unknown ones refused. */
        _givenOptions(options) {
            if (options === undefined || options === null)
                return {};
            if (!isMapping(options))
                throw new InvalidTable(`${this.meta.name} takes its options as an object, not ${typeName(options)}`);
            const defaults = this.meta.optionDefaults;
            for (const name of Object.keys(options)) {
                if (!(name in defaults)) {
                    const known = Object.keys(defaults).join(", ") || "none";
                    throw new InvalidTable(`${this.meta.name} has no option ${shown(name)}${didYouMean(name, Object.keys(defaults))} (its options: ${known})`);
                }
            }
            return options;
        }
        /** @internal */
        _setup(table, start) {
            const checked = checkedTable(table);
            let begin = null;
            if (start !== null && start !== undefined) {
                begin = checkedStart(start);
            }
            else if (checked.stacks.some((stack) => stack === 0)) {
                throw new InvalidTable("a seat with no chips is not dealt in (give every seat chips)");
            }
            let given = checked.inputs;
            let carried = 0;
            if (exports.CARRIED_POT in given) {
                carried = chips(given[exports.CARRIED_POT], "the carried pot");
                given = Object.fromEntries(Object.entries(given).filter(([name]) => name !== exports.CARRIED_POT));
            }
            const total = checked.stacks.reduce((a, b) => a + b, 0) + (begin ? begin.pot : 0) + carried;
            if (total > exports.MAX_TABLE_CHIPS) {
                throw new InvalidTable(`the TypeScript engines play tables of at most ${exports.MAX_TABLE_CHIPS} chips in all, not ${total}`);
            }
            this._table = checked;
            this._start = begin;
            this._log = [];
            const n = checked.stacks.length;
            this._n = n;
            this._button = checked.button;
            this._loadInputs(given);
            this._computeRoles();
            this._checkTable();
            this._behind = [...checked.stacks];
            this._put_in = new Array(n).fill(0);
            this._contributed = new Array(n).fill(0);
            this._folded = new Array(n).fill(false);
            this._acted = new Array(n).fill(false);
            this._acted_at = new Array(n).fill(0);
            this._actor = -1;
            this._bet_level = 0;
            this._last_raise = 0;
            this._last_full_level = 0;
            this._raises = 0;
            this._street = 0;
            // A pot carried from a dead hand is in the middle from the start: dead money.
            this._pot = carried;
            this._dead = carried;
            this._dead_in = new Array(n).fill(0);
            this._players_in = n;
            this._last_live = checked.button;
            this._deferred = -1;
            this._paid = false;
            this._returned = new Array(n).fill(0);
            this._won = new Array(n).fill(0);
            this._raked = [0, 0];
            this._paidOut = [];
            this._nominal = this._posted_live = this._posted_dead = this._forced_raises = 0;
            this._out_of_turn = new Map();
            this._declared = NOT_BOUND;
            this._announced = -1;
            this._live = checked.stacks.map((_, seat) => this._playable(seat));
            this._able_count = this._live.filter((live) => live > 0).length;
            this._view = null;
            this._state = this.meta.initial;
            if (begin === null) {
                this._loadDeal({});
                this._begin(null);
            }
            else {
                const streets = this.meta.streets;
                if (!streets.includes(begin.street)) {
                    throw new InvalidTable(`start street must be one of ${streets.join(", ")}, not ${shown(begin.street)}`);
                }
                this._street = streets.indexOf(begin.street);
                this._dead = this._pot = begin.pot + carried;
                this._loadDeal(begin.inputs);
                this._begin(begin.street);
            }
            this._settle();
        }
        /** Post the bring-in (stud): refused in a structure that has none. */
        bringIn(seat) {
            this._requireTurn(seat, "bring_in", null);
            const rule = this.meta.procedureRules["unknown_action"] ?? "";
            throw this._reject("illegal_action", rule, seat, "bring_in", null, "this structure has no bring-in");
        }
        /** A raise to `to` (the same as `raise`). */
        raiseTo(seat, to) {
            this.raise(seat, to);
        }
        /** @internal After an event: the automatic transitions whose guards hold, then the view forgotten. */
        _settle() {
            for (let i = 0; i < this.meta.settleLimit; i++) {
                if (!this._automatic())
                    break;
            }
            this._view = null;
        }
        // ---- questions ----------------------------------------------------------------------------
        /** @internal */
        _currentView() {
            return this._view ?? this._computeView();
        }
        /** The legal actions of the seat to act, sorted; empty when nobody is to act. */
        legalActions() {
            return [...this._currentView()[0]];
        }
        /** Chips the seat to act must add to call (0 when nobody is to act). */
        get callAmount() {
            return this._currentView()[1];
        }
        /** The smallest legal bet or raise "to" amount, or null when neither is legal. */
        get minTo() {
            return this._currentView()[2];
        }
        /** The largest legal bet or raise "to" amount, or null when neither is legal. */
        get maxTo() {
            return this._currentView()[3];
        }
        /** The seat whose decision is pending, or null. */
        get toAct() {
            return this._actor >= 0 ? this._actor : null;
        }
        /** The street a deal would open now, or null (none once the pots are paid). */
        get nextStreet() {
            if (this._paid || this._street + 1 >= this.meta.streets.length)
                return null;
            return this._dealOpen() ? (this.meta.streets[this._street + 1] ?? null) : null;
        }
        /** The street being played, `showdown` once the betting is over, `settled` once won uncontested. */
        get streetName() {
            const phase = this.phase;
            if (phase === "runout" || phase === "showdown")
                return "showdown";
            return phase === "settled" || phase === "dead" ? phase : (this.meta.streets[this._street] ?? "");
        }
        get phase() {
            return this.meta.statePhase[this._state] ?? "";
        }
        get state() {
            return this._state;
        }
        get roundOver() {
            return !vocabulary_js_1.BETTING_PHASES.includes(this.phase);
        }
        get handOver() {
            return vocabulary_js_1.HAND_OVER_PHASES.includes(this.phase);
        }
        get paid() {
            return this._paid;
        }
        get stacks() {
            return [...this._behind];
        }
        get committed() {
            return [...this._put_in];
        }
        get contributed() {
            return [...this._contributed];
        }
        /** What each seat has at stake: its chips put in less the dead money it posted. */
        get stakes() {
            return this._contributed.map((c, seat) => c - (this._dead_in[seat] ?? 0));
        }
        get folded() {
            return [...this._folded];
        }
        get seats() {
            return this._n;
        }
        get button() {
            return this._button;
        }
        get pot() {
            return this._pot;
        }
        get betLevel() {
            return this._bet_level;
        }
        get options() {
            return { ...this._options };
        }
        /** The table this hand was built from, as JSON. */
        get table() {
            return { stacks: [...this._table.stacks], button: this._table.button, ...jsonCopy(this._table.inputs) };
        }
        /** The street and pot this hand started on, or null. */
        get start() {
            if (this._start === null)
                return null;
            const data = { street: this._start.street, pot: this._start.pot };
            if (Object.keys(this._start.inputs).length)
                data.inputs = jsonCopy(this._start.inputs);
            return data;
        }
        /** Every call made on the hand, in order: [seat, action, argument] (a copy). */
        get history() {
            return jsonCopy(this._log);
        }
        /** Chips on the table: behind and in the middle, and what the house took from the pots as
         * they were paid (its rake and jackpot drop), less what its jackpot paid onto the table.
         * Constant for a hand. */
        totalChips() {
            return this._behind.reduce((a, b) => a + b, 0) + this._pot + this._raked[0] + this._raked[1] - this.jackpotPaid;
        }
        /** What the house's jackpot paid onto the table as the spec's payments say (a high-hand bonus). */
        get jackpotPaid() {
            return this._paidOut.reduce((sum, p) => sum + (p.payer === null ? p.amount : 0), 0);
        }
        /** What the house raked from the pots as they were paid (0 before, and without a rake). */
        get rake() {
            return this._raked[0];
        }
        /** What the house dropped from the main pot into its jackpot as the pots were paid. */
        get jackpotDrop() {
            return this._raked[1];
        }
        /** The money the settlement paid outside the pot, as the spec's payments say ([] before). */
        get payments() {
            return this._paidOut.map((p) => ({ ...p }));
        }
        // ---- pots and paying them -----------------------------------------------------------------
        /**
         * Main pot first, then side pots; each with the seats that can win it. The dead money (a big
         * blind ante, a blind posted dead, a start or carried pot) is the main pot's, which every seat
         * still in can win, whoever posted it: a seat all-in for dead money alone plays for it.
         */
        pots() {
            const deadIn = this._dead_in;
            const stakes = deadIn.some((d) => d !== 0) ? this.stakes : this._contributed;
            const dead = this._dead + deadIn.reduce((a, b) => a + b, 0);
            const everyone = [];
            for (let i = 0; i < this._n; i++)
                if (!this._folded[i])
                    everyone.push(i);
            // The dead money first, as a pot of its own; the lowest stake's pot joins it when the same
            // seats can win both (a stake of 0 still wins it).
            const pots = dead ? [{ amount: dead, eligible: [...everyone] }] : [];
            const live = [...new Set(stakes.filter((_, i) => !this._folded[i]))].sort((a, b) => a - b);
            let floor = 0;
            for (const level of live) {
                let amount = 0;
                for (const c of stakes)
                    amount += Math.min(c, level) - Math.min(c, floor);
                const eligible = everyone.filter((i) => (stakes[i] ?? 0) >= level);
                const last = pots[pots.length - 1];
                if (last !== undefined && sameSeats(last.eligible, eligible)) {
                    last.amount += amount;
                }
                else if (amount) {
                    pots.push({ amount, eligible });
                }
                floor = level;
            }
            // Chips folded above every live level belong to the last pot there is.
            let excess = 0;
            for (const c of stakes)
                excess += Math.max(c - floor, 0);
            if (excess) {
                const last = pots[pots.length - 1];
                if (last === undefined)
                    pots.push({ amount: excess, eligible: everyone });
                else
                    last.amount += excess;
            }
            return pots;
        }
        /**
         * Pay the pots once the hand is over: `ranking` best first (seats, or lists of seats that tie),
         * or `runs` (one ranking per run of the board); `oddChipSeat` when the dealer gives the odd chip.
         */
        settle(ranking = null, given = {}) {
            const runs = given.runs ?? null;
            const oddChipSeat = given.oddChipSeat ?? null;
            const rule = this.meta.procedureRules["settle"] ?? "";
            if (!this.handOver)
                throw this._reject("round_not_over", rule, null, "settle", null, "the hand is not over");
            if (this._paid)
                throw this._reject("illegal_action", rule, null, "settle", null, "the pots are paid already");
            if (oddChipSeat !== null && !(isInt(oddChipSeat) && oddChipSeat >= 0 && oddChipSeat < this._n)) {
                throw this._reject("bad_seat", rule, null, "settle", oddChipSeat, "the odd chip's seat is not a seat");
            }
            const showing = given.shown === undefined || given.shown === null ? null : this._shown(given.shown, rule);
            const making = given.made === undefined || given.made === null ? null : this._made(given.made, rule);
            // A dead hand pays nobody: its pot stays for the next deal. A ranking given for it is checked
            // as for a pot won uncontested (and logged), then pays nothing.
            const dead = DEAD_PHASES.includes(this.phase);
            const pots = this.pots();
            const contested = dead ? [] : pots.filter((p) => p.eligible.length > 1);
            let orders;
            if (runs !== null) {
                if (ranking !== null)
                    throw this._reject("illegal_action", rule, null, "settle", null, "give a ranking or runs, not both");
                if (!Array.isArray(runs) || !runs.length || runs.length > 10) {
                    throw this._reject("illegal_action", rule, null, "settle", null, "runs is a list of 1 to 10 rankings");
                }
                orders = runs.map((r) => this._ranked(r, contested));
            }
            else if (contested.length || ranking !== null) {
                orders = [this._ranked(ranking, contested)];
            }
            else {
                orders = [[]];
            }
            // Logged once checked (a ranking refused is never copied); the cards shown only where given
            // (the logs of hands before payments stay as they were).
            const logged = { ranking: plain(ranking), runs: plain(runs), odd_chip_seat: oddChipSeat };
            if (showing !== null)
                logged.shown = [...showing.entries()].sort((a, b) => a[0] - b[0]).map(([seat, cards]) => [seat, [...cards]]);
            if (making !== null)
                logged.made = [...making.entries()].sort((a, b) => a[0] - b[0]);
            if (dead) {
                this._paid = true;
                this._view = null;
                this._log.push([-2, "settle", logged]);
                return { awards: [], won: [...this._won], returned: [...this._returned], rake: 0, jackpot_drop: 0, payments: [] };
            }
            const n = this._n;
            const first = oddChipSeat === null ? this._oddChipAfter() : mod(oddChipSeat - 1, n);
            const won = new Array(n).fill(0);
            const awards = [];
            const [takes, raked] = this._houseTakes(pots, contested.length > 0);
            pots.forEach((pot, index) => {
                const paid = pot.amount - takes[index];
                const portions = orders.map(() => Math.floor(paid / orders.length));
                portions[0] = portions[0] + paid - portions.reduce((a, b) => a + b, 0);
                orders.forEach((order, run) => {
                    const portion = portions[run];
                    let winners;
                    if (pot.eligible.length === 1) {
                        winners = [...pot.eligible];
                    }
                    else {
                        const group = order.find((g) => g.some((s) => pot.eligible.includes(s)));
                        winners = group.filter((s) => pot.eligible.includes(s));
                    }
                    winners.sort((a, b) => mod(a - first - 1, n) - mod(b - first - 1, n));
                    const base = Math.floor(portion / winners.length);
                    const odd = portion - base * winners.length;
                    const shares = winners.map((_, i) => base + (i < odd ? 1 : 0));
                    winners.forEach((seat, i) => {
                        won[seat] = won[seat] + shares[i];
                    });
                    awards.push({ amount: portion, eligible: [...pot.eligible], winners, shares, run });
                });
            });
            won.forEach((amount, seat) => {
                this._behind[seat] = this._behind[seat] + amount;
            });
            this._won = won;
            this._pot -= won.reduce((a, b) => a + b, 0) + raked[0] + raked[1];
            this._raked = raked;
            const payments = this.meta.payments ? this._payOutside(showing ?? new Map(), making ?? new Map(), contested.length > 0) : [];
            this._paidOut = payments.map((p) => ({ ...p }));
            this._paid = true;
            this._view = null;
            this._log.push([-2, "settle", logged]);
            return { awards, won, returned: [...this._returned], rake: raked[0], jackpot_drop: raked[1], payments };
        }
        /** The cards each seat showed, checked (as the Python runtime's Engine._shown). */
        _shown(given, rule) {
            const fail = (code, seat, why) => {
                throw this._reject(code, rule, null, "settle", seat, why);
            };
            if (typeof given !== "object" || given === null || Array.isArray(given) || Object.keys(given).length > this._n) {
                fail("illegal_action", null, "shown maps seats to the cards they show");
            }
            const found = new Map();
            const seen = new Set();
            for (const [key, cards] of Object.entries(given)) {
                const seat = /^(0|[1-9][0-9]*)$/.test(key) ? Number(key) : key;
                if (!isInt(seat) || seat >= this._n)
                    fail("bad_seat", seat, "shown maps seats to the cards they show");
                if (!Array.isArray(cards) || cards.length > 10)
                    fail("illegal_action", seat, `seat ${seat} shows a list of at most ten cards`);
                for (const card of cards) {
                    if (!isCard(card))
                        fail("illegal_action", seat, `seat ${seat} shows ${shown(card)}: not a card`);
                    if (seen.has(card))
                        fail("illegal_action", seat, `seat ${seat} shows ${shown(card)}: a card twice`);
                    seen.add(card);
                }
                found.set(seat, [...cards]);
            }
            return found;
        }
        /** What each seat's hand makes, checked (as the Python runtime's Engine._made). */
        _made(given, rule) {
            const fail = (code, seat, why) => {
                throw this._reject(code, rule, null, "settle", seat, why);
            };
            if (typeof given !== "object" || given === null || Array.isArray(given) || Object.keys(given).length > this._n) {
                fail("illegal_action", null, "made maps seats to the hands they make");
            }
            const found = new Map();
            for (const [key, hand] of Object.entries(given)) {
                const seat = /^(0|[1-9][0-9]*)$/.test(key) ? Number(key) : key;
                if (!isInt(seat) || seat >= this._n)
                    fail("bad_seat", seat, "made maps seats to the hands they make");
                if (typeof hand !== "string" || !vocabulary_js_1.HAND_CATEGORIES.includes(hand)) {
                    fail("illegal_action", seat, `seat ${seat} makes ${shown(hand)}: not a hand (${vocabulary_js_1.HAND_CATEGORIES.join(", ")})`);
                }
                found.set(seat, hand);
            }
            return found;
        }
        /** The spec's payments outside the pot, once the pots are paid (as Engine._pay_outside). */
        _payOutside(shown, made, showdown) {
            const winner = this._settled_winner();
            if (winner === null)
                return [];
            const paidOut = [];
            const amounts = this._paymentAmounts();
            (this.meta.payments ?? []).forEach((payment, index) => {
                const amount = amounts[index];
                if (amount <= 0 || (payment.showdown && !showdown))
                    return;
                if (!shows(shown.get(winner) ?? [], payment.ranks, payment.suited))
                    return;
                if (payment.makes !== undefined && !payment.makes.includes(made.get(winner) ?? ""))
                    return;
                if (payment.from === "jackpot") {
                    this._behind[winner] = this._behind[winner] + amount;
                    paidOut.push({ name: payment.name, payer: null, payee: winner, amount });
                    return;
                }
                for (let seat = 0; seat < this._n; seat++) {
                    const paid = seat !== winner ? Math.min(amount, this._behind[seat]) : 0;
                    if (paid > 0) {
                        this._behind[seat] = this._behind[seat] - paid;
                        this._behind[winner] = this._behind[winner] + paid;
                        paidOut.push({ name: payment.name, payer: seat, payee: winner, amount: paid });
                    }
                }
            });
            return paidOut;
        }
        /** What each of the spec's payments outside the pot is, read about the hand (generated where
         * the spec declares payments). */
        _paymentAmounts() {
            return [];
        }
        /** What the house takes from each pot before it is paid, as the spec's rake says, and its rake
         * and jackpot drop in all (as the Python runtime's Engine._house_takes: the same rules, in
         * whole chips; a pot's percentage computed in parts so that no product passes 2^53). */
        _houseTakes(pots, showdown) {
            const takes = pots.map(() => 0);
            const rake = this.meta.rake;
            if (rake === undefined || pots.length === 0)
                return [takes, [0, 0]];
            const street = rake.from_street;
            if (street && !showdown && this._street < this.meta.streets.indexOf(street))
                return [takes, [0, 0]];
            const [unit, cap, minimum, drop, dropMinimum] = this._rakeTerms();
            const total = pots.reduce((sum, pot) => sum + pot.amount, 0);
            if (total < minimum)
                return [takes, [0, 0]];
            const perPot = rake.cap_per === "pot";
            let taken = 0;
            pots.forEach((pot, index) => {
                const whole = Math.floor(pot.amount / 10000);
                const rest = (pot.amount - whole * 10000) * rake.basis_points;
                let share = whole * rake.basis_points + Math.floor(rest / 10000);
                const part = rest % 10000;
                if (rake.rounding === "half_even" && (2 * part > 10000 || (2 * part === 10000 && share % 2 === 1)))
                    share += 1;
                if (unit > 1)
                    share -= share % unit;
                if (cap !== null)
                    share = Math.min(share, perPot ? cap : cap - taken);
                share = Math.max(0, Math.min(share, pot.amount));
                takes[index] = share;
                taken += share;
            });
            let dropped = 0;
            if (drop > 0 && total >= dropMinimum) {
                dropped = Math.min(drop, pots[0].amount - takes[0]);
                takes[0] = takes[0] + dropped;
            }
            return [takes, [taken, dropped]];
        }
        /** The rake's chip unit, cap (null: none), minimum pot, jackpot drop and the drop's minimum
         * pot, read about the hand (generated where the spec posts a rake). */
        _rakeTerms() {
            return [1, null, 0, 0, 0];
        }
        /** @internal A ranking checked: groups of seats best first, every contested seat in it once. */
        _ranked(ranking, contested) {
            const rule = this.meta.procedureRules["settle"] ?? "";
            if (!Array.isArray(ranking)) {
                throw this._reject("illegal_action", rule, null, "settle", null, "the showdown needs a ranking (seats best first)");
            }
            if (ranking.length > this._n) {
                throw this._reject("illegal_action", rule, null, "settle", null, `a ranking lists each of the ${this._n} seats once at most`);
            }
            const order = [];
            const seen = new Set();
            for (const entry of ranking) {
                const group = [];
                for (const seat of Array.isArray(entry) ? entry : [entry]) {
                    if (!(isInt(seat) && seat >= 0 && seat < this._n)) {
                        throw this._reject("bad_seat", rule, null, "settle", seat, "a ranking lists seat numbers");
                    }
                    if (seen.has(seat) || this._folded[seat]) {
                        const why = seen.has(seat) ? "ranked twice" : "folded";
                        throw this._reject("illegal_action", rule, null, "settle", seat, `seat ${seat} is ${why}`);
                    }
                    seen.add(seat);
                    group.push(seat);
                }
                if (group.length)
                    order.push(group);
            }
            const missing = [...new Set(contested.flatMap((p) => p.eligible))].filter((s) => !seen.has(s)).sort((a, b) => a - b);
            if (missing.length) {
                throw this._reject("illegal_action", rule, null, "settle", null, `seat ${missing[0]} shows down and is not ranked`);
            }
            return order;
        }
        /** @internal The next seat clockwise after `seat` that has chips (`seat` itself if none has). */
        _next_live(seat) {
            for (let step = 1; step <= this._n; step++) {
                const other = mod(seat + step, this._n);
                if (this._behind[other] > 0)
                    return other;
            }
            return seat;
        }
        /** @internal The previous seat before `seat` that has chips. */
        _prev_live(seat) {
            for (let step = 1; step <= this._n; step++) {
                const other = mod(seat - step, this._n);
                if (this._behind[other] > 0)
                    return other;
            }
            return seat;
        }
        /** @internal */
        _seats_left() {
            return this._behind.filter((stack) => stack > 0).length;
        }
        /** The table of the next hand, once this one is paid (the spec's `next_hand`). */
        nextTable() {
            if (!this._paid)
                throw new InvalidTable("settle the hand before the next: its pots are not paid");
            const live = [];
            for (let seat = 0; seat < this._n; seat++)
                if (this._behind[seat] > 0)
                    live.push(seat);
            if (live.length < 2)
                throw new InvalidTable("the session is over: fewer than two seats have chips");
            const [button, given] = this._nextHand();
            const inputs = {};
            for (const [name, found] of [...Object.entries(this._table.inputs), ...Object.entries(given)]) {
                const declared = this.meta.inputs[name];
                if (declared === undefined || (declared.hand && !(name in given)))
                    continue;
                let value = declared.perSeat && Array.isArray(found) ? live.map((seat) => found[seat]) : jsonCopy(found);
                if ((declared.type === "seat" || declared.type === "seat?") && isInt(value)) {
                    // A seat of this hand, numbered as the next table numbers it (null: it is gone).
                    const number = live.indexOf(value);
                    value = number < 0 ? null : number;
                    if (value === null && declared.type === "seat") {
                        delete inputs[name];
                        continue;
                    }
                }
                inputs[name] = value;
            }
            if (this._pot)
                inputs[exports.CARRIED_POT] = this._pot; // a dead hand's pot, the next deal's dead money
            const index = live.indexOf(button);
            return { stacks: live.map((seat) => this._behind[seat]), button: index < 0 ? 0 : index, ...inputs };
        }
        // ---- what next_hand reads of the settlement -------------------------------------------------
        /** @internal The one seat the settlement paid, or null (nobody, or pots split). */
        _settled_winner() {
            const paid = [];
            this._won.forEach((amount, seat) => {
                if (amount > 0)
                    paid.push(seat);
            });
            return paid.length === 1 ? paid[0] : null;
        }
        /** @internal What the winner was paid less what he put in (0 without a winner). */
        _settled_winner_profit() {
            const winner = this._settled_winner();
            return winner === null ? 0 : this._won[winner] - this._contributed[winner];
        }
        /** @internal */
        _settled_pot_paid() {
            return this._won.reduce((a, b) => a + b, 0);
        }
        /** @internal The chips a dead hand leaves in the middle (the next table's carried pot). */
        _settled_pot_carried() {
            return this._paid ? this._pot : 0;
        }
        /** The spec's own variables as they are now (a seat's as a list by seat); session ones are table inputs. */
        get variables() {
            const fields = this;
            const out = {};
            for (const [name, scope] of Object.entries(this.meta.declaredVariables)) {
                const value = fields[`_v_${name}`];
                out[name] = scope === "seat" && Array.isArray(value) ? [...value] : value;
            }
            return out;
        }
        // ---- variables the specs read ------------------------------------------------------------
        /** @internal */
        _pending() {
            if (this._actor < 0)
                return 0;
            let count = 0;
            for (let seat = 0; seat < this._n; seat++) {
                if (!this._folded[seat] && this._live[seat] > 0 && (!this._acted[seat] || this._put_in[seat] < this._bet_level))
                    count++;
            }
            return count;
        }
        /** @internal */
        _others_able() {
            const mine = this._actor >= 0 && this._live[this._actor] > 0 ? 1 : 0;
            return this._able_count - mine;
        }
        /** @internal */
        _able_owing() {
            const level = this._bet_level;
            let count = 0;
            for (let seat = 0; seat < this._n; seat++) {
                if (this._put_in[seat] < level && this._live[seat] > 0 && !this._folded[seat])
                    count++;
            }
            return count;
        }
        /** @internal */
        _answerable() {
            const level = this._bet_level;
            for (let seat = 0; seat < this._n; seat++) {
                if (this._put_in[seat] + this._live[seat] > level && !this._folded[seat] && seat !== this._actor)
                    return true;
            }
            return false;
        }
        /** @internal Whether `seat` declared out of turn on this street. */
        _oot_declared(seat) {
            return this._out_of_turn.has(seat);
        }
        /** @internal The amount `seat` declared out of turn (0 if none). */
        _oot_to(seat) {
            return this._out_of_turn.get(seat)?.[0] ?? 0;
        }
        /** @internal The bet level when `seat` declared out of turn (0 if none). */
        _oot_level(seat) {
            return this._out_of_turn.get(seat)?.[1] ?? 0;
        }
        // ---- primitives the specs' effects call --------------------------------------------------
        /** @internal */
        _put(seat, amount) {
            this._behind[seat] = this._behind[seat] - amount;
            this._contributed[seat] = this._contributed[seat] + amount;
            this._pot += amount;
            const before = this._live[seat];
            const after = this._playable(seat);
            this._live[seat] = after;
            if (before > 0 !== after > 0 && !this._folded[seat])
                this._able_count += after > 0 ? 1 : -1;
        }
        /** @internal `seat` posts the forced bet `what` (see Engine._post of the Python runtime). */
        _post(seat, amount, what, live, deadMoney, order, inFull) {
            if (amount < 0)
                throw new InvalidTable(`the ${what} comes to ${amount} chips: a forced bet is not negative`);
            if (!(seat >= 0 && seat < this._n))
                throw new InvalidTable(`the ${what} falls on seat ${seat}, which is not at this table`);
            const behind = this._behind[seat];
            if (inFull && behind < amount)
                throw new InvalidTable(`seat ${seat} cannot post the ${what} of ${amount} in full: it has ${behind}`);
            const option = order !== "in_turn" && amount >= this._nominal && amount > 0;
            if (option) {
                if (order === "starts_after")
                    this._last_live = seat;
                else
                    this._deferred = seat;
            }
            const paid = amount <= behind ? amount : behind;
            if (paid > 0)
                this._put(seat, paid);
            if (!live) {
                this._posted_dead += paid;
                if (deadMoney)
                    this._dead_in[seat] = this._dead_in[seat] + paid;
                return;
            }
            this._posted_live += paid;
            const put = this._put_in[seat] + paid;
            this._put_in[seat] = put;
            if (put > this._bet_level)
                this._bet_level = put;
            if (amount > this._nominal) {
                this._nominal = amount;
                if (option)
                    this._forced_raises += 1;
            }
        }
        /** @internal */
        _begin_street(street) {
            this._street = street;
            const n = this._n;
            this._put_in = new Array(n).fill(0);
            this._acted = new Array(n).fill(false);
            this._acted_at = new Array(n).fill(0);
            this._bet_level = 0;
            this._out_of_turn = new Map();
            this._announced = -1;
            this._actor = -1;
            this._deferred = -1;
        }
        /** @internal Every seat, clockwise from the button's left (the button last). */
        _from_button() {
            const seats = [];
            for (let i = 1; i <= this._n; i++)
                seats.push(mod(this._button + i, this._n));
            return seats;
        }
        /** @internal */
        _open_betting(after) {
            this._actor = this._next_needing_action(after);
        }
        /** @internal */
        _commit(to) {
            const seat = this._actor;
            const amount = to - this._put_in[seat];
            this._put(seat, amount);
            this._put_in[seat] = to;
            if (to > this._bet_level)
                this._bet_level = to;
            // Nothing put in and still short of the bet: no action on it (Engine._commit).
            if (amount !== 0 || to >= this._bet_level)
                this._mark_acted(seat);
        }
        /** @internal */
        _mark_checked() {
            this._mark_acted(this._actor);
        }
        /** @internal */
        _mark_folded() {
            const seat = this._actor;
            if (this._live[seat] > 0)
                this._able_count -= 1;
            this._folded[seat] = true;
            this._players_in -= 1;
            this._mark_acted(seat);
        }
        /** @internal */
        _mark_acted(seat) {
            if (seat === this._deferred)
                this._deferred = -1;
            this._out_of_turn.delete(seat);
            this._declared = NOT_BOUND;
            this._acted[seat] = true;
            this._acted_at[seat] = this._bet_level;
        }
        /** @internal */
        _pass_action() {
            this._actor = this._next_needing_action(this._actor);
        }
        /** @internal End the betting round: a bet nobody matched goes back to its owner. */
        _close_round() {
            this._actor = -1;
            let top = 0;
            for (let i = 1; i < this._n; i++)
                if (this._put_in[i] > this._put_in[top])
                    top = i;
            let second = 0;
            for (let i = 0; i < this._n; i++)
                if (i !== top)
                    second = Math.max(second, this._put_in[i]);
            const uncalled = this._put_in[top] - second;
            if (uncalled > 0) {
                this._put(top, -uncalled);
                this._put_in[top] = second;
                this._returned[top] = this._returned[top] + uncalled;
            }
        }
        /** @internal */
        _deal_runout(street) {
            this._street = street;
        }
        /** @internal */
        _next_needing_action(after) {
            const n = this._n;
            const level = this._bet_level;
            const deferred = this._deferred;
            for (let step = 1; step <= n; step++) {
                const seat = mod(after + step, n);
                if (this._live[seat] > 0 && !this._folded[seat] && (!this._acted[seat] || this._put_in[seat] < level) && seat !== deferred) {
                    return seat;
                }
            }
            if (deferred < 0 || this._live[deferred] <= 0 || this._folded[deferred])
                return -1;
            return !this._acted[deferred] || this._put_in[deferred] < level ? deferred : -1;
        }
        // ---- rejections ----------------------------------------------------------------------------
        /** @internal The error for an illegal action: its code, what was tried, why, and the rule cited. */
        _reject(code, rule, seat, action, amount, why = "") {
            const [text, source] = this.meta.rules[rule] ?? ["", ""];
            let tried;
            if (seat === null && action === "deal")
                tried = `deal ${shown(amount)}`;
            else if (seat === null)
                tried = action + (amount === null || amount === undefined ? "" : ` ${shown(amount)}`);
            else
                tried = `seat ${shown(seat)} ${action}` + (amount === null || amount === undefined ? "" : ` ${shown(amount)}`);
            let reason = why ? `: ${why}` : "";
            const bounds = BOUNDS[code];
            if (bounds !== undefined && seat === this._actor && this._actor >= 0) {
                const cached = this._view;
                const bound = (cached ?? this._computeView())[bounds[0]];
                this._view = cached;
                reason += bound === null || bound === undefined ? "" : ` (${bounds[1]} ${bound})`;
            }
            return new IllegalAction(code, `${tried}: ${code}${reason}. Rule ${rule}: ${text} [${source}]`, rule, source);
        }
        /** @internal */
        _requireTurn(seat, action, amount) {
            if (!isInt(seat)) {
                const why = `a seat is a whole number 0..${this._n - 1}, not ${typeName(seat)}`;
                throw this._reject("bad_seat", this.meta.procedureRules["out_of_turn"] ?? "", seat, action, amount, why);
            }
            if (this._actor < 0) {
                throw this._reject("no_action_pending", this.meta.procedureRules["no_action_pending"] ?? "", seat, action, amount, "nobody is to act");
            }
            if (seat !== this._actor) {
                throw this._reject("out_of_turn", this.meta.procedureRules["out_of_turn"] ?? "", seat, action, amount, `seat ${this._actor} is to act`);
            }
        }
        /** @internal */
        _requireAmount(seat, action, amount) {
            // An integer past MAX_CHIPS first (which no table holds), as Python tells it, whether or not
            // a number holds it exactly.
            if (typeof amount === "number" && Number.isInteger(amount) && amount > exports.MAX_CHIPS) {
                const why = `an amount is at most ${exports.MAX_CHIPS} chips, the most a table holds`;
                throw this._reject("bad_amount", this.meta.procedureRules["bad_amount"] ?? "", seat, action, amount, why);
            }
            if (!isInt(amount) || amount < 0) {
                const why = "an amount is a non-negative whole number of chips";
                throw this._reject("bad_amount", this.meta.procedureRules["bad_amount"] ?? "", seat, action, amount, why);
            }
        }
        /** @internal */
        _noAmount(seat, action, amount) {
            if (amount !== null && amount !== undefined) {
                throw this._reject("bad_amount", this.meta.procedureRules["bad_amount"] ?? "", seat, action, amount, `${action} takes no amount`);
            }
        }
        // ---- table procedures: chips pushed, words said, declarations out of turn -------------------
        /** @internal */
        _said(seat, say) {
            if (say === null || say === undefined)
                return new Said();
            if (typeof say === "string" && vocabulary_js_1.DECLARATIONS.includes(say)) {
                return new Said(say === "fold", say === "check", say === "call", say === "bet", say === "raise");
            }
            if (isMapping(say)) {
                const keys = Object.keys(say).sort();
                if (keys.length === 2 && keys[0] === "act" && keys[1] === "to" && typeof say.act === "string" && vocabulary_js_1.WAGERS.includes(say.act)) {
                    const to = say.to;
                    if (!(typeof to === "number" && Number.isInteger(to) && to >= 0 && to <= exports.MAX_CHIPS)) {
                        const why = `a declared amount is a whole number of chips, at most ${exports.MAX_CHIPS}`;
                        throw this._reject("bad_amount", this.meta.procedureRules["bad_amount"] ?? "", seat, "say", to, why);
                    }
                    return new Said(false, false, false, say.act === "bet", say.act === "raise", to);
                }
            }
            const why = 'a declaration is "fold", "check", "call", "bet", "raise" or {"act": "bet" | "raise", "to": N}';
            throw this._reject("illegal_action", this.meta.procedureRules["unknown_action"] ?? "", seat, "say", say, why);
        }
        /** @internal */
        _wagerRefusal(seat) {
            return this._refusal(this._bet_level === 0 ? "bet" : "raise", seat, null);
        }
        /** @internal */
        _rule(seat, pushed, count, largest, said) {
            if (said.wager && said.to === null) {
                const refusal = this._wagerRefusal(seat);
                if (refusal !== null)
                    throw refusal;
            }
            if (this._declared === BOUND_TO_WAGER && !said.wager) {
                said = new Said(said.fold, said.check, said.call, true, false, said.to);
            }
            const [ruling, to, rule] = this._pushRuling(pushed, count, largest, said);
            const [text, source] = this.meta.rules[rule] ?? ["", ""];
            const before = this._behind[seat];
            if (ruling === "withdraw") {
                this._declared = BOUND_TO_CALL;
                this._view = null;
                return { action: "withdraw", to: null, rule, source, text, returned: pushed, completed: 0 };
            }
            let action;
            if (ruling === "wager") {
                action = this._bet_level === 0 ? "bet" : "raise";
                this.act(seat, action, to);
                if (said.to !== null)
                    this._announced = this._bet_level;
            }
            else {
                action = ruling;
                this.act(seat, ruling);
            }
            const taken = before - this._behind[seat];
            const final = ["bet", "raise", "call"].includes(action) ? this._put_in[seat] : null;
            return { action, to: final, rule, source, text, returned: Math.max(pushed - taken, 0), completed: Math.max(taken - pushed, 0) };
        }
        /** @internal */
        _logged(mark, entry) {
            this._log.splice(mark);
            this._log.push(entry);
        }
        /** Chips pushed forward in one motion (1 to 100 chip values), with what was said: ruled, then taken. */
        push(seat, pushedChips, say = null) {
            if (!isInt(seat) || seat !== this._actor || this._actor < 0)
                this._requireTurn(seat, "push", null);
            const rule = this.meta.procedureRules["bad_amount"] ?? "";
            if (!Array.isArray(pushedChips) || !(pushedChips.length > 0 && pushedChips.length <= 100)) {
                throw this._reject("bad_amount", rule, seat, "push", pushedChips, "chips are a list of 1 to 100 chip values");
            }
            const list = [...pushedChips];
            if (list.some((chip) => !(typeof chip === "number" && Number.isInteger(chip) && chip > 0 && chip <= exports.MAX_CHIPS))) {
                throw this._reject("bad_amount", rule, seat, "push", list, `a chip is worth a whole number from 1 to ${exports.MAX_CHIPS}`);
            }
            const values = list;
            const pushed = values.reduce((a, b) => a + b, 0);
            if (pushed > this._behind[seat]) {
                throw this._reject("bad_amount", rule, seat, "push", pushed, `the seat has ${this._behind[seat]} chips behind`);
            }
            const said = this._said(seat, this._plainSay(seat, say));
            const mark = this._log.length;
            const ruling = this._rule(seat, pushed, values.length, Math.max(...values), said);
            this._logged(mark, [seat, "push", { chips: [...values], say: saying(said) }]);
            return ruling;
        }
        /** A binding verbal declaration in turn (no chips yet). */
        declare(seat, say) {
            if (!isInt(seat) || seat !== this._actor || this._actor < 0)
                this._requireTurn(seat, "say", null);
            const said = this._said(seat, this._plainSay(seat, say));
            if (said.wager && said.to === null) {
                const refusal = this._wagerRefusal(seat);
                if (refusal !== null)
                    throw refusal;
                this._declared = BOUND_TO_WAGER;
                this._view = null;
                this._log.push([seat, "declare", saying(said)]);
                const [text, source] = this.meta.rules["VERBAL"] ?? ["", ""];
                return { action: "declared", to: null, rule: "VERBAL", source, text, returned: 0, completed: 0 };
            }
            const mark = this._log.length;
            const ruling = this._rule(seat, 0, 0, 0, said);
            this._logged(mark, [seat, "declare", saying(said)]);
            return ruling;
        }
        /** @internal */
        _plainSay(seat, say) {
            if (!isMapping(say))
                return say;
            if (typeof say.act !== "string") {
                const why = 'a declaration is "fold", "check", "call", "bet", "raise" or {"act": "bet" | "raise", "to": N}';
                throw this._reject("illegal_action", this.meta.procedureRules["unknown_action"] ?? "", seat, "say", say, why);
            }
            const to = say.to;
            // Any integer, held exactly or not: Python's int past the table's chips is refused so.
            if (typeof to === "number" && Number.isInteger(to) && to > this.totalChips()) {
                const why = `more chips than the table holds (${this.totalChips()})`;
                throw this._reject("bad_amount", this.meta.procedureRules["bad_amount"] ?? "", seat, "say", to, why);
            }
            return say;
        }
        /** A declaration by a seat not yet to act (check, call, bet or raise); it restricts what it may do in turn. */
        declareOutOfTurn(seat, act, to = null) {
            const name = typeof act === "string" && vocabulary_js_1.OUT_OF_TURN_DECLARATIONS.includes(act) ? act : "out of turn";
            if (!isInt(seat))
                this._requireTurn(seat, name, to);
            if (this._actor < 0) {
                throw this._reject("no_action_pending", this.meta.procedureRules["no_action_pending"] ?? "", seat, name, to);
            }
            const rule = this.meta.procedureRules["out_of_turn"] ?? "";
            if (!(seat >= 0 && seat < this._n) || this._folded[seat] || this._live[seat] === 0) {
                throw this._reject("illegal_action", rule, seat, name, to, "not a seat still to act in this hand");
            }
            if (seat === this._actor)
                throw this._reject("illegal_action", rule, seat, name, to, "this seat is to act: it declares in turn");
            if (name !== act)
                throw this._reject("illegal_action", rule, seat, "out of turn", act, "declares check, call, bet or raise");
            if (vocabulary_js_1.WAGERS.includes(act)) {
                this._requireAmount(seat, act, to);
                if (to > this.totalChips()) {
                    const why = `more chips than the table holds (${this.totalChips()})`;
                    throw this._reject("bad_amount", this.meta.procedureRules["bad_amount"] ?? "", seat, act, to, why);
                }
            }
            else {
                this._noAmount(seat, act, to);
            }
            const amount = to ?? (act === "call" ? this._bet_level : 0);
            this._out_of_turn.set(seat, [amount, this._bet_level]);
            this._log.push([seat, "out_of_turn", { act, to: to ?? null }]);
            this._view = null;
        }
        /** Commit every chip the seat can: a call, a bet or a raise by what it amounts to. */
        allIn(seat) {
            if (seat !== this._actor || this._actor < 0 || !isInt(seat))
                this._requireTurn(seat, "all_in", null);
            const to = this._allInTo();
            const mark = this._log.length;
            if (to <= this._bet_level)
                this.call(seat);
            else if (this._bet_level === 0)
                this.bet(seat, to);
            else
                this.raise(seat, to);
            this._logged(mark, [seat, "all_in", null]);
        }
        /** Dispatch by name: fold, check, call, bet, raise, all_in, timeout or bring_in. */
        act(seat, action, to = null) {
            if (typeof action === "string" && (action === "bet" || action === "raise")) {
                if (to === null || to === undefined) {
                    throw this._reject("bad_amount", this.meta.procedureRules["bad_amount"] ?? "", seat, action, null, "a bet or raise needs a 'to' amount");
                }
                if (action === "bet")
                    this.bet(seat, to);
                else
                    this.raise(seat, to);
                return;
            }
            if (typeof action === "string" && this.meta.ownActions.includes(action)) {
                // An action of the spec's own: the method of its name in camelCase.
                if (to !== null && to !== undefined)
                    this._noAmount(seat, action, to);
                const method = action.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
                this[method]?.call(this, seat);
                return;
            }
            if (typeof action !== "string" || !vocabulary_js_1.ACT_NAMES.includes(action) || vocabulary_js_1.WAGERS.includes(action)) {
                throw this._reject("illegal_action", this.meta.procedureRules["unknown_action"] ?? "", seat, shown(action), to, "unknown action");
            }
            if (to !== null && to !== undefined)
                this._noAmount(seat, action, to);
            switch (action) {
                case "fold":
                    return this.fold(seat);
                case "check":
                    return this.check(seat);
                case "call":
                    return this.call(seat);
                case "all_in":
                    return this.allIn(seat);
                case "timeout":
                    return this.timeout(seat);
                case "bring_in":
                    return this.bringIn(seat);
            }
            throw this._reject("illegal_action", this.meta.procedureRules["unknown_action"] ?? "", seat, shown(action), to, "unknown action");
        }
        /** @internal The log entry of a deal. */
        _logDeal(street, given) {
            this._log.push([-1, street, Object.keys(given).length ? jsonCopy(given) : null]);
        }
        // ---- snapshots --------------------------------------------------------------------------------
        /** The state a log leads to, as a snapshot stores it. */
        observed() {
            const outOfTurn = [...this._out_of_turn.entries()].map(([seat, [to, level]]) => [seat, to, level]);
            outOfTurn.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
            return {
                state: this._state,
                out_of_turn: outOfTurn,
                declared: this._declared,
                announced: this._announced,
                to_act: this.toAct,
                stacks: this.stacks,
                committed: this.committed,
                pot: this.pot,
                pots: this.pots().map((p) => ({ amount: p.amount, eligible: [...p.eligible] })),
                // The spec's own variables, where it declares any (as the Python engine's snapshots).
                ...(Object.keys(this.meta.declaredVariables).length ? { variables: this.variables } : {}),
                // What the house took as the pots were paid, where the spec posts a rake.
                ...(this.meta.rake !== undefined ? { house_take: [...this._raked] } : {}),
                // What the house's jackpot paid onto the table, where a payment comes from it.
                ...((this.meta.payments ?? []).some((p) => p.from === "jackpot") ? { jackpot_paid: this.jackpotPaid } : {}),
            };
        }
        /** This hand as JSON data, the Python engine's snapshot format: `restore` reads it back. */
        snapshot() {
            return {
                format: exports.SNAPSHOT_FORMAT,
                version: exports.SNAPSHOT_VERSION,
                spec: this.meta.name,
                spec_hash: this.meta.hash,
                options: this.options,
                table: this.table,
                start: this.start,
                log: this.history,
                observed: this.observed(),
            };
        }
    }
    exports.Engine = Engine;
    function sameSeats(a, b) {
        return a.length === b.length && a.every((seat, i) => seat === b[i]);
    }
    /** Deep equality of JSON values. */
    function jsonEqual(a, b) {
        if (a === b)
            return true;
        if (Array.isArray(a))
            return Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
        if (isMapping(a) && isMapping(b)) {
            const keys = Object.keys(a);
            return keys.length === Object.keys(b).length && keys.every((k) => k in b && jsonEqual(a[k], b[k]));
        }
        return false;
    }
    /** A settlement's cards shown or hands made, as logged: [seat, value] pairs (JSON has no int
     * keys), read back as an object by seat (null where not logged); settle checks the values. */
    function bySeat(pairs, name, where) {
        if (pairs === undefined || pairs === null)
            return null;
        const require = (ok, message) => {
            if (!ok)
                throw new SnapshotError(message);
        };
        require(Array.isArray(pairs) && pairs.every((p) => Array.isArray(p) && p.length === 2), `${where}: ${name} is not [seat, value] pairs`);
        const seats = pairs.map((p) => p[0]);
        require(seats.every(isInt), `${where}: ${name} names a seat that is not a number`);
        require(new Set(seats).size === seats.length, `${where}: a seat in ${name} twice`);
        return Object.fromEntries(pairs.map((p) => [String(p[0]), p[1]]));
    }
    function replay(engine, number, step) {
        const where = `log step ${number}`;
        const require = (ok, message) => {
            if (!ok)
                throw new SnapshotError(message);
        };
        if (!Array.isArray(step) || step.length !== 3)
            throw new SnapshotError(`${where} is not [seat, action, argument]`);
        const [seat, action, argument] = step;
        require(typeof action === "string", `${where}: the action is not a name: ${shown(action)}`);
        const name = action;
        if (seat === -1) {
            require(argument === null || isMapping(argument), `${where} is not a deal`);
            const given = (argument ?? {});
            for (const key of Object.keys(given))
                require(key in engine.meta.dealInputs, `${where}: a deal gives no ${shown(key)}`);
            engine.deal(name, given);
            return;
        }
        if (seat === -2 && name === "settle") {
            const keys = isMapping(argument) ? Object.keys(argument) : [];
            const ok = ["odd_chip_seat", "ranking", "runs"].every((k) => keys.includes(k)) && keys.every((k) => ["odd_chip_seat", "ranking", "runs", "shown", "made"].includes(k));
            require(isMapping(argument) && ok, `${where}: not a settlement`);
            const given = argument;
            engine.settle(given.ranking ?? null, {
                runs: given.runs ?? null,
                oddChipSeat: given.odd_chip_seat ?? null,
                shown: bySeat(given.shown, "shown", where),
                made: bySeat(given.made, "made", where),
            });
            return;
        }
        require(isInt(seat) && seat >= 0 && seat < engine.seats, `${where}: seat ${shown(seat)} out of range`);
        const s = seat;
        if ((vocabulary_js_1.ACT_NAMES.includes(name) && !vocabulary_js_1.WAGERS.includes(name)) || engine.meta.ownActions.includes(name)) {
            require(argument === null, `${where}: ${name} takes no amount`);
            engine.act(s, name);
        }
        else if (vocabulary_js_1.WAGERS.includes(name)) {
            require(isInt(argument), `${where}: ${name} needs an amount`);
            engine.act(s, name, argument);
        }
        else if (name === "push") {
            require(isMapping(argument) && jsonEqual(Object.keys(argument).sort(), ["chips", "say"]), `${where}: not a push`);
            const given = argument;
            engine.push(s, given.chips, given.say);
        }
        else if (name === "declare") {
            engine.declare(s, argument);
        }
        else if (name === "out_of_turn") {
            require(isMapping(argument) && jsonEqual(Object.keys(argument).sort(), ["act", "to"]), `${where}: not a declaration`);
            const given = argument;
            engine.declareOutOfTurn(s, given.act, given.to);
        }
        else {
            throw new SnapshotError(`${where}: unknown action ${shown(name)}`);
        }
    }
    exports.MAX_VALUES = 400_000;
    exports.MAX_TEXT = 1_000_000;
    exports.MAX_DEPTH = 12;
    /** Refuse a snapshot beyond the Python engine's bounds (values, text, nesting), before reading it. */
    function bounded(data) {
        let values = 1;
        let text = 0;
        const pending = [[data, 0]];
        while (pending.length) {
            const [value, depth] = pending.pop();
            if (typeof value === "string") {
                text += value.length;
                if (text > exports.MAX_TEXT)
                    throw new SnapshotError(`the snapshot holds more than ${exports.MAX_TEXT} characters of text`);
            }
            else if (typeof value === "number") {
                if (Number.isInteger(value) && !Number.isSafeInteger(value))
                    throw new SnapshotError(`${shown(value)} is out of range`);
            }
            else if (Array.isArray(value) || isMapping(value)) {
                if (depth >= exports.MAX_DEPTH)
                    throw new SnapshotError(`nested more than ${exports.MAX_DEPTH} deep`);
                const items = Array.isArray(value) ? value : Object.entries(value).map(([key, item]) => {
                    text += key.length;
                    return item;
                });
                values += items.length;
                if (values > exports.MAX_VALUES)
                    throw new SnapshotError(`the snapshot holds more than ${exports.MAX_VALUES} values`);
                for (const item of items)
                    pending.push([item, depth + 1]);
            }
            else if (value !== null && typeof value !== "boolean") {
                throw new SnapshotError(`not a JSON value: ${shown(value)}`);
            }
        }
    }
    /**
     * An independent copy of a hand as it stands, what a search or a solver branches on: each of its
     * arrays (and arrays of arrays), maps and sets copied, its immutable values (the table, the
     * options, the start, a log's steps, numbers and words) shared, so that acting on either hand
     * leaves the other as it was. The Python engine's `copy.copy(hand)`, and as cheap: a snapshot
     * restored replays the hand. A function rather than a method: a method's name is one a spec's
     * own action could no longer take.
     */
    function copyHand(engine) {
        if (!(engine instanceof Engine))
            throw new TypeError(`copyHand copies an engine's hand, not ${typeName(engine)}`);
        const twin = Object.create(Object.getPrototypeOf(engine));
        for (const [name, value] of Object.entries(engine)) {
            let copied = value;
            if (Array.isArray(value)) {
                copied = value.map((item) => (Array.isArray(item) ? [...item] : item));
            }
            else if (value instanceof Map) {
                copied = new Map(Array.from(value, ([key, item]) => [key, Array.isArray(item) ? [...item] : item]));
            }
            else if (value instanceof Set) {
                copied = new Set(value);
            }
            Object.defineProperty(twin, name, { value: copied, writable: true, enumerable: true, configurable: true });
        }
        twin._view = null;
        return twin;
    }
    /** The hand a snapshot was taken from (by this engine or the Python one); raises SnapshotError. */
    function restore(data, cls, meta) {
        const require = (ok, message) => {
            if (!ok)
                throw new SnapshotError(message);
        };
        require(isMapping(data), "a snapshot is a JSON object");
        const snap = data;
        require(snap.format === exports.SNAPSHOT_FORMAT, `not a betspec snapshot (format ${shown(snap.format)})`);
        require(snap.version === exports.SNAPSHOT_VERSION, `snapshot version ${shown(snap.version)} is not supported (this betspec reads ${exports.SNAPSHOT_VERSION})`);
        const log = snap.log;
        if (!Array.isArray(log))
            throw new SnapshotError("the log is not a list of steps");
        require(log.length <= exports.MAX_LOG, `the log has ${log.length} steps: a snapshot holds at most ${exports.MAX_LOG}`);
        bounded(snap);
        const spec = snap.spec;
        require(typeof spec === "string" && /^[a-z][a-z0-9_]{0,63}$/.test(spec), `bad spec name ${shown(spec)}`);
        require(spec === meta.name, `the snapshot is of ${shown(spec)}, not ${shown(meta.name)}`);
        require(snap.spec_hash === meta.hash, `the snapshot was taken under another version of spec ${shown(spec)} (hash ${shown(snap.spec_hash).slice(0, 14)}..., this engine ${meta.hash.slice(0, 12)}...): its rules may differ`);
        const options = snap.options;
        require(isMapping(options) && jsonEqual(Object.keys(options).sort(), Object.keys(meta.optionDefaults).sort()), "options do not match the spec's");
        let engine;
        try {
            const start = snap.start === null || snap.start === undefined ? null : snap.start;
            engine = new cls(snap.table, options, start);
        }
        catch (error) {
            if (error instanceof BetspecError)
                throw new SnapshotError(`the table cannot be rebuilt: ${error.message}`);
            throw error;
        }
        log.forEach((step, number) => {
            try {
                replay(engine, number, step);
            }
            catch (error) {
                if (error instanceof SnapshotError)
                    throw error;
                if (error instanceof BetspecError)
                    throw new SnapshotError(`log step ${number} does not replay: ${error.message}`);
                throw error;
            }
        });
        const stored = snap.observed;
        require(isMapping(stored), "no observed state");
        const observed = stored;
        const stacks = observed.stacks;
        const pot = observed.pot;
        // The house's take is counted as the chips it was (absent: none, as before rakes were written).
        const take = observed.house_take === undefined ? [0, 0] : observed.house_take;
        const jackpotPaid = observed.jackpot_paid === undefined ? 0 : observed.jackpot_paid; // paid onto the table
        if (Array.isArray(stacks) && stacks.every(isInt) && isInt(pot) && Array.isArray(take) && take.every(isInt) && isInt(jackpotPaid)) {
            const held = stacks.reduce((a, b) => a + b, 0) + pot + take.reduce((a, b) => a + b, 0) - jackpotPaid;
            require(held === engine.totalChips(), "chip totals do not add up: chips were created or lost");
        }
        for (const [name, value] of Object.entries(engine.observed())) {
            const got = observed[name];
            require(jsonEqual(got, value), `tampered with: ${name} is ${shown(got)}, the log gives ${shown(value)}`);
        }
        return engine;
    }
    /** Take an event through its table: the first transition from the state whose guard holds. */
    function fire(m, table, to) {
        const steps = table[m._state];
        if (steps === undefined)
            return false;
        for (const [guard, effect, dest] of steps) {
            if (guard === null || guard(m, to)) {
                if (effect !== null)
                    effect(m, to);
                m._state = dest;
                return true;
            }
        }
        return false;
    }
});
})(function (dependencies, factory) { betspec.define("runtime", dependencies, factory); });
