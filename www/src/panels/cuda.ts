//! The CUDA source tab, offered for a PTX or SASS kernel: an editor where the user pastes the `.cu`
//! file the kernel was compiled from. With line information (PTX's `.loc`, `nvdisasm -g`; from the
//! engine, `compiled().cuda_lines`) the current instruction's CUDA line is marked as the run
//! moves, a click on a CUDA line picks it (its kernel and listing lines light up elsewhere), and
//! its gutter sets breakpoints. A line over the editor says what the tab is for, which file the
//! kernel names, or why nothing can be mapped. The text never changes the run: it is kept with
//! the user's work and in links. The PTX tab of a SASS kernel (`ptx.ts`) is the same editor.

import { history, historyKeymap, defaultKeymap, isolateHistory } from '@codemirror/commands';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { sassHighlighting } from '../highlight';
import { lineExtensions, markEffects, pickLines, reveal, type LineHooks, type LineMarks } from './code-lines';

export { reveal, showLinked } from './code-lines';

export interface CudaPanel {
  view: EditorView;
  info: HTMLElement;
  host: HTMLElement;
}

export interface CudaHooks extends LineHooks {
  /** The user changed the text (typing, a paste). */
  onEdit(text: string): void;
  /** The user put the cursor on lines, or selected them (a click, a drag, the arrow keys). */
  onPick(lines: number[]): void;
}

const readOnly = new Compartment();

/** The editor; `label` names it for screen readers, `testId` its content for tests. */
export function create(parent: HTMLElement, info: HTMLElement, text: string, hooks: CudaHooks, label = 'CUDA source', testId = 'cuda-content'): CudaPanel {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        lineExtensions(hooks), lineNumbers(), history(), keymap.of([...defaultKeymap, ...historyKeymap]), sassHighlighting,
        readOnly.of([]),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ tabindex: '0', 'aria-label': label, 'data-testid': testId }),
        EditorView.updateListener.of((u) => {
          if (!u.docChanged) return;
          markEmpty(parent, u.state.doc.length === 0);
          hooks.onEdit(u.state.doc.toString());
        }),
        pickLines((lines) => hooks.onPick(lines)),
      ],
    }),
  });
  markEmpty(parent, text === '');
  return { view, info, host: parent };
}

/** An empty tab shows where to paste (CSS draws the hint over the host: a CodeMirror
 * placeholder would be a widget, which CodeMirror pads with <img> elements). */
function markEmpty(host: HTMLElement, empty: boolean): void {
  host.classList.toggle('empty', empty);
}

/** Replaces the whole text (an example's source, a link's, the user's own kernel back) as one
 * undo step of its own. */
export function setText(p: CudaPanel, text: string): void {
  if (p.view.state.doc.toString() === text) return;
  p.view.dispatch({ changes: { from: 0, to: p.view.state.doc.length, insert: text }, annotations: isolateHistory.of('full') });
}

/** What the tab can say about the pasted text, from the engine's facts about the PTX. */
export interface CudaFacts {
  /** What the kernel is: nvcc's PTX or real SASS. */
  code: 'ptx' | 'sass';
  /** It has line information (PTX's `.loc`, `nvdisasm -g`'s `//## File` lines): the engine gave
   * each instruction's CUDA line. */
  hasLoc: boolean;
  /** The file the PTX's `.file` names (`if_else.cu`), if any. */
  file: string | null;
  /** The highest CUDA line an instruction names. */
  lastLine: number;
  /** Lines of the pasted text; 0 when nothing is pasted. */
  textLines: number;
}

export type CudaNoteKind = 'no-loc' | 'empty' | 'short' | 'mapped';

/** The line over the editor: what the tab is for and what to do next. */
export function cudaNote(f: CudaFacts): { kind: CudaNoteKind; text: string } {
  const file = f.file ?? 'the .cu file';
  const code = f.code === 'sass' ? 'SASS' : 'PTX';
  if (!f.hasLoc) {
    return {
      kind: 'no-loc',
      text: f.code === 'sass'
        ? 'This SASS has no line information, so its instructions cannot be matched to CUDA lines: compile with nvcc -lineinfo -cubin and disassemble with nvdisasm -g (cuobjdump -sass prints no lines).'
        : 'This PTX has no .loc line information, so its instructions cannot be matched to CUDA lines: compile with nvcc -lineinfo (in Compiler Explorer, add -lineinfo to the compiler options).',
    };
  }
  if (f.textLines === 0) {
    return {
      kind: 'empty',
      text: `Paste ${file} here, the file this ${code} was compiled from (nvcc -lineinfo): the current instruction's CUDA line is then marked, and a click on a line lights up the ${code} made from it.`,
    };
  }
  if (f.textLines < f.lastLine) {
    return {
      kind: 'short',
      text: `The ${code} names line ${f.lastLine} of ${file}, but this text has ${f.textLines} lines: paste the whole file the ${code} was compiled from.`,
    };
  }
  // One short line: on a 720p screen the tab is a few lines tall.
  return { kind: 'mapped', text: `${f.file ?? 'CUDA source'}: click a line to light up its ${code}` };
}

export interface CudaData extends LineMarks {
  facts: CudaFacts;
  readOnly: boolean;
}

export function render(p: CudaPanel, data: CudaData): void {
  const file = data.facts.file ?? 'the .cu file';
  show(p, data, data.readOnly, cudaNote(data.facts), `Paste ${file} here, the file the ${data.facts.code === 'sass' ? 'SASS' : 'PTX'} was compiled from.`);
}

/** Marks the lines, says `note` over the editor and `hint` in it while it is empty. */
export function show(p: CudaPanel, marks: LineMarks, readOnlyNow: boolean, note: { kind: string; text: string }, hint: string): void {
  p.view.dispatch({
    effects: [
      ...markEffects(marks),
      readOnly.reconfigure(readOnlyNow ? [EditorState.readOnly.of(true), EditorView.editable.of(false)] : []),
    ],
  });
  p.view.dom.classList.toggle('read-only', readOnlyNow);
  p.info.textContent = note.text;
  p.info.dataset.kind = note.kind;
  p.host.dataset.hint = hint;
  // Follow the current instruction, unless the user is typing here.
  if (!p.view.hasFocus) reveal(p.view, marks.current);
}
