// Sound effects synthesized with the WebAudio API (no audio files): the crowd's approval at
// the end of a game, a short chime for a special play, a click for a placed tile.
import { prefs } from "./store.js";

let context = null;

function audio() {
  if (!prefs().sound) return null;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!context) context = new Ctx();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

function noiseBuffer(ctx, seconds) {
  const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * seconds), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  return buffer;
}

/** A crowd cheering: band-passed noise voices swelling and fading, and scattered claps. */
export function cheer(seconds = 3.2) {
  const ctx = audio();
  if (!ctx) return;
  const now = ctx.currentTime;
  const master = ctx.createGain();
  master.gain.setValueAtTime(0.0001, now);
  master.gain.exponentialRampToValueAtTime(0.5, now + 0.35);
  master.gain.setValueAtTime(0.5, now + seconds * 0.55);
  master.gain.exponentialRampToValueAtTime(0.0001, now + seconds);
  master.connect(ctx.destination);
  const noise = noiseBuffer(ctx, seconds + 0.2);
  // Voices: each a formant-like band of noise with a wobbling level ("yeah", "hooray").
  for (let i = 0; i < 9; i++) {
    const src = ctx.createBufferSource();
    src.buffer = noise;
    const band = ctx.createBiquadFilter();
    band.type = "bandpass";
    band.frequency.value = 350 + Math.random() * 1500;
    band.Q.value = 4 + Math.random() * 6;
    const level = ctx.createGain();
    level.gain.value = 0.35;   // plus the LFO's wobble, added to the parameter
    const lfo = ctx.createOscillator();
    lfo.frequency.value = 2 + Math.random() * 5;
    const depth = ctx.createGain();
    depth.gain.value = 0.25;
    lfo.connect(depth).connect(level.gain);
    src.connect(band).connect(level).connect(master);
    const start = now + Math.random() * 0.3;
    src.start(start, Math.random() * 0.2);
    src.stop(now + seconds);
    lfo.start(start);
    lfo.stop(now + seconds);
  }
  // Claps: short bursts of high-passed noise at random moments.
  for (let i = 0; i < 38; i++) {
    const t = now + 0.1 + Math.random() * (seconds - 0.5);
    const src = ctx.createBufferSource();
    src.buffer = noise;
    const hp = ctx.createBiquadFilter();
    hp.type = "highpass";
    hp.frequency.value = 900 + Math.random() * 800;
    const env = ctx.createGain();
    env.gain.setValueAtTime(0.0001, t);
    env.gain.exponentialRampToValueAtTime(0.5 + Math.random() * 0.4, t + 0.004);
    env.gain.exponentialRampToValueAtTime(0.0001, t + 0.07);
    src.connect(hp).connect(env).connect(master);
    src.start(t, Math.random() * seconds);
    src.stop(t + 0.09);
  }
}

/** Two bright notes for a special play (Hexagon, Span, Bridge, Slide). */
export function chime() {
  notes([660, 990], { type: "triangle", gap: 0.12, peak: 0.25, length: 0.45 });
}

/** Short notes one after another, each rising fast and fading. */
function notes(frequencies, { type, gap, peak, length }) {
  const ctx = audio();
  if (!ctx) return;
  const now = ctx.currentTime;
  frequencies.forEach((f, i) => {
    const osc = ctx.createOscillator();
    osc.type = type;
    osc.frequency.value = f;
    const env = ctx.createGain();
    const t = now + i * gap;
    env.gain.setValueAtTime(0.0001, t);
    env.gain.exponentialRampToValueAtTime(peak, t + 0.02);
    env.gain.exponentialRampToValueAtTime(0.0001, t + length);
    osc.connect(env).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + length + 0.05);
  });
}

/** A soft click when a tile lands. */
export function click() {
  const ctx = audio();
  if (!ctx) return;
  const now = ctx.currentTime;
  const osc = ctx.createOscillator();
  osc.type = "sine";
  osc.frequency.setValueAtTime(420, now);
  osc.frequency.exponentialRampToValueAtTime(180, now + 0.06);
  const env = ctx.createGain();
  env.gain.setValueAtTime(0.18, now);
  env.gain.exponentialRampToValueAtTime(0.0001, now + 0.08);
  osc.connect(env).connect(ctx.destination);
  osc.start(now);
  osc.stop(now + 0.1);
}

/** Your turn: two soft rising notes (a doorbell's "ding-dong" upside down). Counted on
 * document.body.dataset.turnCues, so that a test can see the cue was given. */
export function yourTurn() {
  document.body.dataset.turnCues = String(Number(document.body.dataset.turnCues || 0) + 1);
  notes([523.25, 784], { type: "sine", gap: 0.16, peak: 0.2, length: 0.35 });
}
