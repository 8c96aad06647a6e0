// The TypeScript runtime of betspec's generated engines: seats, chips and the primitives specs are
// written in, the table procedures (chips pushed, words said, declarations out of turn), settling
// pots, the next table and snapshots. A port of betspec/runtime/engine.py (and table.py,
// errors.py, snapshot_format.py, snapshot.py): the same mechanisms, the same error codes, rule
// ids and texts; it decides nothing about sizes or legality, which each generated module holds.
//
// Chips are JavaScript numbers holding integers: every amount given is checked to be a safe
// integer, and a table whose chips could take a computation past 2**53 is refused, so that
// every sum, product and floor division the specs compute is exact.

import {
  ACT_NAMES,
  BETTING_PHASES,
  CARD_RANKS,
  CARD_SUITS,
  DECLARATIONS,
  HAND_CATEGORIES,
  HAND_OVER_PHASES,
  OUT_OF_TURN_DECLARATIONS,
  WAGERS,
} from "./vocabulary.js";

// ---- errors ----------------------------------------------------------------------------------

/** Base class of every error betspec raises on purpose: a code a program tests, a message a dealer reads. */
export class BetspecError extends Error {
  code: string;
  constructor(message: string, code = "error") {
    super(message);
    this.code = code;
    this.name = "BetspecError";
  }
}

/** An action or deal the rules forbid. The engine's state is exactly as it was before it. */
export class IllegalAction extends BetspecError {
  readonly rule: string;
  readonly source: string;
  constructor(code: string, message: string, rule = "", source = "") {
    super(message, code);
    this.rule = rule;
    this.source = source;
    this.name = "IllegalAction";
  }
}

/** A table, start or option an engine cannot be built from; `rule` the spec check it breaks. */
export class InvalidTable extends BetspecError {
  readonly rule: string;
  constructor(message: string, rule = "") {
    super(message, "invalid_table");
    this.rule = rule;
    this.name = "InvalidTable";
  }
}

/** A snapshot that cannot be restored; the message says why. */
export class SnapshotError extends BetspecError {
  constructor(message: string) {
    super(message, "bad_snapshot");
    this.name = "SnapshotError";
  }
}

const SHOWN = 60;

function pyString(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127) out += "\\x" + ch.charCodeAt(0).toString(16).padStart(2, "0");
    else out += ch;
  }
  return out + quote;
}

function reprOf(value: unknown, depth: number): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") {
    // An integer past 2**53 written out whole, as Python writes the int it stands for.
    if (Number.isInteger(value)) return Number.isSafeInteger(value) ? String(value) : BigInt(value).toString();
    return String(value);
  }
  if (typeof value === "bigint") return String(value);
  if (typeof value === "string") return pyString(value.slice(0, SHOWN + 1));
  if (Array.isArray(value)) {
    if (depth <= 0) return "[...]";
    const items: string[] = [];
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
    if (depth <= 0) return "{...}";
    const items: string[] = [];
    let i = 0;
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
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
export function shown(value: unknown): string {
  let text: string;
  try {
    text = reprOf(value, 3);
  } catch {
    text = `<${typeof value}>`;
  }
  return text.length <= SHOWN ? text : text.slice(0, SHOWN - 3) + "...";
}

/** The name of a value's type as the Python engine's messages name it. */
export function typeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  if (typeof value === "object") return "dict";
  return typeof value;
}

/** A plain whole number (not a boolean, not a fraction, within the safe integers). */
export function isInt(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value);
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** " (did you mean 'x'?)" for a near name (Ratcliff/Obershelp, as Python's difflib), else "". */
export function didYouMean(name: string, candidates: Iterable<string>): string {
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

function matching(a: string, b: string): number {
  if (!a.length || !b.length) return 0;
  let bestI = 0;
  let bestJ = 0;
  let size = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) {
      let k = 0;
      while (i + k < a.length && j + k < b.length && a[i + k] === b[j + k]) k++;
      if (k > size) {
        size = k;
        bestI = i;
        bestJ = j;
      }
    }
  }
  if (!size) return 0;
  return size + matching(a.slice(0, bestI), b.slice(0, bestJ)) + matching(a.slice(bestI + size), b.slice(bestJ + size));
}

function similarity(a: string, b: string): number {
  const total = a.length + b.length;
  return total ? (2 * matching(a, b)) / total : 1;
}

// ---- arithmetic the specs' expressions call ---------------------------------------------------

/** `value` rounded up to a multiple of `unit` (unchanged when `unit` is not positive). */
export function ceilTo(value: number, unit: number): number {
  if (unit <= 0) return value;
  return -Math.floor(-value / unit) * unit;
}

/** `value` rounded down to a multiple of `unit` (unchanged when `unit` is not positive). */
export function floorTo(value: number, unit: number): number {
  if (unit <= 0) return value;
  return Math.floor(value / unit) * unit;
}

/** Python's floor division of integers (exact below 2**53). */
export function floorDiv(a: number, b: number): number {
  if (b === 0) throw new RangeError("integer division by zero");
  return Math.floor(a / b);
}

/** Python's modulo of integers: the sign of the divisor. */
export function mod(a: number, b: number): number {
  if (b === 0) throw new RangeError("integer modulo by zero");
  const r = a % b;
  return r !== 0 && r < 0 !== b < 0 ? r + b : r;
}

// ---- tables, starts, options and inputs --------------------------------------------------------

export const MAX_SEATS = 23;
export const MAX_CHIPS = 10 ** 15;
/** The most chips a table may hold in all here: every value the specs compute stays below 2**53. */
export const MAX_TABLE_CHIPS = 2 ** 49;

/** A table as JSON: the stacks, the button, and the spec's inputs by name (`blinds: [1, 2]`). */
export interface TableJson {
  stacks: number[];
  button?: number;
  [input: string]: unknown;
}

/** A hand that begins on a later street with a pot in the middle (and what its deal gives). */
export interface StartJson {
  street: string;
  pot?: number;
  inputs?: Record<string, unknown>;
}

/** An option or table input as its spec declares it. */
export interface Declared {
  name: string;
  type: string;
  default?: unknown;
  required?: boolean;
  minimum?: number | null;
  maximum?: number | null;
  choices?: readonly string[];
  items?: readonly string[];
  perSeat?: boolean;
  example?: unknown;
  hand?: boolean;
}

function whole(name: string, value: unknown, minimum: number | null, maximum: number | null, orNull: boolean): number {
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw new InvalidTable(`option ${name} must be a whole number${orNull ? " or null" : ""}, not ${shown(value)}`);
  }
  if (minimum !== null && value < minimum) throw new InvalidTable(`option ${name} must be at least ${minimum}, not ${shown(value)}`);
  if (maximum !== null && value > maximum) throw new InvalidTable(`option ${name} must be at most ${maximum}, not ${shown(value)}`);
  if (Math.abs(value) > MAX_CHIPS) throw new InvalidTable(`option ${name} is out of range: ${shown(value)}`);
  return value;
}

export function intOption(name: string, value: unknown, minimum: number | null = null, maximum: number | null = null): number {
  return whole(name, value, minimum, maximum, false);
}

export function optionalIntOption(name: string, value: unknown, minimum: number | null = null, maximum: number | null = null): number | null {
  return value === null || value === undefined ? null : whole(name, value, minimum, maximum, true);
}

export function boolOption(name: string, value: unknown): boolean {
  if (typeof value !== "boolean") throw new InvalidTable(`option ${name} must be true or false, not ${shown(value)}`);
  return value;
}

export function choiceOption<T extends string>(name: string, value: unknown, choices: readonly T[]): T {
  if (typeof value !== "string" || !(choices as readonly string[]).includes(value)) {
    throw new InvalidTable(`option ${name} must be one of ${choices.join(", ")}, not ${shown(value)}`);
  }
  return value as T;
}

export function requiredInput(spec: string, name: string): InvalidTable {
  return new InvalidTable(`${spec} needs the table's ${name}`);
}

export function unknownInputs(spec: string, given: Record<string, unknown>, names: readonly string[]): void {
  for (const name of Object.keys(given)) {
    if (!names.includes(name)) {
      const known = [...names].sort().join(", ") || "none";
      throw new InvalidTable(`${spec} has no table input ${shown(name)}${didYouMean(name, names)} (its inputs: ${known})`);
    }
  }
}

export function intInput(name: string, value: unknown, minimum: number | null = null, maximum: number | null = null): number {
  return whole(`table input ${name}`, value, minimum, maximum, false);
}

export function optionalIntInput(name: string, value: unknown, minimum: number | null = null, maximum: number | null = null): number | null {
  return value === null || value === undefined ? null : whole(`table input ${name}`, value, minimum, maximum, true);
}

export function boolInput(name: string, value: unknown): boolean {
  return boolOption(`table input ${name}`, value);
}

export function choiceInput(name: string, value: unknown, choices: readonly string[]): string {
  return choiceOption(`table input ${name}`, value, choices);
}

export function seatInput(name: string, value: unknown, seats: number): number {
  return whole(`table input ${name} (a seat)`, value, 0, seats - 1, false);
}

export function optionalSeatInput(name: string, value: unknown, seats: number): number | null {
  return value === null || value === undefined ? null : seatInput(name, value, seats);
}

export function seatsInput(name: string, value: unknown, seats: number): number[] {
  if (!Array.isArray(value)) throw new InvalidTable(`table input ${name} is a list of seats, not ${shown(value)}`);
  const found = value.map((seat) => seatInput(name, seat, seats));
  if (new Set(found).size !== found.length) throw new InvalidTable(`table input ${name} names a seat twice: ${shown(found)}`);
  return found;
}

export function itemsInput(name: string, value: unknown, count: number, minimum: number | null, maximum: number | null): number[] {
  if (!Array.isArray(value) || value.length !== count) {
    throw new InvalidTable(`table input ${name} is a list of ${count} whole numbers, not ${shown(value)}`);
  }
  return value.map((v) => whole(`table input ${name}`, v, minimum, maximum, false));
}

export function perSeatInput<T>(name: string, value: unknown, seats: number, check: (name: string, value: unknown) => T): T[] {
  if (!Array.isArray(value)) {
    const one = check(name, value);
    return Array.from({ length: seats }, () => one);
  }
  if (value.length !== seats) throw new InvalidTable(`table input ${name} gives ${value.length} values for ${seats} seats`);
  return value.map((v) => check(name, v));
}

function chips(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isInteger(value)) throw new InvalidTable(`${what} must be a whole number of chips, not ${shown(value)}`);
  if (!(value >= 0 && value <= MAX_CHIPS)) throw new InvalidTable(`${what} must be between 0 and ${MAX_CHIPS}, not ${shown(value)}`);
  return value;
}

function jsonCopy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** A table checked as the Python engine checks it: the stacks, the button; the inputs as given. */
export function checkedTable(table: unknown): { stacks: number[]; button: number; inputs: Record<string, unknown> } {
  if (!isMapping(table)) throw new InvalidTable(`a table is a JSON object, not ${typeName(table)}`);
  if (!("stacks" in table)) throw new InvalidTable("a table needs its stacks");
  const stacks = table.stacks;
  if (!Array.isArray(stacks)) throw new InvalidTable("stacks must be a list of chip counts");
  if (stacks.length < 2 || stacks.length > MAX_SEATS) throw new InvalidTable(`a table has 2 to ${MAX_SEATS} seats, not ${stacks.length}`);
  stacks.forEach((stack, seat) => chips(stack, `stack of seat ${seat}`));
  const button = "button" in table ? table.button : 0;
  if (typeof button !== "number" || !Number.isInteger(button)) throw new InvalidTable(`button must be a seat number, not ${shown(button)}`);
  if (!(button >= 0 && button < stacks.length)) throw new InvalidTable(`button ${shown(button)} is not a seat (0..${stacks.length - 1})`);
  const inputs: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(table)) {
    if (name !== "stacks" && name !== "button") inputs[name] = jsonCopy(value);
  }
  return { stacks: [...(stacks as number[])], button, inputs };
}

function checkedStart(start: unknown): { street: string; pot: number; inputs: Record<string, unknown> } {
  if (!isMapping(start)) throw new InvalidTable(`a start is a JSON object, not ${typeName(start)}`);
  const names = ["street", "pot", "inputs"];
  const unknown = Object.keys(start).filter((key) => !names.includes(key)).sort();
  if (unknown.length) throw new InvalidTable(`a start has no field ${shown(unknown[0])} (its fields: ${names.join(", ")})`);
  if (!("street" in start)) throw new InvalidTable("a start needs street");
  if (typeof start.street !== "string") throw new InvalidTable(`start street must be a street's name, not ${shown(start.street)}`);
  const inputs = start.inputs ?? {};
  if (!isMapping(inputs)) throw new InvalidTable("a start's inputs are named");
  return { street: start.street, pot: chips(start.pot ?? 0, "start pot"), inputs: jsonCopy(inputs) };
}

// ---- what the engine answers ---------------------------------------------------------------------

export interface Pot {
  amount: number;
  eligible: number[];
}

export interface Award {
  amount: number;
  eligible: number[];
  winners: number[];
  shares: number[];
  run: number;
}

export interface Settlement {
  awards: Award[];
  won: number[];
  returned: number[];
  /** What the house raked from the pots before paying them. */
  rake: number;
  /** What it dropped from the main pot into its jackpot. */
  jackpot_drop: number;
  /** Money paid outside the pot, after it (the spec's payments). */
  payments: Payment[];
}

/** Money paid outside the pot: the spec's payment `name`, from seat `payer` to seat `payee`. */
export interface Payment {
  name: string;
  /** The seat that paid, or null: the house's jackpot. */
  payer: number | null;
  payee: number;
  amount: number;
}

/** A payment outside the pot as its spec declares it (as betspec's PAYMENTS). */
export interface DeclaredPayment {
  name: string;
  from: string;
  to: string;
  ranks: readonly string[];
  suited: boolean | null;
  /** The hands that qualify (HAND_CATEGORIES), where the payment names any. */
  makes?: readonly string[];
  showdown: boolean;
  rule: string;
}

function isCard(card: unknown): card is string {
  return typeof card === "string" && card.length === 2 && CARD_RANKS.includes(card[0] as string) && CARD_SUITS.includes(card[1] as string);
}

/** Whether `cards` hold one card of each of `ranks` (all of one suit where `suited` is true, not
 * all of one suit where it is false; either where null): as the Python runtime's shows. */
export function shows(cards: readonly string[], ranks: readonly string[], suited: boolean | null): boolean {
  const pick = (start: number, left: string[], suits: string[]): boolean => {
    if (start === ranks.length) return suited === null || (new Set(suits).size === 1) === suited;
    for (const card of left) {
      if (card[0] === ranks[start]) {
        const rest = [...left];
        rest.splice(rest.indexOf(card), 1);
        if (pick(start + 1, rest, [...suits, card[1] as string])) return true;
      }
    }
    return false;
  };
  return pick(0, [...cards], []);
}

/** The house's rake as its spec posts it: its percentage in hundredths of a per cent, rounding,
 * what the cap bounds, the street a hand must reach (as betspec's RAKE; _rakeTerms reads the rest). */
export interface HouseRake {
  basis_points: number;
  rounding: string;
  cap_per: string;
  from_street: string;
  rule: string;
}

/** How chips pushed or words said were ruled: the action taken, the rule that decided it. */
export interface Ruling {
  action: string;
  to: number | null;
  rule: string;
  source: string;
  text: string;
  returned: number;
  completed: number;
}

/** What a player said with (or instead of) his chips. */
export class Said {
  constructor(
    readonly fold = false,
    readonly check = false,
    readonly call = false,
    readonly bet = false,
    readonly raise_ = false,
    readonly to: number | null = null,
  ) {}
  get wager(): boolean {
    return this.bet || this.raise_;
  }
}

/** A declaration: a word, or a bet or raise with its amount. */
export type Say = string | { act: string; to: number } | null;

/** What the seat to act may do: legal actions, the call, the lowest and highest "to". */
export type View = readonly [readonly string[], number, number | null, number | null];
export const NO_VIEW: View = [[], 0, null, null];

/** One logged call: [seat, action, argument] (a deal is seat -1, a settlement -2). */
export type LogStep = [number, string, unknown];

/** One transition: [guard or null, effect or null, destination]. */
export type Step<E> = readonly [((m: E, to: number) => boolean) | null, ((m: E, to: number) => void) | null, string];

/** What every generated module tells the runtime of its spec. */
export interface SpecMeta {
  name: string;
  hash: string;
  rules: Readonly<Record<string, readonly [string, string]>>;
  procedureRules: Readonly<Record<string, string>>;
  streets: readonly string[];
  statePhase: Readonly<Record<string, string>>;
  initial: string;
  optionDefaults: Readonly<Record<string, number | boolean | string | null>>;
  options: Readonly<Record<string, Declared>>;
  inputs: Readonly<Record<string, Declared>>;
  dealInputs: Readonly<Record<string, Declared>>;
  settleLimit: number;
  /** The spec's own variables (besides the session ones, table inputs): name -> "hand" or "seat". */
  declaredVariables: Readonly<Record<string, string>>;
  /** The actions of the spec's own: each a method of the engine, named in camelCase. */
  ownActions: readonly string[];
  /** The house's rake, where the spec posts one. */
  rake?: HouseRake;
  /** The money the spec pays outside the pot, where it declares any. */
  payments?: readonly DeclaredPayment[];
}

/** The cards a spec's game deals and how its showdown ranks them, for a client's dealer (the
 * engine bets without cards): as betspec.cards.game_of reads the Python engine's GAME. */
export interface CardGame {
  name: string;
  /** A named deck ("standard", "short"), or the ranks and suits of a spec's own (Kuhn poker's "JQK" in "s"). */
  deck: string | { readonly ranks: string; readonly suits: string };
  deals: readonly {
    street: string;
    hole: readonly string[];
    board: number;
    draw: boolean;
    discard: number;
  }[];
  showdown: readonly string[];
  opening: string;
  rule: string;
  boards: number;
  boards_when: string;
}

/** What any table may give besides its spec's inputs: the pot a dead hand carried to it. */
export const CARRIED_POT = "carried_pot";
/** The phases of a hand that ends with no winner: settling it pays nobody. */
const DEAD_PHASES: readonly string[] = ["dead"];

const NOT_BOUND = 0;
const BOUND_TO_CALL = 1;
const BOUND_TO_WAGER = 2;
const BOUNDS: Record<string, [number, string]> = { below_minimum: [2, "at least"], above_maximum: [3, "at most"] };

export const SNAPSHOT_FORMAT = "betspec.snapshot";
export const SNAPSHOT_VERSION = 2;
export const MAX_LOG = 10_000;

function saying(said: Said): Say {
  if (said.to !== null) return { act: said.bet ? "bet" : "raise", to: said.to };
  for (const word of DECLARATIONS) {
    if (said[word === "raise" ? "raise_" : (word as "fold" | "check" | "call" | "bet")]) return word;
  }
  return null;
}

function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  return value === null || value === undefined || isInt(value) ? (value ?? null) : null;
}

/** One hand of one betting structure. Seats are 0..n-1 clockwise. */
export abstract class Engine {
  // The state, read by the generated code (not part of the API: use the getters).
  /** @internal */ _able_count = 0;
  /** @internal */ _acted: boolean[] = [];
  /** @internal */ _acted_at: number[] = [];
  /** @internal */ _actor = -1;
  /** @internal */ _announced = -1;
  /** @internal */ _behind: number[] = [];
  /** @internal */ _bet_level = 0;
  /** @internal */ _button = 0;
  /** @internal */ _contributed: number[] = [];
  /** @internal */ _dead = 0;
  /** @internal */ _dead_in: number[] = [];
  /** @internal */ _declared = NOT_BOUND;
  /** @internal */ _deferred = -1;
  /** @internal */ _folded: boolean[] = [];
  /** @internal */ _forced_raises = 0;
  /** @internal */ _last_full_level = 0;
  /** @internal */ _last_live = 0;
  /** @internal */ _last_raise = 0;
  /** @internal */ _live: number[] = [];
  /** @internal */ _log: LogStep[] = [];
  /** @internal */ _n = 0;
  /** @internal */ _nominal = 0;
  /** @internal */ _out_of_turn: Map<number, [number, number]> = new Map();
  /** @internal */ _paid = false;
  /** @internal */ _raked: [number, number] = [0, 0];
  /** @internal */ _paidOut: Payment[] = [];
  /** @internal */ _players_in = 0;
  /** @internal */ _posted_dead = 0;
  /** @internal */ _posted_live = 0;
  /** @internal */ _pot = 0;
  /** @internal */ _put_in: number[] = [];
  /** @internal */ _raises = 0;
  /** @internal */ _returned: number[] = [];
  /** @internal */ _won: number[] = [];
  /** @internal */ _start: { street: string; pot: number; inputs: Record<string, unknown> } | null = null;
  /** @internal */ _state = "";
  /** @internal */ _street = 0;
  /** @internal */ _table: { stacks: number[]; button: number; inputs: Record<string, unknown> } = { stacks: [], button: 0, inputs: {} };
  /** @internal */ _view: View | null = null;
  /** @internal */ _options: Record<string, number | boolean | string | null> = {};

  /** The spec this engine plays. */
  readonly meta: SpecMeta;

  protected constructor(meta: SpecMeta) {
    this.meta = meta;
  }

  /** The options given, checked as the spec declares them: unknown ones refused. */
  protected _givenOptions(options: unknown): Record<string, unknown> {
    if (options === undefined || options === null) return {};
    if (!isMapping(options)) throw new InvalidTable(`${this.meta.name} takes its options as an object, not ${typeName(options)}`);
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
  protected _setup(table: unknown, start: unknown): void {
    const checked = checkedTable(table);
    let begin: { street: string; pot: number; inputs: Record<string, unknown> } | null = null;
    if (start !== null && start !== undefined) {
      begin = checkedStart(start);
    } else if (checked.stacks.some((stack) => stack === 0)) {
      throw new InvalidTable("a seat with no chips is not dealt in (give every seat chips)");
    }
    let given = checked.inputs;
    let carried = 0;
    if (CARRIED_POT in given) {
      carried = chips(given[CARRIED_POT], "the carried pot");
      given = Object.fromEntries(Object.entries(given).filter(([name]) => name !== CARRIED_POT));
    }
    const total = checked.stacks.reduce((a, b) => a + b, 0) + (begin ? begin.pot : 0) + carried;
    if (total > MAX_TABLE_CHIPS) {
      throw new InvalidTable(`the TypeScript engines play tables of at most ${MAX_TABLE_CHIPS} chips in all, not ${total}`);
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
    this._put_in = new Array<number>(n).fill(0);
    this._contributed = new Array<number>(n).fill(0);
    this._folded = new Array<boolean>(n).fill(false);
    this._acted = new Array<boolean>(n).fill(false);
    this._acted_at = new Array<number>(n).fill(0);
    this._actor = -1;
    this._bet_level = 0;
    this._last_raise = 0;
    this._last_full_level = 0;
    this._raises = 0;
    this._street = 0;
    // A pot carried from a dead hand is in the middle from the start: dead money.
    this._pot = carried;
    this._dead = carried;
    this._dead_in = new Array<number>(n).fill(0);
    this._players_in = n;
    this._last_live = checked.button;
    this._deferred = -1;
    this._paid = false;
    this._returned = new Array<number>(n).fill(0);
    this._won = new Array<number>(n).fill(0);
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
    } else {
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

  // ---- what each generated class defines -----------------------------------------------------

  /** @internal */ protected abstract _begin(street: string | null): void;
  /** @internal */ protected abstract _loadInputs(given: Record<string, unknown>): void;
  /** @internal */ abstract _loadDeal(given: Record<string, unknown>): void;
  /** @internal */ protected abstract _computeRoles(): void;
  /** @internal */ abstract _postForcedBets(): void;
  /** @internal */ protected abstract _checkTable(): void;
  /** @internal */ abstract _playable(seat: number): number;
  /** @internal */ protected abstract _allInTo(): number;
  /** @internal */ protected abstract _refusal(action: string, seat: unknown, to: unknown): IllegalAction | null;
  /** @internal */ protected abstract _computeView(): View;
  /** @internal */ protected abstract _nextHand(): [number, Record<string, unknown>];
  /** @internal */ protected abstract _oddChipAfter(): number;
  /** @internal */ protected abstract _pushRuling(pushed: number, chips: number, largest: number, said: Said): [string, number | null, string];
  /** @internal */ protected abstract _dealOpen(): boolean;
  /** @internal */ protected abstract _takeDeal(): void;
  /** @internal */ protected abstract _automatic(): boolean;

  abstract fold(seat: number): void;
  abstract check(seat: number): void;
  abstract call(seat: number): void;
  abstract bet(seat: number, to: number): void;
  abstract raise(seat: number, to: number): void;
  abstract timeout(seat: number): void;

  /** Post the bring-in (stud): refused in a structure that has none. */
  bringIn(seat: number): void {
    this._requireTurn(seat, "bring_in", null);
    const rule = this.meta.procedureRules["unknown_action"] ?? "";
    throw this._reject("illegal_action", rule, seat, "bring_in", null, "this structure has no bring-in");
  }

  /** A raise to `to` (the same as `raise`). */
  raiseTo(seat: number, to: number): void {
    this.raise(seat, to);
  }

  /** @internal After an event: the automatic transitions whose guards hold, then the view forgotten. */
  protected _settle(): void {
    for (let i = 0; i < this.meta.settleLimit; i++) {
      if (!this._automatic()) break;
    }
    this._view = null;
  }

  // ---- questions ----------------------------------------------------------------------------

  /** @internal */
  protected _currentView(): View {
    return this._view ?? this._computeView();
  }

  /** The legal actions of the seat to act, sorted; empty when nobody is to act. */
  legalActions(): string[] {
    return [...this._currentView()[0]];
  }

  /** Chips the seat to act must add to call (0 when nobody is to act). */
  get callAmount(): number {
    return this._currentView()[1];
  }

  /** The smallest legal bet or raise "to" amount, or null when neither is legal. */
  get minTo(): number | null {
    return this._currentView()[2];
  }

  /** The largest legal bet or raise "to" amount, or null when neither is legal. */
  get maxTo(): number | null {
    return this._currentView()[3];
  }

  /** The seat whose decision is pending, or null. */
  get toAct(): number | null {
    return this._actor >= 0 ? this._actor : null;
  }

  /** The street a deal would open now, or null (none once the pots are paid). */
  get nextStreet(): string | null {
    if (this._paid || this._street + 1 >= this.meta.streets.length) return null;
    return this._dealOpen() ? (this.meta.streets[this._street + 1] ?? null) : null;
  }

  /** The street being played, `showdown` once the betting is over, `settled` once won uncontested. */
  get streetName(): string {
    const phase = this.phase;
    if (phase === "runout" || phase === "showdown") return "showdown";
    return phase === "settled" || phase === "dead" ? phase : (this.meta.streets[this._street] ?? "");
  }

  get phase(): string {
    return this.meta.statePhase[this._state] ?? "";
  }

  get state(): string {
    return this._state;
  }

  get roundOver(): boolean {
    return !BETTING_PHASES.includes(this.phase);
  }

  get handOver(): boolean {
    return HAND_OVER_PHASES.includes(this.phase);
  }

  get paid(): boolean {
    return this._paid;
  }

  get stacks(): number[] {
    return [...this._behind];
  }

  get committed(): number[] {
    return [...this._put_in];
  }

  get contributed(): number[] {
    return [...this._contributed];
  }

  /** What each seat has at stake: its chips put in less the dead money it posted. */
  get stakes(): number[] {
    return this._contributed.map((c, seat) => c - (this._dead_in[seat] ?? 0));
  }

  get folded(): boolean[] {
    return [...this._folded];
  }

  get seats(): number {
    return this._n;
  }

  get button(): number {
    return this._button;
  }

  get pot(): number {
    return this._pot;
  }

  get betLevel(): number {
    return this._bet_level;
  }

  get options(): Record<string, number | boolean | string | null> {
    return { ...this._options };
  }

  /** The table this hand was built from, as JSON. */
  get table(): TableJson {
    return { stacks: [...this._table.stacks], button: this._table.button, ...jsonCopy(this._table.inputs) };
  }

  /** The street and pot this hand started on, or null. */
  get start(): StartJson | null {
    if (this._start === null) return null;
    const data: StartJson = { street: this._start.street, pot: this._start.pot };
    if (Object.keys(this._start.inputs).length) data.inputs = jsonCopy(this._start.inputs);
    return data;
  }

  /** Every call made on the hand, in order: [seat, action, argument] (a copy). */
  get history(): LogStep[] {
    return jsonCopy(this._log);
  }

  /** Chips on the table: behind and in the middle, and what the house took from the pots as
   * they were paid (its rake and jackpot drop), less what its jackpot paid onto the table.
   * Constant for a hand. */
  totalChips(): number {
    return this._behind.reduce((a, b) => a + b, 0) + this._pot + this._raked[0] + this._raked[1] - this.jackpotPaid;
  }

  /** What the house's jackpot paid onto the table as the spec's payments say (a high-hand bonus). */
  get jackpotPaid(): number {
    return this._paidOut.reduce((sum, p) => sum + (p.payer === null ? p.amount : 0), 0);
  }

  /** What the house raked from the pots as they were paid (0 before, and without a rake). */
  get rake(): number {
    return this._raked[0];
  }

  /** What the house dropped from the main pot into its jackpot as the pots were paid. */
  get jackpotDrop(): number {
    return this._raked[1];
  }

  /** The money the settlement paid outside the pot, as the spec's payments say ([] before). */
  get payments(): Payment[] {
    return this._paidOut.map((p) => ({ ...p }));
  }

  // ---- pots and paying them -----------------------------------------------------------------

  /**
   * Main pot first, then side pots; each with the seats that can win it. The dead money (a big
   * blind ante, a blind posted dead, a start or carried pot) is the main pot's, which every seat
   * still in can win, whoever posted it: a seat all-in for dead money alone plays for it.
   */
  pots(): Pot[] {
    const deadIn = this._dead_in;
    const stakes = deadIn.some((d) => d !== 0) ? this.stakes : this._contributed;
    const dead = this._dead + deadIn.reduce((a, b) => a + b, 0);
    const everyone: number[] = [];
    for (let i = 0; i < this._n; i++) if (!this._folded[i]) everyone.push(i);
    // The dead money first, as a pot of its own; the lowest stake's pot joins it when the same
    // seats can win both (a stake of 0 still wins it).
    const pots: Pot[] = dead ? [{ amount: dead, eligible: [...everyone] }] : [];
    const live = [...new Set(stakes.filter((_, i) => !this._folded[i]))].sort((a, b) => a - b);
    let floor = 0;
    for (const level of live) {
      let amount = 0;
      for (const c of stakes) amount += Math.min(c, level) - Math.min(c, floor);
      const eligible = everyone.filter((i) => (stakes[i] ?? 0) >= level);
      const last = pots[pots.length - 1];
      if (last !== undefined && sameSeats(last.eligible, eligible)) {
        last.amount += amount;
      } else if (amount) {
        pots.push({ amount, eligible });
      }
      floor = level;
    }
    // Chips folded above every live level belong to the last pot there is.
    let excess = 0;
    for (const c of stakes) excess += Math.max(c - floor, 0);
    if (excess) {
      const last = pots[pots.length - 1];
      if (last === undefined) pots.push({ amount: excess, eligible: everyone });
      else last.amount += excess;
    }
    return pots;
  }

  /**
   * Pay the pots once the hand is over: `ranking` best first (seats, or lists of seats that tie),
   * or `runs` (one ranking per run of the board); `oddChipSeat` when the dealer gives the odd chip.
   */
  settle(ranking: unknown = null, given: { runs?: unknown; oddChipSeat?: unknown; shown?: unknown; made?: unknown } = {}): Settlement {
    const runs = given.runs ?? null;
    const oddChipSeat = given.oddChipSeat ?? null;
    const rule = this.meta.procedureRules["settle"] ?? "";
    if (!this.handOver) throw this._reject("round_not_over", rule, null, "settle", null, "the hand is not over");
    if (this._paid) throw this._reject("illegal_action", rule, null, "settle", null, "the pots are paid already");
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
    let orders: number[][][];
    if (runs !== null) {
      if (ranking !== null) throw this._reject("illegal_action", rule, null, "settle", null, "give a ranking or runs, not both");
      if (!Array.isArray(runs) || !runs.length || runs.length > 10) {
        throw this._reject("illegal_action", rule, null, "settle", null, "runs is a list of 1 to 10 rankings");
      }
      orders = runs.map((r) => this._ranked(r, contested));
    } else if (contested.length || ranking !== null) {
      orders = [this._ranked(ranking, contested)];
    } else {
      orders = [[]];
    }
    // Logged once checked (a ranking refused is never copied); the cards shown only where given
    // (the logs of hands before payments stay as they were).
    const logged: Record<string, unknown> = { ranking: plain(ranking), runs: plain(runs), odd_chip_seat: oddChipSeat };
    if (showing !== null) logged.shown = [...showing.entries()].sort((a, b) => a[0] - b[0]).map(([seat, cards]) => [seat, [...cards]]);
    if (making !== null) logged.made = [...making.entries()].sort((a, b) => a[0] - b[0]);
    if (dead) {
      this._paid = true;
      this._view = null;
      this._log.push([-2, "settle", logged]);
      return { awards: [], won: [...this._won], returned: [...this._returned], rake: 0, jackpot_drop: 0, payments: [] };
    }
    const n = this._n;
    const first = oddChipSeat === null ? this._oddChipAfter() : mod((oddChipSeat as number) - 1, n);
    const won = new Array<number>(n).fill(0);
    const awards: Award[] = [];
    const [takes, raked] = this._houseTakes(pots, contested.length > 0);
    pots.forEach((pot, index) => {
      const paid = pot.amount - (takes[index] as number);
      const portions = orders.map(() => Math.floor(paid / orders.length));
      portions[0] = (portions[0] as number) + paid - portions.reduce((a, b) => a + b, 0);
      orders.forEach((order, run) => {
        const portion = portions[run] as number;
        let winners: number[];
        if (pot.eligible.length === 1) {
          winners = [...pot.eligible];
        } else {
          const group = order.find((g) => g.some((s) => pot.eligible.includes(s))) as number[];
          winners = group.filter((s) => pot.eligible.includes(s));
        }
        winners.sort((a, b) => mod(a - first - 1, n) - mod(b - first - 1, n));
        const base = Math.floor(portion / winners.length);
        const odd = portion - base * winners.length;
        const shares = winners.map((_, i) => base + (i < odd ? 1 : 0));
        winners.forEach((seat, i) => {
          won[seat] = (won[seat] as number) + (shares[i] as number);
        });
        awards.push({ amount: portion, eligible: [...pot.eligible], winners, shares, run });
      });
    });
    won.forEach((amount, seat) => {
      this._behind[seat] = (this._behind[seat] as number) + amount;
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
  private _shown(given: unknown, rule: string): Map<number, readonly string[]> {
    const fail = (code: string, seat: unknown, why: string): never => {
      throw this._reject(code, rule, null, "settle", seat, why);
    };
    if (typeof given !== "object" || given === null || Array.isArray(given) || Object.keys(given).length > this._n) {
      fail("illegal_action", null, "shown maps seats to the cards they show");
    }
    const found = new Map<number, readonly string[]>();
    const seen = new Set<string>();
    for (const [key, cards] of Object.entries(given as Record<string, unknown>)) {
      const seat = /^(0|[1-9][0-9]*)$/.test(key) ? Number(key) : key;
      if (!isInt(seat) || seat >= this._n) fail("bad_seat", seat, "shown maps seats to the cards they show");
      if (!Array.isArray(cards) || cards.length > 10) fail("illegal_action", seat, `seat ${seat} shows a list of at most ten cards`);
      for (const card of cards as unknown[]) {
        if (!isCard(card)) fail("illegal_action", seat, `seat ${seat} shows ${shown(card)}: not a card`);
        if (seen.has(card as string)) fail("illegal_action", seat, `seat ${seat} shows ${shown(card)}: a card twice`);
        seen.add(card as string);
      }
      found.set(seat as number, [...(cards as string[])]);
    }
    return found;
  }

  /** What each seat's hand makes, checked (as the Python runtime's Engine._made). */
  private _made(given: unknown, rule: string): Map<number, string> {
    const fail = (code: string, seat: unknown, why: string): never => {
      throw this._reject(code, rule, null, "settle", seat, why);
    };
    if (typeof given !== "object" || given === null || Array.isArray(given) || Object.keys(given).length > this._n) {
      fail("illegal_action", null, "made maps seats to the hands they make");
    }
    const found = new Map<number, string>();
    for (const [key, hand] of Object.entries(given as Record<string, unknown>)) {
      const seat = /^(0|[1-9][0-9]*)$/.test(key) ? Number(key) : key;
      if (!isInt(seat) || seat >= this._n) fail("bad_seat", seat, "made maps seats to the hands they make");
      if (typeof hand !== "string" || !HAND_CATEGORIES.includes(hand)) {
        fail("illegal_action", seat, `seat ${seat} makes ${shown(hand)}: not a hand (${HAND_CATEGORIES.join(", ")})`);
      }
      found.set(seat as number, hand as string);
    }
    return found;
  }

  /** The spec's payments outside the pot, once the pots are paid (as Engine._pay_outside). */
  private _payOutside(shown: Map<number, readonly string[]>, made: Map<number, string>, showdown: boolean): Payment[] {
    const winner = this._settled_winner();
    if (winner === null) return [];
    const paidOut: Payment[] = [];
    const amounts = this._paymentAmounts();
    (this.meta.payments ?? []).forEach((payment, index) => {
      const amount = amounts[index] as number;
      if (amount <= 0 || (payment.showdown && !showdown)) return;
      if (!shows(shown.get(winner) ?? [], payment.ranks, payment.suited)) return;
      if (payment.makes !== undefined && !payment.makes.includes(made.get(winner) ?? "")) return;
      if (payment.from === "jackpot") {
        this._behind[winner] = (this._behind[winner] as number) + amount;
        paidOut.push({ name: payment.name, payer: null, payee: winner, amount });
        return;
      }
      for (let seat = 0; seat < this._n; seat++) {
        const paid = seat !== winner ? Math.min(amount, this._behind[seat] as number) : 0;
        if (paid > 0) {
          this._behind[seat] = (this._behind[seat] as number) - paid;
          this._behind[winner] = (this._behind[winner] as number) + paid;
          paidOut.push({ name: payment.name, payer: seat, payee: winner, amount: paid });
        }
      }
    });
    return paidOut;
  }

  /** What each of the spec's payments outside the pot is, read about the hand (generated where
   * the spec declares payments). */
  protected _paymentAmounts(): number[] {
    return [];
  }

  /** What the house takes from each pot before it is paid, as the spec's rake says, and its rake
   * and jackpot drop in all (as the Python runtime's Engine._house_takes: the same rules, in
   * whole chips; a pot's percentage computed in parts so that no product passes 2^53). */
  private _houseTakes(pots: Pot[], showdown: boolean): [number[], [number, number]] {
    const takes = pots.map(() => 0);
    const rake = this.meta.rake;
    if (rake === undefined || pots.length === 0) return [takes, [0, 0]];
    const street = rake.from_street;
    if (street && !showdown && this._street < this.meta.streets.indexOf(street)) return [takes, [0, 0]];
    const [unit, cap, minimum, drop, dropMinimum] = this._rakeTerms();
    const total = pots.reduce((sum, pot) => sum + pot.amount, 0);
    if (total < minimum) return [takes, [0, 0]];
    const perPot = rake.cap_per === "pot";
    let taken = 0;
    pots.forEach((pot, index) => {
      const whole = Math.floor(pot.amount / 10000);
      const rest = (pot.amount - whole * 10000) * rake.basis_points;
      let share = whole * rake.basis_points + Math.floor(rest / 10000);
      const part = rest % 10000;
      if (rake.rounding === "half_even" && (2 * part > 10000 || (2 * part === 10000 && share % 2 === 1))) share += 1;
      if (unit > 1) share -= share % unit;
      if (cap !== null) share = Math.min(share, perPot ? cap : cap - taken);
      share = Math.max(0, Math.min(share, pot.amount));
      takes[index] = share;
      taken += share;
    });
    let dropped = 0;
    if (drop > 0 && total >= dropMinimum) {
      dropped = Math.min(drop, (pots[0] as Pot).amount - (takes[0] as number));
      takes[0] = (takes[0] as number) + dropped;
    }
    return [takes, [taken, dropped]];
  }

  /** The rake's chip unit, cap (null: none), minimum pot, jackpot drop and the drop's minimum
   * pot, read about the hand (generated where the spec posts a rake). */
  protected _rakeTerms(): [number, number | null, number, number, number] {
    return [1, null, 0, 0, 0];
  }

  /** @internal A ranking checked: groups of seats best first, every contested seat in it once. */
  protected _ranked(ranking: unknown, contested: Pot[]): number[][] {
    const rule = this.meta.procedureRules["settle"] ?? "";
    if (!Array.isArray(ranking)) {
      throw this._reject("illegal_action", rule, null, "settle", null, "the showdown needs a ranking (seats best first)");
    }
    if (ranking.length > this._n) {
      throw this._reject("illegal_action", rule, null, "settle", null, `a ranking lists each of the ${this._n} seats once at most`);
    }
    const order: number[][] = [];
    const seen = new Set<number>();
    for (const entry of ranking) {
      const group: number[] = [];
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
      if (group.length) order.push(group);
    }
    const missing = [...new Set(contested.flatMap((p) => p.eligible))].filter((s) => !seen.has(s)).sort((a, b) => a - b);
    if (missing.length) {
      throw this._reject("illegal_action", rule, null, "settle", null, `seat ${missing[0]} shows down and is not ranked`);
    }
    return order;
  }

  /** @internal The next seat clockwise after `seat` that has chips (`seat` itself if none has). */
  _next_live(seat: number): number {
    for (let step = 1; step <= this._n; step++) {
      const other = mod(seat + step, this._n);
      if ((this._behind[other] as number) > 0) return other;
    }
    return seat;
  }

  /** @internal The previous seat before `seat` that has chips. */
  _prev_live(seat: number): number {
    for (let step = 1; step <= this._n; step++) {
      const other = mod(seat - step, this._n);
      if ((this._behind[other] as number) > 0) return other;
    }
    return seat;
  }

  /** @internal */
  _seats_left(): number {
    return this._behind.filter((stack) => stack > 0).length;
  }

  /** The table of the next hand, once this one is paid (the spec's `next_hand`). */
  nextTable(): TableJson {
    if (!this._paid) throw new InvalidTable("settle the hand before the next: its pots are not paid");
    const live: number[] = [];
    for (let seat = 0; seat < this._n; seat++) if ((this._behind[seat] as number) > 0) live.push(seat);
    if (live.length < 2) throw new InvalidTable("the session is over: fewer than two seats have chips");
    const [button, given] = this._nextHand();
    const inputs: Record<string, unknown> = {};
    for (const [name, found] of [...Object.entries(this._table.inputs), ...Object.entries(given)]) {
      const declared = this.meta.inputs[name];
      if (declared === undefined || (declared.hand && !(name in given))) continue;
      let value: unknown = declared.perSeat && Array.isArray(found) ? live.map((seat) => found[seat]) : jsonCopy(found);
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
    if (this._pot) inputs[CARRIED_POT] = this._pot; // a dead hand's pot, the next deal's dead money
    const index = live.indexOf(button);
    return { stacks: live.map((seat) => this._behind[seat] as number), button: index < 0 ? 0 : index, ...inputs };
  }

  // ---- what next_hand reads of the settlement -------------------------------------------------

  /** @internal The one seat the settlement paid, or null (nobody, or pots split). */
  _settled_winner(): number | null {
    const paid: number[] = [];
    this._won.forEach((amount, seat) => {
      if (amount > 0) paid.push(seat);
    });
    return paid.length === 1 ? (paid[0] as number) : null;
  }

  /** @internal What the winner was paid less what he put in (0 without a winner). */
  _settled_winner_profit(): number {
    const winner = this._settled_winner();
    return winner === null ? 0 : (this._won[winner] as number) - (this._contributed[winner] as number);
  }

  /** @internal */
  _settled_pot_paid(): number {
    return this._won.reduce((a, b) => a + b, 0);
  }

  /** @internal The chips a dead hand leaves in the middle (the next table's carried pot). */
  _settled_pot_carried(): number {
    return this._paid ? this._pot : 0;
  }

  /** The spec's own variables as they are now (a seat's as a list by seat); session ones are table inputs. */
  get variables(): Record<string, unknown> {
    const fields = this as unknown as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [name, scope] of Object.entries(this.meta.declaredVariables)) {
      const value = fields[`_v_${name}`];
      out[name] = scope === "seat" && Array.isArray(value) ? [...value] : value;
    }
    return out;
  }

  // ---- variables the specs read ------------------------------------------------------------

  /** @internal */
  _pending(): number {
    if (this._actor < 0) return 0;
    let count = 0;
    for (let seat = 0; seat < this._n; seat++) {
      if (!this._folded[seat] && (this._live[seat] as number) > 0 && (!this._acted[seat] || (this._put_in[seat] as number) < this._bet_level)) count++;
    }
    return count;
  }

  /** @internal */
  _others_able(): number {
    const mine = this._actor >= 0 && (this._live[this._actor] as number) > 0 ? 1 : 0;
    return this._able_count - mine;
  }

  /** @internal */
  _able_owing(): number {
    const level = this._bet_level;
    let count = 0;
    for (let seat = 0; seat < this._n; seat++) {
      if ((this._put_in[seat] as number) < level && (this._live[seat] as number) > 0 && !this._folded[seat]) count++;
    }
    return count;
  }

  /** @internal */
  _answerable(): boolean {
    const level = this._bet_level;
    for (let seat = 0; seat < this._n; seat++) {
      if ((this._put_in[seat] as number) + (this._live[seat] as number) > level && !this._folded[seat] && seat !== this._actor) return true;
    }
    return false;
  }

  /** @internal Whether `seat` declared out of turn on this street. */
  _oot_declared(seat: number): boolean {
    return this._out_of_turn.has(seat);
  }

  /** @internal The amount `seat` declared out of turn (0 if none). */
  _oot_to(seat: number): number {
    return this._out_of_turn.get(seat)?.[0] ?? 0;
  }

  /** @internal The bet level when `seat` declared out of turn (0 if none). */
  _oot_level(seat: number): number {
    return this._out_of_turn.get(seat)?.[1] ?? 0;
  }

  // ---- primitives the specs' effects call --------------------------------------------------

  /** @internal */
  _put(seat: number, amount: number): void {
    this._behind[seat] = (this._behind[seat] as number) - amount;
    this._contributed[seat] = (this._contributed[seat] as number) + amount;
    this._pot += amount;
    const before = this._live[seat] as number;
    const after = this._playable(seat);
    this._live[seat] = after;
    if (before > 0 !== after > 0 && !this._folded[seat]) this._able_count += after > 0 ? 1 : -1;
  }

  /** @internal `seat` posts the forced bet `what` (see Engine._post of the Python runtime). */
  _post(seat: number, amount: number, what: string, live: boolean, deadMoney: boolean, order: string, inFull: boolean): void {
    if (amount < 0) throw new InvalidTable(`the ${what} comes to ${amount} chips: a forced bet is not negative`);
    if (!(seat >= 0 && seat < this._n)) throw new InvalidTable(`the ${what} falls on seat ${seat}, which is not at this table`);
    const behind = this._behind[seat] as number;
    if (inFull && behind < amount) throw new InvalidTable(`seat ${seat} cannot post the ${what} of ${amount} in full: it has ${behind}`);
    const option = order !== "in_turn" && amount >= this._nominal && amount > 0;
    if (option) {
      if (order === "starts_after") this._last_live = seat;
      else this._deferred = seat;
    }
    const paid = amount <= behind ? amount : behind;
    if (paid > 0) this._put(seat, paid);
    if (!live) {
      this._posted_dead += paid;
      if (deadMoney) this._dead_in[seat] = (this._dead_in[seat] as number) + paid;
      return;
    }
    this._posted_live += paid;
    const put = (this._put_in[seat] as number) + paid;
    this._put_in[seat] = put;
    if (put > this._bet_level) this._bet_level = put;
    if (amount > this._nominal) {
      this._nominal = amount;
      if (option) this._forced_raises += 1;
    }
  }

  /** @internal */
  _begin_street(street: number): void {
    this._street = street;
    const n = this._n;
    this._put_in = new Array<number>(n).fill(0);
    this._acted = new Array<boolean>(n).fill(false);
    this._acted_at = new Array<number>(n).fill(0);
    this._bet_level = 0;
    this._out_of_turn = new Map();
    this._announced = -1;
    this._actor = -1;
    this._deferred = -1;
  }

  /** @internal Every seat, clockwise from the button's left (the button last). */
  _from_button(): number[] {
    const seats: number[] = [];
    for (let i = 1; i <= this._n; i++) seats.push(mod(this._button + i, this._n));
    return seats;
  }

  /** @internal */
  _open_betting(after: number): void {
    this._actor = this._next_needing_action(after);
  }

  /** @internal */
  _commit(to: number): void {
    const seat = this._actor;
    const amount = to - (this._put_in[seat] as number);
    this._put(seat, amount);
    this._put_in[seat] = to;
    if (to > this._bet_level) this._bet_level = to;
    // Nothing put in and still short of the bet: no action on it (Engine._commit).
    if (amount !== 0 || to >= this._bet_level) this._mark_acted(seat);
  }

  /** @internal */
  _mark_checked(): void {
    this._mark_acted(this._actor);
  }

  /** @internal */
  _mark_folded(): void {
    const seat = this._actor;
    if ((this._live[seat] as number) > 0) this._able_count -= 1;
    this._folded[seat] = true;
    this._players_in -= 1;
    this._mark_acted(seat);
  }

  /** @internal */
  _mark_acted(seat: number): void {
    if (seat === this._deferred) this._deferred = -1;
    this._out_of_turn.delete(seat);
    this._declared = NOT_BOUND;
    this._acted[seat] = true;
    this._acted_at[seat] = this._bet_level;
  }

  /** @internal */
  _pass_action(): void {
    this._actor = this._next_needing_action(this._actor);
  }

  /** @internal End the betting round: a bet nobody matched goes back to its owner. */
  _close_round(): void {
    this._actor = -1;
    let top = 0;
    for (let i = 1; i < this._n; i++) if ((this._put_in[i] as number) > (this._put_in[top] as number)) top = i;
    let second = 0;
    for (let i = 0; i < this._n; i++) if (i !== top) second = Math.max(second, this._put_in[i] as number);
    const uncalled = (this._put_in[top] as number) - second;
    if (uncalled > 0) {
      this._put(top, -uncalled);
      this._put_in[top] = second;
      this._returned[top] = (this._returned[top] as number) + uncalled;
    }
  }

  /** @internal */
  _deal_runout(street: number): void {
    this._street = street;
  }

  /** @internal */
  _next_needing_action(after: number): number {
    const n = this._n;
    const level = this._bet_level;
    const deferred = this._deferred;
    for (let step = 1; step <= n; step++) {
      const seat = mod(after + step, n);
      if ((this._live[seat] as number) > 0 && !this._folded[seat] && (!this._acted[seat] || (this._put_in[seat] as number) < level) && seat !== deferred) {
        return seat;
      }
    }
    if (deferred < 0 || (this._live[deferred] as number) <= 0 || this._folded[deferred]) return -1;
    return !this._acted[deferred] || (this._put_in[deferred] as number) < level ? deferred : -1;
  }

  // ---- rejections ----------------------------------------------------------------------------

  /** @internal The error for an illegal action: its code, what was tried, why, and the rule cited. */
  _reject(code: string, rule: string, seat: unknown, action: string, amount: unknown, why = ""): IllegalAction {
    const [text, source] = this.meta.rules[rule] ?? ["", ""];
    let tried: string;
    if (seat === null && action === "deal") tried = `deal ${shown(amount)}`;
    else if (seat === null) tried = action + (amount === null || amount === undefined ? "" : ` ${shown(amount)}`);
    else tried = `seat ${shown(seat)} ${action}` + (amount === null || amount === undefined ? "" : ` ${shown(amount)}`);
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
  _requireTurn(seat: unknown, action: string, amount: unknown): void {
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
  _requireAmount(seat: unknown, action: string, amount: unknown): void {
    // An integer past MAX_CHIPS first (which no table holds), as Python tells it, whether or not
    // a number holds it exactly.
    if (typeof amount === "number" && Number.isInteger(amount) && amount > MAX_CHIPS) {
      const why = `an amount is at most ${MAX_CHIPS} chips, the most a table holds`;
      throw this._reject("bad_amount", this.meta.procedureRules["bad_amount"] ?? "", seat, action, amount, why);
    }
    if (!isInt(amount) || amount < 0) {
      const why = "an amount is a non-negative whole number of chips";
      throw this._reject("bad_amount", this.meta.procedureRules["bad_amount"] ?? "", seat, action, amount, why);
    }
  }

  /** @internal */
  _noAmount(seat: unknown, action: string, amount: unknown): void {
    if (amount !== null && amount !== undefined) {
      throw this._reject("bad_amount", this.meta.procedureRules["bad_amount"] ?? "", seat, action, amount, `${action} takes no amount`);
    }
  }

  // ---- table procedures: chips pushed, words said, declarations out of turn -------------------

  /** @internal */
  protected _said(seat: unknown, say: unknown): Said {
    if (say === null || say === undefined) return new Said();
    if (typeof say === "string" && DECLARATIONS.includes(say)) {
      return new Said(say === "fold", say === "check", say === "call", say === "bet", say === "raise");
    }
    if (isMapping(say)) {
      const keys = Object.keys(say).sort();
      if (keys.length === 2 && keys[0] === "act" && keys[1] === "to" && typeof say.act === "string" && WAGERS.includes(say.act)) {
        const to = say.to;
        if (!(typeof to === "number" && Number.isInteger(to) && to >= 0 && to <= MAX_CHIPS)) {
          const why = `a declared amount is a whole number of chips, at most ${MAX_CHIPS}`;
          throw this._reject("bad_amount", this.meta.procedureRules["bad_amount"] ?? "", seat, "say", to, why);
        }
        return new Said(false, false, false, say.act === "bet", say.act === "raise", to);
      }
    }
    const why = 'a declaration is "fold", "check", "call", "bet", "raise" or {"act": "bet" | "raise", "to": N}';
    throw this._reject("illegal_action", this.meta.procedureRules["unknown_action"] ?? "", seat, "say", say, why);
  }

  /** @internal */
  protected _wagerRefusal(seat: number): IllegalAction | null {
    return this._refusal(this._bet_level === 0 ? "bet" : "raise", seat, null);
  }

  /** @internal */
  protected _rule(seat: number, pushed: number, count: number, largest: number, said: Said): Ruling {
    if (said.wager && said.to === null) {
      const refusal = this._wagerRefusal(seat);
      if (refusal !== null) throw refusal;
    }
    if (this._declared === BOUND_TO_WAGER && !said.wager) {
      said = new Said(said.fold, said.check, said.call, true, false, said.to);
    }
    const [ruling, to, rule] = this._pushRuling(pushed, count, largest, said);
    const [text, source] = this.meta.rules[rule] ?? ["", ""];
    const before = this._behind[seat] as number;
    if (ruling === "withdraw") {
      this._declared = BOUND_TO_CALL;
      this._view = null;
      return { action: "withdraw", to: null, rule, source, text, returned: pushed, completed: 0 };
    }
    let action: string;
    if (ruling === "wager") {
      action = this._bet_level === 0 ? "bet" : "raise";
      this.act(seat, action, to);
      if (said.to !== null) this._announced = this._bet_level;
    } else {
      action = ruling;
      this.act(seat, ruling);
    }
    const taken = before - (this._behind[seat] as number);
    const final = ["bet", "raise", "call"].includes(action) ? (this._put_in[seat] as number) : null;
    return { action, to: final, rule, source, text, returned: Math.max(pushed - taken, 0), completed: Math.max(taken - pushed, 0) };
  }

  /** @internal */
  protected _logged(mark: number, entry: LogStep): void {
    this._log.splice(mark);
    this._log.push(entry);
  }

  /** Chips pushed forward in one motion (1 to 100 chip values), with what was said: ruled, then taken. */
  push(seat: number, pushedChips: readonly number[], say: Say = null): Ruling {
    if (!isInt(seat) || seat !== this._actor || this._actor < 0) this._requireTurn(seat, "push", null);
    const rule = this.meta.procedureRules["bad_amount"] ?? "";
    if (!Array.isArray(pushedChips) || !(pushedChips.length > 0 && pushedChips.length <= 100)) {
      throw this._reject("bad_amount", rule, seat, "push", pushedChips, "chips are a list of 1 to 100 chip values");
    }
    const list = [...pushedChips] as unknown[];
    if (list.some((chip) => !(typeof chip === "number" && Number.isInteger(chip) && chip > 0 && chip <= MAX_CHIPS))) {
      throw this._reject("bad_amount", rule, seat, "push", list, `a chip is worth a whole number from 1 to ${MAX_CHIPS}`);
    }
    const values = list as number[];
    const pushed = values.reduce((a, b) => a + b, 0);
    if (pushed > (this._behind[seat] as number)) {
      throw this._reject("bad_amount", rule, seat, "push", pushed, `the seat has ${this._behind[seat]} chips behind`);
    }
    const said = this._said(seat, this._plainSay(seat, say));
    const mark = this._log.length;
    const ruling = this._rule(seat, pushed, values.length, Math.max(...values), said);
    this._logged(mark, [seat, "push", { chips: [...values], say: saying(said) }]);
    return ruling;
  }

  /** A binding verbal declaration in turn (no chips yet). */
  declare(seat: number, say: Say): Ruling {
    if (!isInt(seat) || seat !== this._actor || this._actor < 0) this._requireTurn(seat, "say", null);
    const said = this._said(seat, this._plainSay(seat, say));
    if (said.wager && said.to === null) {
      const refusal = this._wagerRefusal(seat);
      if (refusal !== null) throw refusal;
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
  protected _plainSay(seat: unknown, say: unknown): unknown {
    if (!isMapping(say)) return say;
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
  declareOutOfTurn(seat: number, act: string, to: number | null = null): void {
    const name = typeof act === "string" && OUT_OF_TURN_DECLARATIONS.includes(act) ? act : "out of turn";
    if (!isInt(seat)) this._requireTurn(seat, name, to);
    if (this._actor < 0) {
      throw this._reject("no_action_pending", this.meta.procedureRules["no_action_pending"] ?? "", seat, name, to);
    }
    const rule = this.meta.procedureRules["out_of_turn"] ?? "";
    if (!(seat >= 0 && seat < this._n) || this._folded[seat] || this._live[seat] === 0) {
      throw this._reject("illegal_action", rule, seat, name, to, "not a seat still to act in this hand");
    }
    if (seat === this._actor) throw this._reject("illegal_action", rule, seat, name, to, "this seat is to act: it declares in turn");
    if (name !== act) throw this._reject("illegal_action", rule, seat, "out of turn", act, "declares check, call, bet or raise");
    if (WAGERS.includes(act)) {
      this._requireAmount(seat, act, to);
      if ((to as number) > this.totalChips()) {
        const why = `more chips than the table holds (${this.totalChips()})`;
        throw this._reject("bad_amount", this.meta.procedureRules["bad_amount"] ?? "", seat, act, to, why);
      }
    } else {
      this._noAmount(seat, act, to);
    }
    const amount = to ?? (act === "call" ? this._bet_level : 0);
    this._out_of_turn.set(seat, [amount, this._bet_level]);
    this._log.push([seat, "out_of_turn", { act, to: to ?? null }]);
    this._view = null;
  }

  /** Commit every chip the seat can: a call, a bet or a raise by what it amounts to. */
  allIn(seat: number): void {
    if (seat !== this._actor || this._actor < 0 || !isInt(seat)) this._requireTurn(seat, "all_in", null);
    const to = this._allInTo();
    const mark = this._log.length;
    if (to <= this._bet_level) this.call(seat);
    else if (this._bet_level === 0) this.bet(seat, to);
    else this.raise(seat, to);
    this._logged(mark, [seat, "all_in", null]);
  }

  /** Dispatch by name: fold, check, call, bet, raise, all_in, timeout or bring_in. */
  act(seat: number, action: string, to: number | null = null): void {
    if (typeof action === "string" && (action === "bet" || action === "raise")) {
      if (to === null || to === undefined) {
        throw this._reject("bad_amount", this.meta.procedureRules["bad_amount"] ?? "", seat, action, null, "a bet or raise needs a 'to' amount");
      }
      if (action === "bet") this.bet(seat, to);
      else this.raise(seat, to);
      return;
    }
    if (typeof action === "string" && this.meta.ownActions.includes(action)) {
      // An action of the spec's own: the method of its name in camelCase.
      if (to !== null && to !== undefined) this._noAmount(seat, action, to);
      const method = action.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
      (this as unknown as Record<string, (seat: number) => void>)[method]?.call(this, seat);
      return;
    }
    if (typeof action !== "string" || !ACT_NAMES.includes(action) || WAGERS.includes(action)) {
      throw this._reject("illegal_action", this.meta.procedureRules["unknown_action"] ?? "", seat, shown(action), to, "unknown action");
    }
    if (to !== null && to !== undefined) this._noAmount(seat, action, to);
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
  protected _logDeal(street: string, given: Record<string, unknown>): void {
    this._log.push([-1, street, Object.keys(given).length ? jsonCopy(given) : null]);
  }

  // ---- snapshots --------------------------------------------------------------------------------

  /** The state a log leads to, as a snapshot stores it. */
  observed(): Record<string, unknown> {
    const outOfTurn = [...this._out_of_turn.entries()].map(([seat, [to, level]]) => [seat, to, level]);
    outOfTurn.sort((a, b) => (a[0] as number) - (b[0] as number) || (a[1] as number) - (b[1] as number) || (a[2] as number) - (b[2] as number));
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
  snapshot(): Record<string, unknown> {
    return {
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
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

function sameSeats(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((seat, i) => seat === b[i]);
}

/** Deep equality of JSON values. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  if (isMapping(a) && isMapping(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** An engine class as generated: built from a table, its options and a start. */
export type EngineClass<E extends Engine = Engine> = new (table: TableJson, options?: Record<string, unknown>, start?: StartJson | null) => E;

/** A settlement's cards shown or hands made, as logged: [seat, value] pairs (JSON has no int
 * keys), read back as an object by seat (null where not logged); settle checks the values. */
function bySeat(pairs: unknown, name: string, where: string): Record<string, unknown> | null {
  if (pairs === undefined || pairs === null) return null;
  const require = (ok: boolean, message: string): void => {
    if (!ok) throw new SnapshotError(message);
  };
  require(Array.isArray(pairs) && pairs.every((p) => Array.isArray(p) && p.length === 2), `${where}: ${name} is not [seat, value] pairs`);
  const seats = (pairs as unknown[][]).map((p) => p[0]);
  require(seats.every(isInt), `${where}: ${name} names a seat that is not a number`);
  require(new Set(seats).size === seats.length, `${where}: a seat in ${name} twice`);
  return Object.fromEntries((pairs as unknown[][]).map((p) => [String(p[0]), p[1]]));
}

function replay(engine: Engine, number: number, step: unknown): void {
  const where = `log step ${number}`;
  const require = (ok: boolean, message: string): void => {
    if (!ok) throw new SnapshotError(message);
  };
  if (!Array.isArray(step) || step.length !== 3) throw new SnapshotError(`${where} is not [seat, action, argument]`);
  const [seat, action, argument] = step as [unknown, unknown, unknown];
  require(typeof action === "string", `${where}: the action is not a name: ${shown(action)}`);
  const name = action as string;
  if (seat === -1) {
    require(argument === null || isMapping(argument), `${where} is not a deal`);
    const given = (argument ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(given)) require(key in engine.meta.dealInputs, `${where}: a deal gives no ${shown(key)}`);
    (engine as unknown as { deal(street: string, given?: Record<string, unknown>): void }).deal(name, given);
    return;
  }
  if (seat === -2 && name === "settle") {
    const keys = isMapping(argument) ? Object.keys(argument) : [];
    const ok = ["odd_chip_seat", "ranking", "runs"].every((k) => keys.includes(k)) && keys.every((k) => ["odd_chip_seat", "ranking", "runs", "shown", "made"].includes(k));
    require(isMapping(argument) && ok, `${where}: not a settlement`);
    const given = argument as Record<string, unknown>;
    engine.settle(given.ranking ?? null, {
      runs: given.runs ?? null,
      oddChipSeat: given.odd_chip_seat ?? null,
      shown: bySeat(given.shown, "shown", where),
      made: bySeat(given.made, "made", where),
    });
    return;
  }
  require(isInt(seat) && seat >= 0 && seat < engine.seats, `${where}: seat ${shown(seat)} out of range`);
  const s = seat as number;
  if ((ACT_NAMES.includes(name) && !WAGERS.includes(name)) || engine.meta.ownActions.includes(name)) {
    require(argument === null, `${where}: ${name} takes no amount`);
    engine.act(s, name);
  } else if (WAGERS.includes(name)) {
    require(isInt(argument), `${where}: ${name} needs an amount`);
    engine.act(s, name, argument as number);
  } else if (name === "push") {
    require(isMapping(argument) && jsonEqual(Object.keys(argument).sort(), ["chips", "say"]), `${where}: not a push`);
    const given = argument as { chips: number[]; say: Say };
    engine.push(s, given.chips, given.say);
  } else if (name === "declare") {
    engine.declare(s, argument as Say);
  } else if (name === "out_of_turn") {
    require(isMapping(argument) && jsonEqual(Object.keys(argument).sort(), ["act", "to"]), `${where}: not a declaration`);
    const given = argument as { act: string; to: number | null };
    engine.declareOutOfTurn(s, given.act, given.to);
  } else {
    throw new SnapshotError(`${where}: unknown action ${shown(name)}`);
  }
}

export const MAX_VALUES = 400_000;
export const MAX_TEXT = 1_000_000;
export const MAX_DEPTH = 12;

/** Refuse a snapshot beyond the Python engine's bounds (values, text, nesting), before reading it. */
function bounded(data: unknown): void {
  let values = 1;
  let text = 0;
  const pending: [unknown, number][] = [[data, 0]];
  while (pending.length) {
    const [value, depth] = pending.pop() as [unknown, number];
    if (typeof value === "string") {
      text += value.length;
      if (text > MAX_TEXT) throw new SnapshotError(`the snapshot holds more than ${MAX_TEXT} characters of text`);
    } else if (typeof value === "number") {
      if (Number.isInteger(value) && !Number.isSafeInteger(value)) throw new SnapshotError(`${shown(value)} is out of range`);
    } else if (Array.isArray(value) || isMapping(value)) {
      if (depth >= MAX_DEPTH) throw new SnapshotError(`nested more than ${MAX_DEPTH} deep`);
      const items = Array.isArray(value) ? value : Object.entries(value).map(([key, item]) => {
        text += key.length;
        return item;
      });
      values += items.length;
      if (values > MAX_VALUES) throw new SnapshotError(`the snapshot holds more than ${MAX_VALUES} values`);
      for (const item of items) pending.push([item, depth + 1]);
    } else if (value !== null && typeof value !== "boolean") {
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
export function copyHand<E extends Engine>(engine: E): E {
  if (!(engine instanceof Engine)) throw new TypeError(`copyHand copies an engine's hand, not ${typeName(engine)}`);
  const twin = Object.create(Object.getPrototypeOf(engine) as object) as E;
  for (const [name, value] of Object.entries(engine)) {
    let copied: unknown = value;
    if (Array.isArray(value)) {
      copied = value.map((item: unknown) => (Array.isArray(item) ? [...item] : item));
    } else if (value instanceof Map) {
      copied = new Map(Array.from(value, ([key, item]: [unknown, unknown]) => [key, Array.isArray(item) ? [...item] : item]));
    } else if (value instanceof Set) {
      copied = new Set(value);
    }
    Object.defineProperty(twin, name, { value: copied, writable: true, enumerable: true, configurable: true });
  }
  twin._view = null;
  return twin;
}

/** The hand a snapshot was taken from (by this engine or the Python one); raises SnapshotError. */
export function restore<E extends Engine>(data: unknown, cls: EngineClass<E>, meta: SpecMeta): E {
  const require = (ok: boolean, message: string): void => {
    if (!ok) throw new SnapshotError(message);
  };
  require(isMapping(data), "a snapshot is a JSON object");
  const snap = data as Record<string, unknown>;
  require(snap.format === SNAPSHOT_FORMAT, `not a betspec snapshot (format ${shown(snap.format)})`);
  require(snap.version === SNAPSHOT_VERSION, `snapshot version ${shown(snap.version)} is not supported (this betspec reads ${SNAPSHOT_VERSION})`);
  const log = snap.log;
  if (!Array.isArray(log)) throw new SnapshotError("the log is not a list of steps");
  require(log.length <= MAX_LOG, `the log has ${log.length} steps: a snapshot holds at most ${MAX_LOG}`);
  bounded(snap);
  const spec = snap.spec;
  require(typeof spec === "string" && /^[a-z][a-z0-9_]{0,63}$/.test(spec), `bad spec name ${shown(spec)}`);
  require(spec === meta.name, `the snapshot is of ${shown(spec)}, not ${shown(meta.name)}`);
  require(
    snap.spec_hash === meta.hash,
    `the snapshot was taken under another version of spec ${shown(spec)} (hash ${shown(snap.spec_hash).slice(0, 14)}..., this engine ${meta.hash.slice(0, 12)}...): its rules may differ`,
  );
  const options = snap.options;
  require(isMapping(options) && jsonEqual(Object.keys(options).sort(), Object.keys(meta.optionDefaults).sort()), "options do not match the spec's");
  let engine: E;
  try {
    const start = snap.start === null || snap.start === undefined ? null : (snap.start as StartJson);
    engine = new cls(snap.table as TableJson, options as Record<string, unknown>, start);
  } catch (error) {
    if (error instanceof BetspecError) throw new SnapshotError(`the table cannot be rebuilt: ${error.message}`);
    throw error;
  }
  log.forEach((step, number) => {
    try {
      replay(engine, number, step);
    } catch (error) {
      if (error instanceof SnapshotError) throw error;
      if (error instanceof BetspecError) throw new SnapshotError(`log step ${number} does not replay: ${error.message}`);
      throw error;
    }
  });
  const stored = snap.observed;
  require(isMapping(stored), "no observed state");
  const observed = stored as Record<string, unknown>;
  const stacks = observed.stacks;
  const pot = observed.pot;
  // The house's take is counted as the chips it was (absent: none, as before rakes were written).
  const take = observed.house_take === undefined ? [0, 0] : observed.house_take;
  const jackpotPaid = observed.jackpot_paid === undefined ? 0 : observed.jackpot_paid; // paid onto the table
  if (Array.isArray(stacks) && stacks.every(isInt) && isInt(pot) && Array.isArray(take) && take.every(isInt) && isInt(jackpotPaid)) {
    const held = (stacks as number[]).reduce((a, b) => a + b, 0) + pot + (take as number[]).reduce((a, b) => a + b, 0) - jackpotPaid;
    require(held === engine.totalChips(), "chip totals do not add up: chips were created or lost");
  }
  for (const [name, value] of Object.entries(engine.observed())) {
    const got = observed[name];
    require(jsonEqual(got, value), `tampered with: ${name} is ${shown(got)}, the log gives ${shown(value)}`);
  }
  return engine;
}

/** Take an event through its table: the first transition from the state whose guard holds. */
export function fire<E extends Engine>(m: E, table: Readonly<Record<string, readonly Step<E>[]>>, to: number): boolean {
  const steps = table[m._state];
  if (steps === undefined) return false;
  for (const [guard, effect, dest] of steps) {
    if (guard === null || guard(m, to)) {
      if (effect !== null) effect(m, to);
      m._state = dest;
      return true;
    }
  }
  return false;
}
