// Sound, off unless the reader turns it on (the header's toggle, remembered in this
// browser's storage): short beeps made with WebAudio, no sound files. A game calls
// cue("start" | "finish" | "reveal" | "turn" | "tick") at its moments; with sound off a cue
// does nothing.
import { el } from "./common.js";
import { onLanguage, t } from "./i18n.js";

const KEY = "raceday.sound";
// Each cue: notes of [frequency in Hz, seconds], played one after another.
const CUES = {
  start: [[523, 0.12], [659, 0.12], [784, 0.22]],
  finish: [[784, 0.14], [988, 0.14], [1319, 0.4]],
  reveal: [[880, 0.1], [1175, 0.2]],
  turn: [[660, 0.09]],
  tick: [[440, 0.04]],
};
const GAP = 0.03;  // seconds between two notes
const VOLUME = 0.15;

let on = readSetting();
let context = null;
const buttons = new Set();

function readSetting() {
  try { return localStorage.getItem(KEY) === "on"; } catch (_) { return false; }
}

export function soundOn() { return on; }

// Turn sound on or off (and remember it); turning it on is a click, which lets the browser
// start the audio.
export function setSound(value) {
  on = Boolean(value);
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (_) { /* storage off */ }
  if (on) audio()?.resume?.();
  for (const b of buttons) draw(b);
}

function audio() {
  if (context) return context;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  try { context = new Context(); } catch (_) { context = null; }
  return context;
}

// Play the cue `name`; true if it was played (sound on and a known cue).
export function cue(name) {
  const notes = CUES[name];
  if (!on || !notes) return false;
  const ctx = audio();
  if (!ctx) return false;
  let at = ctx.currentTime + 0.01;
  for (const [frequency, seconds] of notes) {
    const tone = ctx.createOscillator();
    const gain = ctx.createGain();
    tone.type = "sine";
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(VOLUME, at + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + seconds);
    tone.connect(gain).connect(ctx.destination);
    tone.start(at);
    tone.stop(at + seconds + 0.02);
    at += seconds + GAP;
  }
  document.documentElement.dataset.cue = name;  // the last cue played (for tests)
  return true;
}

// The kit's own cues for every game, from a room's updates: a game starts (or starts
// again), a game ends. `phase` is the view's phase before the update.
export function kitCues(before, view, events) {
  if ((events || []).some((e) => e.type === "started")) cue("start");
  else if (before && before !== "finished" && view.phase === "finished") cue("finish");
}

function draw(button) {
  button.textContent = t(on ? "sound_on" : "sound_off");
  button.dataset.on = on ? "true" : "false";
  button.title = t("sound_label");
}

// The header's toggle; its words say the state ("Sound: off" / "Sound: on").
export function soundButton() {
  const b = el("button", { type: "button", class: "sound" });
  b.addEventListener("click", () => {
    setSound(!on);
    cue("turn");
  });
  buttons.add(b);
  draw(b);
  onLanguage(() => draw(b));
  return b;
}
