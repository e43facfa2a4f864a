//! The bundled example kernels (examples/*.sass), with the title and about text of their
//! `//@ title` / `//@ about` headers for the gallery (display text only, not simulator facts).

const files = import.meta.glob('../../examples/*.sass', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

export interface Example { file: string; title: string; about: string; text: string }

function header(text: string, key: string): string[] {
  const re = new RegExp(`^\\s*//@\\s*${key}\\b\\s?(.*)$`);
  return text.split('\n').map((l) => re.exec(l)?.[1]?.trim()).filter((s): s is string => s !== undefined);
}

// The gallery's teaching order: the walk-through first, then the paper's loops, then the course
// notes' branches from simple to nested. Files not listed follow alphabetically.
const ORDER = ['fig3_walkthrough.sass', 'single_loop.sass', 'double_loop.sass', 'hovland_if_else.sass', 'if_else.sass',
  'three_way_if_else.sass', 'loop_with_break.sass'];
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
