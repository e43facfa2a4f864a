// Generated from the Rust types by web/src/types.rs (ts-rs): do not edit.
// UPDATE_TYPES=1 cargo test -p warpscope-web --test types rewrites it.

export type Severity = "error" | "warning" | "info";

export type ModelKind = "kepler" | "pdom" | "pdom-ssy" | "struct" | "tf-stack" | "tf-sandy" | "volta" | "mimd";

export type ModelAbout = { name: string, 
/**
 * One line: what the model is and where it comes from.
 */
summary: string, 
/**
 * A few words, for a side of the compare view.
 */
short: string, 
/**
 * What the stack panel lists for this model.
 */
stack_title: string, 
/**
 * What the depth series counts for this model.
 */
depth: string, 
/**
 * Which of the engine's policy choices this model reads.
 */
policy: Policy | null, 
/**
 * An on-chip stack that spills to memory past its capacity (so capacity means something).
 */
spills: boolean, 
/**
 * The entries form a stack whose top runs (not a set of lane groups).
 */
stack: boolean, 
/**
 * The model compare mode puts beside this one when it opens: the scheme it is usually
 * contrasted with.
 */
partner: ModelKind, 
/**
 * The family of schemes it belongs to, in a few words (the help groups the glossary by it).
 */
family: string, };

export type TransformCounts = { 
/**
 * Copies of a join made for one more predecessor.
 */
forward_copies: number, 
/**
 * Copies of a loop body made for one more entry.
 */
backward_copies: number, 
/**
 * Loops given a guard register and one exit.
 */
cuts: number, 
/**
 * Instructions before and after.
 */
instructions_before: number, instructions_after: number, };

export type Policy = "path-order" | "schedule";

export type Term = { 
/**
 * The word as the views show it. Words that mean the same to these models share a term,
 * listed with ", " between them (`SSY, PBK, PCNT`); `Bn` stands for a barrier's number.
 */
term: string, kind: TermKind, meaning: string, 
/**
 * Where it comes from: the paper or notes, and which GPU generations have it.
 */
source: string, 
/**
 * The models whose views show it, in `ModelKind::ALL` order.
 */
models: Array<ModelKind>, };

export type TermKind = "instruction" | "entry" | "idea";

export type StackConfig = { capacity: number, chunk: number, 
/**
 * The deepest any model's stack may grow (on chip plus spilled) before the run faults: a
 * listing that pushes in a loop would otherwise grow it, and every checkpoint, forever.
 */
limit: number, };

export type LaneState = "active" | "masked" | "waiting" | "exited";

export type AccessKind = "read" | "write" | "update";

export type ElemType = "i8" | "u8" | "i16" | "u16" | "i32" | "u32" | "f32" | "i64" | "u64" | "f64";

export type Outcome = { kind: OutcomeKind, 
/**
 * Steps run when it ended.
 */
step: number, 
/**
 * Where: the faulting or deadlocked instruction, a breakpoint, or a loop's head.
 */
pc: number | null, 
/**
 * The byte address of `pc` in the listing.
 */
addr: number | null, 
/**
 * The source line of `pc` (a C line for a C kernel).
 */
line: number | null, 
/**
 * Why, in full (empty for a budget).
 */
message: string, 
/**
 * One line for lists and the CLI: `exited after 137 steps`, `fault at 0x0088 (line 12):
 * ...`, `stopped after 50000 steps (step limit) at 0x0040 (line 7): ...`.
 */
summary: string, };

export type OutcomeKind = "exited" | "deadlock" | "fault" | "step_limit" | "stopped" | "breakpoint" | "event" | "budget" | "end_of_recording" | "input_error";

export type Progress = { running: boolean, steps: number, 
/**
 * How the run ended, once it has.
 */
end: Outcome | null, };

export type PointMetrics = { steps: number, warp_instructions: number, thread_instructions: number, simd_efficiency: number, pushes: number, pops: number, max_stack_depth: number, spills: number, fills: number, divergent_branches: number, cycles: number, 
/**
 * Cycles between lane 0's first and last clock reads: what a kernel that times itself reports.
 */
clock_window: number, };

export type Totals = { 
/**
 * Warp instructions issued (ncu's `smsp__inst_executed.sum`).
 */
warp_instructions: number, 
/**
 * Threads that issued each one, summed (`smsp__thread_inst_executed.sum`).
 */
thread_instructions: number, 
/**
 * Of those, the threads whose guard held (`smsp__thread_inst_executed_pred_on.sum`).
 */
thread_instructions_pred_on: number, 
/**
 * Branches that split a warp's lanes.
 */
divergent_branches: number, 
/**
 * Times a warp waited at a block's barrier.
 */
barrier_waits: number, 
/**
 * Steps: warp instructions, and the parts of a real SASS instruction's sequence.
 */
steps: number, 
/**
 * Cycles under the cost model, summed over warps (as one scheduler issuing every warp's
 * instructions in turn would take, hiding no latency).
 */
cycles: number, 
/**
 * The deepest any warp's reconvergence stack went.
 */
max_stack_depth: number, 
/**
 * Reconvergence stack pushes, pops, spills and fills, summed over warps.
 */
pushes: number, pops: number, spills: number, fills: number, 
/**
 * Steps that issued with no lane (tf-sandy's idle instructions).
 */
idle_instructions: number, 
/**
 * Memory instructions that did work, and the 128-byte segments they touched.
 */
memory_instructions: number, memory_transactions: number, };

export type WarpNow = { 
/**
 * Its number in the block.
 */
warp: number, doing: WarpDoing, 
/**
 * Its lanes (a block's last warp may have fewer than the width) and those not exited.
 */
lanes: number, live: number, 
/**
 * The lanes that ran the step, when it issued it.
 */
issued: number, 
/**
 * Where it issues next (or waits), and that instruction's source line.
 */
pc: number | null, line: number | null, 
/**
 * The barrier its arrived lanes wait at.
 */
barrier: number | null, 
/**
 * Warp instructions it has issued so far.
 */
instructions: number, };

export type WarpDoing = "issuing" | "ready" | "at_barrier" | "exited" | "failed";

export type RunRequest = { 
/**
 * The kernel file's text.
 */
text: string, 
/**
 * The input language by name (`listing`, `c`); unset: told by the text.
 */
input: string | null, 
/**
 * Which kernel of the file runs (C `__global__` or PTX `.entry`, mangled or not); unset:
 * the header's `//@ kernel`, else the first.
 */
kernel: string | null, 
/**
 * Param values by name (numbers as JSON has them: whole, within +-2^53).
 */
params: { [key in string]: number }, stale_params: StaleParams, 
/**
 * Cost fields set over the preset (`spill` = 50).
 */
costs: { [key in string]: number }, stack: StackChoice, 
/**
 * Steps after which the run stops (unset: the core's default, 10 million).
 */
step_limit: number | null, 
/**
 * Record every step for replay; then the step limit must lie in
 * `MIN_STEP_LIMIT..=MAX_RECORDED_STEPS`.
 */
record: boolean, 
/**
 * End the run after exactly this many steps as if the user had stopped it there (a
 * stopped run loaded again); a run that ends sooner ends as it would.
 */
stop_at: number | null, 
/**
 * A program's SASS (`cuobjdump -sass` of its executable): its launches run the SASS's
 * kernels, the code the GPU ran, in place of warpscope's compile of the C.
 */
sass: string | null, 
/**
 * The reconvergence model (`kepler`, `pdom`, `volta` ...).
 */
model: string | null, 
/**
 * The cost preset (`kepler`, `h100`, `h100-timed` ...).
 */
preset: string | null, 
/**
 * For C kernels: if-convert short branches.
 */
ifConvert: boolean | null, 
/**
 * PDOM stacks: `taken` or `fall-through` first.
 */
pathOrder: string | null, 
/**
 * Volta: which group of a warp's lanes runs (`model::GroupOrder`: `h100`, `lowest-pc`,
 * `round-robin`).
 */
schedule: string | null, 
/**
 * A whole launch: which warp of a block issues next (`gto`, `lrr` or `random`).
 */
warpScheduler: string | null, 
/**
 * Run only the warp `//@ launch block_idx= warp=` names, alone, as before whole launches
 * ran (its shared-memory reads see what the inputs put there, not other warps' writes);
 * unset or false: a launch of several warps runs whole.
 */
oneWarp: boolean | null, 
/**
 * A file with `main()` runs whole, and its launch number `launch` (from 0; unset: the
 * first) is the run shown; `kernel_only` runs the kernel alone, with the `//@` inputs.
 */
launch: number | null, kernelOnly: boolean | null, 
/**
 * A program's launch: the block the views show (unset: the first, or the one where the
 * launch failed). A kernel run alone names its block in its `//@ launch` line.
 */
block: [number, number, number] | null, };

export type StackChoice = { capacity: number | null, chunk: number | null, 
/**
 * The hard limit (`//@ stack limit=N`).
 */
limit: number | null, };

export type StaleParams = "refuse" | "drop";

export type SweepRequest = { 
/**
 * The param on the x axis.
 */
param: string, from: number, to: number, 
/**
 * Empty: the kernel's `//@ model`, else kepler.
 */
models: Array<string>, 
/**
 * Empty: each model's own preset (the kernel's `//@ preset`, else the model's default).
 */
presets: Array<string>, 
/**
 * A second param whose values split each model and preset into several series.
 */
split: Split | null, 
/**
 * Params held fixed for the whole sweep (as a run request's: whole numbers are integers).
 */
params: { [key in string]: number }, 
/**
 * Cost fields set over every preset (`spill` = 50 ...).
 */
costs: { [key in string]: number }, 
/**
 * The on-chip stack (`None`: the kernel's `//@ stack`, else 16 entries spilled 4 at a time).
 */
stack: StackConfig | null, 
/**
 * Steps after which one run stops (`None`: the core's default, 10 million).
 */
step_limit: number | null, 
/**
 * The reconvergence model (`kepler`, `pdom`, `volta` ...).
 */
model: string | null, 
/**
 * The cost preset (`kepler`, `h100`, `h100-timed` ...).
 */
preset: string | null, 
/**
 * For C kernels: if-convert short branches.
 */
ifConvert: boolean | null, 
/**
 * PDOM stacks: `taken` or `fall-through` first.
 */
pathOrder: string | null, 
/**
 * Volta: which group of a warp's lanes runs (`model::GroupOrder`: `h100`, `lowest-pc`,
 * `round-robin`).
 */
schedule: string | null, 
/**
 * A whole launch: which warp of a block issues next (`gto`, `lrr` or `random`).
 */
warpScheduler: string | null, 
/**
 * Run only the warp `//@ launch block_idx= warp=` names, alone, as before whole launches
 * ran (its shared-memory reads see what the inputs put there, not other warps' writes);
 * unset or false: a launch of several warps runs whole.
 */
oneWarp: boolean | null, 
/**
 * A file with `main()` runs whole, and its launch number `launch` (from 0; unset: the
 * first) is the run shown; `kernel_only` runs the kernel alone, with the `//@` inputs.
 */
launch: number | null, kernelOnly: boolean | null, 
/**
 * A program's launch: the block the views show (unset: the first, or the one where the
 * launch failed). A kernel run alone names its block in its `//@ launch` line.
 */
block: [number, number, number] | null, };

export type Split = { param: string, values: Array<number>, };

export type Series = { label: string, model: ModelKind, preset: string, split_value: number | null, };

export type SweepPoint = { series: number, x: number, metrics: PointMetrics, stop: Outcome, };

export type MeasuredSet = { build: string, kernel: string, pattern: string, points: Array<[number, number]>, };

export type Fit = { 
/**
 * The cost the model leaves out (timer, launch, set-up), fitted at `at`; 0 when not fitted.
 */
base: number, at: number, 
/**
 * Whether `base` was fitted: false for a timing model, whose prediction is the clock the
 * kernel reads itself (`compare`).
 */
fitted: boolean, rows: Array<FitRow>, };

export type FitRow = { x: number, measured: number, 
/**
 * The model's value plus the fitted base.
 */
predicted: number, 
/**
 * Measured minus predicted.
 */
residual: number, };

export type Link = { text: string, params: { [key in string]: number }, 
/**
 * Compare mode: the run beside the main one. Its model is always set; its policies unset
 * are the defaults, its preset unset is the main run's (so both columns' cycles use the
 * same costs), and it if-converts and schedules warps as the main run does.
 */
compare: RunChoices | null, 
/**
 * Compare mode with two kernels: the text of the one beside the main one (`None`: the main
 * kernel), run under the compare choice with its own `//@` inputs; at most `MAX_KERNEL_BYTES`.
 */
compareText: string | null, step: number, lane: number, 
/**
 * A whole launch: the warp of the block on screen in focus (`None`: the launch's `warp=`).
 */
warp: number | null, 
/**
 * Panel names shown in embed mode (the app keeps the ones it knows).
 */
embed: Array<string> | null, sweep: SweepChoice | null, 
/**
 * An id in `examples/figures.json`.
 */
figure: string | null, 
/**
 * For a PTX kernel: the CUDA source it was compiled from (its `.loc` lines point into it), as
 * pasted in the app's CUDA source tab; at most `MAX_KERNEL_BYTES`.
 */
cuda: string | null, 
/**
 * For a SASS kernel: the PTX it was compiled from, as pasted in the app's PTX tab (lined up
 * by CUDA line, `input::ptx::beside`); at most `MAX_KERNEL_BYTES`.
 */
ptx: string | null, 
/**
 * The reconvergence model (`kepler`, `pdom`, `volta` ...).
 */
model: string | null, 
/**
 * The cost preset (`kepler`, `h100`, `h100-timed` ...).
 */
preset: string | null, 
/**
 * For C kernels: if-convert short branches.
 */
ifConvert: boolean | null, 
/**
 * PDOM stacks: `taken` or `fall-through` first.
 */
pathOrder: string | null, 
/**
 * Volta: which group of a warp's lanes runs (`model::GroupOrder`: `h100`, `lowest-pc`,
 * `round-robin`).
 */
schedule: string | null, 
/**
 * A whole launch: which warp of a block issues next (`gto`, `lrr` or `random`).
 */
warpScheduler: string | null, 
/**
 * Run only the warp `//@ launch block_idx= warp=` names, alone, as before whole launches
 * ran (its shared-memory reads see what the inputs put there, not other warps' writes);
 * unset or false: a launch of several warps runs whole.
 */
oneWarp: boolean | null, 
/**
 * A file with `main()` runs whole, and its launch number `launch` (from 0; unset: the
 * first) is the run shown; `kernel_only` runs the kernel alone, with the `//@` inputs.
 */
launch: number | null, kernelOnly: boolean | null, 
/**
 * A program's launch: the block the views show (unset: the first, or the one where the
 * launch failed). A kernel run alone names its block in its `//@ launch` line.
 */
block: [number, number, number] | null, };

export type RunChoices = { 
/**
 * The reconvergence model (`kepler`, `pdom`, `volta` ...).
 */
model: string | null, 
/**
 * The cost preset (`kepler`, `h100`, `h100-timed` ...).
 */
preset: string | null, 
/**
 * For C kernels: if-convert short branches.
 */
ifConvert: boolean | null, 
/**
 * PDOM stacks: `taken` or `fall-through` first.
 */
pathOrder: string | null, 
/**
 * Volta: which group of a warp's lanes runs (`model::GroupOrder`: `h100`, `lowest-pc`,
 * `round-robin`).
 */
schedule: string | null, 
/**
 * A whole launch: which warp of a block issues next (`gto`, `lrr` or `random`).
 */
warpScheduler: string | null, 
/**
 * Run only the warp `//@ launch block_idx= warp=` names, alone, as before whole launches
 * ran (its shared-memory reads see what the inputs put there, not other warps' writes);
 * unset or false: a launch of several warps runs whole.
 */
oneWarp: boolean | null, 
/**
 * A file with `main()` runs whole, and its launch number `launch` (from 0; unset: the
 * first) is the run shown; `kernel_only` runs the kernel alone, with the `//@` inputs.
 */
launch: number | null, kernelOnly: boolean | null, 
/**
 * A program's launch: the block the views show (unset: the first, or the one where the
 * launch failed). A kernel run alone names its block in its `//@ launch` line.
 */
block: [number, number, number] | null, };

export type SweepChoice = { request: SweepRequest, metric: string, measured: MeasuredChoice | null, };

export type OutputLine = { 
/**
 * The step that printed it (1 for the first instruction run).
 */
step: number, 
/**
 * The lane that printed it; `None` for the note that the output was cut short.
 */
lane: number | null, 
/**
 * What it printed, as C would (with its own `\n`, if it has one).
 */
text: string, };

export type MeasuredChoice = { file: string, build: string, kernel: string, pattern: string, };

export type LaunchInput = { grid: [number, number, number], block: [number, number, number], block_idx: [number, number, number], warp_idx: number, 
/**
 * The dynamic shared memory in bytes (`shared=`), if given.
 */
shared: number | null, 
/**
 * The `//@ launch` line; `None` when the launch is the default.
 */
line: number | null, 
/**
 * The running warp's lanes are threads `first_thread ..` of its block, `lanes` of them.
 */
first_thread: number, lanes: number, };

export type HeaderLine = { "header": "buffer", name: string, elem: ElemType, len: string, init: string, } | { "header": "param", name: string, value: string, } | { "header": "launch", grid: [number, number, number], block: [number, number, number], shared: number | null, block_idx: [number, number, number], warp_idx: number, } | { "header": "kernel", name: string, };

export type HeaderKey = { "header": "buffer", name: string, } | { "header": "param", name: string, } | { "header": "launch" } | { "header": "kernel" };

export type HeaderEdit = { "set": HeaderLine } | { "remove": HeaderKey };

export type Beside = { 
/**
 * PTX lines holding an instruction with a CUDA line of the SASS's file, ascending...
 */
ptx_lines: Array<number>, 
/**
 * ...and that CUDA line, for each.
 */
cuda_lines: Array<number>, 
/**
 * The PTX kernel matched with the SASS's (its demangled name).
 */
kernel: string | null, problem: BesideProblem | null, };

export type BesideProblem = { kind: BesideProblemKind, message: string, 
/**
 * The PTX line it is about, if one.
 */
line: number | null, };

export type BesideProblemKind = "sass-has-no-lines" | "not-ptx" | "unreadable" | "other-kernel" | "no-loc" | "other-file";

export type CheckReport = { 
/**
 * The model the launches ran under: racecheck's rule for lanes of one warp is its.
 */
model: ModelKind, findings: Array<Finding>, 
/**
 * Launches not checked, and why (their inputs were not kept; the kernel does not launch).
 */
unchecked: Array<string>, };

export type Counts = { 
/**
 * Warp-level executions (a divide C compiles to one instruction counts the instructions
 * its SASS sequence issues).
 */
inst_executed: number, 
/**
 * Threads that executed it: the lanes issued, guard or not.
 */
thread_inst_executed: number, 
/**
 * Threads whose guard held.
 */
thread_inst_executed_pred_on: number, 
/**
 * Of a branch: its executions (ncu counts one target each, divergent or not).
 */
branch_targets: number, 
/**
 * Those whose threads went two ways: some jumped, some fell through.
 */
branch_targets_divergent: number, 
/**
 * Of a branch with a condition of its own (`@P0 BRA P1, L`): threads whose guard held and
 * whose condition did not, so they did not jump. ncu's source page counts them predicated
 * on; its metric `smsp__thread_inst_executed_pred_on` does not (`Counts::metric_pred_on`).
 */
thread_branch_condition_off: number, 
/**
 * Of a `BSYNC`: threads that waited there and that ncu's metrics count as issuing it
 * again when a group the GPU had set aside releases them (`model::Effects::recounted`);
 * its source page does not count them (`Counts::metric_threads`).
 */
thread_recounted: number, };

export type RunCounts = { 
/**
 * Each pc's counts; none for a later part of a SASS instruction's sequence, whose
 * instruction is counted at the sequence's first part (ncu has one row per SASS address).
 */
by_pc: Array<Counts | null>, total: Counts, 
/**
 * Counted over the whole launch (every warp of every block), not one warp alone.
 */
whole_launch: boolean, };

export type CounterName = { 
/**
 * The `Counts` field it names.
 */
field: keyof Counts, title: string, 
/**
 * The metric whose `.sum` is the launch's total.
 */
metric: string, };

export type Finding = { tool: Tool, severity: Severity, 
/**
 * What it is, in compute-sanitizer's words: `Race reported between Write access at line 8
 * and Read access at line 14`.
 */
title: string, 
/**
 * The example, in full.
 */
message: string, first: Side, second: Side | null, 
/**
 * How many hazards (pairs of accesses) or reads it stands for.
 */
count: number, 
/**
 * The kernel of the launch.
 */
kernel: string, 
/**
 * Which of a program's launches (from 0); none for a kernel run alone.
 */
launch: number | null, };

export type Side = { block: [number, number, number], 
/**
 * The warp's number in its block.
 */
warp: number, 
/**
 * threadIdx, when one thread is meant.
 */
thread: [number, number, number] | null, 
/**
 * Its block's step (1 for the block's first instruction, as the page's scrubber counts the
 * block it shows); 0 when not one step.
 */
step: number, line: number, 
/**
 * What the access did (none for a barrier or a fault).
 */
kind: AccessKind | null, addr: number | null, 
/**
 * The element at `addr`: `s[128]`.
 */
element: string | null, };

export type Tool = "memcheck" | "racecheck" | "initcheck" | "synccheck";

export type LoadRequest = { 
/**
 * Run at most this many steps now and leave the rest to `resume` (absent: the whole run),
 * so the page stays responsive and can offer Stop.
 */
chunk: number | null, 
/**
 * The kernel file's text.
 */
text: string, 
/**
 * The input language by name (`listing`, `c`); unset: told by the text.
 */
input: string | null, 
/**
 * Which kernel of the file runs (C `__global__` or PTX `.entry`, mangled or not); unset:
 * the header's `//@ kernel`, else the first.
 */
kernel: string | null, 
/**
 * Param values by name (numbers as JSON has them: whole, within +-2^53).
 */
params: { [key in string]: number }, stale_params: StaleParams, 
/**
 * Cost fields set over the preset (`spill` = 50).
 */
costs: { [key in string]: number }, stack: StackChoice, 
/**
 * Steps after which the run stops (unset: the core's default, 10 million).
 */
step_limit: number | null, 
/**
 * Record every step for replay; then the step limit must lie in
 * `MIN_STEP_LIMIT..=MAX_RECORDED_STEPS`.
 */
record: boolean, 
/**
 * End the run after exactly this many steps as if the user had stopped it there (a
 * stopped run loaded again); a run that ends sooner ends as it would.
 */
stop_at: number | null, 
/**
 * A program's SASS (`cuobjdump -sass` of its executable): its launches run the SASS's
 * kernels, the code the GPU ran, in place of warpscope's compile of the C.
 */
sass: string | null, 
/**
 * The reconvergence model (`kepler`, `pdom`, `volta` ...).
 */
model: string | null, 
/**
 * The cost preset (`kepler`, `h100`, `h100-timed` ...).
 */
preset: string | null, 
/**
 * For C kernels: if-convert short branches.
 */
ifConvert: boolean | null, 
/**
 * PDOM stacks: `taken` or `fall-through` first.
 */
pathOrder: string | null, 
/**
 * Volta: which group of a warp's lanes runs (`model::GroupOrder`: `h100`, `lowest-pc`,
 * `round-robin`).
 */
schedule: string | null, 
/**
 * A whole launch: which warp of a block issues next (`gto`, `lrr` or `random`).
 */
warpScheduler: string | null, 
/**
 * Run only the warp `//@ launch block_idx= warp=` names, alone, as before whole launches
 * ran (its shared-memory reads see what the inputs put there, not other warps' writes);
 * unset or false: a launch of several warps runs whole.
 */
oneWarp: boolean | null, 
/**
 * A file with `main()` runs whole, and its launch number `launch` (from 0; unset: the
 * first) is the run shown; `kernel_only` runs the kernel alone, with the `//@` inputs.
 */
launch: number | null, kernelOnly: boolean | null, 
/**
 * A program's launch: the block the views show (unset: the first, or the one where the
 * launch failed). A kernel run alone names its block in its `//@ launch` line.
 */
block: [number, number, number] | null, };

export type DiagnosticView = { severity: Severity, line: number, col: number, len: number, message: string, };

export type ParamView = { name: string, 
/**
 * As JS numbers: a default beyond 2^53 loses digits instead of failing to serialize.
 */
default: number, value: number, 
/**
 * Takes a fraction (a float kernel parameter); otherwise a whole number.
 */
float: boolean, };

export type LoadResult = { ok: boolean, diagnostics: Array<DiagnosticView>, title: string | null, 
/**
 * The kernel that runs (C's, PTX's or SASS's function), which names a kernel without a
 * `//@ title`.
 */
kernel: string | null, about: string, width: number, params: Array<ParamView>, 
/**
 * The input language the text was read as.
 */
input: string, model: string, preset: string, models: Array<string>, presets: Array<string>, 
/**
 * PDOM path order, Volta group order (its `schedule`) and a launch's warp scheduler as
 * used, and the choices.
 */
path_order: string, path_orders: Array<string>, schedule: string, schedules: Array<string>, warp_scheduler: string, warp_schedulers: Array<string>, 
/**
 * The model reconverges at thread frontiers: the CFG shows priorities and frontiers.
 */
uses_frontiers: boolean, stack_capacity: number, end: Outcome | null, 
/**
 * The run goes on: `Session.resume` continues it.
 */
running: boolean, 
/**
 * The step the run ends by at the latest: its step limit, or its `stop_at` if sooner.
 */
last_step: number, 
/**
 * A whole launch: its block on screen, that block's warps and the warp in focus, the
 * launch's counts (null for a warp run alone). The step is then the block's.
 */
launch: LaunchView | null, 
/**
 * A file with `main()`: the whole program's run, whose launch `program.shown` the views show.
 */
program: ProgramView | null, };

export type ProgramView = { 
/**
 * What the program printed (host and device `printf`, in a GPU run's order) and its stderr.
 */
stdout: string, stderr: string, 
/**
 * `main`'s `return` or `exit(n)`; null when the host code failed.
 */
exit: number | null, 
/**
 * Where and why the host code failed (a fault, the step limit).
 */
failed_line: number | null, failed: string | null, 
/**
 * Notes on the run (device output never flushed, a failed launch, simulated times), by line.
 */
notes: Array<ProgramNote>, launches: Array<ProgramLaunch>, 
/**
 * The launch the views show (an index into `launches`).
 */
shown: number | null, };

export type ProgramNote = { line: number, message: string, };

export type ProgramLaunch = { kernel: string, 
/**
 * The host line that launched it.
 */
line: number, grid: [number, number, number], block: [number, number, number], shared: number, 
/**
 * How it ended (`exited`, `fault`...).
 */
end: string, warp_instructions: number, 
/**
 * Whether the views can show it (its inputs were kept).
 */
viewable: boolean, };

export type DeviceBufferRow = { name: string, elem: string, elements: number, first: Array<string>, 
/**
 * Its address, which a pointer argument holds, and its size in bytes.
 */
base: number, bytes: number, };

export type ArgumentRow = { name: string, value: number, };

export type LaunchView = { 
/**
 * The block on screen (the launch's `block_idx=`, or the block where the launch failed).
 */
block_idx: [number, number, number], 
/**
 * Its warps, and the one in focus first (the launch's `warp=`).
 */
warps: number, focus: number, 
/**
 * The launch's grid and block dimensions.
 */
grid: [number, number, number], block: [number, number, number], 
/**
 * The whole launch's counts (every block's), and the block on screen's steps.
 */
totals: Totals, steps: number, 
/**
 * Every block that ran, in blockIdx order, with its counts: what a block picker offers.
 */
blocks: Array<BlockSummary>, };

export type BlockSummary = { block_idx: [number, number, number], warp_instructions: number, 
/**
 * ncu's threads per instruction over the warp width.
 */
simd_efficiency: number, divergent_branches: number, barrier_waits: number, };

export type LaneView = { lane: number, state: LaneState, pc: number | null, line: number | null, block: number | null, };

export type StackEntryView = { kind: string, bits: string, lanes: Array<number>, pc: number, addr: number, line: number | null, 
/**
 * PDOM entries: the address where the entry is popped (`None`: only when its lanes exit).
 */
rpc_addr: number | null, on_chip: boolean, 
/**
 * What an entry of this kind means in this model (its glossary term's words), and a short
 * label for the legend.
 */
meaning: string, label: string, 
/**
 * The glossary word for entries of this kind (`BSYNC Bn` for `BSYNC B3`), which the help's
 * glossary lists with the same meaning.
 */
term: string, };

export type VarView = { name: string, ty: string, reg: string, value: string, };

export type ExchangeView = { step: number, 
/**
 * Per lane: the lane whose value it got, or -1 for a lane that did not run the shuffle.
 */
sources: Array<number>, 
/**
 * Lanes whose source was out of range or not running: they kept their own value.
 */
kept: Array<number>, 
/**
 * The core's sentence (`step 12: SHFL.DOWN: lanes 0-15 got the value of the lane 16 above`).
 */
text: string, };

export type RegView = { name: string, hex: string, int: number, float: number, };

export type PredView = { name: string, value: boolean, };

export type WaitView = { block: number, lanes: Array<number>, };

export type LastView = { pc: number, line: number | null, text: string, events: number, 
/**
 * Under a timing model (`h100-timed`): how the step was timed.
 */
timing: TimingView | null, };

export type TimingView = { cycle: number, gap: number, stall: number, text: string, };

export type StateView = { step: number, status: string, pc: number | null, addr: number | null, line: number | null, block: number | null, lanes: Array<LaneView>, stack: Array<StackEntryView>, 
/**
 * A C kernel's variables in scope at the lane's line, with the lane's values.
 */
variables: Array<VarView>, registers: Array<RegView>, predicates: Array<PredView>, waiting: Array<WaitView>, last: LastView | null, caption: string | null, };

export type InstrView = { index: number, addr: number, line: number, text: string, block: number, };

export type BlockView = { id: number, 
/**
 * `BB3`; under STRUCT the name of what the block is: `BB3'` (a copy), `cut1.test`.
 */
name: string, 
/**
 * STRUCT: the original block this one is or copies (`None`: written by a cut, or not STRUCT).
 */
original: number | null, 
/**
 * STRUCT: 0 for an original block, n for its n-th copy.
 */
copy: number, 
/**
 * STRUCT: the block was written by a cut (guard code).
 */
made: boolean, instrs: Array<InstrView>, 
/**
 * `None` when the immediate post-dominator is the exit (or there is none).
 */
ipdom: number | null, reconverges_at: number | null, is_branch: boolean, priority: number | null, reachable: boolean, 
/**
 * The first and last source line of the block's instructions (C lines for a C kernel).
 */
source_lines: LineRange | null, 
/**
 * Thread frontier (block ids) with layout order as priority: the thread-frontier models'.
 */
frontier: Array<number>, };

export type LineRange = { first: number, last: number, };

export type EdgeView = { from: number, to: number, kind: string, back: boolean, };

export type CfgView = { blocks: Array<BlockView>, edges: Array<EdgeView>, instrs: Array<InstrView>, stack_capacity: number, };

export type MetricsView = { idle_instructions: number, block_counts: Array<number>, instr_counts: Array<number>, steps: number, warp_instructions: number, thread_instructions: number, simd_efficiency: number, pushes: number, pops: number, max_stack_depth: number, spills: number, fills: number, divergent_branches: number, cycles: number, 
/**
 * Cycles between lane 0's first and last clock reads: what a kernel that times itself reports.
 */
clock_window: number, };

export type MetricsPair = { now: MetricsView, total: MetricsView, 
/**
 * STRUCT: the transforms the run's program came from (the paper's Table 5 counts).
 */
transforms: TransformCounts | null, 
/**
 * STRUCT: instructions after the transform over before, minus one.
 */
static_expansion: number | null, };

export type NoteView = { 
/**
 * What it is tied to: `step 5`, `div 2`, or `pc 3` for an instruction.
 */
target: string, 
/**
 * A step or event note's moment: shown from `step` until before `until`; null for an
 * instruction note and for a note this run never reaches.
 */
step: number | null, until: number | null, 
/**
 * An instruction note's instruction.
 */
instr: number | null, line: number, text: string, };

export type CompiledView = { target: string, if_convert: boolean, 
/**
 * The file's `__global__` kernels (the one compiled is chosen by `//@ kernel`, else the first).
 */
kernels: Array<string>, listing: string, listing_lines: Array<number>, source_lines: Array<number>, 
/**
 * `c` or `ptx`.
 */
input: string, 
/**
 * PTX with `.loc`: each instruction's CUDA line (0: none), and the CUDA file's name.
 */
cuda_lines: Array<number>, cuda_file: string | null, };

export type ReportView = { model: string, stop: Outcome, warp_instructions: number, thread_instructions: number, activity_factor: number, 
/**
 * Warp instructions over the MIMD minimum, minus one; `None` for the mimd model itself and
 * for a run that stopped early (deadlock, fault, step limit).
 */
code_expansion: number | null, 
/**
 * Why `code_expansion` is missing (`the reference`, `stopped early`, `no MIMD minimum`).
 */
code_expansion_missing: string | null, idle_instructions: number, max_stack_depth: number, divergent_branches: number, cycles: number, memory_instructions: number, memory_transactions: number, 
/**
 * Transactions per warp memory instruction; `None` when the kernel touches no memory.
 */
transactions_per_memory_instruction: number | null, block_counts: Array<number>, mimd_block_counts: Array<number>, mimd_warp_instructions: number, mimd_complete: boolean, 
/**
 * STRUCT: the transforms applied and the instructions before and after.
 */
transforms: TransformCounts | null, 
/**
 * STRUCT: instructions after over before, minus one.
 */
static_expansion: number | null, };

export type Prepared = { ok: boolean, diagnostics: Array<DiagnosticView>, series: Array<Series>, 
/**
 * How many runs `run` takes indices for.
 */
points: number, };

export type MetricInfo = { name: string, label: string, 
/**
 * A fraction (shown as a percentage), not a count.
 */
ratio: boolean, 
/**
 * Counts cycles: measured cycles can stand beside it.
 */
cycles: boolean, };

export type DecodedView = { "kind": "none" } | { "kind": "ok", link: Link, } | { "kind": "error", message: string, };

export type MemoryView = { step: number, buffers: Array<BufferView>, 
/**
 * `None` at step 0 and when the step's instruction does not access memory.
 */
access: AccessView | null, 
/**
 * A whole launch: `Session.shared_writers` says who wrote each shared element (false for a
 * warp run alone).
 */
writers: boolean, 
/**
 * The step from which the block's shared-memory writes were no longer kept (a long run
 * filled the log), if one did.
 */
writers_cut_at: number | null, };

export type BufferView = { name: string, elem: ElemType, 
/**
 * Elements (a 64-bit element takes two words).
 */
len: number, 
/**
 * Byte address of element 0.
 */
base: number, 
/**
 * In shared memory (a `__shared__` variable: its own address window) rather than global memory.
 */
shared: boolean, };

export type AccessView = { kind: AccessKind, 
/**
 * The core's word for a touched element: `written`, `read` or `updated`.
 */
participle: string, pc: number, addr: number, line: number | null, 
/**
 * The instruction as written.
 */
instruction: string, 
/**
 * The lanes that accessed memory (issued, with the guard holding).
 */
lanes: Array<number>, 
/**
 * Each element touched once, in memory order.
 */
cells: Array<CellTouchView>, 
/**
 * `step 41: ST.E by lanes 0-15 wrote a[0..15]`.
 */
summary: string, };

export type CellTouchView = { 
/**
 * Index into `MemoryView.buffers`.
 */
buffer: number, index: number, lanes: Array<number>, 
/**
 * `0-15, 17`.
 */
lane_text: string, };

export type InputsView = { buffers: Array<BufferRow>, params: Array<ParamRow>, launch: LaunchInput, width: number, kernels: Array<string>, kernel: string | null, kernel_line: number | null, 
/**
 * A program's launch: the host line of the launch whose inputs these are (set by `main()`,
 * not by the page), and the device memory as the launch found it.
 */
set_by_main: number | null, device: Array<DeviceBufferRow>, 
/**
 * Every argument `main` passed (a pointer as its address), in the kernel's order.
 */
arguments: Array<ArgumentRow>, };

export type BufferRow = { 
/**
 * Elements the run's buffer holds (the length evaluated).
 */
elements: number, 
/**
 * Its first values as the run began, as the memory panel writes them.
 */
first: Array<string>, name: string, elem: ElemType, 
/**
 * The length as written (an expression of params and `W`), or the one made.
 */
len: string, 
/**
 * The initialiser as written: an expression of `i`, a list `[1, 2, 3]`, or empty (zeros).
 */
init: string, 
/**
 * Made for a C pointer parameter (or a `__shared__` variable) with no `//@ buffer` line.
 */
auto: boolean, 
/**
 * A `__shared__` variable: its size comes from its declaration.
 */
shared: boolean, 
/**
 * The qualifier of the variable it holds (`__constant__`, `__device__`, `__shared__`, PTX's
 * `.global`...), whose declaration fixes its length; `None` for a parameter's buffer.
 */
declared: string | null, 
/**
 * The line it comes from: its `//@ buffer` line, or for one made, the C declaration.
 */
line: number, };

export type ParamRow = { 
/**
 * The value the run used (a top-bar value or the default).
 */
value: number | null, name: string, 
/**
 * The default as written (an expression), or the one made.
 */
default: string, auto: boolean, 
/**
 * Its `//@ param` line, or for one made, the C parameter's line.
 */
line: number, };
