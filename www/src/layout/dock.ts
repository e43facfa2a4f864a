//! The dock: the page's panels in dockview (resizable, collapsible into tabs, movable by dragging
//! a tab), one layout per mode. A layout is a named preset (`presets.ts`) until the user changes
//! it; then the changed layout is kept in the browser (`layout-store.ts`). Presentation mode shows
//! one panel over the whole dock in large type. The panels' own elements (index.html's
//! `data-panel` sections) move into the dock; dockview never owns them.

import type { DockviewApi, IContentRenderer, IDockviewPanel, IHeaderActionsRenderer, ITabRenderer, SerializedDockview } from 'dockview-core';
import { createDockview, themeLight } from './dockview';
import { html, svg } from '../svg';
import * as saved from './layout-store';
import { isDockPanel, MODE_PANELS, PANEL_INFO, type DockPanelId, type Mode } from './panels';
import { embedTree, panelsOf, preset, prune, serialise, type LayoutName, type LayoutTree } from './presets';

export interface DockHooks {
  /** The panels changed size or became visible: they redraw (once per frame). */
  resized(): void;
  /** Presentation mode began or ended. */
  presenting(on: boolean): void;
}

/** What the dock shows: a mode's panels, or an embed's. */
export type DockView = { kind: 'mode'; mode: Mode; listing: boolean; cuda: boolean; ptx: boolean; warps: boolean } | { kind: 'embed'; panels: DockPanelId[] };

export class Dock {
  readonly api: DockviewApi;
  private view: DockView | null = null;
  private restoring = false;
  private frame = 0;
  private presented: DockPanelId | null = null;
  private acting = false;
  private actingTimer = 0;
  private tabsFrame = 0;

  constructor(
    private readonly root: HTMLElement,
    /** Where panels not in the layout wait (hidden). */
    private readonly shelf: HTMLElement,
    private readonly sections: ReadonlyMap<DockPanelId, HTMLElement>,
    private readonly hooks: DockHooks,
  ) {
    this.api = createDockview(root, {
      // dockview's light theme, its colours set from ours in style.css (.dock).
      theme: { ...themeLight, gap: 4 },
      createComponent: ({ name }) => this.content(name as DockPanelId),
      // A tab is its title only: its close button lives in the group's header actions, so no
      // control sits inside another (a tab is itself a control).
      defaultTabComponent: 'title',
      createTabComponent: ({ name }) => (name === 'title' ? tabTitle() : undefined),
      createRightHeaderActionComponent: () => this.headerActions(),
      disableFloatingGroups: true,
      noPanelsOverlay: 'emptyGroup',
    });
    this.api.onDidLayoutChange(() => { this.changed(); this.checkTabs(); });
    this.api.onDidActivePanelChange(() => this.checkTabs());
    // A tab strip scrolls when a tab chosen from the overflow list is brought into view.
    root.addEventListener('scroll', () => this.checkTabs(), true);
    // Only what the user does to the layout itself is kept: a press on a tab strip or a border
    // (a drag, a close), not a click inside a panel nor a resize of the window.
    const acting = (e: Event) => {
      if (!(e.target instanceof Element) || !e.target.closest('.dv-tabs-and-actions-container, .dv-sash')) return;
      this.acting = true;
      clearTimeout(this.actingTimer);
    };
    root.addEventListener('pointerdown', acting, true);
    root.addEventListener('keydown', acting, true);
    root.addEventListener('keydown', (e) => this.tabKeys(e));
    const done = () => { clearTimeout(this.actingTimer); this.actingTimer = window.setTimeout(() => { this.acting = false; }, 400); };
    window.addEventListener('pointerup', done, true);
    window.addEventListener('keyup', done, true);
    this.api.onDidMaximizedGroupChange(() => { if (!this.api.hasMaximizedGroup()) this.endPresentation(); });
  }

  /** A panel's content: its section, moved in (it keeps its state across layouts). */
  private content(id: DockPanelId): IContentRenderer {
    const element = html('div', { class: 'dock-panel', 'data-dock-panel': id });
    const section = this.sections.get(id);
    return {
      element,
      // A panel the layout drops goes back to the store, so its elements stay in the page.
      dispose: () => { if (section?.parentElement === element) this.shelf.append(section); },
      init: ({ api }) => {
        if (section) element.append(section);
        api.onDidDimensionsChange(() => { this.redraw(); this.checkTabs(); });
        api.onDidVisibilityChange(() => this.redraw());
        this.redraw();
        this.checkTabs();
      },
    };
  }

  /** (i) says what the group's shown panel is; ⛶ presents it. */
  private headerActions(): IHeaderActionsRenderer {
    const element = html('div', { class: 'dock-actions' });
    const info = html('button', { type: 'button', class: 'dock-info', 'data-testid': 'panel-info', 'aria-expanded': 'false' }, 'i');
    const present = html('button', { type: 'button', class: 'dock-present', 'data-testid': 'panel-present' });
    present.append(expandIcon());
    const close = html('button', { type: 'button', class: 'dock-close', 'data-testid': 'panel-close' }, '×');
    const about = html('div', { class: 'dock-about', role: 'note', hidden: '' });
    element.append(info, present, close, about);
    let panel: IDockviewPanel | undefined;
    const label = () => {
      const title = panel ? PANEL_INFO[panel.id as DockPanelId]?.title ?? panel.id : 'panel';
      info.setAttribute('aria-label', `what the ${title} panel shows`);
      info.title = `what the ${title} panel shows`;
      present.setAttribute('aria-label', `present the ${title} panel full screen`);
      present.title = `present the ${title} panel full screen (Esc ends)`;
      close.setAttribute('aria-label', `close the ${title} panel (the Layout menu brings it back)`);
      close.title = `close the ${title} panel (the Layout menu brings it back)`;
      about.textContent = panel ? PANEL_INFO[panel.id as DockPanelId]?.about ?? '' : '';
    };
    info.addEventListener('click', () => {
      about.hidden = !about.hidden;
      info.setAttribute('aria-expanded', String(!about.hidden));
    });
    present.addEventListener('click', () => { if (panel) this.present(panel.id as DockPanelId); });
    close.addEventListener('click', () => panel?.api.close());
    return {
      element,
      init: ({ group }) => {
        panel = group.activePanel;
        label();
        group.api.onDidActivePanelChange((e) => { panel = e.panel; about.hidden = true; label(); });
      },
      dispose: () => {},
    };
  }

  /** A focused tab is chosen with Enter or Space; ← and → move along its tab strip (and do not
   * step the run, as they do elsewhere). */
  private tabKeys(e: KeyboardEvent): void {
    const tab = (e.target as HTMLElement).closest?.<HTMLElement>('.dv-tab');
    if (!tab) return;
    if (e.key === 'Enter' || e.key === ' ') {
      this.api.getPanel(tab.dataset.tabPanelId ?? '')?.api.setActive();
    } else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      const tabs = [...(tab.parentElement?.querySelectorAll<HTMLElement>('.dv-tab:not(.dock-tab-cut)') ?? [])];
      const next = tabs[(tabs.indexOf(tab) + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
      next?.focus();
    } else return;
    e.preventDefault();
    e.stopPropagation();
  }

  private redraw(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.hooks.resized(); });
  }

  /** Once per frame: a tab that does not fit its strip wholly is hidden (dockview lists it in the
   * group's overflow menu), so no strip shows part of a title ("Regis" for Registers). Hidden, not
   * removed: the strip keeps its measure, so hiding moves no other tab. */
  private checkTabs(): void {
    if (this.tabsFrame) return;
    this.tabsFrame = requestAnimationFrame(() => {
      this.tabsFrame = 0;
      for (const strip of this.root.querySelectorAll<HTMLElement>('.dv-tabs-container')) {
        const box = strip.getBoundingClientRect();
        for (const tab of strip.querySelectorAll<HTMLElement>(':scope > .dv-tab')) {
          const r = tab.getBoundingClientRect();
          tab.classList.toggle('dock-tab-cut', r.left < box.left - 0.5 || r.right > box.right + 0.5);
        }
      }
    });
  }

  private get size(): { width: number; height: number } {
    const r = this.root.getBoundingClientRect();
    return { width: Math.max(320, Math.round(r.width)), height: Math.max(200, Math.round(r.height)) };
  }

  /** The panels the view shows: its mode's, less those closed, the listing of a kernel not
   * compiled, the CUDA source of a kernel not PTX or SASS and the PTX of a kernel not SASS. */
  private keep(v: DockView): Set<DockPanelId> {
    if (v.kind === 'embed') return new Set(v.panels);
    const closed = saved.get().hidden[v.mode] ?? [];
    return new Set(MODE_PANELS[v.mode].filter((p) => !closed.includes(p) && offered(v, p)));
  }

  private tree(v: DockView): LayoutTree {
    if (v.kind === 'embed') return embedTree(v.panels, this.size);
    return prune(preset(saved.get().name, v.mode, this.size, v.listing, v.cuda), this.keep(v));
  }

  /** Shows `v`: the user's layout of its mode when one is kept, else the named preset. */
  show(v: DockView): void {
    if (this.view && JSON.stringify(this.view) === JSON.stringify(v)) return;
    const prev = this.view;
    if (this.presented) this.exitPresentation();
    this.view = v;
    this.applyType();
    const kept = v.kind === 'mode' ? saved.get().layouts[v.mode] ?? null : null;
    const sameMode = prev?.kind === 'mode' && v.kind === 'mode' && prev.mode === v.mode;
    // The user's own layout keeps its places when only the listing comes or goes.
    if (kept && sameMode) this.reconcile(v as Extract<DockView, { kind: 'mode' }>);
    else this.load(kept ?? this.presetLayout(v), kept !== null);
  }

  /** The window changed size: a preset is laid out again for it (a narrow screen has another),
   * a layout the user made only scales. */
  refit(): void {
    const v = this.view;
    if (!v || (v.kind === 'mode' && saved.get().layouts[v.mode])) return;
    const key = JSON.stringify(this.tree(v));
    if (key !== this.treeKey) this.load(this.presetLayout(v), false);
  }

  private treeKey = '';

  private presetLayout(v: DockView): SerializedDockview {
    const tree = this.tree(v);
    this.treeKey = JSON.stringify(tree);
    return serialise(tree, this.size);
  }

  /** Runs a change of layout the user did not make (`changed` ignores it). Sections moving
   * through the shelf lose focus; the one that had it gets it back, so typing in the editor goes
   * on when, say, a C kernel's first run brings the listing and the layout is rebuilt. */
  private relayout(change: () => void): void {
    const focused = document.activeElement;
    const outer = this.restoring;
    this.restoring = true;
    try {
      change();
    } finally {
      this.restoring = outer;
    }
    if (focused instanceof HTMLElement && focused !== document.activeElement && focused.isConnected && !this.shelf.contains(focused)) {
      focused.focus({ preventScroll: true });
    }
  }

  private load(layout: SerializedDockview, custom: boolean): void {
    this.relayout(() => {
      try {
        this.api.fromJSON(layout);
      } catch {
        // A kept layout this version cannot read: the preset instead, and the bad copy goes.
        if (custom && this.view?.kind === 'mode') saved.forget(this.view.mode);
        if (this.view) this.api.fromJSON(this.presetLayout(this.view));
      }
      if (this.view?.kind === 'mode') this.reconcile(this.view);
    });
    // An embed's caption is a strip: its tab would only repeat what it obviously is.
    if (this.view?.kind === 'embed') {
      const caption = this.api.getPanel('caption');
      if (caption && caption.group.panels.length === 1) caption.group.model.header.hidden = true;
    }
    this.api.updateOptions({ disableDnd: this.view?.kind === 'embed' });
  }

  /** Adds the panels the view has and the layout lacks (the listing when a C kernel opens, the
   * CUDA source, in front of the listing, when a PTX kernel does; a panel ticked in the Layout
   * menu: `shown`, brought to the front), and removes the ones it must not show. A panel comes
   * back as a tab beside its nearest neighbour in the named layout. */
  private reconcile(v: Extract<DockView, { kind: 'mode' }>, shown?: DockPanelId): void {
    const keep = this.keep(v);
    const order = panelsOf(preset(saved.get().name, v.mode, this.size, v.listing, v.cuda));
    this.relayout(() => {
      for (const p of [...this.api.panels]) if (!keep.has(p.id as DockPanelId)) this.api.removePanel(p);
      for (const id of keep) {
        if (this.api.getPanel(id)) continue;
        const near = id === 'listing' && this.api.getPanel('editor') ? 'editor'
          : id === 'cuda' && this.api.getPanel('listing') ? 'listing'
          : id === 'ptx' && this.api.getPanel('cuda') ? 'cuda'
          : id === 'warps' && this.api.getPanel('lanes') ? 'lanes' : nearest(order, id, (p) => !!this.api.getPanel(p));
        // A launch's warps come to the front beside the lanes: the block is what it adds.
        const front = id === 'listing' || id === 'warps' || (id === 'cuda' && v.mode === 'single') || id === shown;
        this.api.addPanel({
          id, component: id, title: PANEL_INFO[id].title, inactive: !front,
          ...(near ? { position: { referencePanel: near, direction: id === 'listing' ? 'below' : 'within' } } : {}),
        });
      }
    });
  }

  /** The user's change (a drag, a resize, a closed tab) is kept for this mode. */
  private changed(): void {
    if (this.restoring || !this.acting || this.view?.kind !== 'mode' || this.presented) return;
    const v = this.view;
    // A tab the user closed stays closed (the Layout menu shows it again).
    const present = new Set(this.api.panels.map((p) => p.id));
    const gone = [...this.keep(v)].filter((id) => !present.has(id));
    saved.keep(v.mode, this.api.toJSON(), gone);
  }

  /** Brings a panel's tab to the front (a figure's plot, say). */
  reveal(id: DockPanelId): void {
    this.api.getPanel(id)?.api.setActive();
  }

  /** A panel's section, in or out of the layout. */
  section(id: DockPanelId): HTMLElement | undefined {
    return this.sections.get(id);
  }

  /** The panels of the mode shown, and whether each is on screen, for the Layout menu. */
  panels(): { id: DockPanelId; shown: boolean }[] {
    const v = this.view;
    if (v?.kind !== 'mode') return [];
    return MODE_PANELS[v.mode].filter((p) => offered(v, p)).map((id) => ({ id, shown: !!this.api.getPanel(id) }));
  }

  /** Shows or closes a panel of the mode shown. */
  setShown(id: DockPanelId, shown: boolean): void {
    const v = this.view;
    if (v?.kind !== 'mode') return;
    saved.setHidden(v.mode, id, !shown);
    this.reconcile(v, shown ? id : undefined);
    saved.keep(v.mode, this.api.toJSON(), saved.get().hidden[v.mode] ?? []);
  }

  /** Every mode to the named preset (the user's changed layouts are dropped). */
  useNamed(name: LayoutName): void {
    saved.useNamed(name);
    this.applyType();
    if (this.view) { const v = this.view; this.view = null; this.show(v); }
  }

  /** The named layout in use (a changed one keeps its name). */
  get named(): LayoutName {
    return saved.get().name;
  }

  /** The type size of the named layout (large for a lecture), on the page's root. */
  applyType(): void {
    document.documentElement.dataset.type = this.view?.kind === 'embed' ? 'embed' : saved.get().name;
  }

  /** One panel over the whole dock, in large type, until Esc or the exit button. */
  present(id: DockPanelId): void {
    const panel = this.api.getPanel(id);
    if (!panel) return;
    this.presented = id;
    document.documentElement.dataset.presenting = id;
    this.api.maximizeGroup(panel);
    this.hooks.presenting(true);
    this.redraw();
  }

  get presenting(): DockPanelId | null {
    return this.presented;
  }

  exitPresentation(): void {
    if (!this.presented) return;
    if (this.api.hasMaximizedGroup()) this.api.exitMaximizedGroup();
    this.endPresentation();
  }

  private endPresentation(): void {
    if (!this.presented) return;
    this.presented = null;
    delete document.documentElement.dataset.presenting;
    this.hooks.presenting(false);
    this.redraw();
  }
}

/** Whether a mode's panel is offered for the kernel on screen: the generated code for a compiled
 * kernel, the CUDA source for PTX and SASS, the PTX for SASS, the warps for a launch of several
 * warps, every other panel always. */
function offered(v: { listing: boolean; cuda: boolean; ptx: boolean; warps: boolean }, p: DockPanelId): boolean {
  return p === 'listing' ? v.listing : p === 'cuda' ? v.cuda : p === 'ptx' ? v.ptx : p === 'warps' ? v.warps : true;
}

/** The dock's view for the page's state: an embed's panels, else the mode's (sweep, compare or
 * one run). `cKernel`: the kernel on screen is compiled (C, PTX or SASS), so its generated code
 * has a panel; `compilerOutput`: it is PTX or SASS, so its CUDA source has one; `sass`: it is
 * SASS, so its PTX has one; `launch`: a launch of several warps is loaded, so its warps have one. */
export function viewOf(s: { embed: readonly string[] | null; sweep: unknown; compare: unknown }, cKernel: boolean, compilerOutput = false, sass = false, launch = false): DockView {
  const kernel = { listing: cKernel, cuda: compilerOutput, ptx: sass, warps: launch };
  if (s.embed?.length) {
    return { kind: 'embed', panels: s.embed.filter((p): p is DockPanelId => isDockPanel(p) && offered(kernel, p)) };
  }
  return { kind: 'mode', mode: s.sweep !== null ? 'sweep' : s.compare !== null ? 'compare' : 'single', ...kernel };
}

/** Four corners pointing out: "full screen" (drawn, as no common font has a glyph for it). */
function expandIcon(): SVGSVGElement {
  const icon = svg('svg', { viewBox: '0 0 16 16', width: 14, height: 14, 'aria-hidden': 'true', class: 'icon' });
  icon.append(svg('path', { d: 'M2 6V2h4M10 2h4v4M14 10v4h-4M6 14H2v-4', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.8 }));
  return icon;
}

/** A tab's face: the panel's title, kept up to date. */
function tabTitle(): ITabRenderer {
  const element = html('span', { class: 'dock-tab-title' });
  return {
    element,
    init: ({ title, api }) => {
      element.textContent = title;
      api.onDidTitleChange((e) => { element.textContent = e.title; });
    },
  };
}

/** The panel of `order` closest to `id` that `present` accepts (the earlier one on a tie). */
export function nearest(order: readonly DockPanelId[], id: DockPanelId, present: (p: DockPanelId) => boolean): DockPanelId | undefined {
  const at = order.indexOf(id);
  for (let d = 1; d < order.length; d++) {
    for (const i of [at - d, at + d]) if (i >= 0 && i < order.length && present(order[i])) return order[i];
  }
  return undefined;
}
