//! The help's glossary: the engine's terms (core `model::glossary`), the models on screen first,
//! then the other models' words grouped by family, with a filter box. The stack panel's hover
//! text for an entry is the same term's meaning, so both say one thing.

import type { ModelAbout, Term } from '../generated/engine';
import { html, withCode } from '../svg';

export interface GlossarySection {
  title: string;
  /** The models whose words these are (a family's, or the models on screen). */
  models: string[];
  /** True for the models on screen. */
  current: boolean;
  terms: Term[];
}

/** Each term once: first the terms of the models on screen, then the rest grouped by the family
 * of the first model they name, families in the engine's model order. */
export function glossarySections(terms: readonly Term[], current: readonly string[], abouts: readonly ModelAbout[]): GlossarySection[] {
  const left = new Set(terms);
  const take = (f: (t: Term) => boolean) => {
    const out = [...left].filter(f);
    for (const t of out) left.delete(t);
    return out;
  };
  const sections: GlossarySection[] = [];
  if (current.length) {
    const mine = take((t) => t.models.some((m) => current.includes(m)));
    sections.push({ title: `Words of ${current.join(' and ')}`, models: [...current], current: true, terms: mine });
  }
  const families = [...new Set(abouts.map((a) => a.family))];
  for (const family of families) {
    const models = abouts.filter((a) => a.family === family).map((a) => a.name);
    const own = take((t) => models.includes(t.models[0]));
    if (own.length) sections.push({ title: family, models, current: false, terms: own });
  }
  // Words of models the engine did not describe (there are none unless it lags behind).
  if (left.size) sections.push({ title: 'other words', models: [], current: false, terms: [...left] });
  return sections;
}

/** The kinds in the order a section lists them, with their subheadings. */
const KINDS: [Term['kind'], string][] = [['entry', 'In the stack panel'], ['instruction', 'In the code'], ['idea', 'Ideas']];

/** Whether `t` matches the filter text (its words, meaning, source or models). */
export function matches(t: Term, filter: string): boolean {
  const q = filter.trim().toLowerCase();
  return !q || [t.term, t.meaning, t.source, ...t.models].some((s) => s.toLowerCase().includes(q));
}

/** A section's terms of one kind, a model's own words before those it shares with more models. */
export function ofKind(terms: readonly Term[], kind: Term['kind']): Term[] {
  return terms.filter((t) => t.kind === kind).sort((a, b) => a.models.length - b.models.length);
}

function termItem(t: Term, index: number, section: GlossarySection): HTMLElement {
  const item = html('div', {
    class: 'glossary-term', id: `glossary-${index}`, tabindex: -1, 'data-testid': 'glossary-term', 'data-word': t.term,
    'data-kind': t.kind, 'data-models': t.models.join(' '),
  });
  const body = html('dd');
  body.append(withCode(html('span', { class: 'glossary-meaning' }), t.meaning));
  // A term of the models on screen names its models only when it is not nearly everyone's.
  const others = section.current && t.models.length > 4 ? '' : ` · ${t.models.join(', ')}`;
  body.append(html('span', { class: 'glossary-source muted' }, `${t.source}${others}`));
  item.append(html('dt', { class: 'glossary-word mono' }, t.term), body);
  return item;
}

/** The glossary section of the help: a filter box and the sections of `glossarySections`. */
export function render(terms: readonly Term[], current: readonly string[], abouts: readonly ModelAbout[]): HTMLElement {
  const box = html('div', { class: 'glossary', 'data-testid': 'glossary' });
  if (!terms.length) {
    box.append(html('p', { class: 'muted' }, 'The glossary comes from the simulator engine, which has not started.'));
    return box;
  }
  const filter = html('input', {
    type: 'search', class: 'glossary-filter', placeholder: 'filter: SSY, barrier, spill…', 'aria-label': 'filter the glossary',
    'data-testid': 'glossary-filter',
  });
  const none = html('p', { class: 'muted', hidden: '' }, 'No word matches.');
  // Each block that hides when none of its terms matches: a section, and each kind within it.
  const groups: { el: HTMLElement; items: [Term, HTMLElement][] }[] = [];
  for (const s of glossarySections(terms, current, abouts)) {
    const section = html('section', { class: `glossary-section${s.current ? ' current' : ''}`, 'data-testid': 'glossary-section', 'data-models': s.models.join(' ') });
    const title = html('h4', {}, s.title);
    if (!s.current && s.models.length) title.append(html('span', { class: 'muted' }, ` · ${s.models.join(', ')}`));
    section.append(title);
    const all: [Term, HTMLElement][] = [];
    for (const [kind, heading] of KINDS) {
      const items = ofKind(s.terms, kind).map((t): [Term, HTMLElement] => [t, termItem(t, terms.indexOf(t), s)]);
      if (!items.length) continue;
      const group = html('div', { class: 'glossary-kind' });
      const list = html('dl');
      list.append(...items.map(([, el]) => el));
      group.append(html('h5', {}, heading), list);
      section.append(group);
      groups.push({ el: group, items });
      all.push(...items);
    }
    groups.push({ el: section, items: all });
    box.append(section);
  }
  filter.addEventListener('input', () => {
    for (const [t, el] of groups.flatMap((g) => g.items)) el.hidden = !matches(t, filter.value);
    for (const g of groups) g.el.hidden = g.items.every(([, el]) => el.hidden);
    none.hidden = groups.some((g) => !g.el.hidden);
  });
  box.prepend(filter, none);
  return box;
}

/** Scrolls to the first entry term named `word` among the models on screen, and focuses it. */
export function focusTerm(root: HTMLElement, word: string): void {
  const items = [...root.querySelectorAll<HTMLElement>('.glossary-section.current .glossary-term[data-kind="entry"]')];
  const item = items.find((el) => el.dataset.word === word);
  if (!item) return;
  item.classList.add('focused');
  item.scrollIntoView({ block: 'center' });
  item.focus({ preventScroll: true });
}
