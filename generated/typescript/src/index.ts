// Printed by betspec 0.2.0: every engine of this package by structure name.
// Do not edit: run `betspec generate`.

export * from "./runtime.js";
export * from "./cards.js";
import type { Engine, StartJson, TableJson } from "./runtime.js";
import { Badugi } from "./badugi.js";
import { CapNoLimit } from "./cap_no_limit.js";
import { CapPotLimit } from "./cap_pot_limit.js";
import { FiveCardDrawFixedLimit } from "./five_card_draw_fixed_limit.js";
import { FiveCardDrawNoLimit } from "./five_card_draw_no_limit.js";
import { FiveCardDrawPotLimit } from "./five_card_draw_pot_limit.js";
import { FixedLimit } from "./fixed_limit.js";
import { JacksOrBetter } from "./jacks_or_better.js";
import { NoLimit } from "./no_limit.js";
import { PotLimit } from "./pot_limit.js";
import { Razz } from "./razz.js";
import { SevenCardStud } from "./seven_card_stud.js";
import { SpreadLimit } from "./spread_limit.js";
import { TripleDraw } from "./triple_draw.js";

export { Badugi } from "./badugi.js";
export { CapNoLimit } from "./cap_no_limit.js";
export { CapPotLimit } from "./cap_pot_limit.js";
export { FiveCardDrawFixedLimit } from "./five_card_draw_fixed_limit.js";
export { FiveCardDrawNoLimit } from "./five_card_draw_no_limit.js";
export { FiveCardDrawPotLimit } from "./five_card_draw_pot_limit.js";
export { FixedLimit } from "./fixed_limit.js";
export { JacksOrBetter } from "./jacks_or_better.js";
export { NoLimit } from "./no_limit.js";
export { PotLimit } from "./pot_limit.js";
export { Razz } from "./razz.js";
export { SevenCardStud } from "./seven_card_stud.js";
export { SpreadLimit } from "./spread_limit.js";
export { TripleDraw } from "./triple_draw.js";

/** An engine class: a hand from a table, options and a start; `restore` from a snapshot. */
export interface Structure {
  new (table: TableJson, options?: Record<string, unknown>, start?: StartJson | null): Engine;
  restore(data: unknown): Engine;
}

/** Every structure's engine class, by the spec's name. */
export const ENGINES: Readonly<Record<string, Structure>> = {
  "badugi": Badugi as unknown as Structure,
  "cap_no_limit": CapNoLimit as unknown as Structure,
  "cap_pot_limit": CapPotLimit as unknown as Structure,
  "five_card_draw_fixed_limit": FiveCardDrawFixedLimit as unknown as Structure,
  "five_card_draw_no_limit": FiveCardDrawNoLimit as unknown as Structure,
  "five_card_draw_pot_limit": FiveCardDrawPotLimit as unknown as Structure,
  "fixed_limit": FixedLimit as unknown as Structure,
  "jacks_or_better": JacksOrBetter as unknown as Structure,
  "no_limit": NoLimit as unknown as Structure,
  "pot_limit": PotLimit as unknown as Structure,
  "razz": Razz as unknown as Structure,
  "seven_card_stud": SevenCardStud as unknown as Structure,
  "spread_limit": SpreadLimit as unknown as Structure,
  "triple_draw": TripleDraw as unknown as Structure,
};
