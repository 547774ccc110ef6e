// Twin Dice Dash on a phone: the same screen with the seat's own part (its bet, its choices).
import { mountScreen } from "./twindash.js";

export function mount(root, ctx) {
  return mountScreen(root, { ...ctx, role: "seat" });
}
