// Twin Dice Dash on the big screen: the lobby with the join code, then the track, the purses,
// who has sealed a bet (never which), and the host's "roll the dice".
import { mountScreen } from "./twindash.js";

export function mount(root, ctx) {
  return mountScreen(root, ctx);
}
