//! The bundled example kernels (examples/*.sass and the C ones, *.cu), with the title and about text of their
//! `//@ title` / `//@ about` headers for the gallery (display text only, not simulator facts).

const files = import.meta.glob(['../../examples/*.sass', '../../examples/*.cu'], { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

export interface Example { file: string; title: string; about: string; text: string }

function header(text: string, key: string): string[] {
  const re = new RegExp(`^\\s*//@\\s*${key}\\b\\s?(.*)$`);
  return text.split('\n').map((l) => re.exec(l)?.[1]?.trim()).filter((s): s is string => s !== undefined);
}

// The gallery's teaching order: the walk-through first, then the paper's loops, then the course
// notes' branches from simple to nested, each C version right after its assembly; then the C
// kernels with no assembly counterpart, from structured flow to deadlocks. Files not listed
// follow alphabetically.
const ORDER = ['fig3_walkthrough.sass', 'single_loop.sass', 'single_loop.cu', 'double_loop.sass', 'double_loop.cu',
  'hovland_if_else.sass', 'if_else.sass', 'if_else.cu', 'three_way_if_else.sass', 'three_way_if_else.cu',
  'loop_with_break.sass', 'nested_if.cu', 'loop_break_continue.cu', 'early_return.cu', 'switch.cu',
  'goto_leaves_loop.cu', 'divergent_call.cu', 'syncthreads_divergent.cu', 'spin_lock.cu'];
const rank = (file: string) => (ORDER.includes(file) ? ORDER.indexOf(file) : ORDER.length);

export const EXAMPLES: Example[] = Object.entries(files)
  .map(([path, text]) => {
    const file = path.split('/').pop()!;
    return { file, text, title: header(text, 'title')[0] ?? file, about: header(text, 'about').join(' ') };
  })
  .sort((a, b) => rank(a.file) - rank(b.file) || a.file.localeCompare(b.file));

export function defaultExample(): Example {
  return EXAMPLES.find((e) => e.file === 'fig3_walkthrough.sass') ??
    EXAMPLES.find((e) => e.file === 'single_loop.sass') ?? EXAMPLES[0];
}
