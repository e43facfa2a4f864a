//! Playback and navigation: play/pause at a chosen speed, step, jump between divergences, run to
//! a breakpoint, and the keyboard shortcuts. All moves are seeks or `run_until`s in the engine.
//! In compare mode the step is shared and runs to the end of the longer run: divergence jumps
//! stop where either side diverges, and playing does not stop at breakpoints.

import type { App } from './app';
import { EventBit } from './engine';
import type { Action } from './panels/scrubber';
import * as store from './store';

// "max" speed: as many steps per frame as keep the page responsive.
const MAX_PER_FRAME = 5000;

export class Controls {
  private raf = 0;
  private last = 0;
  private carry = 0;

  constructor(private readonly app: App) {}

  private stopped(kind: string | undefined, message: string | undefined): void {
    if (kind === 'breakpoint') this.app.banner(`Stopped: ${message ?? 'breakpoint'}`, 'info', 'brief');
  }

  action(a: Action): void {
    const { app } = this;
    const e = app.engine, r = app.run;
    if (!e || !r) return;
    const s = store.get();
    if (a !== 'play') this.pause();
    switch (a) {
      case 'play': return s.playing ? this.pause() : this.play();
      case 'home': return app.goto(0);
      case 'end': return app.goto(app.span());
      case 'back': return app.goto(s.step - 1);
      case 'step': return app.goto(s.step + 1);
      case 'prev-issue': return app.stepWarp(-1);
      case 'next-issue': return app.stepWarp(1);
      case 'next-div': {
        if (app.comparing) return app.goto(app.compare!.nextDivergence(e, s.step) ?? app.span());
        const v = e.runUntil('divergence');
        // Synced first: the step's move sends older brief notices away, not this one.
        app.synced();
        return this.stopped(v?.kind, v?.message);
      }
      case 'prev-div': {
        // The engine searches the recorded steps; the state shown is the one after that step.
        return app.goto((app.comparing ? app.compare!.prevDivergence(e, s.step) : e.prevEvent(s.step, EventBit.Diverge)) ?? 0);
      }
      case 'continue': {
        // Breakpoints are in side A's code; past its end only side B runs on.
        if (app.comparing && s.step >= r.total) return app.goto(app.span());
        const v = e.runUntil('breakpoint');
        app.synced();
        return this.stopped(v?.kind, v?.message);
      }
    }
  }

  play(): void {
    const r = this.app.run;
    if (!r) return;
    if (store.get().step >= this.app.span()) this.app.goto(0);
    store.update({ playing: true });
    this.last = performance.now();
    this.carry = 0;
    this.raf = requestAnimationFrame((t) => this.frame(t));
    this.app.renderStep();
  }

  pause(): void {
    if (!store.get().playing) return;
    cancelAnimationFrame(this.raf);
    store.update({ playing: false });
    this.app.renderStep();
  }

  private frame(now: number): void {
    const { app } = this;
    const e = app.engine, r = app.run;
    if (!store.get().playing || !e || !r) return;
    const speed = store.get().speed;
    const dt = Math.min(0.25, (now - this.last) / 1000);
    this.last = now;
    this.carry += speed === 0 ? MAX_PER_FRAME : speed * dt;
    const n = Math.floor(this.carry);
    this.carry -= n;
    if (n > 0 && app.comparing) {
      app.goto(store.get().step + n);
      if (store.get().step >= app.span()) return this.pause();
    } else if (n > 0) {
      const v = e.runUntil('breakpoint', n);
      app.synced();
      if (v?.kind === 'breakpoint' || store.get().step >= r.total) {
        this.stopped(v?.kind, v?.message);
        return this.pause();
      }
    }
    this.raf = requestAnimationFrame((t) => this.frame(t));
  }
}

// Controls that Space presses or toggles.
const PRESSED_BY_SPACE = 'button, summary, a[href], input[type=checkbox], input[type=button], input[type=submit], input[type=reset]';

/**
 * Whether the focused control `target` uses `key` itself, so the shortcut must not fire. The
 * editor and fields keep every key (their arrows move the caret or change the value). An open
 * dialog keeps its keys but ?, which opens and closes the help. A select keeps its keys but ← and
 * →: after a pick it still has the focus and stepping is what the user does next, while ↑/↓,
 * letters and Alt+↓ still choose from it. Buttons, checkboxes and links keep Space, which presses
 * them. The step slider keeps nothing: its arrow keys are the same moves.
 */
function ownsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('.cm-editor, textarea, [contenteditable="true"]')) return true;
  if (target instanceof HTMLInputElement && target.type === 'range') return false;
  if (target instanceof HTMLInputElement && !target.matches(PRESSED_BY_SPACE)) return true;
  if (target.closest('dialog[open]')) return key !== '?';
  if (target instanceof HTMLSelectElement) return key !== 'ArrowLeft' && key !== 'ArrowRight';
  return !!target.closest(PRESSED_BY_SPACE) && key === ' ';
}

export function bindKeys(c: Controls, help: () => void, fit: () => void): void {
  window.addEventListener('keydown', (e) => {
    if (ownsKey(e.target, e.key) || e.ctrlKey || e.metaKey || e.altKey) return;
    const map: Record<string, () => void> = {
      ' ': () => c.action('play'),
      ArrowRight: () => c.action(e.shiftKey ? 'next-div' : 'step'),
      ArrowLeft: () => c.action(e.shiftKey ? 'prev-div' : 'back'),
      Home: () => c.action('home'),
      End: () => c.action('end'),
      b: () => c.action('continue'),
      '[': () => c.action('prev-issue'),
      ']': () => c.action('next-issue'),
      f: fit,
      '?': help,
    };
    const f = map[e.key];
    if (!f) return;
    e.preventDefault();
    f();
  });
}
