//! Help dialog: what each panel of the page's mode shows (`layout/panels.ts`, the words of the
//! panels' (i)), the glossary of the models' words (`glossary.ts`, from the engine), the
//! reconvergence models one line each, and the keyboard shortcuts (they never fire while typing
//! in the editor or a field; a focused select gives up only ← and →: `controls.ts`). A row of
//! buttons at the top jumps to each part, as the dialog scrolls inside itself on a small screen.

import { PAGE_INFO, PANEL_INFO, type DockPanelId } from '../layout/panels';
import { glossary, modelInfo, modelInfos } from '../model-info';
import { html, withCode } from '../svg';
import * as glossaryPanel from './glossary';

export const SHORTCUTS: [string, string][] = [
  ['Space', 'play / pause'],
  ['→ / ←', 'step forward / back'],
  ['Shift + → / ←', 'next / previous divergence'],
  ['Home / End', 'start / end of the run'],
  ['B', 'run to the next breakpoint'],
  ['F', 'fit the CFG to its panel (never below readable text: the minimap shows the rest)'],
  ['+ / - / 0', 'zoom the focused CFG in, out, or fit it (also Ctrl + wheel)'],
  ['?', 'this help (open / close)'],
  ['Esc', 'close dialogs'],
];

export interface HelpContext {
  /** The engine's model names (none before the first load). */
  models: readonly string[];
  /** The models on screen (two in compare mode): their words come first in the glossary. */
  current: readonly string[];
  /** The dock panels of the page's mode. */
  panels: readonly DockPanelId[];
  /** Starts the tour of the page again (the help closes first). */
  tour(): void;
}

function part(id: string, title: string, ...body: HTMLElement[]): HTMLElement {
  const section = html('section', { class: 'help-part', id, 'data-testid': id, 'aria-labelledby': `${id}-title` });
  section.append(html('h3', { id: `${id}-title` }, title), ...body);
  return section;
}

function panelsPart(panels: readonly DockPanelId[]): HTMLElement {
  const list = html('dl', { class: 'help-panels' });
  const items = [...panels.map((p) => PANEL_INFO[p]), PAGE_INFO.scrubber, PAGE_INFO.topbar];
  for (const info of items) {
    list.append(html('dt', {}, info.title), withCode(html('dd'), info.about));
  }
  const how = html('p', { class: 'muted' }, 'The (i) on a panel\'s tab says the same; drag a tab to move a panel, and the Layout menu brings back one you closed.');
  return part('help-panels', 'The panels', list, how);
}

/** What happens to a kernel a student pastes (C or PTX): what runs, what is made for it, what is
 * checked, and how PTX lines meet the CUDA source. */
const OWN_KERNEL = [
  'Paste a kernel, or a whole `.cu` file from a course, into the Kernel panel: `#include`s and host code (`main`, `cudaMalloc`, `<<<...>>>`) are skipped with a note in Problems, and the first `__global__` kernel runs (`//@ kernel NAME` picks another).',
  'Parameters need no header lines: each pointer gets a buffer of one element per thread holding its index (0, 1, 2, ...), each scalar the thread count. `//@ buffer name: i32[64] = 100 - i`, `= [1, 3, 5]` or `//@ param n = 10` set them yourself.',
  'warpscope runs one warp of one block. `//@ launch grid=4 block=256 block_idx=2 warp=1` sets the launch and which warp runs; `threadIdx`, `blockIdx`, `blockDim` and `gridDim` are what its lanes see. The other warps do not run: `__syncthreads()` is a barrier for this warp alone, and `__shared__` memory holds only what this warp writes.',
  'A `__shfl_*_sync`, `__ballot_sync` or `__syncwarp` whose mask names a lane that is not there with it (it took the other side of a branch, or exited) stops the run with an error naming the missing lanes and where they are, under every model.',
  'The Memory panel shows every buffer at the step (shared ones marked) with the cells the step read and wrote; Registers names the lane\'s C variables; a shuffle step draws which lane got whose value in Lanes.',
  'Or paste PTX: what `nvcc -ptx` writes, or Compiler Explorer\'s PTX pane for CUDA. Parameters are bound as `arg0`, `arg1`, ... in signature order, or by PTX\'s own names (`_Z7vec_addPKfS0_Pfi_param_0`); a file of several `.entry`s runs the first, and the Kernel inputs panel picks another. PTX has no reconvergence instructions: warpscope inserts them for the chosen model (`SSY`/`SYNC` for the token stack, `BSSY`/`BSYNC` for volta), each marked `// inserted` in the Generated code.',
  'PTX compiled with `nvcc -lineinfo` has `.loc` lines: paste the `.cu` it came from into the CUDA source tab. The current instruction\'s CUDA line is marked as the run moves; click a CUDA line to light up its PTX and generated code, or a PTX line for its CUDA line; each CFG block names its CUDA lines (`cuda 14-16`). The CUDA text is kept with your work and in links.',
  'Or paste real SASS, the code the GPU runs: `cuobjdump -sass`, `nvdisasm` (with or without `-c`, `-g`, `-hex`) or Compiler Explorer\'s SASS pane, for sm_75 to sm_120. Choose the volta model: the dump\'s own `BSSY`/`BSYNC`/`BREAK`/`WARPSYNC` drive it, and the graph and trace show its addresses. Parameters are `arg0`, `arg1`, ... typed from the mangled name; shared memory is the buffer `shared`, each lane\'s local memory its part of `local`. `nvdisasm -g` of a `-lineinfo` cubin gives each instruction its CUDA line (paste the `.cu` into the CUDA source tab, and nvcc\'s `-ptx -lineinfo` output of it into the PTX tab: the PTX lines of the current instruction\'s CUDA line light up, and a click on a PTX line lights up its SASS); `printf` needs `nvdisasm` of the whole cubin (its format strings are in the cubin\'s data) and a `switch`\'s jump table needs `nvdisasm` (it names the targets): cuobjdump prints neither, and the error says so.',
];

function ownKernelPart(): HTMLElement {
  const list = html('ul', { class: 'help-own' });
  for (const text of OWN_KERNEL) list.append(withCode(html('li'), text));
  return part('help-own-kernel', 'Your own kernel', list);
}

function modelsPart(models: readonly string[]): HTMLElement {
  const list = html('table', { class: 'shortcuts models-help', 'data-testid': 'models-help' });
  for (const m of models) {
    const tr = html('tr');
    tr.append(html('th', { class: 'mono' }, m), html('td', {}, modelInfo(m).summary));
    list.append(tr);
  }
  const how = html('p', { class: 'muted' }, 'Press "compare" to run two of them side by side on the same kernel, with one scrubber and a table of their metrics.');
  return part('help-models', 'Reconvergence models', list, how);
}

function shortcutsPart(): HTMLElement {
  const table = html('table', { class: 'shortcuts' });
  for (const [k, what] of SHORTCUTS) {
    const tr = html('tr');
    tr.append(html('th', {}, ''), html('td', {}, what));
    const keys = tr.firstElementChild!;
    // "+" joins two keys ("Shift + →"); at the start it is the key itself.
    k.split(' ').forEach((p, i) => keys.append(p === '/' || (p === '+' && i > 0) ? ` ${p} ` : html('kbd', {}, p)));
    table.append(tr);
  }
  const where = html('p', { class: 'muted' }, 'They never fire while you type in the editor or a field. After a pick from a list, ← and → step the run; ↑ and ↓ still choose from the list.');
  const tip = html('p', { class: 'muted' }, 'Click the narrow gutter left of the line numbers, or an instruction in the control-flow graph, to set or clear a breakpoint.');
  return part('help-shortcuts', 'Keyboard shortcuts', table, where, tip);
}

export function render(dialog: HTMLDialogElement, ctx: HelpContext): void {
  dialog.classList.add('help-dialog');
  dialog.setAttribute('aria-labelledby', 'help-title');
  const body = html('div', { class: 'help-body' });
  const parts = [
    panelsPart(ctx.panels),
    ownKernelPart(),
    part('help-glossary', 'Glossary', glossaryPanel.render(glossary(), ctx.current, modelInfos())),
    ...(ctx.models.length ? [modelsPart(ctx.models)] : []),
    shortcutsPart(),
  ];
  body.append(...parts);
  const toc = html('nav', { class: 'help-toc', 'aria-label': 'help sections' });
  for (const p of parts) {
    const b = html('button', { type: 'button', class: 'linklike' }, p.querySelector('h3')!.textContent!);
    // Buttons, not links: the page's fragment is a permalink.
    b.addEventListener('click', () => { p.scrollIntoView({ block: 'start' }); p.querySelector('h3')!.focus(); });
    toc.append(b);
  }
  for (const h of body.querySelectorAll('h3')) h.setAttribute('tabindex', '-1');
  const tour = html('button', { type: 'button', 'data-testid': 'take-tour' }, 'Take the tour');
  tour.addEventListener('click', () => { dialog.close(); ctx.tour(); });
  const close = html('button', { type: 'button', class: 'dialog-close', 'aria-label': 'close' }, '✕');
  close.addEventListener('click', () => dialog.close());
  const head = html('header', { class: 'help-head' });
  head.append(html('h2', { id: 'help-title' }, 'Help'), toc, tour, close);
  dialog.replaceChildren(head, body);
}

/** Opens the glossary at an entry word of the models on screen (from the stack panel). */
export function showTerm(dialog: HTMLDialogElement, word: string): void {
  glossaryPanel.focusTerm(dialog, word);
}
