// Opt-in sounds made on the spot with the Web Audio API (no files to download): a move, a
// capture (pieces flipped), the game's end and low time. The choice is remembered per browser.

const KEY = 'sounds';
let context = null;

export const soundsOn = () => localStorage.getItem(KEY) === 'on';

/** The audio context, made (or woken) on first use; browsers allow it after a user gesture. */
function audio() {
  if (!context) {
    const Context = window.AudioContext ?? window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === 'suspended') context.resume();
  return context;
}

/** Plays notes [frequency Hz, start s, length s] with one waveform, softly. */
function play(notes, type = 'sine', volume = 0.15) {
  if (!soundsOn()) return;
  const ctx = audio();
  if (!ctx) return;
  const now = ctx.currentTime;
  for (const [frequency, start, length] of notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = type;
    osc.frequency.value = frequency;
    // A quick rise and an exponential fall: a tap, not a click.
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(volume, now + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.02);
  }
}

export const sounds = {
  move: () => play([[520, 0, 0.08]], 'triangle'),
  capture: () => play([[520, 0, 0.07], [780, 0.07, 0.12]], 'triangle'),
  end: () => play([[523, 0, 0.18], [659, 0.16, 0.18], [784, 0.32, 0.35]]),
  lowTime: () => play([[880, 0, 0.09], [880, 0.18, 0.09]], 'square', 0.06),
};

/** The sound for moves just recorded: a capture when any flipped a piece, else a move. */
export function soundForMoves(moves) {
  const real = moves.filter((m) => !m.auto);
  if (real.length === 0) return;
  if (real.some((m) => m.flips > 0)) sounds.capture();
  else sounds.move();
}

/** The nav's checkbox that turns sounds on and off. */
export function soundToggle() {
  const label = document.createElement('label');
  label.className = 'style-toggle';
  label.title = 'Sounds for moves, captures, the end of a game and low time (remembered on this browser)';
  label.innerHTML = `<input type="checkbox" id="sound-toggle" ${soundsOn() ? 'checked' : ''}> Sounds`;
  label.querySelector('input').addEventListener('change', (event) => {
    localStorage.setItem(KEY, event.target.checked ? 'on' : 'off');
    if (event.target.checked) sounds.move();
  });
  return label;
}
