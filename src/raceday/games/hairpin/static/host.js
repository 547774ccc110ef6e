// Hairpin Racers on the big screen: the lobby (code, QR, places), then the board. The host
// screen plays every human place that no phone took (pass-and-play on one device).
import { mountGame } from "./board.js";

export function mount(root, ctx) {
  return mountGame(root, ctx);
}
