// Hairpin Racers on a phone: the board with this seat's legal moves when it is its turn.
import { mountGame } from "./board.js";

export function mount(root, ctx) {
  return mountGame(root, { ...ctx, role: "seat" });
}
