// Compiled by betspec (python -m betspec.tools.site_js) from generated/typescript/src, sources sha256 2e2f75e1a3708d30abf0cf81aa6f09eb3cfe6feba183c33acdb43ee6422febd6.
// Do not edit: run `betspec generate`, then `python -m betspec.tools.site_js`.
(function (define) {
// Copied by betspec 0.2.0 from betspec/runtime/typescript/cards.ts (the hand-written dealer and showdown).
// Do not edit: change the source and run `betspec generate`.
// Cards for TypeScript clients (and the live book): a seeded dealer for the game a spec declares
// (its GAME) and the showdown ranked, as betspec.cards gives Python hosts. The engines bet
// without cards; a client that deals its own hands needs the same rankings the Python side
// settles with, so each hand kind here orders hands exactly as PokerKit's evaluator of that kind
// does (tests/test_typescript_cards.py compares them on thousands of deals).
//
// A strength is a key compared element by element, larger better: [category, ranks...] for the
// high kinds, negated for the low ones (a lower low is a better hand), the card count first for
// badugi. Two hands tie exactly when PokerKit gives them the same lookup entry.
define(["require", "exports", "./vocabulary.js"], function (require, exports, vocabulary_js_1) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    exports.Dealer = exports.HAND_KINDS = exports.SUITS = exports.RANKS = void 0;
    exports.splitCards = splitCards;
    exports.known = known;
    exports.rank = rank;
    exports.made = made;
    exports.bringInSeat = bringInSeat;
    exports.opener = opener;
    exports.openPair = openPair;
    exports.rankings = rankings;
    exports.settlementRankings = settlementRankings;
    /** The ranks, deuce lowest, and the suits in PokerKit's order (clubs lowest): betspec.vocabulary's. */
    exports.RANKS = vocabulary_js_1.CARD_RANKS;
    exports.SUITS = vocabulary_js_1.CARD_SUITS;
    /** The lowest rank of the 36-card deck (six to ace) a short-deck game ("deck": "short") is dealt from. */
    const SHORT_LOWEST = exports.RANKS.indexOf("6");
    const CODES = new Map([...exports.RANKS].flatMap((rank, r) => [...exports.SUITS].map((suit, s) => [rank + suit, r * 4 + s])));
    const rankOf = (card) => card >> 2;
    const suitOf = (card) => card & 3;
    /** The rank with the ace lowest (0) and the king highest (12), as the ace-to-five lows count. */
    const aceLow = (card) => (rankOf(card) + 1) % 13;
    // 0 - v, not -v: a key holds no -0, which JSON would print as 0 and Object.is would tell apart.
    const negate = (value) => 0 - value;
    function parse(card) {
        const code = typeof card === "string" ? CODES.get(card) : undefined;
        if (code === undefined) {
            throw new Error(`no card ${JSON.stringify(card)}: a card is a rank of ${exports.RANKS} and a suit of ${exports.SUITS}, as "Ah"`);
        }
        return code;
    }
    /** "AhKs??" as ["Ah", "Ks", "??"], as betspec.cards.split_cards. */
    function splitCards(text) {
        const cards = [];
        for (let i = 0; i + 1 < text.length; i += 2)
            cards.push(text.slice(i, i + 2));
        return cards;
    }
    /** Whether every card is known (none is "??", a card not shown). */
    function known(cards) {
        return cards.every((card) => !card.includes("?"));
    }
    function compareKeys(a, b) {
        const length = Math.min(a.length, b.length);
        for (let i = 0; i < length; i++) {
            if (a[i] !== b[i])
                return a[i] - b[i];
        }
        return a.length - b.length;
    }
    /** Calls `visit` with every choice of `count` of `items`, in order (the array is reused: read it, do not keep it). */
    function eachCombination(items, count, visit) {
        const chosen = [];
        const pick = (start) => {
            if (chosen.length === count) {
                visit(chosen);
                return;
            }
            for (let i = start; i <= items.length - (count - chosen.length); i++) {
                chosen.push(items[i]);
                pick(i + 1);
                chosen.pop();
            }
        };
        pick(0);
    }
    /** The best key `evaluate` gives any `count` of the cards, or null if none makes a hand of it. */
    function best(cards, count, evaluate) {
        let found = null;
        eachCombination(cards, count, (chosen) => {
            const key = evaluate(chosen);
            if (key !== null && (found === null || compareKeys(key, found) > 0))
                found = key;
        });
        return found;
    }
    // ---- five cards --------------------------------------------------------------------------
    /**
     * The ranks grouped as PokerKit's lookups order a hand within its category: the most repeated
     * rank first, the higher first among ranks repeated as often (two pair: the higher pair, the
     * lower, the kicker). `shape` is the group sizes ("32" a full house, "11111" no pair).
     */
    function grouped(values) {
        const sorted = [...values].sort((a, b) => b - a);
        const groups = [];
        for (const value of sorted) {
            const last = groups[groups.length - 1];
            if (last !== undefined && last[0] === value)
                last[1]++;
            else
                groups.push([value, 1]);
        }
        // Stable: ranks repeated as often stay highest first.
        groups.sort((a, b) => b[1] - a[1]);
        return { shape: groups.map((group) => group[1]).join(""), ranks: groups.map((group) => group[0]) };
    }
    const HIGH_CATEGORIES = { "11111": 0, "2111": 1, "221": 2, "311": 3, straight: 4, flush: 5, "32": 6, "41": 7, "straight flush": 8 };
    const STANDARD = { lowest: 0, wrap: true, categories: HIGH_CATEGORIES };
    // PokerKit's ShortDeckHoldemLookup: a flush beats a full house (there are fewer flushes in 36
    // cards), while a straight still beats three of a kind. Some rooms (Triton's rules) put three of
    // a kind above a straight; PokerKit does not, and the Python side settles with PokerKit.
    const SHORT_DECK = { lowest: SHORT_LOWEST, wrap: true, categories: { ...HIGH_CATEGORIES, flush: 6, "32": 5 } };
    // Deuce-to-seven (Standard2Lookup): A-2-3-4-5 is no straight but ace high, the ace never low.
    const DEUCE_TO_SEVEN = { lowest: 0, wrap: false, categories: HIGH_CATEGORIES };
    /** The top rank of the straight five distinct ranks make, or -1. */
    function straightTop(ranks, rules) {
        const top = ranks[0];
        if (top - ranks[4] === 4)
            return top;
        const ace = exports.RANKS.length - 1;
        const wheel = [ace, rules.lowest + 3, rules.lowest + 2, rules.lowest + 1, rules.lowest];
        return rules.wrap && ranks.every((rank, i) => rank === wheel[i]) ? rules.lowest + 3 : -1;
    }
    function highKey(five, rules) {
        const values = five.map(rankOf);
        if (values.some((value) => value < rules.lowest))
            return null;
        const { shape, ranks } = grouped(values);
        if (shape !== "11111")
            return [rules.categories[shape], ...ranks];
        const flush = five.every((card) => suitOf(card) === suitOf(five[0]));
        const top = straightTop(ranks, rules);
        if (top >= 0)
            return [rules.categories[flush ? "straight flush" : "straight"], top];
        return [rules.categories[flush ? "flush" : "11111"], ...ranks];
    }
    /** Deuce-to-seven low: the high hand's key turned around, the worst high hand the best low. */
    function deuceToSevenKey(five) {
        const high = highKey(five, DEUCE_TO_SEVEN);
        return high === null ? null : high.map(negate);
    }
    /** Eight or better (EightOrBetterLookup): five distinct ranks, ace to eight; straights and flushes do not count. */
    function eightKey(five) {
        const values = five.map(aceLow).sort((a, b) => b - a);
        const distinct = values.every((value, i) => i === 0 || value !== values[i - 1]);
        return distinct && values[0] <= 7 ? values.map(negate) : null;
    }
    /** Ace-to-five low (RegularLookup, razz): no straights or flushes, and a pair worse than any five distinct. */
    const RAZZ_CATEGORIES = { "11111": 0, "2111": 1, "221": 2, "311": 3, "32": 4, "41": 5 };
    function aceToFiveKey(five) {
        const { shape, ranks } = grouped(five.map(aceLow));
        return [negate(RAZZ_CATEGORIES[shape]), ...ranks.map(negate)];
    }
    /**
     * Badugi (BadugiHand, ace to five): the most cards of distinct ranks and suits, then the lowest
     * (the highest card first). PokerKit keeps the best of the largest such set of the cards.
     */
    function badugiKey(cards) {
        const ranks = new Set(cards.map(aceLow));
        const suits = new Set(cards.map(suitOf));
        if (ranks.size !== cards.length || suits.size !== cards.length)
            return [];
        return [cards.length, ...[...ranks].sort((a, b) => b - a).map(negate)];
    }
    function bestBadugi(cards) {
        for (let count = Math.min(4, cards.length); count > 0; count--) {
            const found = best(cards, count, (chosen) => {
                const key = badugiKey(chosen);
                return key.length ? key : null;
            });
            if (found !== null)
                return found;
        }
        return null;
    }
    /** Omaha: exactly two of the hole cards with exactly three of the board. */
    function omaha(hole, board, evaluate) {
        let found = null;
        eachCombination(hole, 2, (two) => {
            const pair = [...two];
            const key = best(board, 3, (three) => evaluate([...pair, ...three]));
            if (key !== null && (found === null || compareKeys(key, found) > 0))
                found = key;
        });
        return found;
    }
    /** Every card, however few, high (betspec.cards.high_cards_strength): the sizes of the groups of
     * one rank, largest first, then their ranks in that order; suits do not count. */
    function highCards(cards) {
        const counts = new Map();
        for (const card of cards)
            counts.set(rankOf(card), (counts.get(rankOf(card)) ?? 0) + 1);
        const groups = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
        return [...groups.map(([, count]) => count), ...groups.map(([rank]) => rank)];
    }
    const KINDS = {
        high: (hole, board) => best([...hole, ...board], 5, (five) => highKey(five, STANDARD)),
        short_deck_high: (hole, board) => best([...hole, ...board], 5, (five) => highKey(five, SHORT_DECK)),
        omaha_high: (hole, board) => omaha(hole, board, (five) => highKey(five, STANDARD)),
        omaha_low_eight: (hole, board) => omaha(hole, board, eightKey),
        low_eight: (hole, board) => best([...hole, ...board], 5, eightKey),
        ace_to_five_low: (hole, board) => best([...hole, ...board], 5, aceToFiveKey),
        deuce_to_seven_low: (hole, board) => best([...hole, ...board], 5, deuceToSevenKey),
        high_cards: (hole, board) => highCards([...hole, ...board]),
        badugi: (hole, board) => bestBadugi([...hole, ...board]),
    };
    /** The hand kinds a spec's showdown may name (betspec/hands.json, through betspec.vocabulary):
     * each has its evaluator here, which tests/test_typescript_cards.py checks. */
    exports.HAND_KINDS = vocabulary_js_1.HAND_KINDS;
    function ranker(kind) {
        const found = Object.hasOwn(KINDS, kind) ? KINDS[kind] : undefined;
        if (found === undefined)
            throw new Error(`no hand kind ${JSON.stringify(kind)}: a showdown ranks ${exports.HAND_KINDS.join(", ")}`);
        return found;
    }
    function codes(cards, seen) {
        return cards.map((card) => {
            const code = parse(card);
            if (seen.has(code))
                throw new Error(`the card ${card} is given twice`);
            seen.add(code);
            return code;
        });
    }
    /**
     * The strength of a seat's hand of `kind` (larger better, compared element by element), or null
     * when its cards make no hand of that kind (no eight-or-better low; fewer than five cards).
     */
    function rank(kind, hole, board) {
        const rule = ranker(kind);
        const seen = new Set();
        return rule(codes(hole, seen), codes(board, seen));
    }
    /** The high kinds' rules, by kind: what `made` reads a key's category with. */
    const HIGH_KINDS = { high: STANDARD, short_deck_high: SHORT_DECK, omaha_high: STANDARD };
    /** Each group shape's word in HAND_CATEGORIES, in the same order (high card first). */
    const SHAPES = ["11111", "2111", "221", "311", "straight", "flush", "32", "41", "straight flush"];
    /**
     * What a seat's cards make with the board as a high hand of `kind` ("four_of_a_kind", the words
     * of HAND_CATEGORIES: what a spec's payments' `makes` names), as betspec.cards.made gives it from
     * PokerKit's label; null for the low kinds and badugi, and where the cards make no hand.
     */
    function made(kind, hole, board) {
        const rules = Object.hasOwn(HIGH_KINDS, kind) ? HIGH_KINDS[kind] : undefined;
        const key = rank(kind, hole, board);
        if (rules === undefined || key === null)
            return null;
        const index = SHAPES.findIndex((shape) => rules.categories[shape] === key[0]);
        return index < 0 ? null : (vocabulary_js_1.HAND_CATEGORIES[index] ?? null);
    }
    /** The seats and their cards, in the order Python iterates the same dict: a Map's insertion order, an object's keys ascending. */
    function seatsOf(holes) {
        const entries = holes instanceof Map ? [...holes] : Object.entries(holes);
        return entries.map(([seat, cards]) => {
            const number = Number(seat);
            if (!Number.isInteger(number) || number < 0)
                throw new Error(`a seat is a number from 0, not ${JSON.stringify(seat)}`);
            return [number, cards];
        });
    }
    // ---- what the upcards decide: the stud bring-in and openers -----------------------------------
    /** The opening lookups' groups of entries, weakest first: high cards of one to four cards, a pair
     * with none to two kickers, two pair, trips with none or one, four of a kind (the order in which
     * PokerKit's _HighHandOpeningLookup and _LowHandOpeningLookup add them). */
    const OPENING_SHAPES = ["1", "11", "111", "1111", "2", "21", "211", "22", "3", "31", "4"];
    /** A seat's upcards as the opening lookups order them (larger stronger: the ace high, or low in
     * a game whose highest upcard brings in), or null for no upcard or one not known. */
    function openingKey(upcards, low) {
        if (!upcards.length || !known(upcards))
            return null;
        const { shape, ranks } = grouped(upcards.map((card) => (low ? aceLow : rankOf)(parse(card))));
        const block = OPENING_SHAPES.indexOf(shape);
        return block < 0 ? null : [block, ...ranks];
    }
    /** The game is razz-like: the highest upcard brings in and the lowest hand showing opens. */
    const openedLow = (game) => game.opening === "high_card";
    /**
     * The seat that brings in, as betspec.cards.bring_in_seat: the lowest first upcard (by suit on a
     * tie, clubs lowest) in stud; the highest (the king of spades highest, the ace low) in razz.
     */
    function bringInSeat(game, upcards) {
        const low = openedLow(game);
        let found = null; // [seat, the card's place: rank then suit]
        for (const [seat, cards] of seatsOf(upcards)) {
            const card = cards[0];
            if (card === undefined || !known([card]))
                continue;
            const code = parse(card);
            const place = (low ? aceLow(code) : rankOf(code)) * 4 + suitOf(code);
            if (found === null || (low ? place > found[1] : place < found[1]))
                found = [seat, place];
        }
        if (found === null)
            throw new Error("no upcard is known: the bring-in cannot be decided");
        return found[0];
    }
    /**
     * The seat that opens a later stud street, as betspec.cards.opener: the best hand showing (the
     * lowest in razz), on a tie the first seat after `button` (the dealer's place; null: the lowest
     * seat); null for a game opened by position, or no upcards.
     */
    function opener(game, upcards, button = null) {
        if (game.opening === "position")
            return null;
        const low = openedLow(game);
        const after = button ?? -1;
        const place = (seat) => (((seat - after - 1) % 1000) + 1000) % 1000;
        let found = null;
        for (const [seat, cards] of seatsOf(upcards).sort((a, b) => place(a[0]) - place(b[0]))) {
            const key = openingKey(cards, low);
            if (key === null)
                continue;
            const order = found === null ? 0 : compareKeys(key, found[1]);
            if (found === null || (low ? order < 0 : order > 0))
                found = [seat, key];
        }
        return found === null ? null : found[0];
    }
    /** A pair shows on fourth street: two upcards of one rank (as betspec.cards.open_pair). */
    function openPair(upcards) {
        return seatsOf(upcards).some(([, cards]) => cards.length === 2 && known(cards) && cards[0]?.[0] === cards[1]?.[0]);
    }
    /** Seats by strength, best first, ties together, each group in the seats' given order. */
    function groupSeats(strengths) {
        // Stable, as Python's sorted(..., reverse=True) is: tied seats keep the order they were given in.
        const sorted = [...strengths].sort((a, b) => compareKeys(b[1], a[1]));
        const groups = [];
        for (const [seat, key] of sorted) {
            const last = groups[groups.length - 1];
            if (last !== undefined && compareKeys(last.key, key) === 0)
                last.seats.push(seat);
            else
                groups.push({ key, seats: [seat] });
        }
        return groups.map((group) => group.seats);
    }
    /**
     * The showdown of `holes` (seat -> its cards) ranked by each hand kind of the game's showdown, as
     * betspec.cards.rankings: per kind, groups of seats best first, ties together. A seat with no
     * hand of a later kind (no qualifying low) is left out of that ranking; none of the first kind
     * is an error, as there every hand shown down must rank.
     */
    function rankings(game, holes, board) {
        const seats = seatsOf(holes);
        for (const [seat, cards] of seats) {
            if (!known(cards) || !known(board))
                throw new Error(`seat ${seat} shows down and its cards are not all known`);
        }
        return game.showdown.map((kind, index) => {
            const strengths = [];
            for (const [seat, cards] of seats) {
                const key = rank(kind, cards, board);
                if (key !== null)
                    strengths.push([seat, key]);
                else if (index === 0)
                    throw new Error(`${kind} makes no hand of seat ${seat}'s ${cards.join("")} ${board.join("")}`);
            }
            return groupSeats(strengths);
        });
    }
    /**
     * What an engine's settle takes for a showdown's rankings, as betspec.cards.settlement_rankings:
     * `ranking` for a game ranked once (or a split game where no seat has a low); `runs` (high, then
     * low) for a split game, the low ranking completed with the seats that have no qualifying low,
     * in their high order, so that a pot none of whose players has a low goes whole to the high hand.
     */
    function settlementRankings(ranked) {
        const copy = (groups) => groups.map((group) => [...group]);
        const high = ranked[0] ?? [];
        const low = ranked[1];
        if (ranked.length === 1 || low === undefined || low.length === 0)
            return { ranking: copy(high) };
        const inLow = new Set(low.flat());
        const rest = high.map((group) => group.filter((seat) => !inLow.has(seat))).filter((group) => group.length > 0);
        return { runs: [copy(high), [...copy(low), ...rest]] };
    }
    // ---- a seeded dealer -----------------------------------------------------------------------
    /** FNV-1a (32 bits) of a seed's text: any text or integer seeds the shuffle. */
    function hashSeed(seed) {
        const text = String(seed);
        let hash = 0x811c9dc5;
        for (let i = 0; i < text.length; i++)
            hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
        return hash >>> 0;
    }
    /** mulberry32: a small 32-bit generator, enough to shuffle a deck reproducibly (not for money: not cryptographic). */
    function mulberry32(seed) {
        let state = seed >>> 0;
        return () => {
            state = (state + 0x6d2b79f5) >>> 0;
            let t = Math.imul(state ^ (state >>> 15), state | 1);
            t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
            return (t ^ (t >>> 14)) >>> 0;
        };
    }
    /** A uniform integer below `bound`: draws past the last whole multiple of `bound` are drawn again, so no card is favoured. */
    function below(next, bound) {
        const limit = Math.floor(0x100000000 / bound) * bound;
        for (;;) {
            const drawn = next();
            if (drawn < limit)
                return drawn % bound;
        }
    }
    /** The deck of a game in order (as betspec.cards builds it: by rank, then suit). */
    function deckOf(game) {
        const deck = game.deck;
        if (typeof deck === "object" && deck !== null && typeof deck.ranks === "string" && typeof deck.suits === "string") {
            // A spec's own deck: its ranks and suits in the cards' order, whatever order it wrote them in.
            const ranks = [...exports.RANKS].filter((rank) => deck.ranks.includes(rank));
            const suits = [...exports.SUITS].filter((suit) => deck.suits.includes(suit));
            return ranks.flatMap((rank) => suits.map((suit) => rank + suit));
        }
        if (deck !== "standard" && deck !== "short") {
            throw new Error(`no deck ${JSON.stringify(deck)}: a game is dealt from the "standard" deck, the "short" one or its own ranks and suits`);
        }
        const ranks = deck === "short" ? exports.RANKS.slice(SHORT_LOWEST) : exports.RANKS;
        return [...ranks].flatMap((rank) => [...exports.SUITS].map((suit) => rank + suit));
    }
    /** The game's deck shuffled by Fisher-Yates, drawing from mulberry32 seeded with the seed's FNV-1a hash. */
    function shuffled(game, seed) {
        const deck = deckOf(game);
        const next = mulberry32(hashSeed(seed));
        for (let i = deck.length - 1; i > 0; i--) {
            const j = below(next, i + 1);
            [deck[i], deck[j]] = [deck[j], deck[i]];
        }
        return deck;
    }
    /**
     * A seeded deck dealt to `seats` seats as `game` (a spec's GAME) deals, the host's side of a hand:
     * `deal(street, stillIn)` deals a street (in order, from 0) to the seats still in; `draw` and
     * `discard` change a seat's cards before a street that opens with them; `showdown` ranks the seats
     * that show down. The same game, seats and seed deal the same cards (not Python's: its shuffle
     * differs). A deal or draw refused changes nothing. A game of several boards deals each board's
     * cards as its first's (`otherBoards`); one whose boards depend on the table (a bomb pot's double
     * board) deals them once `chooseBoards` is given the table, before the first board card.
     */
    class Dealer {
        game;
        seats;
        /** Each seat's cards, in the order dealt (a draw's replacements last). */
        hole;
        /** Whether each of a seat's cards is face up. */
        up;
        board = [];
        /** The boards after the first (a double board: one), each dealt as many cards as `board`. */
        otherBoards;
        /** Each seat's cards thrown away (discarded, or drawn to). */
        discards;
        deck;
        streetsDealt = 0;
        /** Per street: the seats that drew or discarded before it. */
        changed;
        constructor(game, seats, seed) {
            if (!Number.isInteger(seats) || seats < 2 || seats > 10)
                throw new Error(`a dealer deals to 2 to 10 seats, not ${String(seats)}`);
            if (!(Number.isSafeInteger(seed) || (typeof seed === "string" && seed.length <= 4096))) {
                throw new Error(`a dealer's seed is an integer or a text of at most 4096 characters, not ${String(seed).slice(0, 60)}`);
            }
            for (const kind of game.showdown)
                ranker(kind);
            this.game = game;
            this.seats = seats;
            this.deck = shuffled(game, seed);
            this.hole = Array.from({ length: seats }, () => []);
            this.up = Array.from({ length: seats }, () => []);
            this.discards = Array.from({ length: seats }, () => []);
            this.changed = game.deals.map(() => new Set());
            this.otherBoards = game.boards > 1 && !game.boards_when ? Array.from({ length: game.boards - 1 }, () => []) : [];
        }
        /** Every board of the hand, the first first. */
        get allBoards() {
            return [this.board, ...this.otherBoards];
        }
        /**
         * The boards of this hand, for a game whose boards depend on the table (its `boards_when` input,
         * as betspec.cards.Dealer reads it at the first deal): several where the table gives the input
         * a true or non-zero value, else one. Changes nothing once a board card is dealt.
         */
        chooseBoards(table) {
            const when = this.game.boards_when;
            if (!when || this.board.length || this.otherBoards.length)
                return;
            const given = Object.hasOwn(table, when) ? table[when] : undefined;
            if ((given === true || (Number.isInteger(given) && given !== 0)) && this.game.boards > 1) {
                this.otherBoards = Array.from({ length: this.game.boards - 1 }, () => []);
            }
        }
        /** The streets dealt: the next deal is of this street. */
        get street() {
            return this.streetsDealt;
        }
        /** The cards not dealt yet, next first. */
        get undealt() {
            return [...this.deck];
        }
        /** Deals street `street` (the next) to the seats still in, and its board cards. */
        deal(street, stillIn) {
            const deal = this.nextDeal(street);
            const seats = this.seatList(stillIn, "the seats still in");
            const waiting = seats.find((seat) => !this.changed[street]?.has(seat));
            if (deal.discard > 0 && waiting !== undefined) {
                throw new Error(`seat ${waiting} discards ${deal.discard} before street ${street} (${deal.street}) is dealt`);
            }
            this.need(seats.length * deal.hole.length + deal.board * (1 + this.otherBoards.length));
            const dealt = { hole: this.hole.map(() => []), board: [], otherBoards: [] };
            for (const seat of seats) {
                dealt.hole[seat] = this.take(deal.hole.length);
                this.hole[seat]?.push(...dealt.hole[seat]);
                this.up[seat]?.push(...deal.hole.map((face) => face === "up"));
            }
            dealt.board = this.take(deal.board);
            this.board.push(...dealt.board);
            for (const other of this.otherBoards) {
                const cards = this.take(deal.board);
                other.push(...cards);
                dealt.otherBoards.push(cards);
            }
            this.streetsDealt++;
            return dealt;
        }
        /** Seat `seat` throws these cards away (none: stands pat) before the next street and is dealt as many. */
        draw(seat, cards) {
            const before = this.opening("draw");
            if (!this.game.deals[before]?.draw)
                throw new Error(`${this.game.name} has no draw before street ${before}`);
            this.checkChange(seat, cards, "drawn");
            this.need(cards.length);
            this.remove(seat, cards);
            const drawn = this.take(cards.length);
            this.hole[seat]?.push(...drawn);
            this.up[seat]?.push(...drawn.map(() => false));
            return drawn;
        }
        /** Seat `seat` throws away as many of its cards as the game says before the next street, none replaced. */
        discard(seat, cards) {
            const before = this.opening("discard");
            const due = this.game.deals[before]?.discard ?? 0;
            if (due <= 0)
                throw new Error(`${this.game.name} has no discard before street ${before}`);
            this.checkChange(seat, cards, "discarded");
            if (cards.length !== due)
                throw new Error(`seat ${seat} discards ${due} of its cards here, not ${cards.length}`);
            this.remove(seat, cards);
        }
        /** The rankings of the seats that show down, as `rankings`. */
        showdown(seats) {
            const chosen = this.seatList(seats, "the seats that show down");
            return rankings(this.game, new Map(chosen.map((seat) => [seat, this.hole[seat]])), this.board);
        }
        /** The rankings of the seats that show down on each board, the first board first. */
        showdowns(seats) {
            const chosen = this.seatList(seats, "the seats that show down");
            const holes = new Map(chosen.map((seat) => [seat, this.hole[seat]]));
            return this.allBoards.map((board) => rankings(this.game, holes, board));
        }
        /** Each seat's cards dealt face up (the seats given). */
        upcards(seats) {
            const chosen = this.seatList(seats, "the seats");
            return new Map(chosen.map((seat) => [seat, this.hole[seat].filter((_, i) => this.up[seat]?.[i])]));
        }
        nextDeal(street) {
            const count = this.game.deals.length;
            const deal = Number.isInteger(street) ? this.game.deals[street] : undefined;
            if (deal === undefined)
                throw new Error(`street ${String(street)} is out of range: ${this.game.name} deals streets 0 to ${count - 1}`);
            if (street !== this.street) {
                throw new Error(`street ${street} is not next: ${this.street < count ? `street ${this.street} is` : "every street is dealt"}`);
            }
            return deal;
        }
        /** The street a draw or discard now would open (the next to deal), refused once every street is dealt or before the first. */
        opening(what) {
            if (this.street >= this.game.deals.length)
                throw new Error(`no ${what} is left: every street is dealt`);
            if (this.street === 0)
                throw new Error(`no ${what} before the first street: nothing is dealt yet`);
            return this.street;
        }
        seatList(seats, what) {
            if (!Array.isArray(seats))
                throw new Error(`${what} are a list of seats`);
            seats.forEach((seat) => this.checkSeat(seat));
            if (new Set(seats).size !== seats.length)
                throw new Error(`${what} name a seat twice: ${seats.join(", ")}`);
            return [...seats];
        }
        checkSeat(seat) {
            if (!Number.isInteger(seat) || seat < 0 || seat >= this.seats) {
                throw new Error(`a seat is a number from 0 to ${this.seats - 1}, not ${String(seat)}`);
            }
        }
        /** Refuses a draw or discard of cards the seat does not hold, or a second one before the same street. */
        checkChange(seat, cards, done) {
            this.checkSeat(seat);
            if (!Array.isArray(cards))
                throw new Error(`seat ${seat}'s cards to throw away are a list of cards`);
            const held = this.hole[seat];
            for (const card of cards) {
                parse(card);
                if (!held.includes(card))
                    throw new Error(`seat ${seat} holds ${held.join("")}: it does not hold ${card}`);
            }
            if (new Set(cards).size !== cards.length)
                throw new Error(`seat ${seat} throws away a card twice: ${cards.join("")}`);
            const before = this.changed[this.street];
            if (before.has(seat))
                throw new Error(`seat ${seat} has ${done} already before street ${this.street}`);
        }
        /** Takes the cards out of the seat's hand (with their face) into its discards; the seat has drawn or discarded before this street. */
        remove(seat, cards) {
            const held = this.hole[seat];
            const up = this.up[seat];
            for (const card of cards) {
                const index = held.indexOf(card);
                held.splice(index, 1);
                up.splice(index, 1);
            }
            this.discards[seat]?.push(...cards);
            this.changed[this.street]?.add(seat);
        }
        need(count) {
            if (count > this.deck.length)
                throw new Error(`the deck is out of cards (${this.deck.length} left, ${count} needed)`);
        }
        take(count) {
            this.need(count);
            return this.deck.splice(0, count);
        }
    }
    exports.Dealer = Dealer;
});
})(function (dependencies, factory) { betspec.define("cards", dependencies, factory); });
