//! The PTX tab, offered for a SASS kernel: an editor (the CUDA tab's, `cuda.ts`) where the user
//! pastes nvcc's PTX of the same `.cu` file. SASS and PTX share only the CUDA lines both name, so
//! the engine lines them up by CUDA line (`ptxBeside`): the PTX lines of the current instruction's
//! CUDA line are marked as the run moves, a click on a PTX line lights up the SASS and CUDA lines
//! of its CUDA line, and its gutter sets a breakpoint on the first instruction of that line. The
//! line over the editor says what to paste, or the engine's reason nothing lines up. The text
//! never changes the run: it is kept with the user's work and in links.

import type { Beside, BesideProblemKind } from '../generated/engine';
import { show, type CudaPanel } from './cuda';
import type { LineMarks } from './code-lines';

export type PtxNoteKind = BesideProblemKind | 'empty' | 'mapped';

/** The line over the editor: what to paste, what lines up, or why nothing does. */
export function ptxNote(beside: Beside | null, text: string, cudaFile: string | null): { kind: PtxNoteKind; text: string } {
  const problem = beside?.problem ?? null;
  // With nothing pasted, only a SASS without lines is worth saying before the paste.
  if (problem?.kind === 'sass-has-no-lines' || (problem && text.trim() !== '')) return { kind: problem.kind, text: problem.message };
  if (text.trim() === '' || !beside) {
    const file = cudaFile ?? 'the .cu file';
    return {
      kind: 'empty',
      text: `Paste nvcc's PTX of ${file} here (nvcc -ptx -lineinfo): the PTX lines of the current instruction's CUDA line are then marked, and a click on a PTX line lights up its SASS.`,
    };
  }
  // One short line: on a 720p screen the tab is a few lines tall.
  return { kind: 'mapped', text: `PTX of ${beside.kernel ?? 'the kernel'}: click a line to light up its SASS` };
}

export interface PtxData extends LineMarks {
  beside: Beside | null;
  text: string;
  cudaFile: string | null;
  readOnly: boolean;
}

export function render(p: CudaPanel, data: PtxData): void {
  show(p, data, data.readOnly, ptxNote(data.beside, data.text, data.cudaFile), 'Paste the PTX this SASS was compiled from here (nvcc -ptx -lineinfo).');
}
