//! Words for students about the reconvergence models and their stack entries: a one-line
//! description per model, what "stack depth" counts in it, and what each entry kind means.
//! Display text only, keyed by the names the engine reports (`LoadResult.models`,
//! `StackEntryView.kind`); a name this table does not know still shows, with a plain fallback.

export interface ModelInfo {
  /** One line: what the model is and where it comes from. */
  summary: string;
  /** A few words, for a side of the compare view. */
  short: string;
  /** What the stack panel lists for this model. */
  stackTitle: string;
  /** What the depth series counts for this model. */
  depth: string;
  /** Which of the engine's policy choices this model reads. */
  policy: 'path-order' | 'schedule' | null;
  /** An on-chip stack that spills to memory past its capacity (so capacity means something). */
  spills: boolean;
  /** The entries form a stack whose top runs (not a set of lane groups). */
  stack: boolean;
}

const MODELS: Record<string, ModelInfo> = {
  kepler: {
    short: 'Fermi/Kepler token stack: SSY, DIV, BRK tokens',
    summary: 'Fermi/Kepler token stack: SSY/SYNC, .S, PBK/BRK, PCNT/CONT and CAL/RET tokens (the paper\'s model)',
    stackTitle: 'token stack', depth: 'tokens', policy: null, spills: true, stack: true,
  },
  pdom: {
    short: 'post-dominator stack (GPGPU-Sim): paths meet at the ipdom',
    summary: 'GPGPU-Sim\'s immediate-post-dominator stack: each path runs until the branch\'s post-dominator (from the CFG)',
    stackTitle: 'PDOM stack', depth: 'entries', policy: 'path-order', spills: false, stack: true,
  },
  'pdom-ssy': {
    short: 'PDOM stack driven by the compiler\'s SSY (course notes)',
    summary: 'the PDOM stack driven by the compiler\'s SSY instructions, as in the course notes',
    stackTitle: 'PDOM stack (SSY)', depth: 'entries', policy: 'path-order', spills: false, stack: true,
  },
  'tf-stack': {
    short: 'thread frontiers: a sorted stack, the lowest pc runs',
    summary: 'thread frontiers on a sorted stack: the lowest pc runs, lanes join where they first meet (Diamos et al. 5.2)',
    stackTitle: 'thread frontier, by priority', depth: 'distinct pcs', policy: null, spills: false, stack: false,
  },
  'tf-sandy': {
    short: 'thread frontiers: a pc per lane and one warp pc (Sandy Bridge)',
    summary: 'thread frontiers with a pc per lane and one warp pc; a conservative branch may issue with no lane (Sandy Bridge, 5.1)',
    stackTitle: 'lane pcs and the warp pc', depth: 'distinct pcs', policy: null, spills: false, stack: false,
  },
  volta: {
    short: 'a pc per lane and convergence barriers (Volta to Hopper)',
    summary: 'Volta to Hopper: a pc per lane and 16 convergence barriers (BSSY/BSYNC); a scheduler picks the group that runs',
    stackTitle: 'lane groups and convergence barriers', depth: 'armed barrier registers', policy: 'schedule', spills: false, stack: false,
  },
  mimd: {
    short: 'every lane on its own: the reference',
    summary: 'every lane on its own, one instruction of one lane per step: the reference for the fewest fetches',
    stackTitle: 'lane pcs', depth: 'distinct pcs', policy: null, spills: false, stack: false,
  },
};

export function modelInfo(name: string): ModelInfo {
  return MODELS[name] ?? { summary: name, short: name, stackTitle: 'control state', depth: 'entries', policy: null, spills: false, stack: false };
}

/** What the compare view puts beside `model` when it opens: the scheme it is usually contrasted with. */
const PARTNERS: Record<string, string> = {
  kepler: 'volta', volta: 'kepler', pdom: 'tf-stack', 'pdom-ssy': 'pdom', 'tf-stack': 'pdom', 'tf-sandy': 'tf-stack', mimd: 'pdom',
};

export function partnerOf(model: string, models: readonly string[]): string {
  const p = PARTNERS[model];
  return p && models.includes(p) ? p : models.find((m) => m !== model) ?? model;
}

/** What an entry of `kind` means; `empty` for an entry with no lanes (tf-sandy's warp pc). */
export function kindInfo(kind: string, empty: boolean): string {
  if (kind === 'RUN' && empty) return 'warp pc here, no lane: the warp walks this block with an empty mask (idle instructions)';
  const bsync = /^BSYNC B(\d+)$/.exec(kind);
  if (bsync) return `lanes blocked at BSYNC B${bsync[1]} until every lane of barrier B${bsync[1]} arrives (or exits, breaks or yields)`;
  const reg = /^B(\d+)$/.exec(kind);
  if (reg) return `convergence barrier register B${reg[1]}: the lanes it waits for; its pc is the convergence point`;
  return KINDS[kind] ?? kind;
}

const KINDS: Record<string, string> = {
  SYNC: 'SSY: the lanes that entered the region; they run together again from this pc (the sync point)',
  DIV: 'divergence token: the lanes that did not take the branch, waiting to run their side from this pc',
  BRK: 'PBK token: lanes that break out of the loop wait here until the others leave it',
  CONT: 'PCNT token: lanes that continue wait here for the next iteration',
  CALL: 'CAL token: lanes that return from the call resume here',
  RECONV: 'reconvergence entry: its lanes run on from this pc once the paths above it have reached it',
  PATH: 'one side of a divergent branch: these lanes run from this pc until they reach the entry\'s rpc',
  RUN: 'the lanes at the highest-priority pc: they issue next',
  WAIT: 'lanes waiting at this pc for their turn',
  YIELDED: 'lanes that executed YIELD and let another group run; barriers do not wait for them meanwhile',
  BARRIER: 'lanes waiting at BAR.SYNC or WARPSYNC for the rest of the warp',
};

/** Short legend labels, one per kind family, in the order the legend lists them. */
export function kindLabel(kind: string, empty: boolean): string {
  if (kind === 'RUN' && empty) return 'warp pc, no lane';
  if (/^BSYNC B\d+$/.test(kind)) return 'blocked at BSYNC';
  if (/^B\d+$/.test(kind)) return 'barrier register';
  return LABELS[kind] ?? kind;
}

const LABELS: Record<string, string> = {
  SYNC: 'sync point', DIV: 'not-taken side', BRK: 'break target', CONT: 'continue target', CALL: 'return point',
  RECONV: 'reconverges here', PATH: 'one side', RUN: 'issues next', WAIT: 'waiting', YIELDED: 'yielded', BARRIER: 'at a barrier',
};
