//! Opening someone's link never costs the user their own kernel. When a link opens another kernel
//! than the saved one, the link shows but saving waits for the answer to a question: use the
//! link's kernel (the user's own goes aside first, in a second storage key, restorable until
//! forgotten) or go back to one's own. Editing the link's kernel counts as using it. Opening an
//! example or a figure over a kernel of the user's own puts it aside the same way.

import * as workNote from './panels/work-note';
import * as store from './store';

export interface OwnWorkHooks {
  /** Puts `work` on screen (an undoable change in the editor) without saving it. */
  show(work: store.Work): void;
  /** Saves the work on screen. */
  save(): void;
  /** The address bar stops naming the link. */
  dropHash(): void;
  banner(message: string): void;
  /** `text` is an example's, as the gallery opens it (so it need not be kept). */
  isExample(text: string): boolean;
}

export class OwnWork {
  /** The user's own work while the question is open. */
  private mine: store.Work | null = null;

  constructor(private readonly root: HTMLElement, private readonly hooks: OwnWorkHooks) {}

  /** The question is open: nothing may be saved over the user's work. */
  get asking(): boolean {
    return this.mine !== null;
  }

  /** A link with another kernel than `mine` is on screen. */
  ask(mine: store.Work): void {
    this.mine ??= mine;
    this.render();
  }

  /** What the user would lose if a link were shown now: their saved work, or while asked, the same. */
  ownWork(current: store.Work): store.Work {
    return this.mine ?? current;
  }

  /** An example (or a figure) opens over the work on screen: a kernel of the user's own goes
   * aside first, one click away, as it does for a link. */
  beforeExample(current: store.Work): void {
    if (this.mine || current.text.trim() === '' || this.hooks.isExample(current.text)) return;
    if (!store.keepAside(current, 'mine')) {
      this.hooks.banner('Your own kernel could not be kept aside (this browser\'s storage is full or turned off): Ctrl+Z in the editor brings it back.');
    }
    this.render();
  }

  useLink(): void {
    const mine = this.mine;
    if (!mine) return;
    if (!store.keepAside(mine, 'mine')) {
      this.hooks.banner('Your own kernel could not be kept aside (this browser\'s storage is full or turned off), so the link\'s kernel is not saved over it.');
      return;
    }
    this.mine = null;
    this.hooks.save();
    this.hooks.dropHash();
    this.render();
  }

  keepMine(): void {
    const mine = this.mine;
    if (!mine) return;
    this.mine = null;
    this.hooks.show(mine);
    this.hooks.dropHash();
    this.render();
  }

  swap(): void {
    const aside = store.loadAside();
    if (aside) {
      const shown = store.workOf(store.get());
      // An example on screen need not be kept: the gallery has it.
      const example = this.hooks.isExample(shown.text);
      if (example) store.forgetAside();
      if (example || store.keepAside(shown, aside.owner === 'mine' ? 'link' : 'mine')) {
        this.hooks.show(aside.work);
        this.hooks.save();
      } else this.hooks.banner('The kernel on screen could not be kept aside (this browser\'s storage is full or turned off): nothing was swapped.');
    }
    this.render();
  }

  forget(): void {
    store.forgetAside();
    this.render();
  }

  render(): void {
    const aside = this.mine || store.get().embed !== null ? null : store.loadAside();
    const note: workNote.WorkNote = this.mine ? { kind: 'question' } : aside ? { kind: 'aside', owner: aside.owner } : null;
    workNote.render(this.root, store.get().embed !== null ? null : note, {
      useLink: () => this.useLink(), keepMine: () => this.keepMine(), swap: () => this.swap(), forget: () => this.forget(),
    });
  }
}
