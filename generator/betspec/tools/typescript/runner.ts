// betspec's Node runner for the TypeScript engines: conformance cases, and a JSON-lines server the
// lockstep test drives. Compiled with tsc beside the generated engines (betspec/tools/typescript_run.py).
//
//   node runner.js cases FILE...   one JSON line per case: {path, id, status, detail, steps}
//   node runner.js serve           reads requests as JSON lines, answers each with one JSON line

import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { BetspecError, ENGINES, IllegalAction, InvalidTable, copyHand } from "./index.js";
import type { Engine, Ruling, StartJson, TableJson } from "./index.js";

type Json = unknown;
type Case = Record<string, any>;

const STEP_KINDS = ["act", "deal", "chips", "say", "out_of_turn", "timeout", "settle"];

/** Every field of an engine but its cached view: equal states give equal strings. */
function state(engine: Engine): string {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(engine)) {
    if (key === "_view" || key === "meta") continue;
    fields[key] = value instanceof Map ? [...value.entries()].sort() : value;
  }
  return JSON.stringify(fields);
}

function build(kase: Case): Engine {
  const cls = ENGINES[kase.structure];
  if (cls === undefined) throw new LookupError(`no generated engine for structure ${JSON.stringify(kase.structure)}`);
  return new cls(kase.table as TableJson, (kase.options ?? {}) as Record<string, unknown>, (kase.start ?? null) as StartJson | null);
}

class LookupError extends Error {}

function observe(engine: Engine, key: string): Json {
  switch (key) {
    case "to_act":
      return engine.toAct;
    case "legal":
      return [...engine.legalActions()].sort();
    case "call":
      return engine.callAmount;
    case "min_to":
      return engine.minTo;
    case "max_to":
      return engine.maxTo;
    case "street":
      return engine.streetName;
    case "pot":
      return engine.pot;
    case "stacks":
      return engine.stacks;
    case "committed":
      return engine.committed;
    case "round_over":
      return engine.roundOver;
    case "hand_over":
      return engine.handOver;
    case "pots":
      return engine.pots().map((p) => ({ amount: p.amount, eligible: [...p.eligible] }));
    case "paid":
      return engine.paid;
    case "rake":
      return engine.rake;
    case "jackpot_drop":
      return engine.jackpotDrop;
    case "payments":
      return engine.payments;
    case "variables":
      return engine.variables as Json;
    case "next_table":
      try {
        return engine.nextTable() as unknown as Json;
      } catch (error) {
        // Not paid yet, or the session is over: a mismatch, said as the Python runner says it.
        if (error instanceof InvalidTable) return `refused: ${error.message}`;
        throw error;
      }
  }
  throw new Error(`unknown expectation ${key}`);
}

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function expected(key: string, value: any): Json {
  if (key === "legal") return [...value].sort();
  if (key === "pots") return value.map((p: any) => ({ amount: p.amount, eligible: [...p.eligible].sort((a: number, b: number) => a - b) }));
  return value;
}

/** JSON with every object's keys sorted: equal values, equal text (objects compare as Python's dicts). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function equal(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/** A value as Python's repr shows it, for messages that read like the Python runner's. */
function py(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string") return `'${value}'`;
  if (Array.isArray(value)) return `[${value.map(py).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${py(k)}: ${py(v)}`).join(", ")}}`;
  }
  return String(value);
}

function applyStep(engine: Engine, step: Case): Ruling | null {
  if ("deal" in step) {
    (engine as any).deal(step.deal, step.with ?? {});
  } else if ("act" in step) {
    engine.act(step.seat, step.act, step.to ?? null);
  } else if ("chips" in step) {
    return engine.push(step.seat, step.chips, step.say ?? null);
  } else if ("say" in step) {
    return engine.declare(step.seat, step.say);
  } else if ("out_of_turn" in step) {
    engine.declareOutOfTurn(step.seat, step.out_of_turn.act, step.out_of_turn.to ?? null);
  } else if ("timeout" in step) {
    engine.timeout(step.seat);
  } else if ("settle" in step) {
    const s = step.settle;
    engine.settle(s.ranking ?? null, { runs: s.runs ?? null, oddChipSeat: s.odd_chip_seat ?? null, shown: s.shown ?? null, made: s.made ?? null });
  }
  return null;
}

function rulingDifference(ruling: Ruling | null, want: Record<string, unknown>): string {
  if (ruling === null) return "no ruling was made";
  const got: Record<string, unknown> = {
    act: ruling.action,
    to: ruling.to,
    rule: ruling.rule,
    returned: ruling.returned,
    completed: ruling.completed,
  };
  for (const [key, value] of Object.entries(want)) {
    if (!equal(got[key], value)) return `ruled ${key} ${py(got[key])} (${ruling.action} by rule ${ruling.rule}), expected ${py(value)}`;
  }
  return "";
}

interface Outcome {
  path: string;
  id: string;
  status: string;
  detail: string;
  steps: number;
}

export function runCase(path: string): Outcome {
  const kase = JSON.parse(readFileSync(path, "utf-8")) as Case;
  const id = String(kase.id);
  const out = (status: string, detail = "", steps = 0): Outcome => ({ path, id, status, detail, steps });
  const refused = kase.refused;
  let engine: Engine;
  try {
    engine = build(kase);
  } catch (error) {
    if (error instanceof InvalidTable) {
      if (refused === undefined) return out("INVALID", error.message);
      if ((refused.rule ?? error.rule) !== error.rule) {
        return out("FAIL", `the table is refused by rule ${error.rule || "none"}, expected ${refused.rule}: ${error.message}`);
      }
      return out("PASS");
    }
    if (error instanceof LookupError) return out("INVALID", error.message);
    throw error;
  }
  if (refused !== undefined) return out("FAIL", "the table was accepted, expected it to be refused");
  const chips = engine.totalChips();
  const steps = kase.steps as Case[];
  for (let number = 0; number < steps.length; number++) {
    const step = steps[number] as Case;
    const where = `step ${number}`;
    if (STEP_KINDS.some((kind) => kind in step)) {
      const before = state(engine);
      let ruling: Ruling | null = null;
      let rejected: IllegalAction | null = null;
      try {
        ruling = applyStep(engine, step);
      } catch (error) {
        if (!(error instanceof IllegalAction)) throw error;
        rejected = error;
      }
      if (rejected !== null) {
        if (!("error" in step)) return out("FAIL", `${where}: rejected: ${rejected.message}`, number);
        if (rejected.code !== step.error) return out("FAIL", `${where}: error ${py(rejected.code)}, expected ${py(step.error)}`, number);
        if (state(engine) !== before) return out("FAIL", `${where}: the rejected action changed the state`, number);
      } else {
        if ("error" in step) return out("FAIL", `${where}: accepted, expected error ${py(step.error)}`, number);
        const difference = "as" in step ? rulingDifference(ruling, step.as) : "";
        if (difference) return out("FAIL", `${where}: ${difference}`, number);
      }
    }
    if (engine.totalChips() !== chips || Math.min(...engine.stacks) < 0) return out("FAIL", `${where}: chips not conserved`, number);
    for (const [key, value] of Object.entries((step.expect ?? {}) as Record<string, unknown>)) {
      let got = observe(engine, key);
      const want = expected(key, value);
      if (key === "variables" && isObject(got) && isObject(want)) {
        // The variables a case names: a spec that extends the structure may add its own.
        const all = got;
        got = Object.fromEntries(Object.keys(want).map((name) => [name, name in all ? all[name] : "(no such variable)"]));
      }
      if (!equal(got, want)) return out("FAIL", `${where}: ${key} is ${py(got)}, expected ${py(want)}`, number);
    }
  }
  return out("PASS", "", steps.length);
}

// ---- the lockstep server ---------------------------------------------------------------------------

const hands = new Map<number, Engine>();
let next = 0;

function errorOf(error: unknown): Json {
  if (error instanceof IllegalAction) return { type: "IllegalAction", code: error.code, rule: error.rule, source: error.source, message: error.message };
  if (error instanceof InvalidTable) return { type: "InvalidTable", code: error.code, rule: error.rule, message: error.message };
  if (error instanceof BetspecError) return { type: error.name, code: error.code, message: error.message };
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { type: "crash", code: "crash", message: text };
}

/** What a hand answers, every question at once. */
function view(engine: Engine): Json {
  return {
    to_act: engine.toAct,
    legal: engine.legalActions(),
    call: engine.callAmount,
    min_to: engine.minTo,
    max_to: engine.maxTo,
    street: engine.streetName,
    next_street: engine.nextStreet,
    pot: engine.pot,
    stacks: engine.stacks,
    committed: engine.committed,
    contributed: engine.contributed,
    stakes: engine.stakes,
    folded: engine.folded,
    bet_level: engine.betLevel,
    round_over: engine.roundOver,
    hand_over: engine.handOver,
    paid: engine.paid,
    phase: engine.phase,
    state: engine.state,
    pots: engine.pots(),
    history: engine.history,
    total: engine.totalChips(),
  };
}

// ---- the benchmark's replays (benchmarks/bench.py): the same recorded hands as the Python engine's ----

interface BenchHand {
  structure: string;
  table: TableJson;
  options: Record<string, unknown>;
  steps: [number, string, number | null][];
}

const benches = new Map<number, BenchHand[]>();

/** Replay recorded hands; with ``query``, the question a bot asks before each action. */
function replay(hands: BenchHand[], query: boolean): number {
  let actions = 0;
  let sink = 0;
  for (const hand of hands) {
    const engine = new (ENGINES[hand.structure] as NonNullable<(typeof ENGINES)[string]>)(hand.table, hand.options);
    for (const [seat, action, to] of hand.steps) {
      if (seat < 0) {
        (engine as any).deal(action);
        continue;
      }
      if (query) {
        sink += (engine.toAct ?? 0) + engine.legalActions().length + engine.callAmount + (engine.minTo ?? 0) + (engine.maxTo ?? 0);
      }
      engine.act(seat, action, to);
      actions++;
    }
  }
  return sink < 0 ? -1 : actions;
}

function handle(request: Record<string, any>): Json {
  const op = request.op;
  if (op === "bench_load") {
    const id = next++;
    benches.set(id, request.hands as BenchHand[]);
    return id;
  }
  if (op === "bench_run") return replay(benches.get(request.id) ?? [], Boolean(request.query));
  if (op === "case") return request.paths.map((path: string) => runCase(path));
  if (op === "new" || op === "restore") {
    const cls = ENGINES[request.structure];
    if (cls === undefined) throw new LookupError(`no engine ${request.structure}`);
    const engine = op === "new" ? new cls(request.table, request.options ?? {}, request.start ?? null) : cls.restore(request.snapshot);
    const id = next++;
    hands.set(id, engine);
    return { id, view: view(engine) };
  }
  const engine = hands.get(request.id);
  if (engine === undefined) throw new Error(`no hand ${request.id}`);
  if (op === "drop") {
    hands.delete(request.id);
    return null;
  }
  if (op === "view") return view(engine);
  if (op === "copy") {
    const id = next++;
    const twin = copyHand(engine);
    hands.set(id, twin);
    return { id, view: view(twin) };
  }
  if (op === "meta") return engine.meta;
  if (op === "snapshot") return engine.snapshot();
  if (op === "next_table") return engine.nextTable();
  if (op === "call") {
    const before = state(engine);
    const args = request.args as unknown[];
    let result: unknown = null;
    try {
      switch (request.method) {
        case "act":
          engine.act(args[0] as number, args[1] as string, (args[2] ?? null) as number | null);
          break;
        case "deal":
          (engine as any).deal(args[0], args[1] ?? {});
          break;
        case "push":
          result = engine.push(args[0] as number, args[1] as number[], (args[2] ?? null) as any);
          break;
        case "declare":
          result = engine.declare(args[0] as number, args[1] as any);
          break;
        case "declare_out_of_turn":
          engine.declareOutOfTurn(args[0] as number, args[1] as string, (args[2] ?? null) as number | null);
          break;
        case "settle":
          result = engine.settle(args[0] ?? null, { runs: args[1] ?? null, oddChipSeat: args[2] ?? null, shown: args[3] ?? null, made: args[4] ?? null });
          break;
        default:
          throw new Error(`unknown method ${request.method}`);
      }
    } catch (error) {
      const unchanged = state(engine) === before;
      return { error: errorOf(error), unchanged, view: view(engine) };
    }
    return { result, view: view(engine) };
  }
  throw new Error(`unknown op ${op}`);
}

function serve(): void {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (!line.trim()) return;
    let answer: Json;
    try {
      answer = { ok: handle(JSON.parse(line) as Record<string, any>) };
    } catch (error) {
      answer = { error: errorOf(error) };
    }
    process.stdout.write(JSON.stringify(answer) + "\n");
  });
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === "cases") {
  for (const path of rest) {
    let outcome: Outcome;
    try {
      outcome = runCase(path);
    } catch (error) {
      outcome = { path, id: path, status: "FAIL", detail: `crashed: ${error instanceof Error ? error.stack : String(error)}`, steps: 0 };
    }
    process.stdout.write(JSON.stringify(outcome) + "\n");
  }
} else if (mode === "serve") {
  serve();
} else {
  process.stderr.write("usage: node runner.js cases FILE... | serve\n");
  process.exit(2);
}
