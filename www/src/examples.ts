//! The bundled example kernels (examples/*.sass, the C ones, *.cu, nvcc's PTX of those, ptx/*.ptx,
//! and their real sm_90 SASS, sass/*.sm_90.sass; and the H100 report's kernels as nvcc built
//! them, h100/*.sm_90.sass, for the timing model), with the title and about text of their
//! `//@ title` / `//@ about` headers for the gallery (display text only, not simulator facts). A
//! PTX or SASS example comes with the `.cu` it was compiled from (`ptx/if_else.ptx` and
//! `sass/if_else.sm_90.sass` from `if_else.cu`), for the CUDA source tab, and a SASS example with
//! nvcc's PTX of the same `.cu` (`ptx/if_else.ptx`), for the PTX tab.

const files = import.meta.glob(['../../examples/*.sass', '../../examples/*.cu', '../../examples/ptx/*.ptx', '../../examples/sass/*.sm_90.sass',
  '../../examples/h100/*.sm_90.sass', '../../examples/grid/*.cu'], { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

/** An example's name, as figures.json and the gallery give it: ptx/ and sass/ hold nvcc's output of
 * the top-level `.cu` files and are named as those are (`if_else.ptx`); other folders hold kernels
 * of their own whose names may repeat sass/'s, so they keep the folder (`h100/single_loop.sm_90.sass`). */
function exampleName(path: string): string {
  return path.replace('../../examples/', '').replace(/^(ptx|sass)\//, '');
}

export interface Example {
  file: string; title: string; about: string; text: string; group: string;
  /** A PTX or SASS example's CUDA source: the example `.cu` of the same name, which nvcc compiled. */
  cuda: string | null;
  /** A SASS example's PTX: the PTX example of the same name, from the same `.cu`. */
  ptx: string | null;
}

function header(text: string, key: string): string[] {
  const re = new RegExp(`^\\s*//@\\s*${key}\\b\\s?(.*)$`);
  return text.split('\n').map((l) => re.exec(l)?.[1]?.trim()).filter((s): s is string => s !== undefined);
}

// The gallery's teaching order, in groups. First the token stack: the walk-through, then the
// paper's loops, then the course notes' branches from simple to nested, each C version right
// after its assembly; then the C kernels with no assembly counterpart, from structured flow to
// deadlocks. Then the kernels written to set the reconvergence schemes apart (compare mode), those
// written to be swept, and the H100 report's kernels under the timing model.
// Files not listed follow alphabetically, in the last group.
export const GROUPS: { name: string; files: string[] }[] = [
  {
    name: 'Divergence on the token stack',
    files: ['fig3_walkthrough.sass', 'single_loop.sass', 'single_loop.cu', 'double_loop.sass', 'double_loop.cu',
      'hovland_if_else.sass', 'if_else.sass', 'if_else.cu', 'three_way_if_else.sass', 'three_way_if_else.cu',
      'loop_with_break.sass', 'nested_if.cu', 'loop_break_continue.cu', 'early_return.cu', 'switch.cu',
      'goto_leaves_loop.cu', 'divergent_call.cu', 'syncthreads_divergent.cu', 'spin_lock.cu'],
  },
  {
    name: 'Reconvergence schemes compared',
    files: ['tf_figure1.sass', 'tf_barrier.cu', 'tf_exception.cu', 'tf_short_circuit.cu', 'tf_conservative.sass', 'loop_break.cu'],
  },
  {
    // Whole launches: every warp of every block runs, and the Warps panel shows the block's.
    // Harris's reductions first: the same sums, with every warp split (#1) or whole warps idle (#2).
    name: 'Blocks of warps (whole launches)',
    files: ['grid/reduce_interleaved.cu', 'grid/reduce_strided.cu', 'grid/reduce_shared.cu', 'grid/matmul_tiled.cu', 'grid/barrier_divergent.cu', 'grid/mandelbrot.cu',
      'grid/scan_block.cu', 'grid/transpose_tiled.cu', 'grid/histogram_shared.cu', 'grid/dot_product.cu', 'grid/block_vote.cu',
      'grid/dynamic_reverse.cu', 'grid/saxpy_grid_stride.cu', 'grid/particles_struct.cu'],
  },
  {
    // Public kernels, each written after its source (line 1 names it) and launched as its host
    // program launches it; the H100 computed the same buffers.
    name: 'Public kernels, launched as their programs launch them',
    files: ['grid/sample_vector_add.cu', 'grid/sample_reduction.cu', 'grid/sample_simple_cg.cu', 'grid/cbe_julia.cu',
      'grid/gems_nbody.cu', 'grid/rodinia_bfs.cu'],
  },
  {
    // Kernels written to be swept (the papers' figures open them with their sweeps).
    name: 'Kernels for sweeps (Hovland\'s figures)',
    files: ['hovland_paths.cu', 'hovland_lone_lane.cu', 'hovland_branch_size.cu'],
  },
  {
    // The H100 report's kernels as nvcc built them, under the h100-timed preset: each times itself
    // with clock64(), and its figure sets the model's clock beside the measured one.
    name: 'Timed on an H100 (the report\'s kernels, sm_90 SASS)',
    files: ['h100/single_loop.sm_90.sass', 'h100/single_loop_nounroll.sm_90.sass', 'h100/double_loop.sm_90.sass',
      'h100/double_loop_nounroll.sm_90.sass', 'h100/branch_ifelse.sm_90.sass', 'h100/branch_ifonly.sm_90.sass'],
  },
  {
    // What a real compiler makes of the C examples: the text users paste from nvcc or Compiler
    // Explorer, with the reconvergence warpscope inserts for the chosen model.
    name: 'Real compiler output (nvcc\'s PTX)',
    files: ['if_else.ptx', 'three_way_if_else.ptx', 'single_loop.ptx', 'double_loop.ptx', 'nested_if.ptx',
      'loop_break_continue.ptx', 'early_return.ptx', 'switch.ptx', 'goto_leaves_loop.ptx', 'divergent_call.ptx',
      'tf_barrier.ptx', 'tf_short_circuit.ptx', 'syncthreads_divergent.ptx', 'spin_lock.ptx', 'printf_divergent.ptx'],
  },
  {
    // What the GPU runs: ptxas's code for sm_90 (Hopper), with the convergence barriers it
    // placed, under the volta model.
    name: 'Real compiler output (nvcc\'s sm_90 SASS)',
    files: ['if_else.sm_90.sass', 'three_way_if_else.sm_90.sass', 'single_loop.sm_90.sass', 'double_loop.sm_90.sass',
      'nested_if.sm_90.sass', 'loop_break_continue.sm_90.sass', 'early_return.sm_90.sass', 'switch.sm_90.sass',
      'goto_leaves_loop.sm_90.sass', 'divergent_call.sm_90.sass', 'tf_barrier.sm_90.sass', 'tf_short_circuit.sm_90.sass',
      'syncthreads_divergent.sm_90.sass', 'spin_lock.sm_90.sass', 'hovland_paths.sm_90.sass', 'printf_divergent.sm_90.sass'],
  },
];
const ORDER = GROUPS.flatMap((g) => g.files);
const rank = (file: string) => (ORDER.includes(file) ? ORDER.indexOf(file) : ORDER.length);
const groupOf = (file: string) => (GROUPS.find((g) => g.files.includes(file)) ?? GROUPS[GROUPS.length - 1]).name;

export const EXAMPLES: Example[] = Object.entries(files)
  .map(([path, text]) => {
    const file = exampleName(path);
    const compiled = /\.(ptx|sm_90\.sass)$/;
    const cuda = compiled.test(file) ? files[`../../examples/${file.replace(compiled, '.cu')}`] ?? null : null;
    const ptx = file.endsWith('.sm_90.sass') ? files[`../../examples/ptx/${file.replace('.sm_90.sass', '.ptx')}`] ?? null : null;
    return { file, text, title: header(text, 'title')[0] ?? file, about: header(text, 'about').join(' '), group: groupOf(file), cuda, ptx };
  })
  .sort((a, b) => rank(a.file) - rank(b.file) || a.file.localeCompare(b.file));

export function defaultExample(): Example {
  return EXAMPLES.find((e) => e.file === 'fig3_walkthrough.sass') ??
    EXAMPLES.find((e) => e.file === 'single_loop.sass') ?? EXAMPLES[0];
}
