// WielerSIM's watch room on a phone that joined by name: the same frame as the TV, the
// film first (see screen.js).
import { mountScreen } from "./screen.js";

export function mount(root, ctx) {
  return mountScreen(root, { ...ctx, role: "seat" }, "phone");
}
