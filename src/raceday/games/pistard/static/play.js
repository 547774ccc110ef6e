// PISTARD on a phone: this player's dice and legal moves, the velodrome and the standings.
import { mountRace } from "./track.js";

export function mount(root, ctx) {
  return mountRace(root, { ...ctx, role: "seat" });
}
