//! The run view: loads the kernel into the engine, keeps the per-run facts the panels need
//! (CFG and its layout, the engine's summaries of the run), and renders the panels for the current step. In
//! compare mode it also loads the second model (`compare.ts`) and the step is shared: it runs to
//! the end of the longer run. A long run loads in slices (`loader.ts`) with progress and Stop;
//! meanwhile the last finished run stays on screen, and a newer load supersedes it.

import type { EditorView } from '@codemirror/view';
import type { Comparison } from './compare';
import type { SweepView } from './sweep/view';
import type { Engine } from './engine';
import { viewOf, type Dock } from './layout/dock';
import { cudaLineOfPc, firstPcOfCuda, firstPcOfSource, linkedLines, linesOf, ptxLinesOfCuda, ptxMap, type LinePointer, type Pane, type PtxMap } from './line-map';
import { RunLoader } from './loader';
import * as banner from './panels/banner';
import * as caption from './panels/caption';
import * as checks from './panels/checks';
import type { SideHooks } from './panels/compare';
import * as cfgPanel from './panels/cfg';
import * as cudaPanel from './panels/cuda';
import * as editor from './panels/editor';
import * as inputs from './panels/inputs';
import * as kernelInputs from './panels/kernel-inputs';
import * as lanes from './panels/lanes';
import * as listing from './panels/listing';
import * as memory from './panels/memory';
import * as metrics from './panels/metrics';
import * as outputPanel from './panels/output';
import * as plot from './panels/plot';
import * as problems from './panels/problems';
import * as ptxPanel from './panels/ptx';
import * as registers from './panels/registers';
import * as runStatus from './panels/run-status';
import * as scrubber from './panels/scrubber';
import * as stack from './panels/stack';
import * as warps from './panels/warps';
import { countingSteps, UNASKED_STEPS, type HeatChoice } from './heat';
import { compilerOutput, heatOf, kernelTitle, originalGraphOf, readRun, warpFacts, withHeatRows, type Run, type RunHeat } from './run';
import { loadOptions } from './choices';
import * as store from './store';
import * as viewPrefs from './view-prefs';
import { EXAMPLES } from './examples';
import type { Beside, DiagnosticView, HeaderEdit, LoadResult, StateView, WarpNow } from './generated/engine';

export type { Run };

export interface Panels {
  editor: EditorView;
  listing: listing.ListingPanel;
  cuda: cudaPanel.CudaPanel;
  ptx: cudaPanel.CudaPanel;
  cfg: cfgPanel.CfgPanel;
  lanes: lanes.LanePanel;
  warps: warps.WarpsPanel;
  plot: plot.PlotPanel;
  scrubber: scrubber.ScrubberPanel;
  status: runStatus.RunStatusPanel;
  registers: registers.RegistersPanel;
  memory: memory.MemoryPanel;
  output: outputPanel.OutputPanel;
  kernelInputs: kernelInputs.KernelInputsPanel;
  problems: problems.ProblemsViews;
  el: Record<'caption' | 'stack' | 'metrics' | 'inputs' | 'banners' | 'title' | 'launch' | 'end', HTMLElement>;
}

export class App {
  run: Run | null = null;
  diagnostics: DiagnosticView[] = [];
  state: StateView | null = null;
  panels!: Panels;
  /** Compare mode's second run and side panels (set at boot). */
  compare: Comparison | null = null;
  /** Sweep mode (set at boot). */
  sweep: SweepView | null = null;
  /** The panels' layout (set at boot). */
  dock: Dock | null = null;
  /** What the last if-convert toggle changed (instructions, steps), shown over the listing. */
  private ifConvertDiff = '';
  /** A run was taken in and its step not drawn yet: a new text's kernel start may be shown. */
  private newRun = false;
  /** Loads into the engine, a long run in slices, and brings the run back after a restart. */
  private readonly loader: RunLoader | null;
  /** The last load's answer, good or not: with no run yet, the inputs show its choices. */
  private lastLoad: LoadResult | null = null;
  /** The line under the pointer in the kernel, the listing or the CUDA source: the lines made from
   * the same instructions light up in the other panes while it is there. */
  private hovered: LinePointer | null = null;
  /** The lines last clicked in the CUDA source or a PTX kernel: lit up until the next click. */
  private picked: LinePointer | null = null;
  /** The pane just clicked in: the pointer moving on there does not replace the click's lines
   * until it leaves the pane. */
  private hoverMuted: Pane | null = null;
  /** The linked lines each pane shows, so a pointer moving over a kernel that links nothing
   * dispatches nothing to the editors. */
  private shownLinks: Record<Pane, string> = { source: '', listing: '', cuda: '', ptx: '' };
  /** The PTX pasted beside a SASS kernel, as the engine lined it up with the run's SASS. */
  private beside: Beside | null = null;
  /** What the checks found, for the text and choices they ran on (`key`): shown while those
   * are the ones on screen. */
  private checked: { key: string; state: checks.ChecksState } | null = null;
  private ptxLines: PtxMap = ptxMap(null);

  constructor(readonly engine: Engine | null) {
    this.loader = engine && new RunLoader(engine, { progress: () => this.renderStatus(), done: (r) => this.loaded(r) });
  }

  banner(message: string, kind: banner.BannerKind = 'error', life: banner.BannerLife = 'kept'): void {
    banner.show(this.panels.el.banners, message, kind, life);
  }

  /** The brief notices answered what the user did before this step or choice: they leave. */
  movedOn(): void {
    banner.dropBrief(this.panels.el.banners);
  }

  /** Loads the store's kernel and inputs; a failing load keeps the last good run on screen (and
   * a long run still loading goes on). A run longer than one slice finishes in the background. */
  reload(): void {
    const s = store.get();
    if (!this.loader) return;
    const r = this.loader.load(s.text, this.runOptions());
    if (!r) { this.renderAll(); return; }
    this.diagnostics = r.diagnostics;
    this.lastLoad = r;
    if (r.ok && !r.running) this.accept(r);
    // Side B counts cycles in side A's costs unless the user picked its own preset.
    // Side B runs side A's kernel, or another one (with its own inputs) under side A's model.
    if (s.compare && this.compare) this.compare.load(s.compareText ?? s.text, s.compareText === null ? s.params : {}, s, s.compare, r.preset, s.stepLimit, s.compareText !== null);
    if (r.ok && !r.running) this.place(s.step);
    this.renderAll();
  }

  /** The load options of the store's kernel and choices. */
  private runOptions() {
    const s = store.get();
    return { ...loadOptions(s.params, s), step_limit: s.stepLimit };
  }

  /** The key the checks are kept under: the text and everything chosen for its run, but for
   * the launch and block shown (the checks cover every launch and block). */
  private checkKey(): string {
    const { launch: _launch, block: _block, ...options } = this.runOptions();
    return JSON.stringify([store.get().text, options]);
  }

  /** The checks' findings on screen, if they ran on the text and choices shown. */
  private checksState(): checks.ChecksState {
    return this.checked?.key === this.checkKey() ? this.checked.state : { kind: 'none' };
  }

  /** Which launch and block the views show, for the findings' steps. */
  private shownBlock(): checks.Shown | null {
    const r = this.run, launch = r?.load.launch;
    return launch ? { launch: r?.load.program?.shown ?? null, block: launch.block_idx } : null;
  }

  /** Shows a finding's step `step` of block `block` of launch `launch` (a program's; null: the
   * kernel alone): another launch or block runs first, then the scrubber goes there. */
  showFinding(launch: number | null, block: [number, number, number], step: number): void {
    const shown = this.shownBlock();
    if (shown && shown.launch === launch && shown.block.every((v, k) => v === block[k])) {
      this.goto(step);
      return;
    }
    if (this.run?.load.program) {
      this.onInput({ launch, block, step });
    } else {
      store.update({ step });
      this.pickBlock(block);
    }
  }

  /** Runs the checks on the run on screen and shows what they found in the Problems panel. */
  runChecks(): void {
    if (!this.engine) return;
    const report = this.engine.check(store.get().text, this.runOptions());
    this.checked = { key: this.checkKey(), state: report ? { kind: 'done', report } : { kind: 'failed' } };
    this.renderAll();
  }

  /** A long run ended (`r`), or the engine lost it (null: the last run stays). */
  private loaded(r: LoadResult | null): void {
    if (r) {
      this.accept(r);
      this.place(store.get().step);
    }
    this.renderAll();
  }

  /** Stop: the runs still loading keep the steps they ran. */
  stopRun(): void {
    if (this.loader?.active) this.loaded(this.loader.stop());
    if (this.compare?.stopRun()) this.renderAll();
  }

  /** Takes in a run that ended: reads its facts and keeps the user's breakpoints that still fit. */
  private accept(r: LoadResult): void {
    const e = this.engine;
    if (!e) return;
    const prev = this.run;
    // A launch's warp in focus: the one the user chose (a link's), else the launch's `warp=`.
    const focus = store.get().warp;
    if (r.launch && focus !== null && focus !== r.launch.focus) {
      r = { ...r, launch: { ...r.launch, focus: e.focus(Math.min(focus, r.launch.warps - 1)) } };
    }
    const run = readRun(e, r, this.loader?.source ?? null, viewPrefs.get().heat);
    if (!run) return;
    this.run = run;
    this.newRun = true;
    const compiled = run.compiled;
    this.ifConvertDiff = prev?.compiled && compiled && prev.compiled.if_convert !== compiled.if_convert
      ? `before the toggle: ${prev.cfg.instrs.length} instructions, ${prev.total} steps` : '';
    lanes.invalidate(this.panels.lanes);
    warps.invalidate(this.panels.warps);
    // Breakpoints on instructions that no longer exist are dropped.
    const s = store.get();
    const bps = s.breakpoints.filter((i) => i < run.cfg.instrs.length);
    store.update({ breakpoints: bps, lane: Math.min(s.lane, r.width - 1) });
    e.setBreakpoints(bps);
    // Clicks pick lines only in a PTX or SASS kernel with CUDA lines.
    if (!this.mapsCuda) this.picked = null;
    this.lineUpPtx();
    // The panes' texts may have changed under their marks: the next render sets them all again.
    this.shownLinks = { source: '-', listing: '-', cuda: '-', ptx: '-' };
  }

  /** Lines up the PTX tab's text with the run's SASS (the engine's `ptxBeside`). */
  private lineUpPtx(): void {
    const sass = compilerOutput(this.run?.compiled) === 'sass';
    this.beside = sass && this.engine ? this.engine.ptxBeside(store.get().ptx ?? '') : null;
    this.ptxLines = ptxMap(store.get().ptx ? this.beside : null);
  }

  /** The PTX beside a SASS kernel has lines that line up with it. */
  private get mapsPtx(): boolean {
    return this.ptxLines.cudaOfPtx.size > 0;
  }

  /** The run is a PTX kernel with `.loc` lines: its instructions have CUDA lines. */
  private get mapsCuda(): boolean {
    return !!this.run && this.run.lines.pcsOfCuda.size > 0;
  }

  /** Shows the line a run's end names (a deadlock's pc, a loop's head) at the run's last step. */
  showEndLine(): void {
    const r = this.run, end = r?.load.end;
    if (!r || !end || end.line === null) return;
    this.goto(this.span());
    editor.reveal(this.panels.editor, end.line);
    editor.showLinked(this.panels.editor, [end.line]);
    this.shownLinks = { source: String(end.line), listing: '', cuda: '', ptx: '' };
    const inListing = end.pc !== null ? r.lines.listingOfPc[end.pc] : undefined;
    if (r.compiled && inListing !== undefined) {
      listing.reveal(this.panels.listing.view, inListing);
      listing.showLinked(this.panels.listing.view, [inListing]);
      this.shownLinks.listing = String(inListing);
    }
  }

  /** The progress of runs still loading, or how the shown run ended early. */
  renderStatus(): void {
    const s = store.get();
    const end = s.compare === null && s.sweep === null ? this.run?.load.end ?? null : null;
    const c = this.compare;
    // Where the runs loading end at the latest (a replay after a restart may end before the limit).
    const last = Math.max(this.loader?.lastStep ?? 0, c?.loadingLastStep ?? 0) || s.stepLimit;
    runStatus.render(this.panels.status, { a: this.loader?.steps ?? null, b: c?.loadingSteps ?? null }, last, end);
  }

  /** Compare mode is on (side B may still lack a run: its side then says why). */
  get comparing(): boolean {
    return store.get().compare !== null && !!this.compare && !!this.run;
  }

  /** The last step: the run's, or in compare mode the longer run's. */
  span(): number {
    if (!this.run) return 0;
    return this.comparing ? this.compare!.span(this.run) : this.run.total;
  }

  /** Moves to step `t` (clamped). In compare mode the shared step may pass side A's end. */
  private place(t: number): void {
    if (!this.engine || !this.run) return;
    const target = Math.max(0, Math.min(t, this.span()));
    const to = Math.min(target, this.run.total), width = this.run.load.width;
    // The lane view's window, when it must fetch one, comes from the seek's own replay.
    const range = this.comparing ? null : lanes.wanted(this.panels.lanes, this.run.total, width, to);
    let a: number;
    if (range) {
      const { step, codes } = this.engine.seekWithLanes(to, range.from, range.to, width);
      lanes.prime(this.panels.lanes, range, codes, this.run.total, width);
      a = step;
    } else {
      a = this.engine.seek(to);
    }
    store.update({ step: this.comparing ? target : a });
  }

  /** For a whole launch, what the caption says of the block at this step: the warp that issued
   * it and what the focused one does (`now`: the engine's `warps_now`). */
  private blockLine(now: WarpNow[]): caption.BlockLine | null {
    const launch = this.run?.load.launch, e = this.engine;
    if (!launch || !e) return null;
    const focused = now[launch.focus];
    return { issuer: e.issuerOf(store.get().step), focus: launch.focus, doing: focused ? warps.doingOf(focused) : '' };
  }

  /** Puts warp `w` of the launch's block in focus: the per-warp views and the run's plots follow. */
  focusWarp(w: number): void {
    const e = this.engine, r = this.run;
    if (!e || !r?.load.launch) return;
    const focus = e.focus(w);
    const load = { ...r.load, launch: { ...r.load.launch, focus } };
    this.run = { ...r, ...warpFacts(e, load), load };
    store.update({ warp: focus });
    lanes.invalidate(this.panels.lanes);
    this.renderAll();
  }

  /** Shows block `b` of the launch: its `//@ launch` line names it (one undoable edit), and the
   * kernel runs again with that block recorded. */
  pickBlock(b: number[]): void {
    // A program's launch is main()'s: its block is a choice, the text stays as written.
    if (this.run?.load.program) {
      this.onInput({ block: [b[0], b[1], b[2]] });
      return;
    }
    const l = this.run?.inputs?.launch;
    if (!l) return;
    this.onHeaderEdit({ set: { header: 'launch', grid: l.grid, block: l.block, shared: l.shared, block_idx: [b[0], b[1], b[2]], warp_idx: l.warp_idx } });
  }

  /** Goes to the focused warp's next (`1`) or previous (`-1`) issue in the block, if it has one. */
  stepWarp(dir: -1 | 1): void {
    const e = this.engine, launch = this.run?.load.launch;
    if (!e || !launch) return;
    const t = dir > 0 ? e.nextIssueOf(launch.focus) : e.prevIssueOf(launch.focus);
    if (t !== null) this.goto(t);
  }

  goto(t: number): void {
    this.movedOn();
    this.place(t);
    this.renderStep();
  }

  /** Syncs the store's step after the engine moved by itself (run_until). */
  synced(): void {
    if (!this.engine) return;
    this.movedOn();
    store.update({ step: this.engine.current() });
    // A breakpoint another warp of the block reached brings that warp into focus.
    const focus = this.engine.focused(), launch = this.run?.load.launch;
    if (launch && focus !== null && focus !== launch.focus) return this.focusWarp(focus);
    this.renderStep();
  }

  /** A gutter click on a source line: a breakpoint on its first instruction. */
  toggleBreakpointAtLine(line: number): void {
    const instr = this.run && firstPcOfSource(this.run.lines, line);
    if (instr != null) this.toggleBreakpoint(instr); // else no instruction comes from that line
  }

  /** A gutter click on a CUDA line: a breakpoint on the first instruction made from it. */
  toggleBreakpointAtCuda(line: number): void {
    const instr = this.run && firstPcOfCuda(this.run.lines, line);
    if (instr != null) this.toggleBreakpoint(instr);
  }

  /** A gutter click on a PTX line beside SASS: a breakpoint on the first instruction of its CUDA line. */
  toggleBreakpointAtPtx(line: number): void {
    const cuda = this.ptxLines.cudaOfPtx.get(line);
    const instr = this.run && cuda !== undefined ? firstPcOfCuda(this.run.lines, cuda) : undefined;
    if (instr != null) this.toggleBreakpoint(instr);
  }

  /** A gutter click on a line of the generated code. */
  toggleBreakpointAtListing(line: number): void {
    const instr = this.run?.lines.pcOfListing.get(line);
    if (instr !== undefined) this.toggleBreakpoint(instr);
  }

  /** The pointer over a line of the kernel, the listing (`pane`) or the CUDA source (null: it
   * left): the lines of the same instructions light up in the other panes. */
  hover(pane: Pane, line: number | null): void {
    if (pane === this.hoverMuted) {
      if (line === null) this.hoverMuted = null;
      return;
    }
    this.hovered = line === null ? null : { pane, lines: [line], pick: false };
    this.renderLinks();
  }

  /** Lines clicked or selected in the CUDA source or a PTX kernel: the PTX, listing and CUDA
   * lines made from the same instructions stay lit until the next click. */
  pick(pane: Pane, lines: number[]): void {
    // Lines of a CUDA tab with no text pasted, or of PTX that does not line up, mean nothing.
    if (!this.mapsCuda || (pane === 'cuda' && !store.get().cuda) || (pane === 'ptx' && !this.mapsPtx)) return;
    this.picked = lines.length ? { pane, lines, pick: true } : null;
    this.hovered = null;
    this.hoverMuted = pane;
    this.renderLinks();
    this.revealPicked();
  }

  /** The panes other than the picked one scroll to the first line made from the pick; again
   * when a panel is shown or resized, since a hidden pane could not scroll when it was made. */
  revealPicked(): void {
    if (!this.run || !this.picked) return;
    const marks = linkedLines(this.run.lines, this.picked, this.ptxLines);
    const p = this.panels;
    const pane = this.picked.pane;
    if (pane !== 'source') editor.reveal(p.editor, marks.source[0] ?? null);
    if (pane !== 'listing' && this.run.compiled) listing.reveal(p.listing.view, marks.listing[0] ?? null);
    if (pane !== 'cuda' && this.mapsCuda) cudaPanel.reveal(p.cuda.view, marks.cuda[0] ?? null);
    if (pane !== 'ptx' && this.mapsPtx) cudaPanel.reveal(p.ptx.view, marks.ptx[0] ?? null);
  }

  /** The linked lines of the pointer, else of the last pick, in every pane. */
  renderLinks(): Record<Pane, number[]> | null {
    if (!this.run) return null;
    const marks = linkedLines(this.run.lines, this.hovered ?? this.picked, this.ptxLines);
    if (!store.get().cuda) marks.cuda = [];
    const show = (pane: Pane, view: EditorView) => {
      const key = marks[pane].join(',');
      if (key !== this.shownLinks[pane]) editor.showLinked(view, marks[pane]);
      this.shownLinks[pane] = key;
    };
    show('source', this.panels.editor);
    if (this.run.compiled) show('listing', this.panels.listing.view);
    if (this.mapsCuda) show('cuda', this.panels.cuda.view);
    if (compilerOutput(this.run.compiled) === 'sass') show('ptx', this.panels.ptx.view);
    return marks;
  }

  /** The CUDA tab's text changed: lines picked in the old text no longer mean anything. */
  cudaChanged(): void {
    if (this.picked?.pane === 'cuda') this.picked = null;
    this.renderLinks();
    this.renderCuda();
  }

  /** The PTX tab's text changed: it is lined up again, and lines picked in the old text go. */
  ptxChanged(): void {
    if (this.picked?.pane === 'ptx') this.picked = null;
    this.lineUpPtx();
    this.renderLinks();
    this.renderPtx();
  }

  /** The heat button of the generated code or the CFG: counts a run that waits to be asked,
   * else turns the heat on or off in both (kept for the next visit). */
  heatPressed(): void {
    const r = this.run;
    if (r && this.heatWaits(r)) {
      r.heatAsked = true;
    } else {
      const on = !viewPrefs.get().heat;
      viewPrefs.set({ heat: on });
      // The graph's blocks gain or lose their heat row.
      if (r) this.run = withHeatRows(r, on);
    }
    this.renderStep();
  }

  /** The heat is on and `r`, too long to count unasked, has not been counted nor asked for. */
  private heatWaits(r: Run): boolean {
    return viewPrefs.get().heat && r.heat === undefined && !r.heatAsked && countingSteps(r.load, r.total) > UNASKED_STEPS;
  }

  /** The heat as a panel asks for it: on or off, waiting to be asked, and its cells from the
   * run's counts (counted the first time a panel on screen asks). */
  private heatChoice<T>(cells: (h: RunHeat) => readonly T[]): HeatChoice<T> {
    const e = this.engine, r = this.run, on = viewPrefs.get().heat;
    const waits = !!r && this.heatWaits(r);
    return {
      on, waits,
      cells: () => {
        if (!e || !r || !on || waits) return null;
        const h = heatOf(e, r);
        return h && cells(h);
      },
    };
  }

  toggleBreakpoint(instr: number): void {
    const bps = new Set(store.get().breakpoints);
    if (bps.has(instr)) bps.delete(instr); else bps.add(instr);
    const list = [...bps].sort((a, b) => a - b);
    store.update({ breakpoints: list });
    this.engine?.setBreakpoints(list);
    this.renderEditor();
    if (this.run && !this.comparing) cfgPanel.render(this.panels.cfg, this.run.cfg, this.run.layout, this.state, list, originalGraphOf(this.run), this.heatChoice((h) => h.blocks));
  }

  renderAll(): void {
    const p = this.panels, r = this.run;
    // The kernel does not compile and the views show an older run: they are dimmed, so that
    // nobody takes them for the kernel on screen (a first paste that fails keeps the example's).
    document.body.classList.toggle('stale-run', !!r && this.diagnostics.some((d) => d.severity === 'error'));
    problems.render(p.problems, this.diagnostics, !!r, {
      jump: (d) => { this.dock?.reveal('editor'); editor.jumpTo(p.editor, d); },
      openPanel: () => this.openProblems(),
    });
    checks.render(p.problems.panel, this.checksState(), this.shownBlock(), {
      check: () => this.runChecks(),
      show: (launch, block, step) => this.showFinding(launch, block, step),
      jump: (line) => { this.dock?.reveal('editor'); editor.jumpTo(p.editor, { severity: 'info', line, col: 1, len: 0, message: '' }); },
    });
    p.el.title.textContent = kernelTitle(r?.load) ?? '';
    p.el.title.title = r?.load.about ?? '';
    // Which of main()'s launches the views show, when it made several.
    const program = r?.load.program, shown = program?.shown;
    p.el.launch.textContent = program && shown != null && program.launches.length > 1 ? `launch ${shown + 1} of ${program.launches.length}` : '';
    // How the whole run ended: a deadlock, fault or step limit must not go unnoticed.
    const end = r?.load.end;
    // An early end's whole message is in the status strip under the top bar; here its kind.
    p.el.end.textContent = end ? (end.kind === 'exited' ? `${r.total} steps, all lanes exited` : end.kind.replace('_', ' ')) : '';
    this.renderStatus();
    p.el.end.title = end ? (end.kind === 'exited' ? p.el.end.textContent : `${end.kind.replace('_', ' ')}: ${end.message}`) : '';
    p.el.end.classList.toggle('bad', !!end && end.kind !== 'exited');
    // The generated-code pane is there for C kernels only.
    document.body.classList.toggle('c-kernel', !!r?.compiled);
    const s = store.get();
    document.body.classList.toggle('comparing', s.compare !== null);
    document.body.classList.toggle('sweeping', s.sweep !== null);
    this.dock?.show(viewOf(s, !!r?.compiled, compilerOutput(r?.compiled) !== null, compilerOutput(r?.compiled) === 'sass', !!r?.load.launch));
    if (s.compare === null) this.compare?.close();
    if (s.sweep !== null) this.sweep?.sync(r?.load ?? null, s.sweep);
    // Before any run (a link naming an unknown model, say) the failed load's choices still show,
    // so another model can be picked.
    inputs.render(p.el.inputs, r?.load ?? this.lastLoad, r?.compiled ?? null, {
      param: (name, value) => this.onInput({ params: { ...store.get().params, [name]: value } }),
      preset: (preset) => this.onInput({ preset }),
      ifConvert: (ifConvert) => this.onInput({ ifConvert }),
      ...this.modelHooks(),
    }, s.sweep !== null ? 'sweep' : s.compare !== null ? 'compare' : 'single');
    this.markSweptInputs();
    kernelInputs.render(p.kernelInputs, {
      inputs: r?.inputs ?? null, diagnostics: this.diagnostics, topBar: s.params, editable: s.embed === null, wholeLaunch: !!r?.load.launch,
      program: r?.load.program ?? null, kernelOnly: s.kernelOnly === true,
    });
    this.renderLinks();
    this.renderStep();
  }

  /** The params a sweep varies take no value from the top bar: their fields are disabled. */
  markSweptInputs(): void {
    const r = store.get().sweep?.request;
    const swept = r ? [r.param, r.split?.param] : [];
    for (const input of this.panels.el.inputs.querySelectorAll<HTMLInputElement>('input[data-param]')) {
      input.disabled = swept.includes(input.dataset.param);
      input.title = input.disabled ? 'swept: see the sweep settings' : '';
    }
  }

  /** The Problems panel brought forward, its first problem focused. */
  openProblems(): void {
    this.dock?.reveal('problems');
    this.panels.problems.panel.querySelector<HTMLElement>('button')?.focus();
  }

  /** Choices of side A's model (the top bar's, or the left side's in compare mode). */
  modelHooks(): inputs.ModelHooks {
    return {
      // Two kernels compared run under one model: side B's follows side A's.
      model: (model) => {
        const { compare, compareText } = store.get();
        this.onInput({ model, ...(compare && compareText !== null ? { compare: { ...compare, model } } : {}) });
      },
      pathOrder: (pathOrder) => this.onInput({ pathOrder }),
      schedule: (schedule) => this.onInput({ schedule }),
    };
  }

  /** Choices of side B's model and cost preset: a change reloads both (the step is shared). */
  compareHooks(): SideHooks {
    const set = (patch: Partial<NonNullable<store.UiState['compare']>>) => {
      const c = store.get().compare;
      if (c) this.onInput({ compare: { ...c, ...patch } });
    };
    return {
      model: (model) => set({ model }), pathOrder: (pathOrder) => set({ pathOrder }), schedule: (schedule) => set({ schedule }),
      preset: (preset) => set({ preset }),
      // Another kernel runs under side A's model (as the engine resolved it); back to side A's
      // kernel, side B keeps its model.
      kernel: (file) => {
        const c = store.get().compare, text = EXAMPLES.find((e) => e.file === file)?.text ?? null;
        if (!c) return;
        this.onInput({ compareText: text, compare: text !== null && this.run ? { ...c, model: this.run.load.model } : c });
      },
    };
  }

  /** A param, model or preset change: re-run at once, keeping the step when possible. */
  onInput: (patch: Partial<store.UiState>) => void = () => {};
  /** An input's `//@` line set (the block picker): main.ts wires it to the controller. */
  onHeaderEdit: (edit: HeaderEdit) => void = () => {};
  /** Opens the help's glossary at a stack entry's word (main.ts wires it to the help). */
  onTerm: (word: string) => void = () => {};

  renderEditor(): void {
    const s = store.get(), r = this.run, pc = this.state?.pc ?? null;
    editor.render(this.panels.editor, {
      diagnostics: this.diagnostics,
      currentLine: this.state?.line ?? null,
      breakpointLines: r ? linesOf(r.lines.sourceOfPc, s.breakpoints) : [],
      readOnly: s.embed !== null,
    });
    const c = r?.compiled;
    // Under STRUCT the code shown is the transformed kernel: say how much the copies and cuts added.
    const before = r?.original ? ` (${r.original.instrs.length} before STRUCT's transform)` : '';
    const info = c ? [`${c.target}`, `${r.cfg.instrs.length} instructions${before}, ${r.total} steps`, ...(c.if_convert ? ['if-converted'] : []),
      ...(this.ifConvertDiff ? [this.ifConvertDiff] : [])].join(' · ') : '';
    listing.render(this.panels.listing, {
      text: r?.listingText ?? '',
      current: r && pc !== null ? r.lines.listingOfPc[pc] ?? null : null,
      breakpoints: r ? linesOf(r.lines.listingOfPc, s.breakpoints) : [],
      info,
      heat: this.heatChoice((h) => h.listing),
    });
    if (compilerOutput(c) !== null) this.renderCuda();
    if (compilerOutput(c) === 'sass') this.renderPtx();
  }

  /** The CUDA source tab of a PTX kernel: the current instruction's CUDA line, the breakpoints'
   * lines, and what the tab says about the text pasted. */
  renderCuda(): void {
    const s = store.get(), r = this.run, c = r?.compiled;
    if (!r || !c) return;
    const text = s.cuda ?? '';
    cudaPanel.render(this.panels.cuda, {
      current: cudaLineOfPc(r.lines, this.state?.pc ?? null),
      breakpoints: linesOf(r.lines.cudaOfPc, s.breakpoints).filter((l) => l > 0),
      facts: {
        code: compilerOutput(c) ?? 'ptx', hasLoc: this.mapsCuda, file: c.cuda_file, lastLine: Math.max(0, ...c.cuda_lines),
        textLines: text === '' ? 0 : text.split('\n').length,
      },
      readOnly: s.embed !== null,
    });
  }

  /** The PTX tab of a SASS kernel: the PTX lines of the current instruction's CUDA line, those
   * of the breakpoints' (each its first), and what the tab says about the text pasted. */
  renderPtx(): void {
    const s = store.get(), r = this.run;
    if (!r) return;
    const cuda = cudaLineOfPc(r.lines, this.state?.pc ?? null);
    const bpCuda = linesOf(r.lines.cudaOfPc, s.breakpoints).filter((l) => l > 0);
    ptxPanel.render(this.panels.ptx, {
      current: cuda === null ? null : ptxLinesOfCuda(this.ptxLines, [cuda]),
      breakpoints: bpCuda.map((l) => this.ptxLines.ptxOfCuda.get(l)?.[0]).filter((l): l is number => l !== undefined),
      beside: this.beside, text: s.ptx ?? '', cudaFile: r.compiled?.cuda_file ?? null,
      readOnly: s.embed !== null,
    });
  }

  renderStep(): void {
    const p = this.panels, s = store.get(), r = this.run, e = this.engine;
    this.state = r && e ? e.state(s.lane) : null;
    this.renderEditor();
    // The first run of a text pasted over everything, or opened, shows where its kernel starts;
    // otherwise follow the current instruction, unless the user is typing in the editor.
    const line = this.state?.line ?? null;
    const shown = this.newRun && editor.showNewKernel(p.editor, line);
    this.newRun = false;
    if (!shown && !p.editor.hasFocus) editor.reveal(p.editor, line);
    if (!r || !e) return;
    const selectLane = (lane: number) => { this.movedOn(); store.update({ lane }); this.renderStep(); };
    if (this.comparing) {
      const c = this.compare!;
      c.render({ engine: e, run: r, state: this.state }, s.step, s.lane, selectLane, { text: s.compareText, examples: EXAMPLES });
      scrubber.render(p.scrubber, s.step, c.span(r), c.strip(r, e), s.playing, !!r.load.launch);
      return;
    }
    cfgPanel.render(p.cfg, r.cfg, r.layout, this.state, s.breakpoints, originalGraphOf(r), this.heatChoice((h) => h.blocks));
    const launch = r.load.launch;
    // Every warp at the step, read once for the warps panel and the caption.
    const now = launch ? e.warpsNow() : [];
    if (launch) {
      warps.render(p.warps, {
        warps: launch.warps, width: r.load.width, total: r.total, step: s.step, focus: launch.focus,
        blockIdx: launch.block_idx, blocks: launch.blocks, pickBlock: s.embed === null ? (b) => this.pickBlock(b) : null,
        fetch: (a, b) => e.warpsWindow(a, b, launch.warps), now, releases: r.releases,
        select: (w) => { this.movedOn(); this.focusWarp(w); },
        issue: (dir) => this.stepWarp(dir),
      });
    }
    lanes.render(p.lanes, {
      width: r.load.width, total: r.total, step: s.step, lane: s.lane, idle: r.idleSteps > 0,
      fetch: (a, b) => e.laneStates(a, b, r.load.width), issued: (a, b) => e.issuedLanes(a, b),
      inspect: (lane) => e.state(lane),
      select: selectLane,
      exchange: e.exchange(),
    });
    stack.render(p.el.stack, this.state, {
      model: r.load.model, capacity: r.load.stack_capacity, depth: s.step > 0 ? r.plot.depthAt(s.step) : null,
      openTerm: (word) => this.onTerm(word),
    });
    plot.render(p.plot, r.plot, s.step);
    scrubber.render(p.scrubber, s.step, r.total, r.strip, s.playing, !!launch, checks.marks(this.checksState(), this.shownBlock()));
    caption.render(p.el.caption, this.state, r.load.end, r.total, r.idleSteps > 0 && s.step > 0 && e.issuedLanes(s.step - 1, s.step)[0] === 0, this.blockLine(now));
    registers.render(p.registers, this.state, s.lane, r.load.width, selectLane);
    memory.render(p.memory, {
      run: r, step: s.step, lane: s.lane, view: () => e.memory(), cells: (b, from, to) => e.memoryCells(b, from, to),
      writers: (b, from, to) => e.sharedWriters(b, from, to),
    });
    outputPanel.render(p.output, r.output, s.step, s.lane, (t) => this.goto(t), r.load.program);
    metrics.render(p.el.metrics, e.metrics(), e.metricInfos());
  }
}
