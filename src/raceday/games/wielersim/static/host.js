// WielerSIM's watch room on the big screen (the host's, or a spectator's at /watch/<code>):
// the race the server rides one turn a paced step (see screen.js).
import { mountScreen } from "./screen.js";

// a big screen's page opened on a phone (a spectator's /watch link, a host without a TV)
// is laid out as the phones are: the TV's 28 px table would scroll sideways
const NARROW = "(max-width: 700px)";

// The layout follows the window: a page opened narrow and widened (a phone's link cast to
// the TV, a window dragged wider) is drawn again as the TV, and the other way round.
export function mount(root, ctx) {
  const narrow = window.matchMedia(NARROW);
  const kind = () => (narrow.matches ? "phone" : "tv");
  let live = null;
  let view = null;
  let screen = mountScreen(root, ctx, kind());
  narrow.addEventListener("change", () => {
    screen.stop?.();
    screen = mountScreen(root, ctx, kind());
    if (live) screen.connect(live);
    if (view) screen.welcome(view);
  });
  return {
    connect(l) { live = l; screen.connect(l); },
    welcome(v, ...rest) { view = v; screen.welcome(v, ...rest); },
    update(v, ...rest) { view = v; screen.update(v, ...rest); },
  };
}
