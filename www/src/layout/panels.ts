//! The dock's panels: their ids (the `data-panel` of their section in index.html), tab titles, what
//! each shows (the (i) on its tab) and which modes have them.

export const DOCK_PANELS = [
  'editor', 'listing', 'cuda', 'ptx', 'problems', 'kernel-inputs', 'caption', 'cfg', 'warps', 'lanes', 'registers', 'memory', 'stack', 'plot', 'metrics',
  'compare-table', 'side-a', 'side-b', 'sweep-settings', 'sweep', 'output',
] as const;
export type DockPanelId = (typeof DOCK_PANELS)[number];

/** The page's modes; an embed is a single run showing only the panels its link names. */
export type Mode = 'single' | 'compare' | 'sweep';
export const MODES: readonly Mode[] = ['single', 'compare', 'sweep'];

export interface PanelInfo {
  title: string;
  /** What the panel shows and how to read it, for the (i) on its tab. */
  about: string;
}

export const PANEL_INFO: Record<DockPanelId, PanelInfo> = {
  editor: {
    title: 'Kernel',
    about: 'The kernel you run: a listing (SASS-like instructions) or CUDA C. It runs as you type; errors are marked on their line. Click the narrow gutter left of the line numbers to set a breakpoint. `//@` lines set params, buffers and walk-through notes.',
  },
  listing: {
    title: 'Generated code',
    about: 'The instructions the C kernel compiles to, the program the warp runs. Pointing at a C line lights its instructions here, and the other way round. The heat column left of the lines counts each instruction\'s warp-level executions over the whole launch (or the warp\'s run), as Nsight Compute does; hover a cell for every counter, or turn it off with "heat".',
  },
  cuda: {
    title: 'CUDA source',
    about: 'For a PTX or SASS kernel: the `.cu` file it was compiled from, pasted here (compile with `nvcc -lineinfo`, so the PTX has `.loc` lines naming them; disassemble SASS with `nvdisasm -g`). The current instruction\'s CUDA line is marked as the run moves; click a CUDA line to light up the PTX or SASS made from it, or a kernel line for its CUDA line. The text is kept with your work and in links.',
  },
  ptx: {
    title: 'PTX',
    about: 'For a SASS kernel: nvcc\'s PTX of the same `.cu` file, pasted here (`nvcc -ptx -lineinfo`). SASS and PTX share only the CUDA lines both name, so the PTX lines made from the current instruction\'s CUDA line are marked as the run moves; click a PTX line to light up the SASS and CUDA lines of its CUDA line, or a SASS line for its PTX. The text is kept with your work and in links.',
  },
  problems: {
    title: 'Problems',
    about: 'Every error and warning in the kernel, errors first, each with its line: click one to put the cursor on it in the editor. While the kernel does not compile, the other views show the last run that did.',
  },
  'kernel-inputs': {
    title: 'Kernel inputs',
    about: 'Every buffer and scalar the kernel reads, with its type, length, initialiser and first values, the launch (grid, block, which block and warp run) and, for a file of several kernels, which one runs. An input with no `//@` line is made automatically (a buffer of one element per thread holding its index, a scalar equal to the thread count). Editing a field writes its `//@` line into the kernel, which runs again (Ctrl+Z in the editor undoes it); "make auto" removes the line.',
  },
  caption: {
    title: 'What happens',
    about: 'The walk-through note for this moment (from `//@ note` lines), the instruction the warp just issued and what it does next.',
  },
  cfg: {
    title: 'Control-flow graph',
    about: 'The kernel\'s basic blocks and their edges: taken branches, fall-throughs, back edges, and where the model reconverges. The current block is outlined; click an instruction to set a breakpoint. Drag to pan; the buttons zoom and fit. With "heat", each block ends with its warp instructions executed over the whole launch; hover the block for every Nsight Compute counter.',
  },
  warps: {
    title: 'Warps',
    about: 'For a launch of several warps: one row per warp of the block on screen, one column per step of the block (each step is one instruction issued by one warp). Blue: the warp issued the step, darker the more lanes ran it; pale: it could have, another warp did; pink: it waits at a barrier (__syncthreads) for the others; grey: it exited. Ticks on top mark where a barrier let its warps go. The outlined warp is in focus: the lanes, stack, registers, graph and plots show it. Click a row to focus another; the arrows (or [ and ]) step to its previous or next instruction.',
  },
  lanes: {
    title: 'Lanes',
    about: 'One row per lane (thread) of the warp, one column per step: active lanes ran the instruction, masked-off lanes issued it but their guard predicate was false (predication), waiting lanes did not issue it (divergence parked them on the reconvergence stack, or they wait at a barrier), exited lanes are done. Click a lane to inspect its registers.',
  },
  registers: {
    title: 'Registers',
    about: 'The registers of the lane chosen in the lanes panel (type its number or click its row), after the step shown.',
  },
  memory: {
    title: 'Memory',
    about: 'Every buffer of the kernel after the step shown, element by element (index above, value below). The line on top says what the step just executed did to memory, in which lanes; the elements it wrote are filled, those it read are outlined, and those the selected lane touched are ringed. Point at an element for the lanes that touched it. The panel scrolls to the step\'s first touched element unless you just scrolled it.',
  },
  stack: {
    title: 'Reconvergence stack',
    about: 'The model\'s control state after this step: the entries of its reconvergence stack (or its barriers and lane groups), top first, each with its mask and where it resumes. Entries past the on-chip capacity spill to memory. Point at a word in the legend for what it means; click it for the glossary in the help (?).',
  },
  plot: {
    title: 'Stack history',
    about: 'The stack depth at every step of the whole run, like the papers\' stack-history figures, with spills and fills marked and the on-chip capacity drawn. The cursor is the step shown.',
  },
  metrics: {
    title: 'Metrics',
    about: 'Counts at the step shown and for the whole run: cycles under the cost preset, warp and thread instructions, SIMD efficiency, stack traffic and divergent branches.',
  },
  output: {
    title: 'Output',
    about: 'What the kernel\'s printf printed up to the step shown, one line per lane and call, each tagged with its lane and the step that printed it, in the order the model ran the lanes. The lines the current step printed are highlighted; click a line to go to its step. "This lane only" keeps the lane chosen in the lanes panel.',
  },
  'compare-table': {
    title: 'Compare the runs',
    about: 'The two runs\' whole-run metrics side by side (for a whole launch, every warp of every block): one kernel under two models, or two kernels under one model (side B\'s kernel picker). Cells where they differ are highlighted. Cycles are priced with the cost preset the column names.',
  },
  'side-a': {
    title: 'Left run',
    about: 'The left run (the kernel in the editor, under the top bar\'s model): its CFG, lanes and control state at the shared step.',
  },
  'side-b': {
    title: 'Right run',
    about: 'The right run at the same step (clamped to its end when its run is shorter): the same kernel under another model, or another kernel (its kernel picker) under the left one\'s model.',
  },
  'sweep-settings': {
    title: 'Sweep settings',
    about: 'Which param to sweep over which values, optionally split by a second param, under which models and cost presets.',
  },
  sweep: {
    title: 'Sweep',
    about: 'One point per run of the kernel: the chosen metric against the swept param, a line per model and preset, with hardware measurements beside the model where the figure has them.',
  },
};

/** The parts of the page outside the dock, for the help and the tour. */
export const PAGE_INFO: Record<'topbar' | 'scrubber', PanelInfo> = {
  topbar: {
    title: 'Top bar',
    about: 'The model and its inputs; Examples (kernels and the papers\' figures); compare two models; sweep a param; copy a link or embed panels in slides; the Layout, settings and Export menus; and ? for this help.',
  },
  scrubber: {
    title: 'Step controls',
    about: 'The bottom bar moves through the recorded run: the slider and its strip of divergence, reconvergence and spill marks, step back and forward, jump to the previous or next divergence, play at a speed, run to a breakpoint.',
  },
};

/** The panels each mode can show (the listing only for compiled kernels, C or PTX; the CUDA
 * source only for PTX and SASS; the PTX only for SASS). */
export const MODE_PANELS: Record<Mode, readonly DockPanelId[]> = {
  single: ['editor', 'listing', 'cuda', 'ptx', 'problems', 'kernel-inputs', 'caption', 'cfg', 'warps', 'lanes', 'registers', 'memory', 'stack', 'plot', 'metrics', 'output'],
  compare: ['editor', 'listing', 'cuda', 'ptx', 'problems', 'compare-table', 'side-a', 'side-b'],
  sweep: ['editor', 'problems', 'sweep-settings', 'sweep'],
};

export function isDockPanel(id: string): id is DockPanelId {
  return (DOCK_PANELS as readonly string[]).includes(id);
}
