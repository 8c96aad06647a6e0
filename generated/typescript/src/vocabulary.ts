// Printed by betspec 0.2.0 from betspec/vocabulary.py: the words the TypeScript runtime
// shares with the Python one. Do not edit: run `betspec generate`.

export const ACT_NAMES: readonly string[] = ["fold", "check", "call", "bet", "raise", "bring_in", "all_in", "timeout"];
export const BETTING_PHASES: readonly string[] = ["unopened", "facing_bet"];
export const DECLARATIONS: readonly string[] = ["fold", "check", "call", "bet", "raise"];
export const HAND_OVER_PHASES: readonly string[] = ["runout", "showdown", "settled", "dead"];
export const OUT_OF_TURN_DECLARATIONS: readonly string[] = ["check", "call", "bet", "raise"];
export const WAGERS: readonly string[] = ["bet", "raise"];
export const CARD_RANKS = "23456789TJQKA";
export const CARD_SUITS = "cdhs";
export const HAND_KINDS: readonly string[] = ["high", "short_deck_high", "omaha_high", "omaha_low_eight", "low_eight", "ace_to_five_low", "deuce_to_seven_low", "high_cards", "badugi"];
export const HAND_CATEGORIES: readonly string[] = ["high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind", "straight_flush"];
