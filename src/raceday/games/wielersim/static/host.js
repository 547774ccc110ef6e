// WielerSIM's watch room on the big screen (the host's, or a spectator's at /watch/<code>):
// the race the server rides one turn a paced step (see screen.js).
import { mountScreen } from "./screen.js";

// a big screen's page opened on a phone (a spectator's /watch link, a host without a TV)
// is laid out as the phones are: the TV's 28 px table would scroll sideways
const NARROW = "(max-width: 700px)";

export function mount(root, ctx) {
  return mountScreen(root, ctx, window.matchMedia(NARROW).matches ? "phone" : "tv");
}
