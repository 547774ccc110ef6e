// PISTARD on the big screen: the lobby (code, QR, places), then the velodrome, live
// standings and commentary. The host screen plays every human place no phone took.
import { mountRace } from "./track.js";

export function mount(root, ctx) {
  return mountRace(root, ctx);
}
