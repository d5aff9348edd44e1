// Short sound effects made on the spot with the Web Audio API: nothing to download, a few lines each.
// The player's "sound" setting (saved with their preferences) mutes them all.
"use strict";

let context = null;
let enabled = true;

export function setSound(on) {
  enabled = Boolean(on);
}

// Browsers allow audio only after a gesture (a click, a tap or a key on the page). A sound asked for
// before one, such as the deal when a page opens, is skipped: making the context then would only earn
// a warning and a context that stays suspended.
function audio() {
  if (!enabled) return null;
  if (globalThis.navigator?.userActivation?.hasBeenActive === false) return null;
  const Context = globalThis.AudioContext ?? globalThis.webkitAudioContext;
  if (!Context) return null;
  context ??= new Context();
  if (context.state === "suspended") context.resume();
  return context;
}

function tone(ctx, { frequency, end = frequency, start = 0, length = 0.08, type = "triangle", volume = 0.18 }) {
  const oscillator = ctx.createOscillator();
  const gain = ctx.createGain();
  const at = ctx.currentTime + start;
  oscillator.type = type;
  oscillator.frequency.setValueAtTime(frequency, at);
  oscillator.frequency.exponentialRampToValueAtTime(Math.max(end, 1), at + length);
  gain.gain.setValueAtTime(volume, at);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  oscillator.connect(gain).connect(ctx.destination);
  oscillator.start(at);
  oscillator.stop(at + length + 0.02);
}

function noise(ctx, { start = 0, length = 0.12, volume = 0.12, from = 2000, to = 400 }) {
  const frames = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const samples = buffer.getChannelData(0);
  for (let i = 0; i < frames; i += 1) samples[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const source = ctx.createBufferSource();
  const filter = ctx.createBiquadFilter();
  const gain = ctx.createGain();
  const at = ctx.currentTime + start;
  source.buffer = buffer;
  filter.type = "bandpass";
  filter.frequency.setValueAtTime(from, at);
  filter.frequency.exponentialRampToValueAtTime(to, at + length);
  gain.gain.setValueAtTime(volume, at);
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(at);
}

const EFFECTS = {
  deal: (ctx) => { for (let i = 0; i < 4; i += 1) noise(ctx, { start: i * 0.06, length: 0.07, volume: 0.08 }); },
  play: (ctx) => { noise(ctx, { length: 0.05, volume: 0.1, from: 3000, to: 1500 }); tone(ctx, { frequency: 660, end: 520, length: 0.06, volume: 0.08 }); },
  draw: (ctx) => { noise(ctx, { length: 0.09, volume: 0.09, from: 1200, to: 600 }); },
  win: (ctx) => { [523, 659, 784, 1047].forEach((f, i) => tone(ctx, { frequency: f, start: i * 0.11, length: 0.22, volume: 0.16 })); },
  bomb: (ctx) => { tone(ctx, { frequency: 140, end: 35, length: 0.5, type: "sine", volume: 0.4 }); noise(ctx, { length: 0.35, volume: 0.2, from: 900, to: 80 }); },
  refuse: (ctx) => { tone(ctx, { frequency: 220, end: 180, length: 0.12, type: "square", volume: 0.05 }); },
};

// Plays one effect ("deal", "play", "draw", "win", "bomb", "refuse"); silent when muted or unsupported.
export function sound(name) {
  const ctx = audio();
  if (!ctx || !EFFECTS[name]) return;
  try {
    EFFECTS[name](ctx);
  } catch {
    // A sound that cannot be made is not worth an error on the page.
  }
}
