// The announcer of the big screen: the race's moments (a lead change, a fall, a photo
// finish, a beaten favourite, a big payout) as headline lines, worded from the message
// tables, and spoken by the browser's voice (Web Speech API) when the one toggle button is
// on. The voice is off until someone turns it on; the choice is remembered. The game's
// page decides which facts make a moment: this module only shows and speaks them.
import { el } from "./common.js";
import { keyed, language, onLanguage, t } from "./i18n.js";

const VOICE_KEY = "raceday.voice";
const VOICES = { en: "en-GB", ja: "ja-JP" };
const HOLD_MS = 6000; // a headline stands this long, then the stage is whole again

function voiceWanted() {
  try { return localStorage.getItem(VOICE_KEY) === "on"; } catch (_) { return false; }
}

function rememberVoice(on) {
  try { localStorage.setItem(VOICE_KEY, on ? "on" : "off"); } catch (_) { /* storage off */ }
}

function synth() {
  return typeof window.speechSynthesis === "object" && window.speechSynthesis
    && typeof window.SpeechSynthesisUtterance === "function" ? window.speechSynthesis : null;
}

// announcer.line: the headline (place it over the stage); announcer.button: the voice
// toggle; say(lines): [{key, params}] shown at once (and spoken when the voice is on);
// clear(): the headline goes.
export function createAnnouncer() {
  const href = "/static/css/announcer.css";
  if (!document.querySelector(`link[href="${href}"]`)) document.head.append(el("link", { rel: "stylesheet", href }));
  let voice = voiceWanted();
  let shown = [];
  let count = 0;
  let timer = null;
  const line = el("div", { class: "announcer", role: "status", "aria-live": "assertive", "aria-atomic": "true",
    "aria-label": keyed("announcer") });
  const button = el("button", { type: "button", class: "announcer-voice" });

  function words(m) { return t(m.key, m.params || {}); }

  function drawButton() {
    button.textContent = t(voice ? "announcer_voice_on" : "announcer_voice_off");
    button.setAttribute("aria-pressed", String(voice));
    button.hidden = !synth();
  }

  function drawLine() {
    line.replaceChildren(...shown.map((m, i) => el("p", { class: i ? "announcer-sub" : "announcer-main" }, words(m))));
    line.classList.toggle("is-on", shown.length > 0);
  }

  function speak(texts) {
    const s = synth();
    if (!voice || !s) return;
    s.cancel();
    for (const text of texts) {
      const u = new window.SpeechSynthesisUtterance(text);
      u.lang = VOICES[language()] || language();
      s.speak(u);
    }
  }

  button.addEventListener("click", () => {
    voice = !voice;
    rememberVoice(voice);
    if (!voice) synth()?.cancel();
    drawButton();
  });
  onLanguage(() => { drawButton(); drawLine(); });
  drawButton();

  return {
    line,
    button,
    say(lines) {
      if (!lines || !lines.length) return;
      shown = lines.slice(0, 2);
      count += 1;
      line.dataset.count = String(count);
      line.dataset.moment = shown.map((m) => m.moment || m.key).join(" ");
      drawLine();
      // restart the entrance for a new line (a class toggle: no inline style)
      line.classList.remove("is-new");
      void line.offsetWidth;
      line.classList.add("is-new");
      speak(shown.map(words));
      clearTimeout(timer);
      timer = setTimeout(() => { shown = []; drawLine(); }, HOLD_MS);
    },
    clear() {
      if (!shown.length) return;
      shown = [];
      delete line.dataset.moment;
      drawLine();
    },
  };
}
