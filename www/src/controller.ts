//! The page's controller: what the user's actions and the address bar do to what is on screen.
//! It keeps the store and the saved work in step (never saving over the user's kernel while a
//! link's question is open: `own-work.ts`), waits for typing to pause before an edit re-runs,
//! puts examples, figures and links on screen, switches compare and sweep modes, and answers the
//! top bar. Its decisions are pure functions in `page-state.ts`; the run itself and the panels'
//! rendering are `App`'s (`app.ts`); `main.ts` builds the panels and creates this.

import type { EditorView } from '@codemirror/view';
import type { App } from './app';
import { cfgSvgText } from './cfg-export';
import { originalMarks } from './cfg-struct';
import { setHeader, type Engine } from './engine';
import type { HeaderEdit } from './generated/engine';
import { EXAMPLES, type Example } from './examples';
import * as exporter from './export';
import { exportName } from './file-name';
import { figureById, type Figure } from './figures';
import { OwnWork } from './own-work';
import * as cudaPanel from './panels/cuda';
import * as editor from './panels/editor';
import * as figureNote from './panels/figure-note';
import * as plot from './panels/plot';
import { FIGURE_PNG_SCALE } from './panels/plot-figure';
import * as settings from './panels/settings';
import * as page from './page-state';
import { kernelTitle, originalGraphOf } from './run';
import { decode, encode } from './permalink';
import * as store from './store';
import type { SweepView } from './sweep/view';

/** Where the controller draws and what it drives; built by `main.ts`. */
export interface ControllerParts {
  app: App;
  engine: Engine | null;
  sweep: SweepView;
  editor: EditorView;
  settings: settings.SettingsPanel;
  el: Record<'workNote' | 'figureNote' | 'compareButton' | 'sweepButton' | 'linkButton', HTMLElement>;
}

/** An edit re-runs the kernel after this pause in the typing. */
const EDIT_PAUSE_MS = 300;

export class Controller {
  /** The re-run an edit asked for, waiting for the typing to pause (a timer id); 0 when none. */
  private reloadTimer = 0;
  /** The "cannot be saved in this browser" banner was shown: it shows once per page. */
  private unsavedWarned = false;
  /** The question a link asks before it replaces the user's kernel, and the copy kept aside. */
  private readonly own: OwnWork;

  constructor(private readonly parts: ControllerParts) {
    this.own = new OwnWork(parts.el.workNote, {
      show: (work) => this.showState(work),
      save: () => this.saveShown(),
      dropHash: () => this.dropHash(),
      banner: (m) => parts.app.banner(m),
      isExample: (text) => EXAMPLES.some((e) => e.text === text),
    });
  }

  private get app(): App {
    return this.parts.app;
  }

  /** The rest of what boot restored (`page.restore`, whose state is in the store already, so the
   * panels were built with it): its banners, the question if a link replaces the user's kernel,
   * and an embed's panels. Before `start`. */
  restore(restored: page.Restored): void {
    for (const m of restored.banners) this.app.banner(m);
    if (restored.ask) this.own.ask(restored.ask);
    this.own.render();
    const embed = page.embedded(store.get().embed);
    if (embed.banner) this.app.banner(embed.banner);
    store.update(embed.patch);
    const shown = store.get().embed;
    // The dock lays out an embed's panels (app.renderAll); its title line opens the whole app.
    if (shown) {
      document.body.classList.add('embed');
      const open = document.getElementById('embed-open') as HTMLAnchorElement | null;
      if (open) { open.href = location.href.replace(/&embed=[^&]*/, ''); open.hidden = false; }
    }
  }

  /** The first run, once every panel is there. */
  start(): void {
    this.showModes();
    this.showFigure();
    this.app.reload();
    // A sweep restored from a link or the saved work runs again (its points are not stored).
    if (store.get().sweep !== null) this.parts.sweep.run();
  }

  private dropHash(): void {
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  }

  /** Saves what is on screen, unless it is an embed or a link the user has not taken up yet. */
  private saveShown(): void {
    if (store.get().embed !== null || this.own.asking || store.saveWork(store.get()) || this.unsavedWarned) return;
    this.unsavedWarned = true;
    this.app.banner('Your work cannot be saved in this browser (its storage is full or turned off): copy a link to keep it.', 'info');
  }

  /** A choice of the user's: kept in the store and the saved work, without re-running. */
  remember(patch: Partial<store.UiState>): void {
    this.app.movedOn();
    store.update(patch);
    this.dropLeftFigure();
    this.saveShown();
    // The link in the address bar no longer describes what is on screen (an open question keeps it).
    if (!this.own.asking) this.dropHash();
  }

  /** A change of the user's that re-runs the kernel: at once, or after the typing pauses. */
  userChanged(patch: Partial<store.UiState>, immediate: boolean): void {
    // Changing the link's kernel or inputs takes it up: the user's own goes aside first.
    if (this.own.asking) this.own.useLink();
    this.remember(patch);
    this.cancelReload();
    if (immediate) this.app.reload();
    else this.reloadTimer = window.setTimeout(() => { this.reloadTimer = 0; this.app.reload(); }, EDIT_PAUSE_MS);
  }

  /** An edit's re-run still waiting for the typing to pause no longer comes; whether one was. */
  private cancelReload(): boolean {
    const waiting = this.reloadTimer !== 0;
    clearTimeout(this.reloadTimer);
    this.reloadTimer = 0;
    return waiting;
  }

  /** Stop. An edit still waiting for the typing to pause runs now and stops with the rest: the
   * run shown is the text on screen, stopped as asked (not the run before the edit, nor a new one
   * that goes on after Stop). */
  stopRun(): void {
    if (this.cancelReload()) this.app.reload();
    this.app.stopRun();
  }

  /** The editor's text changed (the user typed; a text put there by the page is in the store already). */
  edited(text: string): void {
    if (text !== store.get().text) this.userChanged({ text }, false);
  }

  /** The CUDA source tab's or (a SASS kernel's) PTX tab's text changed (the user typed or
   * pasted): kept with the work and in links; the run does not change. Changing a link's text
   * takes the link up, as in the editor. */
  pastedEdited(tab: 'cuda' | 'ptx', text: string): void {
    const value = text === '' ? null : text;
    if (value === store.get()[tab]) return;
    if (this.own.asking) this.own.useLink();
    this.remember({ [tab]: value });
    if (tab === 'cuda') this.app.cudaChanged(); else this.app.ptxChanged();
  }

  /** The CUDA and PTX tabs show the store's texts (an example's, a link's, the user's own). */
  private showPasted(): void {
    cudaPanel.setText(this.app.panels.cuda, store.get().cuda ?? '');
    this.app.cudaChanged();
    cudaPanel.setText(this.app.panels.ptx, store.get().ptx ?? '');
    this.app.ptxChanged();
  }

  /** An input's `//@` line set or removed (the Kernel inputs panel): the core edits the text, the
   * editor takes it as one undoable change, and the kernel runs again. A param's line decides its
   * value again, so the top bar's value for it is dropped. */
  editHeader(edit: HeaderEdit): void {
    const view = this.parts.editor;
    const text = setHeader(view.state.doc.toString(), edit);
    if (text === null) return;
    const key = 'set' in edit ? edit.set : edit.remove;
    const params = { ...store.get().params };
    if (key.header === 'param') delete params[key.name];
    // The store first, so the editor does not take the change for typing (which waits for a pause).
    this.userChanged({ text, params }, true);
    editor.applyText(view, text);
  }

  /** Puts another kernel and its choices on screen (the user's own, or a link's) without saving it. */
  private showState(patch: Partial<store.UiState>): void {
    const { sweep } = this.parts;
    sweep.reset();
    this.cancelReload();
    store.update({ step: 0, lane: 0, breakpoints: [], ...patch });
    // After the store update, so the editor does not take it for the user's edit; Ctrl+Z undoes it.
    editor.setText(this.parts.editor, store.get().text);
    this.showPasted();
    settings.render(this.parts.settings, store.get().stepLimit);
    this.app.reload();
    this.showModes();
    this.showFigure();
    if (store.get().sweep !== null) sweep.run();
  }

  /** A figure's "What to look at" leaves with its context: its kernel, or its mode (a sweep). */
  private dropLeftFigure(): void {
    const fig = figureById(store.get().figure);
    if (!fig || page.figureHolds(fig, store.get(), EXAMPLES)) return;
    store.update({ figure: null });
    this.showFigure();
  }

  /** "What to look at" for the paper's figure on screen; a view figure's plot is outlined. */
  private showFigure(): void {
    const fig = figureById(store.get().figure);
    figureNote.render(this.parts.el.figureNote, fig, () => { this.remember({ figure: null }); this.showFigure(); });
    // A plain view figure is its stack history; a compare figure is the table beside the runs.
    this.app.dock?.section('plot')?.classList.toggle('figure-focus', !!fig?.view && !fig.view.compare && store.get().sweep === null);
  }

  private showModes(): void {
    this.parts.el.compareButton.setAttribute('aria-pressed', String(store.get().compare !== null));
    this.parts.el.sweepButton.setAttribute('aria-pressed', String(store.get().sweep !== null));
  }

  /** Opens example `ex` (with `patch` over its own choices), as an undoable change in the editor. */
  openExample(ex: Example, patch: Partial<store.UiState> = {}): void {
    this.own.beforeExample(store.workOf(store.get()));
    this.parts.sweep.reset();
    // An undoable change in the editor: Ctrl+Z brings back what was there.
    editor.setText(this.parts.editor, ex.text);
    store.update({ step: 0, breakpoints: [] });
    this.userChanged(page.examplePatch(ex, store.get(), patch), true);
    this.showPasted();
    this.showFigure();
    this.showModes();
  }

  /** An example picked in the gallery; in compare mode its model gets its usual partner beside it. */
  openFromGallery(ex: Example): void {
    this.openExample(ex);
    const partner = page.selfComparison(store.get(), this.app.run?.load ?? null);
    if (partner) this.userChanged(partner, true);
  }

  /** A figure of the papers: its kernel in the stepping view at its settings (the whole history
   * drawn solid, as the paper prints it; in compare mode beside its second model, from step 0),
   * or its sweep run. */
  openFigure(f: Figure): void {
    const opening = page.openingOf(f, EXAMPLES);
    if (opening.kind === 'missing') { this.app.banner(opening.message); return; }
    this.openExample(opening.example, opening.patch);
    if (opening.kind === 'view' && f.view?.compare) {
      // Two runs and their table, stepped from the start.
      this.app.dock?.reveal('compare-table');
    } else if (opening.kind === 'view') {
      this.app.goto(this.app.span());
      // The figure is drawn in the stack history: its tab comes to the front.
      this.app.dock?.reveal('plot');
    } else {
      this.parts.sweep.run();
    }
  }

  /** The top bar's Compare button. */
  toggleCompare(): void {
    const on = store.get().compare === null;
    if (on) this.parts.sweep.close();
    this.userChanged(page.compareToggle(store.get(), this.app.run?.load ?? null), true);
    this.showModes();
    this.showFigure();
  }

  /** The top bar's Sweep button: its defaults for the kernel, or a note when it has no param. */
  toggleSweep(): void {
    const { sweep } = this.parts;
    if (store.get().sweep !== null) {
      sweep.close();
      this.userChanged({ sweep: null }, true);
    } else {
      const choice = sweep.defaults(this.app.run?.load ?? null);
      if (!choice) {
        this.app.banner('This kernel has no //@ param to sweep: add one (for example //@ param n = 2) and use it in the kernel.', 'info', 'brief');
        return;
      }
      this.userChanged({ sweep: choice, compare: null }, true);
    }
    this.showModes();
    this.showFigure();
  }

  /** The Link button: the screen's permalink in the address bar and, where allowed, the clipboard. */
  /** The link to exactly this state, also put in the address bar. */
  linkUrl(): string {
    const frag = encode(page.linkOf(store.get()));
    const url = `${location.origin}${location.pathname}${frag}`;
    history.replaceState(null, '', frag);
    this.parts.el.linkButton.dataset.link = url;
    return url;
  }

  /** What a link to a broken kernel shows, said when one is copied. */
  linkCaveat(): string {
    const broken = this.app.diagnostics.some((d) => d.severity === 'error');
    return broken ? ' Note: the kernel in it has errors, so whoever opens it sees them, not a run.' : '';
  }

  async copyLink(): Promise<void> {
    const url = this.linkUrl();
    const caveat = this.linkCaveat();
    const broken = caveat !== '';
    try {
      await navigator.clipboard.writeText(url);
      this.app.banner(`Link copied to the clipboard (it is also in the address bar).${caveat}`, broken ? 'error' : 'info', 'brief');
    } catch {
      this.app.banner(`The link is in the address bar: copy it from there.${caveat}`, broken ? 'error' : 'info', 'brief');
    }
  }

  /** The stack history as a figure of the whole run (`titled`: with the kernel's title and model
   * drawn above it), or the trace; named after the kernel and model. */
  download(what: 'svg' | 'png' | 'csv', options: { titled: boolean } = { titled: false }): void {
    const run = this.app.run;
    if (!run) return;
    const { title, model } = run.load;
    const name = (of: string, ext: string) => exportName({ subject: title, model, what: of, ext });
    if (what === 'csv') {
      if (this.parts.engine) exporter.csvFile(this.parts.engine.traceCsv(), name('trace', 'csv'));
      return;
    }
    const figure = plot.figure(this.app.panels.plot, run.plot, { title: `${title ?? 'kernel'} · ${model}`, titled: options.titled });
    if (what === 'svg') exporter.svgFile(figure, name('stack-history', 'svg'));
    else void exporter.pngFile(figure, name('stack-history', 'png'), FIGURE_PNG_SCALE);
  }

  /** The main run's whole CFG (side A's in compare mode) as a standalone SVG, with the current
   * step's highlight when `atStep`; under STRUCT the graph its panel shows, transformed or original. */
  downloadCfg(atStep: boolean): void {
    const r = this.app.run;
    if (!r) return;
    const step = store.get().step, title = kernelTitle(r.load) ?? 'kernel', model = r.load.model;
    const panel = this.app.comparing ? this.app.compare?.sides?.[0].cfg : this.app.panels.cfg;
    const original = panel?.shown === 'original' ? originalGraphOf(r) : null;
    const state = atStep ? this.app.state : null;
    const shownStep = Math.min(step, r.total);
    // The graph at a step is another file than the plain graph: its name says which step.
    const what = `${original ? 'original-cfg' : 'cfg'}${atStep ? `-step-${shownStep}` : ''}`;
    exporter.svgTextFile(cfgSvgText({
      cfg: original?.cfg ?? r.cfg, layout: original?.layout() ?? r.layout, rows: !original, heat: r.heat?.blocks ?? null,
      state: original ? originalMarks(r.cfg, state).marks : state,
      title: `warpscope: ${title} (${model}${original ? ', original graph' : ''})`,
      caption: `${title} · ${model}${original ? ' · the original graph, before the transform' : ''}${atStep ? ` · after step ${shownStep} of ${r.total}` : ''}`,
    }), exportName({ subject: kernelTitle(r.load), model, what, ext: 'svg' }));
  }

  /** A link pasted into this tab changes only the fragment: show it, asking first if it would
   * replace the user's kernel. (Our own replaceState calls fire no hashchange.) */
  hashChanged(): void {
    const mine = this.own.ownWork(store.workOf(store.get()));
    const change = page.hashChange(decode(location.hash), store.get().embed !== null, mine);
    if (change.kind === 'banner') this.app.banner(change.message);
    if (change.kind === 'reload') location.reload();
    if (change.kind !== 'show') return;
    if (change.ask) this.own.ask(mine);
    this.showState({ ...change.link });
  }
}
