//! Boot: builds the panels, starts the engine, restores the state (a permalink, else the user's
//! saved work, else the default example) and wires the top-bar buttons. A link that would
//! replace the user's own kernel asks first (`own-work.ts`), at boot and when the hash changes.

import './style.css';
import { App } from './app';
import { Comparison } from './compare';
import { bindKeys, Controls } from './controls';
import { Engine, StepLimit } from './engine';
import { defaultExample, EXAMPLES, type Example } from './examples';
import { FIGURES, figureById, type Figure } from './figures';
import * as exporter from './export';
import * as cfgPanel from './panels/cfg';
import * as editor from './panels/editor';
import * as figureNote from './panels/figure-note';
import * as gallery from './panels/gallery';
import * as help from './panels/help';
import * as lanes from './panels/lanes';
import * as listing from './panels/listing';
import { partnerOf } from './model-info';
import * as plot from './panels/plot';
import * as scrubber from './panels/scrubber';
import { OwnWork } from './own-work';
import * as runStatus from './panels/run-status';
import * as settings from './panels/settings';
import { decode, encode, PANELS, type Decoded } from './permalink';
import * as store from './store';
import { fullRequest } from './sweep/request';
import { SweepView } from './sweep/view';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

async function main(): Promise<void> {
  const banners = $('banners');
  let engine: Engine | null = null;
  const sink: { app: App | null } = { app: null };
  let startError = '';
  try {
    engine = await Engine.create((m) => sink.app?.banner(m));
  } catch (e) {
    startError = `The simulator engine could not start: ${e instanceof Error ? e.message : String(e)}`;
  }
  const app = new App(engine);
  sink.app = app;

  // Restore: a link wins (it asks first if it would replace another kernel of the user's); a
  // broken link says so and falls back to the saved work. Only a started engine reads links.
  const decoded: Decoded = engine ? decode(location.hash) : location.hash.length > 1
    ? { kind: 'error', message: 'This link cannot be read because the simulator engine did not start.' } : { kind: 'none' };
  const saved = store.loadWork();
  const link = decoded.kind === 'ok' ? decoded.link : null;
  const base: store.Work = saved ?? {
    text: defaultExample().text, params: {}, model: null, preset: null, ifConvert: null, pathOrder: null, schedule: null, compare: null,
    sweep: null, figure: null, stepLimit: StepLimit.Default,
  };
  store.update({ ...base, ...(link ?? {}) });
  const askAtStart = !!link && link.embed === null && saved !== null && saved.text !== link.text;

  let reloadTimer = 0;
  let unsavedWarned = false;
  const dropHash = () => { if (location.hash) history.replaceState(null, '', location.pathname + location.search); };
  const own = new OwnWork($('work-note'), {
    show: (work) => showState(work),
    save: () => saveShown(),
    dropHash,
    banner: (m) => app.banner(m),
  });
  /** Saves what is on screen, unless it is an embed or a link the user has not taken up yet. */
  const saveShown = () => {
    if (store.get().embed !== null || own.asking || store.saveWork(store.get()) || unsavedWarned) return;
    unsavedWarned = true;
    app.banner('Your work cannot be saved in this browser (its storage is full or turned off): copy a link to keep it.', 'info');
  };
  /** A choice of the user's: kept in the store and the saved work, without re-running. */
  const remember = (patch: Partial<store.UiState>) => {
    store.update(patch);
    saveShown();
    // The link in the address bar no longer describes what is on screen (an open question keeps it).
    if (!own.asking) dropHash();
  };
  const userChanged = (patch: Partial<store.UiState>, immediate: boolean) => {
    // Changing the link's kernel or inputs takes it up: the user's own goes aside first.
    if (own.asking) own.useLink();
    remember(patch);
    clearTimeout(reloadTimer);
    if (immediate) app.reload();
    else reloadTimer = window.setTimeout(() => app.reload(), 300);
  };
  app.onInput = (patch) => userChanged(patch, true);

  const controls = new Controls(app);
  const ed = editor.create($('editor'), store.get().text, {
    onEdit: (text) => { if (text !== store.get().text) userChanged({ text }, false); },
    onToggleBreakpoint: (line) => app.toggleBreakpointAtLine(line),
    onHover: (line) => app.hoverSource(line),
  });
  app.panels = {
    editor: ed,
    listing: listing.create($('listing'), $('listing-info'), {
      onToggleBreakpoint: (line) => app.toggleBreakpointAtListing(line),
      onHover: (line) => app.hoverListing(line),
    }),
    cfg: cfgPanel.create($('cfg'), (instr) => app.toggleBreakpoint(instr)),
    lanes: lanes.create($('lanes')),
    plot: plot.create($('plot')),
    scrubber: scrubber.create($('scrubber'), {
      seek: (t) => { controls.pause(); app.goto(t); },
      action: (a) => controls.action(a),
      speed: (speed) => store.update({ speed }),
    }, store.get().speed),
    status: runStatus.create($('run-status'), { stop: () => app.stopRun(), showLine: () => app.showEndLine() }),
    el: {
      caption: $('caption'), stack: $('stack'), registers: $('registers'), metrics: $('metrics'),
      inputs: $('inputs'), banners, title: $('kernel-title'), diag: $('diag-summary'), end: $('run-end'),
    },
  };
  app.compare = new Comparison(engine ? Engine.another((m) => app.banner(`Right side: ${m}`)) : null,
    { a: $('side-a'), b: $('side-b'), table: $('compare-table') }, [app.modelHooks(), app.compareHooks()]);
  app.compare.updated = (what) => (what === 'progress' ? app.renderStatus() : app.renderAll());
  const settingsPanel = settings.create($('settings'), store.get().stepLimit, (stepLimit) => userChanged({ stepLimit }, true));
  app.sweep = new SweepView(engine, {
    settings: $('sweep-settings'), progress: $('sweep-progress'), plot: $('sweep-plot'), stops: $('sweep-stops'),
    metric: $<HTMLSelectElement>('sweep-metric'), measured: $<HTMLSelectElement>('sweep-measured'), exports: $('sweep-exports'),
  }, {
    banner: (m) => app.banner(m),
    changed: (sweep) => { remember({ sweep }); app.markSweptInputs(); },
    inputs: () => {
      const s = store.get();
      return {
        text: s.text, title: app.run?.load.title ?? 'kernel', params: s.params, ifConvert: s.ifConvert, pathOrder: s.pathOrder,
        schedule: s.schedule, stepLimit: s.stepLimit,
      };
    },
    figure: () => figureById(store.get().figure),
  });
  const sweepView = app.sweep;
  if (startError) app.banner(startError);
  if (decoded.kind === 'error') app.banner(`${decoded.message} Showing your last saved kernel instead.`);
  if (askAtStart && saved) own.ask(saved);
  own.render();

  if (store.get().embed?.length === 0) {
    app.banner(`This embed link names no known panel (known: ${PANELS.join(', ')}); showing the whole app.`);
    store.update({ embed: null });
  }
  const embed = store.get().embed;
  // An embed shows the chosen panels of one run; compare and sweep modes have panels of their own.
  if (embed) store.update({ compare: null, sweep: null });
  if (embed) {
    document.body.classList.add('embed');
    for (const el of document.querySelectorAll<HTMLElement>('[data-panel]')) el.hidden = !embed.includes(el.dataset.panel as never);
    // A column whose panels are all hidden takes no room.
    for (const col of document.querySelectorAll<HTMLElement>('.grid > div')) col.hidden = !col.querySelector('[data-panel]:not([hidden])');
  }

  // "What to look at" for the paper's figure on screen; a view figure's plot is outlined.
  const showFigure = () => {
    const fig = figureById(store.get().figure);
    figureNote.render($('figure-note'), fig, () => { remember({ figure: null }); showFigure(); });
    document.querySelector('.p-plot')?.classList.toggle('figure-focus', !!fig?.view && store.get().sweep === null);
  };
  const showModes = () => {
    $('btn-compare').setAttribute('aria-pressed', String(store.get().compare !== null));
    $('btn-sweep').setAttribute('aria-pressed', String(store.get().sweep !== null));
  };
  const openExample = (ex: Example, patch: Partial<store.UiState> = {}) => {
    sweepView.reset();
    // An undoable change in the editor: Ctrl+Z brings back what was there.
    editor.setText(ed, ex.text);
    store.update({ step: 0, breakpoints: [] });
    // Sweep settings carry over to the new kernel where its params allow; measurements do not.
    const sweep = store.get().sweep;
    userChanged({
      text: ex.text, params: {}, model: null, preset: null, ifConvert: null, pathOrder: null, schedule: null, figure: null,
      ...(sweep ? { sweep: { ...sweep, measured: null } } : {}), ...patch,
    }, true);
    showFigure();
    showModes();
  };
  const openFigure = (f: Figure) => {
    const ex = EXAMPLES.find((e) => e.file === f.kernel);
    if (!ex) { app.banner(`The figure's kernel ${f.kernel} is not among the bundled examples.`); return; }
    if (f.view) {
      openExample(ex, { ...f.view, compare: null, sweep: null, figure: f.id });
      // The whole history drawn solid, as the paper prints it.
      app.goto(app.span());
      document.querySelector('.p-plot')?.scrollIntoView({ block: 'nearest' });
      return;
    }
    const sweep = { request: fullRequest(f.sweep ?? {}), metric: f.metric ?? 'cycles', measured: f.measured ?? null };
    openExample(ex, { params: f.sweep?.params ?? {}, compare: null, sweep, figure: f.id });
    sweepView.run();
  };
  /** Puts another kernel and its choices on screen (the user's own, or a link's) without saving it. */
  const showState = (patch: Partial<store.UiState>) => {
    sweepView.reset();
    clearTimeout(reloadTimer);
    store.update({ step: 0, lane: 0, breakpoints: [], ...patch });
    // After the store update, so the editor does not take it for the user's edit; Ctrl+Z undoes it.
    editor.setText(ed, store.get().text);
    settings.render(settingsPanel, store.get().stepLimit);
    app.reload();
    showModes();
    showFigure();
    if (store.get().sweep !== null) sweepView.run();
  };
  const galleryDialog = $<HTMLDialogElement>('gallery');
  gallery.render(galleryDialog, EXAMPLES, FIGURES, (ex) => {
    openExample(ex);
    // Comparing a kernel's own model with itself says nothing: put its usual partner beside it.
    const c = store.get().compare, r = app.run?.load;
    if (c && r && c.model === r.model) userChanged({ compare: { model: partnerOf(r.model, r.models), pathOrder: null, schedule: null } }, true);
  }, openFigure);
  $('btn-compare').addEventListener('click', () => {
    const r = app.run?.load;
    const on = store.get().compare === null;
    if (on) sweepView.close();
    userChanged({ compare: on && r ? { model: partnerOf(r.model, r.models), pathOrder: null, schedule: null } : null, ...(on ? { sweep: null } : {}) }, true);
    showModes();
    showFigure();
  });
  $('btn-sweep').addEventListener('click', () => {
    if (store.get().sweep !== null) {
      sweepView.close();
      userChanged({ sweep: null }, true);
    } else {
      const choice = sweepView.defaults(app.run?.load ?? null);
      if (!choice) { app.banner('This kernel has no //@ param to sweep: add one (for example //@ param n = 2) and use it in the kernel.', 'info'); return; }
      userChanged({ sweep: choice, compare: null }, true);
    }
    showModes();
    showFigure();
  });
  showModes();
  showFigure();
  $('btn-examples').addEventListener('click', () => galleryDialog.showModal());
  const helpDialog = $<HTMLDialogElement>('help');
  const showHelp = () => { help.render(helpDialog, app.run?.load.models ?? []); helpDialog.showModal(); };
  $('btn-help').addEventListener('click', showHelp);
  bindKeys(controls, showHelp, () => {
    cfgPanel.fitView(app.panels.cfg);
    for (const side of app.compare?.sides ?? []) cfgPanel.fitView(side.cfg);
  });

  $('btn-link').addEventListener('click', async () => {
    const s = store.get();
    const frag = encode({
      text: s.text, params: s.params, model: s.model, preset: s.preset, ifConvert: s.ifConvert, pathOrder: s.pathOrder,
      schedule: s.schedule, compare: s.compare, step: s.step, lane: s.lane, embed: s.embed, sweep: s.sweep, figure: s.figure,
    });
    const url = `${location.origin}${location.pathname}${frag}`;
    history.replaceState(null, '', frag);
    $('btn-link').dataset.link = url;
    const broken = app.diagnostics.some((d) => d.severity === 'error');
    const caveat = broken ? ' Note: the kernel in it has errors, so whoever opens it sees them, not a run.' : '';
    try {
      await navigator.clipboard.writeText(url);
      app.banner(`Link copied to the clipboard (it is also in the address bar).${caveat}`, broken ? 'error' : 'info');
    } catch {
      app.banner(`The link is in the address bar: copy it from there.${caveat}`, broken ? 'error' : 'info');
    }
  });
  const fileBase = () => (app.run?.load.title ?? 'kernel').replace(/[^\w-]+/g, '_').slice(0, 40) || 'kernel';
  $('btn-svg').addEventListener('click', () => { const el = app.panels.plot.el; if (el) exporter.plotSvg(el, fileBase()); });
  $('btn-png').addEventListener('click', () => { const el = app.panels.plot.el; if (el) void exporter.plotPng(el, fileBase()); });
  $('btn-csv').addEventListener('click', () => { if (engine) exporter.csv(engine.traceCsv(), fileBase()); });
  $('btn-sweep-svg').addEventListener('click', () => sweepView.exportSvg());
  $('btn-sweep-png').addEventListener('click', () => void sweepView.exportPng());
  $('btn-sweep-csv').addEventListener('click', () => void sweepView.exportCsv());

  window.addEventListener('resize', () => app.renderStep());
  // A link pasted into this tab changes only the fragment: show it, asking first if it would
  // replace the user's kernel. (Our own replaceState calls fire no hashchange.)
  window.addEventListener('hashchange', () => {
    const d = decode(location.hash);
    if (d.kind === 'none') return;
    if (d.kind === 'error') { app.banner(`${d.message} Your kernel stays as it was.`); return; }
    // Embed mode's layout is set up at boot; an embed link never touches the saved work.
    if (d.link.embed !== null || store.get().embed !== null) { location.reload(); return; }
    const mine = own.ownWork(store.workOf(store.get()));
    if (d.link.text !== mine.text) own.ask(mine);
    showState({ ...d.link });
  });
  window.addEventListener('unhandledrejection', (e) => app.banner(`Unexpected error: ${String(e.reason)}`));
  window.addEventListener('error', (e) => app.banner(`Unexpected error: ${e.message}`));

  app.reload();
  // A sweep restored from a link or the saved work runs again (its points are not stored).
  if (store.get().sweep !== null) sweepView.run();
  document.body.dataset.ready = 'true';
  // Read by the app benchmark (tests/bench/app.bench.ts): time from navigation to interactive.
  performance.mark('warpscope:interactive');
}

void main();
