//! The strip that protects the user's own kernel: the question shown when a link opens another
//! kernel over it, and afterwards the offer to go back to the kernel kept aside.

import type { AsideOwner } from '../store';
import { html } from '../svg';

export type WorkNote = { kind: 'question' } | { kind: 'aside'; owner: AsideOwner } | null;

export interface WorkNoteHooks {
  useLink(): void;
  keepMine(): void;
  /** Swaps the kernel on screen with the one kept aside. */
  swap(): void;
  forget(): void;
}

function button(label: string, testid: string, title: string, act: () => void, primary = false): HTMLButtonElement {
  const b = html('button', { type: 'button', 'data-testid': testid, title, ...(primary ? { class: 'primary' } : {}) }, label);
  b.addEventListener('click', act);
  return b;
}

export function render(root: HTMLElement, note: WorkNote, hooks: WorkNoteHooks): void {
  root.hidden = !note;
  if (!note) { root.replaceChildren(); return; }
  if (note.kind === 'question') {
    root.dataset.kind = 'question';
    root.setAttribute('role', 'alertdialog');
    root.setAttribute('aria-label', 'a link opened another kernel');
    root.replaceChildren(
      html('p', { 'data-testid': 'link-question' },
        'This link opens another kernel than yours. Your own kernel is kept: nothing is saved over it until you choose.'),
      button('Use the link\'s kernel', 'link-use', 'work on the link\'s kernel (editing it does the same); yours stays aside, one click away',
        hooks.useLink, true),
      button('Back to my kernel', 'link-keep-mine', 'show your own kernel and leave the link', hooks.keepMine));
    return;
  }
  root.dataset.kind = 'aside';
  root.setAttribute('role', 'status');
  root.removeAttribute('aria-label');
  const whose = note.owner === 'mine' ? 'Your own kernel' : 'The link\'s kernel';
  root.replaceChildren(
    html('p', { 'data-testid': 'aside-note' }, `${whose} is kept aside.`),
    button(note.owner === 'mine' ? 'Back to my kernel' : 'Back to the link\'s kernel', 'aside-swap',
      'swap it with the kernel on screen (which is kept aside in turn)', hooks.swap),
    button('Forget it', 'aside-forget', 'drop the kept copy', hooks.forget));
}
