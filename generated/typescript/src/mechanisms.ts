// Printed by betspec 0.2.0 from betspec/runtime/mechanisms.py: the mechanisms generated
// engines call, which the runtime's Engine must have. Do not edit: run `betspec generate`.

import type { Engine } from "./runtime.js";

/** @internal */
export interface Mechanisms {
  /** move chips from a seat's stack into the pot */
  _put(seat: number, amount: number): void;
  /** post a forced bet (all the seat has if less, unless in_full), live or dead, in the order given */
  _post(seat: number, amount: number, what: string, live: boolean, deadMoney: boolean, order: string, inFull: boolean): void;
  /** start a street's betting: nobody has put in or acted */
  _begin_street(street: number): void;
  /** the first seat after `after` that has to act is to act */
  _open_betting(after: number): void;
  /** the seat to act puts in up to `to` on this street */
  _commit(to: number): void;
  /** the seat to act has acted without putting chips in */
  _mark_checked(): void;
  /** the seat to act is out of the hand */
  _mark_folded(): void;
  /** a seat has acted on the bet it faces */
  _mark_acted(seat: number): void;
  /** the next seat that has to act is to act, or nobody */
  _pass_action(): void;
  /** end the betting round: a bet nobody matched goes back */
  _close_round(): void;
  /** deal a street with nobody left to bet */
  _deal_runout(street: number): void;
  /** the first seat after `after` that has to act, or -1 */
  _next_needing_action(after: number): number;
  /** the next seat clockwise with chips */
  _next_live(seat: number): number;
  /** the previous seat counterclockwise with chips */
  _prev_live(seat: number): number;
  /** how many seats have chips */
  _seats_left(): number;
  /** how many seats that may still bet owe chips to the bet */
  _able_owing(): number;
  /** whether a seat other than the one to act could answer a bet */
  _answerable(): boolean;
  /** the seats clockwise from the button's left, the button last */
  _from_button(): number[];
}

/** @internal */
type Implements<T extends Mechanisms> = T;
/** @internal The runtime's Engine, checked against the declaration. */
export type CheckedEngine = Implements<Engine>;
