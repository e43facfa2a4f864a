//! Boot: starts the engine, restores the state (a permalink, else the user's saved work, else
//! the default example; only a started engine reads links), builds the panels, creates the page's
//! controller (`controller.ts`) and wires the page's buttons and events to it.

import { choicesOf } from './choices';
import './style.css';
import './help.css';
import { App } from './app';
import { Comparison } from './compare';
import { Controller } from './controller';
import { bindKeys, Controls } from './controls';
import { Engine, StepLimit } from './engine';
import { defaultExample, EXAMPLES } from './examples';
import { FIGURES, figureById } from './figures';
import { bindMenus } from './menus';
import { compilerOutput, kernelTitle } from './run';
import * as cfgPanel from './panels/cfg';
import * as cudaPanel from './panels/cuda';
import * as editor from './panels/editor';
import * as gallery from './panels/gallery';
import * as help from './panels/help';
import * as layoutMenu from './panels/layout-menu';
import * as share from './panels/share';
import * as tour from './panels/tour';
import { NoticeStrip } from './panels/notices';
import { Dock, viewOf } from './layout/dock';
import { isDockPanel, type DockPanelId } from './layout/panels';
import * as kernelInputs from './panels/kernel-inputs';
import * as warps from './panels/warps';
import * as lanes from './panels/lanes';
import * as listing from './panels/listing';
import * as memory from './panels/memory';
import * as moreBelow from './panels/more-below';
import * as plot from './panels/plot';
import * as registers from './panels/registers';
import * as outputPanel from './panels/output';
import * as scrubber from './panels/scrubber';
import * as runStatus from './panels/run-status';
import * as settings from './panels/settings';
import * as page from './page-state';
import { decode, type Decoded } from './permalink';
import * as store from './store';
import { SweepView } from './sweep/view';

// Every element by id, read before the dock moves the panels: a panel behind a tab is out of
// the document until its tab is chosen, and its elements must still be found.
const byId = new Map([...document.querySelectorAll<HTMLElement>('[id]')].map((el) => [el.id, el]));
const $ = <T extends HTMLElement = HTMLElement>(id: string) => (byId.get(id) ?? document.getElementById(id)) as T;

async function main(): Promise<void> {
  // Read before anything is stored: the tour starts by itself only on the very first visit.
  const visit = { stored: tour.storedKeys(), hash: location.hash };
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

  // The panels are built with the restored state.
  const decoded: Decoded = engine ? decode(location.hash) : location.hash.length > 1
    ? { kind: 'error', message: 'This link cannot be read because the simulator engine did not start.' } : { kind: 'none' };
  const example = defaultExample();
  const restored = page.restore(decoded, store.loadWork(), { work: page.freshWork(example.text, StepLimit.Default), title: example.title });
  store.update(restored.state);

  // The dock first, so the panels are built on screen at their size.
  const sections = new Map<DockPanelId, HTMLElement>();
  for (const el of $('panel-store').querySelectorAll<HTMLElement>(':scope > [data-panel]')) {
    if (isDockPanel(el.dataset.panel ?? '')) sections.set(el.dataset.panel as DockPanelId, el);
  }
  const exitPresent = $('btn-present-exit');
  const dock = new Dock($('dock'), $('panel-store'), sections, {
    resized: () => { app.renderStep(); app.revealPicked(); },
    presenting: (on) => { exitPresent.hidden = !on; if (!on) app.renderStep(); },
  });
  exitPresent.addEventListener('click', () => dock.exitPresentation());
  window.addEventListener('keydown', (e) => { if (e.key === 'Escape' && dock.presenting) dock.exitPresentation(); });
  // An embed hides the top bar before the dock measures its frame.
  const firstView = viewOf(store.get(), false);
  document.body.classList.toggle('embed', firstView.kind === 'embed');
  dock.show(firstView);
  app.dock = dock;
  // The caption is cut by its panel's edge on a slide or a projector: it says when there is more.
  moreBelow.watch($('caption'));
  new NoticeStrip($('notices'), $('notices').querySelector<HTMLElement>('.notice-idle')!);

  // The panels' hooks call the controller, created once they exist (none is called before).
  const controls = new Controls(app);
  const ed = editor.create($('editor'), store.get().text, {
    onEdit: (text) => controller.edited(text),
    onToggleBreakpoint: (line) => app.toggleBreakpointAtLine(line),
    onHover: (line) => app.hover('source', line),
    onPick: (lines) => app.pick('source', lines),
  });
  app.onInput = (patch) => controller.userChanged(patch, true);
  app.panels = {
    editor: ed,
    listing: listing.create($('listing'), $('listing-info'), {
      onToggleBreakpoint: (line) => app.toggleBreakpointAtListing(line),
      onHover: (line) => app.hover('listing', line),
    }, () => app.heatPressed()),
    cuda: cudaPanel.create($('cuda'), $('cuda-info'), store.get().cuda ?? '', {
      onEdit: (text) => controller.pastedEdited('cuda', text),
      onPick: (lines) => app.pick('cuda', lines),
      onHover: (line) => app.hover('cuda', line),
      onToggleBreakpoint: (line) => app.toggleBreakpointAtCuda(line),
    }),
    ptx: cudaPanel.create($('ptx'), $('ptx-info'), store.get().ptx ?? '', {
      onEdit: (text) => controller.pastedEdited('ptx', text),
      onPick: (lines) => app.pick('ptx', lines),
      onHover: (line) => app.hover('ptx', line),
      onToggleBreakpoint: (line) => app.toggleBreakpointAtPtx(line),
    }, 'PTX', 'ptx-content'),
    cfg: cfgPanel.create($('cfg'), (instr) => app.toggleBreakpoint(instr), { onHeat: () => app.heatPressed() }),
    lanes: lanes.create($('lanes')),
    warps: warps.create($('warps')),
    plot: plot.create($('plot')),
    scrubber: scrubber.create($('scrubber'), {
      seek: (t) => { controls.pause(); app.goto(t); },
      action: (a) => controls.action(a),
      speed: (speed) => store.update({ speed }),
    }, store.get().speed),
    status: runStatus.create($('run-status'), { stop: () => controller.stopRun(), showLine: () => app.showEndLine() }),
    registers: registers.create($('registers')),
    memory: memory.create($('memory')),
    output: outputPanel.create($('output')),
    kernelInputs: kernelInputs.create($('kernel-inputs'), {
      edit: (e) => controller.editHeader(e),
      jump: (line) => { dock.reveal('editor'); editor.gotoLine(ed, line); },
      dropTopBar: (name) => {
        const { [name]: _dropped, ...params } = store.get().params;
        app.onInput({ params });
      },
      launch: (k) => app.onInput({ launch: k, block: null }),
      kernelOnly: (on) => app.onInput({ kernelOnly: on ? true : null, launch: null, block: null }),
    }),
    problems: { panel: $('problems'), summary: $<HTMLButtonElement>('diag-summary'), note: $('compile-note') },
    el: {
      caption: $('caption'), stack: $('stack'), metrics: $('metrics'),
      inputs: $('inputs'), banners: $('banners'), title: $('kernel-title'), launch: $('kernel-launch'), end: $('run-end'),
    },
  };
  app.compare = new Comparison(engine ? Engine.another((m) => app.banner(`Right side: ${m}`)) : null,
    { a: $('side-a'), b: $('side-b'), table: $('compare-table') }, [app.modelHooks(), app.compareHooks()]);
  app.compare.updated = (what) => (what === 'progress' ? app.renderStatus() : app.renderAll());
  const settingsPanel = settings.create($('settings'), store.get().stepLimit, (stepLimit) => controller.userChanged({ stepLimit }, true));
  const sweep = new SweepView(engine, {
    settings: $('sweep-settings'), progress: $('sweep-progress'), plot: $('sweep-plot'), stops: $('sweep-stops'),
    metric: $<HTMLSelectElement>('sweep-metric'), measured: $<HTMLSelectElement>('sweep-measured'), exports: $('sweep-exports'),
  }, {
    banner: (m) => app.banner(m),
    changed: (choice) => { controller.remember({ sweep: choice }); app.markSweptInputs(); },
    inputs: () => {
      const s = store.get();
      return {
        text: s.text, title: kernelTitle(app.run?.load) ?? 'kernel', params: s.params, choices: choicesOf(s), stepLimit: s.stepLimit,
      };
    },
    figure: () => figureById(store.get().figure),
  });
  app.sweep = sweep;
  const controller = new Controller({
    app, engine, sweep, editor: ed, settings: settingsPanel,
    el: { workNote: $('work-note'), figureNote: $('figure-note'), compareButton: $('btn-compare'), sweepButton: $('btn-sweep'), linkButton: $('btn-link') },
  });
  if (startError) app.banner(startError);
  controller.restore(restored);

  const galleryDialog = $<HTMLDialogElement>('gallery');
  gallery.render(galleryDialog, EXAMPLES, FIGURES, (ex) => controller.openFromGallery(ex), (f) => controller.openFigure(f));
  $('btn-compare').addEventListener('click', () => controller.toggleCompare());
  $('btn-sweep').addEventListener('click', () => controller.toggleSweep());
  $('btn-examples').addEventListener('click', () => galleryDialog.showModal());
  const helpDialog = $<HTMLDialogElement>('help');
  const startTour = () => tour.start({ has: (id) => dock.panels().some((p) => p.id === id && p.shown), reveal: (id) => dock.reveal(id) });
  const showHelp = (term?: string) => {
    const current = [app.run?.load.model, app.comparing ? store.get().compare?.model : null].filter((m): m is string => !!m);
    help.render(helpDialog, { models: app.run?.load.models ?? [], current, panels: dock.panels().map((p) => p.id), tour: startTour });
    helpDialog.showModal();
    if (term) help.showTerm(helpDialog, term);
  };
  app.onTerm = showHelp;
  app.onHeaderEdit = (e) => controller.editHeader(e);
  $('btn-help').addEventListener('click', () => showHelp());
  // ? toggles the help (and opens it over the gallery).
  bindKeys(controls, () => (helpDialog.open ? helpDialog.close() : showHelp()), () => {
    cfgPanel.fitView(app.panels.cfg);
    for (const side of app.compare?.sides ?? []) cfgPanel.fitView(side.cfg);
  });
  bindMenus([...document.querySelectorAll<HTMLDetailsElement>('details.menu')]);
  $('diag-summary').addEventListener('click', () => app.openProblems());
  $('btn-link').addEventListener('click', () => void controller.copyLink());
  $('btn-share').addEventListener('click', () => share.open($<HTMLDialogElement>('share'), {
    link: () => controller.linkUrl(),
    title: () => kernelTitle(app.run?.load) ?? 'kernel',
    cKernel: () => !!app.run?.compiled,
    ptxKernel: () => compilerOutput(app.run?.compiled) !== null,
    sassKernel: () => compilerOutput(app.run?.compiled) === 'sass',
    copied: (what, ok) => app.banner(ok ? `${what} copied to the clipboard.${controller.linkCaveat()}` : `${what} could not be copied: select it in the dialog and copy it.`, ok && !controller.linkCaveat() ? 'info' : 'error', 'brief'),
  }));
  const titled = () => $<HTMLInputElement>('export-title').checked;
  $('btn-svg').addEventListener('click', () => controller.download('svg', { titled: titled() }));
  $('btn-png').addEventListener('click', () => controller.download('png', { titled: titled() }));
  $('btn-csv').addEventListener('click', () => controller.download('csv'));
  $('btn-cfg-svg').addEventListener('click', () => controller.downloadCfg(false));
  $('btn-cfg-step-svg').addEventListener('click', () => controller.downloadCfg(true));
  $('btn-sweep-svg').addEventListener('click', () => sweep.exportSvg());
  $('btn-sweep-png').addEventListener('click', () => void sweep.exportPng());
  $('btn-sweep-csv').addEventListener('click', () => void sweep.exportCsv());

  const layoutDetails = $('layout-menu').closest('details')!;
  layoutDetails.addEventListener('toggle', () => { if (layoutDetails.open) layoutMenu.render($('layout-menu'), dock, () => layoutMenu.render($('layout-menu'), dock, () => {})); });
  window.addEventListener('resize', () => { dock.refit(); app.renderStep(); });
  window.addEventListener('hashchange', () => controller.hashChanged());
  window.addEventListener('unhandledrejection', (e) => app.banner(`Unexpected error: ${String(e.reason)}`));
  window.addEventListener('error', (e) => app.banner(`Unexpected error: ${e.message}`));

  controller.start();
  document.body.dataset.ready = 'true';
  if (tour.isFirstVisit({ ...visit, embed: firstView.kind === 'embed' })) startTour();
  // Read by the app benchmark (tests/bench/app.bench.ts): time from navigation to interactive.
  performance.mark('warpscope:interactive');
}

void main();
