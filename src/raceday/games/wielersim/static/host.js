// WielerSIM's watch room on the big screen (the host's, or a spectator's at /watch/<code>):
// the race the server rides one turn a paced step (see screen.js).
import { mountScreen } from "./screen.js";

export function mount(root, ctx) {
  return mountScreen(root, ctx, "tv");
}
